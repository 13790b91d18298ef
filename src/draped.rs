//! The art formats a DSF tile names beside objects, facades and forests:
//! draped polygons (`.pol`, `DRAPED_POLYGON`), painted lines (`.lin`,
//! `LINE_PAINT`), object strings (`.str`, `OBJECT_STRING`), terrain types
//! (`.ter`, `TERRAIN`) and road networks (`.net`, `ROADS`), each told by
//! its header and checked with its own rules table:
//!
//! | Module | Format | Codes |
//! |---|---|---|
//! | [`pol`] | `.pol` | `POL0001`… |
//! | [`lin`] | `.lin` | `LIN0001`… |
//! | [`string`] | `.str` | `STR0001`… |
//! | [`terrain`] | `.ter` | `TER0001`… |
//! | [`net`] | `.net` | `NET0001`… |
//!
//! Only what placing, drawing and checking a tile needs is kept (Laminar's
//! format pages on developer.x-plane.com are the reference for meaning;
//! what is accepted follows xptools' readers, `WED_ResourceMgr::GetPol`,
//! `GetLin`, `GetStr` and `GetRoad` in `src/WEDCore/WED_ResourceMgr.cpp`,
//! with the header and scanner of `src/Utils/MemFileUtils.cpp`):
//!
//! - `.pol`: its texture — `TEXTURE`, or `TEXTURE_NOWRAP` (the texture
//!   drawn once, not repeated: WorldEditor's `GetPol` takes either as the
//!   polygon's texture, the last one written winning) — `TEXTURE_LIT`,
//!   `TEXTURE_NORMAL`, and `SCALE` (metres one repeat of the texture
//!   covers, east and north); a DSF polygon with UV planes ignores the
//!   scale.
//! - `.lin`: its `TEXTURE` (the only spelling `GetLin` takes),
//!   `SCALE`, `TEX_WIDTH` and the `S_OFFSET` layers, from which the drawn
//!   width follows ([`Lin::width`]).
//! - `.str`: its `OBJECT`s (the random heading range and the path, taken
//!   in turn along the string) and its `OFFSET` (metres to the right of
//!   the line).
//! - `.ter`: the textures it names (`BASE_TEX` and `BASE_TEX_NOWRAP`,
//!   `LIT_TEX`, `BORDER_TEX`, `COMPOSITE_TEX` with or without `_NOWRAP`,
//!   `NORMAL_TEX`, `TEXTURE_NORMAL`, the slope textures) and `PROJECTED`.
//! - `.net` (where it can: Laminar's road format is not published): the
//!   header and the textures its `TEXTURE` lines name; its other lines are
//!   not checked.
//!
//! Every other directive X-Plane reads is skipped; one no reader knows is
//! a warning (X-Plane ignores the line). A file whose header is not its
//! format, or whose needed numbers do not read, is refused with the file,
//! the line and the reason ([`crate::diag::Refused`]). Work is bounded by
//! the file size ([`crate::limits::Limits::max_input_bytes`] when read
//! through [`read`]); a `.str` keeps at most [`MAX_STRING_OBJECTS`] objects
//! and a `.lin` at most [`MAX_LINE_LAYERS`] layers, and a file past them is
//! refused with a code saying so.

use crate::diag::{Diagnostic, Location, Refused, Severity};
use crate::kinds::ArtKind;
use crate::limits::Limits;
use crate::xptext::{self, ArgCodes, Args, Checked, Line, Word};
use serde::Serialize;
use std::ops::Range;

pub mod lin;
pub mod net;
pub mod pol;
pub mod string;
pub mod terrain;

/// Most `OBJECT`s one `.str` may list.
pub const MAX_STRING_OBJECTS: usize = 4096;

/// Most `S_OFFSET` layers one `.lin` may list.
pub const MAX_LINE_LAYERS: usize = 4096;

/// Most textures one `.net` may name.
pub const MAX_NET_TEXTURES: usize = 4096;

/// The five formats, by what their header's third line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum DrapedKind {
    /// A draped polygon (`.pol`, `DRAPED_POLYGON`).
    Polygon,
    /// A painted line (`.lin`, `LINE_PAINT`).
    Line,
    /// An object string (`.str`, `OBJECT_STRING`).
    String,
    /// A terrain type (`.ter`, `TERRAIN`).
    Terrain,
    /// A road network (`.net`, `ROADS`).
    Network,
}

