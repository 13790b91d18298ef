//! The rules file: which GIS features get which autogen asset.
//!
//! A rules file is TOML (see `docs/overlay.md`):
//!
//! ```toml
//! [settings]
//! height_property = "height"    # metres, read from each feature
//! heading_property = "heading"  # degrees, for AGP points
//! default_height = 8.0
//!
//! [[rule]]
//! name = "town blocks"
//! asset = "lib/g10/autogen/town.agb"
//! where = { landuse = "residential" }
//! min_area = 400.0
//! non_quad = "fallback"
//! fallback = "lib/g10/autogen/town.ags"
//! ```
//!
//! Rules are tried in file order; the first whose asset kind fits the
//! feature's geometry (AGB/AGS for polygons, AGP for points) and whose
//! conditions hold wins. Every error (TOML syntax, unknown keys, wrong
//! types, inconsistent rules) carries the line and column in the file.

use crate::dsf::autogen::AutogenKind;
use serde::Deserialize;
use serde_json::Value as Json;
use std::fmt;
use toml::Spanned;

/// An error in a rules file, with its 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for RulesError {}

/// Line and column (1-based) of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let mut line = 1;
    let mut start = 0;
    for (i, b) in text.bytes().enumerate().take(offset) {
        if b == b'\n' {
            line += 1;
            start = i + 1;
        }
    }
    let column = text
        .get(start..offset)
        .map_or(offset - start, |s| s.chars().count())
        + 1;
    (line, column)
}

/// What to do with a feature an AGB rule matched but that is not a 4-point
/// block (or stopped being one when cut at a tile edge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NonQuad {
    /// Skip it and report why.
    #[default]
    Skip,
    /// Place the rule's `fallback` AGS asset instead.
    Fallback,
}

/// A shape condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// Any polygon.
    #[default]
    Any,
    /// Exactly four distinct outer vertices and no holes.
    Quad,
}

/// One accepted value of a `where` condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Wanted {
    /// The property must be present and not null (`"*"`).
    Present,
    /// Equal to this string (a number property is compared by its text).
    Text(String),
    /// Equal to this number.
    Number(f64),
    /// Equal to this boolean.
    Bool(bool),
}

impl Wanted {
    fn accepts(&self, v: &Json) -> bool {
        match (self, v) {
            (_, Json::Null) => false,
            (Wanted::Present, _) => true,
            (Wanted::Text(t), Json::String(s)) => s == t,
            (Wanted::Text(t), Json::Number(n)) => n.to_string() == *t,
            (Wanted::Text(t), Json::Bool(b)) => b.to_string() == *t,
            (Wanted::Number(x), Json::Number(n)) => n.as_f64() == Some(*x),
            (Wanted::Number(x), Json::String(s)) => s.trim().parse::<f64>().ok() == Some(*x),
            (Wanted::Bool(x), Json::Bool(b)) => x == b,
            _ => false,
        }
    }
}

/// One property condition: the feature's property `key` must equal one of
/// `any`.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// Property name.
    pub key: String,
    /// Accepted values (one of them must match).
    pub any: Vec<Wanted>,
}

/// One rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// Name shown in reports (`rule N` when not given).
    pub name: String,
    /// Position of the rule in the file (line, column).
    pub at: (usize, usize),
    /// Asset path written into the DSF.
    pub asset: String,
    /// Kind of the asset (from its extension).
    pub kind: AutogenKind,
    /// Property conditions, all of which must hold.
    pub conditions: Vec<Condition>,
    /// Minimum area in m² (polygons).
    pub min_area: Option<f64>,
    /// Maximum area in m² (polygons).
    pub max_area: Option<f64>,
    /// Minimum number of distinct outer vertices.
    pub min_vertices: Option<usize>,
    /// Maximum number of distinct outer vertices.
    pub max_vertices: Option<usize>,
    /// Shape condition.
    pub shape: Shape,
    /// Height in metres when the feature has none.
    pub height: Option<f64>,
    /// AGB spelling set (the parameter's low byte).
    pub spelling: u8,
    /// AGB: what to do with a non-quadrilateral block.
    pub non_quad: NonQuad,
    /// AGB: the AGS asset used by `non_quad = "fallback"`.
    pub fallback: Option<String>,
    /// A local copy of the asset (relative to the rules file) used for
    /// previews.
    pub preview_file: Option<String>,
}

impl Rule {
    /// True when the feature's properties satisfy every condition.
    pub fn properties_match(&self, props: &serde_json::Map<String, Json>) -> bool {
        self.conditions.iter().all(|c| {
            props
                .get(&c.key)
                .is_some_and(|v| c.any.iter().any(|w| w.accepts(v)))
        })
    }

