//! What `agkit place` prints and writes: an asset file's diagnostics, a
//! placement's warnings and decisions, the unresolved assets and repeated
//! warnings of a run, and the placements themselves.

use crate::cli::output;
use agkit::check::asset::{AssetFile, AssetFileError};
use agkit::diag;
use agkit::out::{self, Format, count as plural, thousands};
use agkit::place::{Placement, Tally};
use agkit::scenery::tile::Unresolved;
use std::collections::BTreeMap;
use std::path::Path;

/// The lines printed for an asset file read to be placed: its
/// diagnostics, warnings too (placement ignores a line the checks warn
/// about, and the author should hear of it here as from `agkit check`),
/// or why it could not be read.
pub fn asset_report(a: &AssetFile) -> String {
    match &a.asset {
        Err(e @ (AssetFileError::Read { .. } | AssetFileError::NotAutogen { .. })) => {
            format!("error: {e}\n")
        }
        asset => {
            let name = a.path.display().to_string();
            let mut report = diag::render_human(&name, Some(&a.text), &a.diagnostics);
            if asset.is_err() && a.diagnostics.is_empty() {
                report.push_str(&format!("error: {name}: cannot be parsed\n"));
            }
            report
        }
    }
}

/// The lines printed for a placement: its warnings, then how its input
/// was taken (its notes: rings reversed, …), or with `--explain` the
/// engine's decisions, which the notes open.
pub fn placement_report(p: &Placement, explain: bool) -> String {
    let mut report = String::new();
    for w in &p.warnings {
        report.push_str(&format!("warning: {}\n", about(&p.asset, w)));
    }
    if explain {
        // The notes open the explanation.
        report.push_str(&explain_report(p));
    } else {
        for n in &p.notes {
            report.push_str(&format!("note: {}: {n}\n", p.asset));
        }
    }
    report
}

/// A placement's warning named by its asset, the path said once: the
/// placement of one definition of a whole tile is named by that
/// definition, and the warnings about its file already start with it
/// (`objects/x.obj: not found (…)`), so they are not named again.
pub fn about(asset: &str, w: &agkit::place::Warning) -> String {
    let text = w.to_string();
    match text.strip_prefix(asset) {
        Some(rest) if rest.starts_with(": ") => text,
        _ => format!("{asset}: {text}"),
    }
}

/// The engine's decisions for a placement (`--explain`).
pub fn explain_report(p: &Placement) -> String {
    p.explain
        .iter()
        .map(|e| format!("explain: {}: {e}\n", p.asset))
        .collect()
}

/// The unresolved assets: `head`, then one line per asset (most used
/// first, at most 20), each with its use count (and tile count when
/// `per_tile`) and the reason.
pub fn unresolved_report(u: &Unresolved, head: &str, per_tile: bool) -> String {
    const SHOWN: usize = 20;
    let mut v: Vec<_> = u.assets.iter().collect();
    v.sort_by(|a, b| b.1.uses.cmp(&a.1.uses).then(a.0.cmp(b.0)));
    let mut report = format!("{head}\n");
    for (asset, a) in v.iter().take(SHOWN) {
        let uses = plural(a.uses, "use");
        if per_tile {
            report.push_str(&format!(
                "  {asset} ({uses} in {}): {}\n",
                plural(a.tiles, "tile"),
                a.why
            ));
        } else {
            report.push_str(&format!("  {asset} ({uses}): {}\n", a.why));
        }
    }
    if v.len() > SHOWN {
        report.push_str(&format!("  … and {} more assets\n", v.len() - SHOWN));
    }
    report
}

/// Repeated warning lines counted instead of printed one per line.
#[derive(Debug, Default)]
pub struct Repeats {
    counts: BTreeMap<String, usize>,
}

impl Repeats {
    /// Counts one occurrence.
    pub fn add(&mut self, line: String) {
        *self.counts.entry(line).or_insert(0) += 1;
    }

    /// Total occurrences.
    pub fn total(&self) -> usize {
        self.counts.values().sum()
    }