impl DrapedKind {
    /// Every kind, in the order of the module table.
    pub const ALL: [DrapedKind; 5] = [
        DrapedKind::Polygon,
        DrapedKind::Line,
        DrapedKind::String,
        DrapedKind::Terrain,
        DrapedKind::Network,
    ];

    /// The header's keyword (its third line).
    pub fn keyword(self) -> &'static str {
        match self {
            DrapedKind::Polygon => "DRAPED_POLYGON",
            DrapedKind::Line => "LINE_PAINT",
            DrapedKind::String => "OBJECT_STRING",
            DrapedKind::Terrain => "TERRAIN",
            DrapedKind::Network => "ROADS",
        }
    }

    /// The file extension (`pol`, `lin`, `str`, `ter`, `net`).
    pub fn extension(self) -> &'static str {
        match self {
            DrapedKind::Polygon => "pol",
            DrapedKind::Line => "lin",
            DrapedKind::String => "str",
            DrapedKind::Terrain => "ter",
            DrapedKind::Network => "net",
        }
    }

    /// The kind a file extension names (any case).
    pub fn from_extension(ext: &str) -> Option<DrapedKind> {
        DrapedKind::ALL
            .into_iter()
            .find(|k| k.extension().eq_ignore_ascii_case(ext))
    }

    /// The kind a header's keyword names.
    pub fn from_keyword(keyword: &str) -> Option<DrapedKind> {
        DrapedKind::ALL.into_iter().find(|k| k.keyword() == keyword)
    }

    /// The kind the first bytes of a file say: an X-Plane header naming
    /// one of the five keywords, read as tolerantly as the readers read
    /// it, any version ([`xptext::sniff`]).
    pub fn sniff(bytes: &[u8]) -> Option<DrapedKind> {
        let head = &bytes[..bytes.len().min(crate::kinds::SNIFF)];
        DrapedKind::from_keyword(xptext::sniff(&String::from_utf8_lossy(head))?.1)
    }

    /// How messages name it (`draped polygon`, …).
    pub fn noun(self) -> &'static str {
        match self {
            DrapedKind::Polygon => "draped polygon",
            DrapedKind::Line => "painted line",
            DrapedKind::String => "object string",
            DrapedKind::Terrain => "terrain type",
            DrapedKind::Network => "road network",
        }
    }

    /// What the file is, for messages that name another command's input:
    /// `an X-Plane draped polygon (.pol)`.
    pub fn describe(self) -> &'static str {
        match self {
            DrapedKind::Polygon => "an X-Plane draped polygon (.pol)",
            DrapedKind::Line => "an X-Plane painted line (.lin)",
            DrapedKind::String => "an X-Plane object string (.str)",
            DrapedKind::Terrain => "an X-Plane terrain type (.ter)",
            DrapedKind::Network => "an X-Plane road network (.net)",
        }
    }

    /// Its rules table.
    pub fn rules(self) -> &'static [crate::diag::Rule] {
        match self {
            DrapedKind::Polygon => pol::RULES,
            DrapedKind::Line => lin::RULES,
            DrapedKind::String => string::RULES,
            DrapedKind::Terrain => terrain::RULES,
            DrapedKind::Network => net::RULES,
        }
    }
}

/// One art file a draped file names, with the span of its path (for a
/// diagnostic at that line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedArt {
    /// The directive naming it (`TEXTURE_NOWRAP`, `OBJECT`, …).
    pub directive: String,
    /// The path, as written (relative to the file naming it).
    pub path: String,
    /// A texture, or an object (a `.str`'s).
    pub kind: ArtKind,
    /// Where the path is in the file's text.
    pub span: Range<usize>,
}

/// A draped polygon definition (`.pol`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pol {
    /// Its texture, as written (relative to the `.pol`): `TEXTURE` or
    /// `TEXTURE_NOWRAP`, whichever comes last.
    pub texture: Option<String>,
    /// True when the texture repeats (`TEXTURE`), false for
    /// `TEXTURE_NOWRAP` (and without a texture).
    pub wrap: bool,
    /// `SCALE`: metres one repeat of the texture covers (horizontal,
    /// vertical); `None` when the file has none.
    pub scale: Option<[f64; 2]>,
    /// `NO_ALPHA`: the texture's alpha is ignored (drawn opaque).
    pub no_alpha: bool,
    /// Every texture it names (base, lit, normal), in file order.
    pub names: Vec<NamedArt>,
}