    /// True when a polygon of `area` m² with `vertices` distinct outer
    /// vertices and `holes` holes satisfies the rule's area and shape
    /// conditions.
    pub fn shape_match(&self, area: f64, vertices: usize, holes: usize) -> bool {
        self.min_area.is_none_or(|m| area >= m)
            && self.max_area.is_none_or(|m| area <= m)
            && self.min_vertices.is_none_or(|m| vertices >= m)
            && self.max_vertices.is_none_or(|m| vertices <= m)
            && (self.shape == Shape::Any || (vertices == 4 && holes == 0))
    }
}

/// File-wide settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Feature property holding the height in metres (default `height`).
    pub height_property: String,
    /// Feature property holding an AGP heading in degrees (default `heading`).
    pub heading_property: String,
    /// Height in metres when neither the feature nor the rule gives one.
    pub default_height: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            height_property: "height".into(),
            heading_property: "heading".into(),
            default_height: 0.0,
        }
    }
}

/// A parsed rules file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rules {
    /// Settings.
    pub settings: Settings,
    /// Rules in file order.
    pub rules: Vec<Rule>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    settings: Option<RawSettings>,
    #[serde(default)]
    rule: Vec<Spanned<RawRule>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSettings {
    height_property: Option<String>,
    heading_property: Option<String>,
    default_height: Option<Spanned<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    name: Option<String>,
    asset: Spanned<String>,
    #[serde(rename = "where", default)]
    conditions: Option<Spanned<toml::Table>>,
    min_area: Option<Spanned<f64>>,
    max_area: Option<Spanned<f64>>,
    min_vertices: Option<usize>,
    max_vertices: Option<usize>,
    #[serde(default)]
    shape: Shape,
    height: Option<Spanned<f64>>,
    #[serde(default)]
    spelling: u8,
    non_quad: Option<Spanned<NonQuad>>,
    fallback: Option<Spanned<String>>,
    preview_file: Option<String>,
}

impl Rules {
    /// Parses a rules file.
    pub fn parse(text: &str) -> Result<Rules, RulesError> {
        let at = |span: std::ops::Range<usize>, message: String| {
            let (line, column) = line_col(text, span.start);
            RulesError {
                line,
                column,
                message,
            }
        };
        let raw: RawFile = toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            at(span, e.message().trim().to_string())
        })?;
        let mut settings = Settings::default();
        if let Some(s) = raw.settings {
            if let Some(p) = s.height_property {
                settings.height_property = p;
            }
            if let Some(p) = s.heading_property {
                settings.heading_property = p;
            }
            if let Some(h) = s.default_height {
                check_height(&h).map_err(|m| at(h.span(), m))?;
                settings.default_height = *h.get_ref();
            }
        }
        let mut rules = Vec::new();
        for (i, spanned) in raw.rule.into_iter().enumerate() {
            let span = spanned.span();
            let r = spanned.into_inner();
            let name = r.name.clone().unwrap_or_else(|| format!("rule {}", i + 1));
            let kind = AutogenKind::from_path(r.asset.get_ref()).ok_or_else(|| {
                at(
                    r.asset.span(),
                    format!(
                        "asset `{}` is not an .agp, .agb or .ags path",
                        r.asset.get_ref()
                    ),
                )
            })?;
            if r.asset.get_ref().trim().is_empty() || r.asset.get_ref().contains('\0') {
                return Err(at(
                    r.asset.span(),
                    "asset path is empty or has a NUL".into(),
                ));
            }
            let mut conditions = Vec::new();
            if let Some(w) = &r.conditions {
                for (key, v) in w.get_ref() {
                    let any = wanted(v).ok_or_else(|| {
                        at(
                            w.span(),
                            format!(
                                "`where.{key}` must be a string, number, boolean or an array of them"
                            ),
                        )
                    })?;
                    conditions.push(Condition {
                        key: key.clone(),
                        any,
                    });
                }
            }
            for a in [&r.min_area, &r.max_area].into_iter().flatten() {
                if !a.get_ref().is_finite() || *a.get_ref() < 0.0 {
                    return Err(at(a.span(), "an area must be a finite number ≥ 0".into()));
                }
                if kind == AutogenKind::Agp {
                    return Err(at(
                        a.span(),
                        "area conditions apply to polygons, not to .agp points".into(),
                    ));
                }
            }
            if let Some(h) = &r.height {
                check_height(h).map_err(|m| at(h.span(), m))?;
            }
            let non_quad = r.non_quad.as_ref().map_or(NonQuad::Skip, |n| *n.get_ref());
            if let Some(n) = &r.non_quad
                && kind != AutogenKind::Agb
            {
                return Err(at(
                    n.span(),
                    "`non_quad` applies to .agb assets only".into(),
                ));
            }
            let fallback = match (&r.fallback, non_quad) {
                (Some(f), NonQuad::Fallback) => {
                    if AutogenKind::from_path(f.get_ref()) != Some(AutogenKind::Ags) {
                        return Err(at(
                            f.span(),
                            format!("fallback `{}` must be an .ags asset", f.get_ref()),
                        ));
                    }
                    Some(f.get_ref().clone())
                }
                (None, NonQuad::Fallback) => {
                    return Err(at(
                        span,
                        format!(
                            "rule `{name}` has non_quad = \"fallback\" but no `fallback` asset"
                        ),
                    ));
                }
                (Some(f), NonQuad::Skip) => {
                    return Err(at(
                        f.span(),
                        "`fallback` is only used with non_quad = \"fallback\"".into(),
                    ));
                }
                (None, NonQuad::Skip) => None,
            };
            if kind == AutogenKind::Agp
                && (r.shape != Shape::Any || r.min_vertices.is_some() || r.max_vertices.is_some())
            {
                return Err(at(
                    span,
                    format!(
                        "rule `{name}`: shape and vertex conditions apply to polygons, not to .agp points"
                    ),
                ));
            }
            rules.push(Rule {
                name,
                at: line_col(text, span.start),
                asset: r.asset.into_inner(),
                kind,
                conditions,
                min_area: r.min_area.map(|a| a.into_inner()),
                max_area: r.max_area.map(|a| a.into_inner()),
                min_vertices: r.min_vertices,
                max_vertices: r.max_vertices,
                shape: r.shape,
                height: r.height.map(|h| h.into_inner()),
                spelling: r.spelling,
                non_quad,
                fallback,
                preview_file: r.preview_file,
            });
        }
        if rules.is_empty() {
            // An overlay of nothing is never what was meant: an empty file,
            // or `[rule]` written for `[[rule]]`.
            return Err(RulesError {
                line: 1,
                column: 1,
                message: "no `[[rule]]`: the rules file places nothing (each rule is a \
                          `[[rule]]` table with an `asset`)"
                    .into(),
            });
        }
        Ok(Rules { settings, rules })
    }

    /// Every asset path the rules can place, in rule order (asset, then
    /// fallback), without duplicates: the DSF definition order.
    pub fn asset_order(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.rules {
            for a in std::iter::once(&r.asset).chain(r.fallback.as_ref()) {
                if !out.contains(a) {
                    out.push(a.clone());
                }
            }
        }
        out
    }
}