    /// The distinct lines (most frequent first, at most 20) with counts.
    pub fn report(&self) -> String {
        let mut v: Vec<(&String, &usize)> = self.counts.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let mut report = String::new();
        for (line, n) in v.iter().take(20) {
            if **n == 1 {
                report.push_str(&format!("warning: {line}\n"));
            } else {
                report.push_str(&format!("warning: {line} ({} times)\n", thousands(**n)));
            }
        }
        if v.len() > 20 {
            report.push_str(&format!(
                "warning: … and {} more distinct warnings\n",
                v.len() - 20
            ));
        }
        report
    }
}

/// Renders `placements` ([`out::render_to`]: one, or all as one result;
/// pictures in `style`; GeoJSON laid out by `indent`) and writes them to
/// `output` or stdout, printing the render's notes and warnings; `status`
/// when that succeeds, with the summary line ([`done`]).
pub fn write_placements(
    placements: &[Placement],
    grouping: out::Grouping,
    format: Format,
    style: out::svg::PictureStyle,
    indent: out::Indent,
    output: Option<&Path>,
    status: u8,
) -> u8 {
    let opts = out::RenderOptions {
        format,
        style,
        limits: Default::default(),
        grouping,
        indent,
    };
    let mut write = |w: &mut dyn std::io::Write| {
        let said = out::render_to(placements, &opts, w)?;
        said.notes.iter().for_each(|n| eprintln!("note: {n}"));
        said.warnings.iter().for_each(|n| eprintln!("warning: {n}"));
        Ok(w.flush()?)
    };
    match write_to(output, &mut write) {
        Ok(()) => {
            let why = placements.iter().find_map(Placement::why_empty);
            done(output, &Tally::of(placements), why.as_deref());
            status
        }
        Err(e) => output::fail(e),
    }
}

/// The line after a successful run: `wrote FILE (3 uses, 45 objects, …)`
/// for a file; and when nothing at all was placed, why (`why`, the first
/// empty placement's reason), also when the output went to stdout.
pub fn done(output: Option<&Path>, tally: &Tally, why: Option<&str>) {
    let nothing = tally.tiles + tally.objects + tally.facades + tally.trees == 0;
    let why = match why {
        Some(w) if nothing => format!("nothing placed: {w}"),
        _ if nothing => "nothing placed".to_string(),
        _ => String::new(),
    };
    match output {
        Some(o) if why.is_empty() => output::wrote(o, &tally.to_string()),
        Some(o) => output::wrote(o, &format!("{tally}; {why}")),
        None if !why.is_empty() => eprintln!("note: {why}"),
        None => {}
    }
}

/// Runs `write` on the `-o` file or stdout ([`output::write_output_with`]).
pub fn write_to(
    output: Option<&Path>,
    write: &mut dyn FnMut(&mut dyn std::io::Write) -> Result<(), out::OutError>,
) -> Result<(), String> {
    output::write_output_with(output, |w| write(w).map_err(std::io::Error::other))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_reports() {
        assert_eq!(plural(1, "use"), "1 use");
        assert_eq!(plural(114_000, "use"), "114,000 uses");
        let asset = |uses, tiles, why: &str| agkit::scenery::tile::UnresolvedAsset {
            uses,
            tiles,
            why: why.into(),
        };
        let u = Unresolved {
            assets: BTreeMap::from([
                ("a.agp".to_string(), asset(5, 2, "why a")),
                ("b.agb".to_string(), asset(10, 1, "why b")),
            ]),
        };
        assert_eq!(
            unresolved_report(&u, "head", true),
            "head\n  b.agb (10 uses in 1 tile): why b\n  a.agp (5 uses in 2 tiles): why a\n"
        );
        assert_eq!(
            unresolved_report(&u, "head", false),
            "head\n  b.agb (10 uses): why b\n  a.agp (5 uses): why a\n"
        );
        let mut w = Repeats::default();
        for _ in 0..3 {
            w.add("x".into());
        }
        w.add("y".into());
        assert_eq!(w.total(), 4);
        assert_eq!(w.report(), "warning: x (3 times)\nwarning: y\n");
    }
}