/// One `S_OFFSET` layer of a painted line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineLayer {
    /// Its layer number.
    pub layer: i64,
    /// Left, middle and right texture columns, in `TEX_WIDTH` units.
    pub s: [f64; 3],
}

/// A painted line definition (`.lin`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lin {
    /// `TEXTURE`, as written.
    pub texture: Option<String>,
    /// `SCALE`: metres the whole texture covers (horizontal, vertical).
    pub scale: Option<[f64; 2]>,
    /// `TEX_WIDTH`: the unit of the `S_OFFSET` columns.
    pub tex_width: Option<f64>,
    /// The `S_OFFSET` layers, in file order.
    pub layers: Vec<LineLayer>,
    /// Every texture it names, in file order.
    pub names: Vec<NamedArt>,
}

impl Lin {
    /// The width the line draws, metres: the widest layer's columns
    /// (`s2 - s1`) over `TEX_WIDTH`, times the horizontal `SCALE`.
    /// `None` without a scale, a width or a layer.
    pub fn width(&self) -> Option<f64> {
        let scale = self.scale?[0];
        let tw = self.tex_width.filter(|w| *w > 0.0)?;
        self.layers
            .iter()
            .map(|l| (l.s[2] - l.s[0]).abs() / tw * scale)
            .filter(|w| w.is_finite())
            .reduce(f64::max)
    }

    /// The widest `S_OFFSET` layer's texture columns as fractions of the
    /// texture's width `[s1, sm, s2]` (`S_OFFSET` over `TEX_WIDTH`), and
    /// `SCALE`: the window a drawn strip spans. `None` without a scale,
    /// a width or a layer.
    pub fn window(&self) -> Option<([f64; 3], [f64; 2])> {
        let scale = self
            .scale
            .filter(|s| s.iter().all(|v| v.is_finite() && *v > 0.0))?;
        let tw = self.tex_width.filter(|w| w.is_finite() && *w > 0.0)?;
        let widest = self
            .layers
            .iter()
            .filter(|l| l.s.iter().all(|v| v.is_finite()) && l.s[2] != l.s[0])
            .max_by(|a, b| (a.s[2] - a.s[0]).abs().total_cmp(&(b.s[2] - b.s[0]).abs()))?;
        Some((widest.s.map(|v| v / tw), scale))
    }
}

/// One `OBJECT` of an object string.
#[derive(Debug, Clone, PartialEq)]
pub struct StringObject {
    /// Lowest and highest extra heading, degrees clockwise.
    pub heading: [f64; 2],
    /// The object path, as written.
    pub path: String,
}

/// An object string definition (`.str`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Str {
    /// Its objects, laid in turn along the string.
    pub objects: Vec<StringObject>,
    /// `OFFSET`: metres to the right of the line (negative: left).
    pub offset: f64,
    /// Its objects as named, with the span of each path.
    pub names: Vec<NamedArt>,
}

/// A terrain type (`.ter`): what `check` and `info` read of it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ter {
    /// Its base texture (`BASE_TEX` or `BASE_TEX_NOWRAP`, the last one
    /// written), as written.
    pub base: Option<String>,
    /// `PROJECTED`: metres one repeat of the base texture covers, when
    /// the terrain is projected.
    pub projected: Option<[f64; 2]>,
    /// Every texture it names, in file order.
    pub names: Vec<NamedArt>,
}

/// A road network (`.net`): what `check` and `info` read of it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Net {
    /// The textures its `TEXTURE` lines name, in file order.
    pub names: Vec<NamedArt>,
    /// `ROAD_TYPE` lines.
    pub road_types: usize,
}

/// A `.pol`, `.lin`, `.str`, `.ter` or `.net` read.
#[derive(Debug, Clone, PartialEq)]
pub enum DrapedArt {
    /// A draped polygon.
    Pol(Pol),
    /// A painted line.
    Lin(Lin),
    /// An object string.
    Str(Str),
    /// A terrain type.
    Ter(Ter),
    /// A road network.
    Net(Net),
}

