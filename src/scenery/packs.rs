//! The `scenery_packs.ini` reader.
//!
//! X-Plane 10.10 and later keep `Custom Scenery/scenery_packs.ini`: the header
//! `I`, `1000 Version`, `SCENERY`, then one `SCENERY_PACK path/` or
//! `SCENERY_PACK_DISABLED path/` line per pack, highest priority first. Paths
//! are relative to the X-Plane folder (`Custom Scenery/Name/`) or absolute.
//! X-Plane 12 writes the placeholder `*GLOBAL_AIRPORTS*` where the global
//! airports pack ranks.

use super::library::quote;
use super::rules::packs::codes;
use crate::diag::Diagnostic;

/// Most bytes of a `scenery_packs.ini` read.
pub const MAX_INI_BYTES: u64 = 16 << 20;

/// The X-Plane 12 placeholder for the global airports pack.
pub const GLOBAL_AIRPORTS: &str = "*GLOBAL_AIRPORTS*";

/// One pack line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackEntry {
    /// The path as written, `\` read as `/`, without the trailing `/`.
    pub path: String,
    /// False for `SCENERY_PACK_DISABLED`.
    pub enabled: bool,
    /// 1-based line.
    pub line: usize,
}

impl PackEntry {
    /// True for the `*GLOBAL_AIRPORTS*` placeholder.
    pub fn is_global_airports(&self) -> bool {
        self.path == GLOBAL_AIRPORTS
    }

    /// The pack's folder name (the last path component).
    pub fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }
}

/// A parsed `scenery_packs.ini`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PacksIni {
    /// Pack lines in file order (priority order).
    pub entries: Vec<PackEntry>,
    /// Problems found (codes `INI001`…).
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a `scenery_packs.ini`; what cannot be read is a diagnostic.
pub fn parse(text: &str) -> PacksIni {
    let mut ini = PacksIni::default();
    if let Some(why) = super::library::foreign(
        text,
        "a scenery_packs.ini",
        crate::check::Contents::SceneryPacks,
    ) {
        ini.diagnostics.push(Diagnostic::new(
            crate::diag::Severity::Warning,
            codes::HEADER,
            format!("{why}; X-Plane cannot use it"),
            crate::diag::Location::File,
        ));
        return ini;
    }
    let mut header = 0;
    for (i, (start, line)) in super::library::lines(text).enumerate() {
        let trimmed = line.trim();
        let span = start..start + line.len();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if header < 3 {
            header += 1;
            let want = ["I or A", "1000 Version", "SCENERY"][header - 1];
            let ok = match header {
                1 => trimmed == "I" || trimmed == "A",
                2 => trimmed.split_whitespace().next() == Some("1000"),
                _ => trimmed == "SCENERY",
            };
            if !ok {
                ini.diagnostics.push(Diagnostic::warning(
                    codes::HEADER,
                    format!(
                        "header line {header} should be `{want}`, not `{}`",
                        quote(trimmed)
                    ),
                    span,
                ));
            }
            continue;
        }
        let (enabled, rest) = if let Some(r) = trimmed.strip_prefix("SCENERY_PACK_DISABLED") {
            (false, r)
        } else if let Some(r) = trimmed.strip_prefix("SCENERY_PACK") {
            (true, r)
        } else {
            ini.diagnostics.push(Diagnostic::warning(
                codes::NOT_A_PACK,
                format!(
                    "`{}` is not a SCENERY_PACK line; X-Plane ignores it",
                    quote(trimmed)
                ),
                span,
            ));
            continue;
        };
        if !rest.starts_with([' ', '\t']) || rest.trim().is_empty() {
            ini.diagnostics.push(Diagnostic::warning(
                codes::NOT_A_PACK,
                format!("`{}` names no pack; X-Plane ignores it", quote(trimmed)),
                span,
            ));
            continue;
        }
        let path = super::library::normalize(rest);
        let path = path.trim_end_matches('/').to_string();
        ini.entries.push(PackEntry {
            path,
            enabled,
            line: i + 1,
        });
    }
    ini
}

/// The entries naming the same pack as an earlier one (compared without
/// case, as the simulator's file systems often do): (earlier, later).
pub fn duplicates(ini: &PacksIni) -> Vec<(&PackEntry, &PackEntry)> {
    let mut seen: std::collections::HashMap<String, &PackEntry> = Default::default();
    let mut out = Vec::new();
    for e in &ini.entries {
        match seen.entry(e.path.to_lowercase()) {
            std::collections::hash_map::Entry::Occupied(o) => out.push((*o.get(), e)),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(e);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_packs_in_order() {
        let ini = parse(
            "I\r\n1000 Version\r\nSCENERY\r\n\r\nSCENERY_PACK *GLOBAL_AIRPORTS*\r\n\
             SCENERY_PACK Custom Scenery/A b/\r\nSCENERY_PACK_DISABLED Custom Scenery\\z_ao/\r\n\
             SCENERY_PACK D:/Scenery/Ext/\r\nSCENERY_PACK Custom Scenery/a B/\r\n",
        );
        assert!(ini.diagnostics.is_empty(), "{:?}", ini.diagnostics);
        let p: Vec<(&str, bool, usize)> = ini
            .entries
            .iter()
            .map(|e| (e.path.as_str(), e.enabled, e.line))
            .collect();
        assert_eq!(
            p,
            [
                ("*GLOBAL_AIRPORTS*", true, 5),
                ("Custom Scenery/A b", true, 6),
                ("Custom Scenery/z_ao", false, 7),
                ("D:/Scenery/Ext", true, 8),
                ("Custom Scenery/a B", true, 9),
            ]
        );
        assert!(ini.entries[0].is_global_airports());
        assert_eq!(ini.entries[1].name(), "A b");
        let d = duplicates(&ini);
        assert_eq!(d.len(), 1);
        assert_eq!((d[0].0.line, d[0].1.line), (6, 9));
    }

    #[test]
    fn odd_lines_are_warnings() {
        let ini = parse("X\n1000 Version\nSCENERY\nSCENERY_PACKS foo\nSCENERY_PACK\nhello\n");
        let codes: Vec<&str> = ini.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["INI001", "INI002", "INI002", "INI002"]);
        assert!(ini.entries.is_empty());
    }
}