fn check_height(h: &Spanned<f64>) -> Result<(), String> {
    let v = *h.get_ref();
    if v.is_finite() && (0.0..=1020.0).contains(&v) {
        Ok(())
    } else {
        Err(format!("height {v} is not within 0..1020 m"))
    }
}

fn wanted(v: &toml::Value) -> Option<Vec<Wanted>> {
    let one = |v: &toml::Value| -> Option<Wanted> {
        Some(match v {
            toml::Value::String(s) if s == "*" => Wanted::Present,
            toml::Value::String(s) => Wanted::Text(s.clone()),
            toml::Value::Integer(i) => Wanted::Number(*i as f64),
            toml::Value::Float(f) => Wanted::Number(*f),
            toml::Value::Boolean(b) => Wanted::Bool(*b),
            _ => return None,
        })
    };
    match v {
        toml::Value::Array(a) if !a.is_empty() => a.iter().map(one).collect(),
        toml::Value::Array(_) => None,
        v => one(v).map(|w| vec![w]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rules_and_matches_properties() {
        let r = Rules::parse(
            r#"
[settings]
height_property = "h"

[[rule]]
name = "blocks"
asset = "a/b.agb"
where = { landuse = ["residential", "retail"], levels = 3, "building:x" = "*" }
min_area = 10.0
non_quad = "fallback"
fallback = "a/c.ags"
"#,
        )
        .unwrap();
        assert_eq!(r.settings.height_property, "h");
        let rule = &r.rules[0];
        assert_eq!(rule.kind, AutogenKind::Agb);
        assert_eq!(rule.at.0, 5);
        let props: serde_json::Map<String, Json> =
            serde_json::from_str(r#"{"landuse":"retail","levels":"3","building:x":"yes"}"#)
                .unwrap();
        assert!(rule.properties_match(&props));
        let props: serde_json::Map<String, Json> =
            serde_json::from_str(r#"{"landuse":"farm","levels":3,"building:x":1}"#).unwrap();
        assert!(!rule.properties_match(&props));
        assert_eq!(r.asset_order(), vec!["a/b.agb", "a/c.ags"]);
    }

    #[test]
    fn errors_carry_line_and_column() {
        let e = Rules::parse("[[rule]]\nasset = \"x.agb\"\nbogus = 1\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 1), "{e}");
        assert!(e.message.contains("bogus"), "{e}");
        let e = Rules::parse("[[rule]]\nasset = \"x.obj\"\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 9), "{e}");
        let e = Rules::parse("[[rule]]\nasset = \"x.agb\"\nnon_quad = \"fallback\"\n").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
        assert!(e.message.contains("no `fallback`"), "{e}");
        let e = Rules::parse("[[rule]\n").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
        let e = Rules::parse("[[rule]]\nasset = \"x.ags\"\nheight = 5000.0\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 10), "{e}");
    }
}