impl DrapedArt {
    /// Its kind.
    pub fn kind(&self) -> DrapedKind {
        match self {
            DrapedArt::Pol(_) => DrapedKind::Polygon,
            DrapedArt::Lin(_) => DrapedKind::Line,
            DrapedArt::Str(_) => DrapedKind::String,
            DrapedArt::Ter(_) => DrapedKind::Terrain,
            DrapedArt::Net(_) => DrapedKind::Network,
        }
    }

    /// The art it names (textures; a string's objects), in file order,
    /// blank paths left out.
    pub fn names(&self) -> Vec<(String, ArtKind)> {
        self.named().into_iter().map(|n| (n.path, n.kind)).collect()
    }

    /// [`DrapedArt::names`] with the directive and span of each.
    pub fn named(&self) -> Vec<NamedArt> {
        match self {
            DrapedArt::Pol(p) => p.names.clone(),
            DrapedArt::Lin(l) => l.names.clone(),
            DrapedArt::Ter(t) => t.names.clone(),
            DrapedArt::Net(n) => n.names.clone(),
            DrapedArt::Str(s) => s.names.clone(),
        }
    }
}

/// What [`check`] found in a file of one of the five kinds.
pub type CheckedArt = Checked<DrapedArt>;

/// Checks `bytes` as a file of `kind`: its text, its model (unless its
/// header is wrong) and every diagnostic, under `limits`.
pub fn check(kind: DrapedKind, bytes: &[u8], limits: &Limits) -> CheckedArt {
    fn map<T>(c: Checked<T>, f: fn(T) -> DrapedArt) -> CheckedArt {
        Checked {
            text: c.text,
            value: c.value.map(f),
            diagnostics: c.diagnostics,
        }
    }
    match kind {
        DrapedKind::Polygon => map(pol::check(bytes, limits), DrapedArt::Pol),
        DrapedKind::Line => map(lin::check(bytes, limits), DrapedArt::Lin),
        DrapedKind::String => map(string::check(bytes, limits), DrapedArt::Str),
        DrapedKind::Terrain => map(terrain::check(bytes, limits), DrapedArt::Ter),
        DrapedKind::Network => map(net::check(bytes, limits), DrapedArt::Net),
    }
}

/// Reads `bytes` as a file of `kind`; `name` names the file in the
/// refusal (`name:line:column: error[POL0004]: …`).
pub fn read_bytes(
    kind: DrapedKind,
    bytes: &[u8],
    name: &str,
    limits: &Limits,
) -> Result<DrapedArt, Refused> {
    check(kind, bytes, limits).into_result(name)
}

/// Reads `file` as a file of `kind` (the kind its definition's extension
/// names: a `.pol` whose header says `LINE_PAINT` is refused, with its
/// header's line), at most [`Limits::max_input_bytes`] of it. The error
/// names the file, the line and the reason.
pub fn read(
    file: &std::path::Path,
    kind: DrapedKind,
    limits: &Limits,
) -> Result<DrapedArt, String> {
    let name = file.display().to_string();
    let bytes = crate::fsutil::read_input(file, kind.noun(), limits.max_input_bytes)
        .map_err(|e| e.to_string())?;
    read_bytes(kind, &bytes, &name, limits).map_err(|e| e.to_string())
}

/// The [`Format`] of the calling module's reader (`FORMAT`), from its
/// `codes` table (`HEADER`, `MISSING_ARG`, `NOT_A_NUMBER`, `NOT_FINITE`,
/// `OUT_OF_RANGE`), and its `read`: the model of `$model`, or the refusal
/// naming the file.
macro_rules! reader {
    ($kind:ident, $model:ty, $versions:expr, unknown: $unknown:expr, known: $known:expr) => {
        const FORMAT: super::Format = super::Format {
            kind: super::DrapedKind::$kind,
            versions: $versions,
            header: codes::HEADER,
            args: crate::xptext::ArgCodes {
                missing: codes::MISSING_ARG,
                not_number: codes::NOT_A_NUMBER,
                not_finite: codes::NOT_FINITE,
                out_of_range: codes::OUT_OF_RANGE,
            },
            unknown: $unknown,
            known: $known,
        };

        /// Reads the file's bytes; `name` names the file in the refusal
        /// (`name:line:column: error[CODE]: …`).
        pub fn read(
            bytes: &[u8],
            name: &str,
            limits: &crate::limits::Limits,
        ) -> Result<$model, crate::diag::Refused> {
            check(bytes, limits).into_result(name)
        }
    };
}
pub(crate) use reader;

/// A limit on how many lines of one directive a file may hold: the line
/// past it is one error (`code`), the lines after it are skipped quietly,
/// so a file of 100,000 such lines gets one diagnostic, not 95,904.
pub(crate) struct Cap {
    limit: usize,
    code: &'static str,
    what: &'static str,
    ext: &'static str,
    hit: bool,
}

impl Cap {
    /// At most `limit` lines of `what` (`` `OBJECT`s ``) in a `.ext`.
    pub fn new(limit: usize, code: &'static str, what: &'static str, ext: &'static str) -> Cap {
        Cap {
            limit,
            code,
            what,
            ext,
            hit: false,
        }
    }

    /// Whether the line `d`, the `held`-th of its kind, is read: `Ok(true)`
    /// within the limit, the error at the first line past it, `Ok(false)`
    /// (skip it) after.
    pub fn admits(&mut self, held: usize, d: &Directive<'_, '_>) -> Result<bool, Diagnostic> {
        if held < self.limit {
            return Ok(true);
        }
        if std::mem::replace(&mut self.hit, true) {
            return Ok(false);
        }
        Err(Diagnostic::error(
            self.code,
            format!(
                "more than {} {}: agkit reads at most that many in one .{}",
                crate::ground::words::thousands(self.limit),
                self.what,
                self.ext
            ),
            d.line().span(),
        ))
    }
}

/// What the readers of the five formats share: the header they take, the
/// codes of their argument problems, the code of an unknown directive
/// (`None`: unknown lines are not reported) and the directives they
/// accept without reading.
pub(crate) struct Format {
    pub kind: DrapedKind,
    pub versions: &'static [u32],
    pub header: &'static str,
    pub args: ArgCodes,
    pub unknown: Option<&'static str>,
    pub known: &'static [&'static str],
}

/// One directive line, handed to a format's reader.
pub(crate) struct Directive<'t, 'a> {
    /// The line's arguments, its keyword first.
    pub args: &'a mut Args<'t>,
    /// Diagnostics that do not stop the line (warnings).
    pub diags: &'a mut Vec<Diagnostic>,
}

impl<'t> Directive<'t, '_> {
    /// The keyword.
    pub fn keyword(&self) -> Word<'t> {
        self.args.keyword()
    }

    /// The line.
    pub fn line(&self) -> Line<'t> {
        self.args.line()
    }

    /// The rest of the line as a path named by the directive, `kind` art,
    /// kept in `names`; an error when there is none.
    pub fn path(&mut self, kind: ArtKind, names: &mut Vec<NamedArt>) -> Result<String, Diagnostic> {
        let w = self
            .args
            .rest()
            .ok_or_else(|| self.args.missing("a file name"))?;
        names.push(NamedArt {
            directive: self.keyword().text.to_string(),
            path: w.text.to_string(),
            kind,
            span: w.span(),
        });
        Ok(w.text.to_string())
    }

    /// Two numbers (`SCALE`, `PROJECTED`).
    pub fn pair(&mut self, what: [&str; 2]) -> Result<[f64; 2], Diagnostic> {
        Ok([self.args.number(what[0])?, self.args.number(what[1])?])
    }

    /// A warning at the whole line.
    pub fn warn(&mut self, code: &'static str, message: String) {
        let span = self.line().span();
        self.diags.push(Diagnostic::warning(code, message, span));
    }
}

/// Reads `bytes` as `format`: the header, then each line that is not a
/// comment handed to `line` (which returns `Ok(false)` for a directive it
/// does not read: a [`Format::known`] one is skipped, any other is
/// [`Format::unknown`]'s warning), then `finish` with the model and the
/// diagnostics. `model` builds the empty model from the header's version.
pub(crate) fn check_format<T>(
    bytes: &[u8],
    format: &Format,
    model: impl FnOnce(u32) -> T,
    mut line: impl for<'t, 'a> FnMut(&mut T, &mut Directive<'t, 'a>) -> Result<bool, Diagnostic>,
    finish: impl FnOnce(&mut T, &xptext::Header, &mut Vec<Diagnostic>),
) -> Checked<T> {
    xptext::check_with(
        bytes,
        format.versions,
        format.kind.keyword(),
        format.header,
        |text, h, diags| {
            let mut m = model(h.version);
            let mut warnings = Vec::new();
            let errors = xptext::each_line(text, h.body, |l| {
                let mut args = Args::new(l, format.args);
                let kw = args.keyword();
                let mut d = Directive {
                    args: &mut args,
                    diags: &mut warnings,
                };
                if line(&mut m, &mut d)? || format.known.contains(&kw.text) {
                    return Ok(true);
                }
                if let Some(code) = format.unknown {
                    warnings.push(Diagnostic::warning(
                        code,
                        format!("unknown directive `{}`: X-Plane ignores the line", kw.text),
                        kw.span(),
                    ));
                }
                Ok(true)
            });
            diags.extend(errors);
            diags.extend(warnings);
            finish(&mut m, h, diags);
            m
        },
    )
}

/// True when `diags` hold an error: a file already refused gets no
/// warning that what it lacks is missing (a refused `S_OFFSET` line is no
/// "no layer").
pub(crate) fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

/// Warns (`code`, for the whole file) that the file lacks what it needs
/// when `lacking` and the file is not refused already.
pub(crate) fn lacks(diags: &mut Vec<Diagnostic>, lacking: bool, code: &'static str, message: &str) {
    if lacking && !has_errors(diags) {
        diags.push(Diagnostic::new(
            Severity::Warning,
            code,
            message,
            Location::File,
        ));
    }
}

/// What `agkit info` says about a `.pol`, `.lin`, `.str`, `.ter` or
/// `.net`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// `pol`, `lin`, `str`, `ter` or `net`.
    pub format: &'static str,
    /// The header's version.
    pub version: u32,
    /// The textures it names, with their directives (`TEXTURE_NOWRAP
    /// apron.png`), in file order.
    pub textures: Vec<String>,
    /// The objects a `.str` lays, in turn.
    pub objects: Vec<String>,
    /// `SCALE` (`.pol`, `.lin`) or `PROJECTED` (`.ter`), metres.
    pub scale: Option<[f64; 2]>,
    /// The width a `.lin` draws, metres.
    pub width: Option<f64>,
    /// A `.lin`'s `S_OFFSET` layers.
    pub layers: usize,
    /// A `.str`'s `OFFSET`, metres.
    pub offset: Option<f64>,
    /// A `.net`'s `ROAD_TYPE` lines.
    pub road_types: usize,
    /// Errors found.
    pub errors: usize,
    /// Warnings found.
    pub warnings: usize,
}

impl Summary {
    /// The summary of `art` (read from a file whose header said
    /// `version`), with the errors and warnings found reading it.
    pub fn of(art: &DrapedArt, version: u32, errors: usize, warnings: usize) -> Summary {
        let textures = art
            .named()
            .into_iter()
            .filter(|n| n.kind == ArtKind::Texture)
            .map(|n| format!("{} {}", n.directive, n.path))
            .collect();
        let mut s = Summary {
            format: art.kind().extension(),
            version,
            textures,
            objects: Vec::new(),
            scale: None,
            width: None,
            layers: 0,
            offset: None,
            road_types: 0,
            errors,
            warnings,
        };
        match art {
            DrapedArt::Pol(p) => s.scale = p.scale,
            DrapedArt::Lin(l) => {
                s.scale = l.scale;
                s.width = l.width();
                s.layers = l.layers.len();
            }
            DrapedArt::Str(st) => {
                s.objects = st.objects.iter().map(|o| o.path.clone()).collect();
                s.offset = Some(st.offset);
            }
            DrapedArt::Ter(t) => s.scale = t.projected,
            DrapedArt::Net(n) => s.road_types = n.road_types,
        }
        s
    }

    /// A few aligned lines for people.
    pub fn to_human(&self) -> String {
        let kind = DrapedKind::from_extension(self.format).map_or(self.format, DrapedKind::noun);
        let mut out = format!("format     {kind} (version {})\n", self.version);
        for t in &self.textures {
            out.push_str(&format!("texture    {t}\n"));
        }
        if let Some([x, y]) = self.scale {
            out.push_str(&format!("scale      {x} × {y} m\n"));
        }
        if self.format == "lin" {
            out.push_str(&format!(
                "layers     {}{}\n",
                self.layers,
                self.width
                    .map(|w| format!(", {w:.2} m wide"))
                    .unwrap_or_default()
            ));
        }
        if let Some(o) = self.offset {
            out.push_str(&format!(
                "objects    {} in turn, {o} m to the right\n",
                self.objects.len()
            ));
            for p in &self.objects {
                out.push_str(&format!("  {p}\n"));
            }
        }
        if self.format == "net" {
            out.push_str(&format!("road types {}\n", self.road_types));
        }
        out.push_str(&format!(
            "problems   {}, {}\n",
            crate::ground::words::count(self.errors, "error"),
            crate::ground::words::count(self.warnings, "warning")
        ));
        out
    }
}

/// The `agkit info` summary of a file of `kind`, or, when its header is
/// wrong, its text and diagnostics.
#[allow(clippy::type_complexity)]
pub fn summarize(
    kind: DrapedKind,
    bytes: &[u8],
) -> Result<Summary, (Option<String>, Vec<Diagnostic>)> {
    let c = check(kind, bytes, &Limits::default());
    let errors = c.diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let version = xptext::sniff(&c.text).map_or(0, |(v, _)| v);
    match &c.value {
        Some(v) => Ok(Summary::of(v, version, errors, warnings)),
        None => Err((Some(c.text), c.diagnostics)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(kind: DrapedKind, text: &str) -> Result<DrapedArt, Refused> {
        read_bytes(kind, text.as_bytes(), "x", &Limits::default())
    }

    #[test]
    fn kinds_by_header_and_extension() {
        for k in DrapedKind::ALL {
            assert_eq!(DrapedKind::from_keyword(k.keyword()), Some(k));
            assert_eq!(
                DrapedKind::from_extension(&k.extension().to_uppercase()),
                Some(k)
            );
            let head = format!("I\r\n850 # by hand\r\n{}\r\n", k.keyword());
            assert_eq!(DrapedKind::sniff(head.as_bytes()), Some(k));
        }
        assert_eq!(DrapedKind::sniff(b"A\n800\nOBJ\n"), None);
        assert_eq!(DrapedKind::from_extension("obj"), None);
    }

    #[test]
    fn a_wrong_kind_is_refused_at_its_header() {
        let e = read(DrapedKind::Polygon, "A\n850\nLINE_PAINT\n").unwrap_err();
        assert!(e.to_string().starts_with("x:3:1: error[POL0001]"), "{e}");
        assert!(e.to_string().contains("LINE_PAINT"), "{e}");
    }

    #[test]
    fn names_keep_their_directive_and_span() {
        let text = "A\n850\nDRAPED_POLYGON\nTEXTURE_NOWRAP ../t/a b.png\nTEXTURE_LIT l.png\n";
        let DrapedArt::Pol(p) = read(DrapedKind::Polygon, text).unwrap() else {
            panic!()
        };
        assert_eq!(p.names.len(), 2);
        assert_eq!(&text[p.names[0].span.clone()], "../t/a b.png");
        assert_eq!(p.names[1].directive, "TEXTURE_LIT");
    }

    #[test]
    fn summaries_say_what_the_file_holds() {
        let s = summarize(
            DrapedKind::Line,
            b"A\n850\nLINE_PAINT\nTEXTURE l.png\nSCALE 20 100\nTEX_WIDTH 1024\nS_OFFSET 0 0 25 51.2\n",
        )
        .unwrap();
        assert_eq!((s.format, s.version, s.layers), ("lin", 850, 1));
        assert_eq!(s.textures, ["TEXTURE l.png"]);
        assert!(s.to_human().contains("1.00 m wide"), "{}", s.to_human());
        let (text, diags) = summarize(DrapedKind::String, b"A\n1000\nOBJECT_STRING\n").unwrap_err();
        assert!(text.is_some() && diags[0].code == "STR0001", "{diags:?}");
    }
}
