//! `agkit place --dsf TILE.dsf|FOLDER`: every autogen use of a tile (or of
//! every tile under a folder), placed by the library
//! ([`agkit::scenery::Scenery::place_tile`], [`Scenery::place_tiles`]);
//! here only the messages, the exit status and the output.

use super::args::Args;
use super::report::{
    Repeats, asset_report, explain_report, placement_report, unresolved_report, write_placements,
    write_to,
};
use crate::cli::output::{self, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use agkit::out::{self, Format, count as plural, thousands};
use agkit::place::TilePlacement;
use agkit::place::whole::WholeTile;
use agkit::place::{Params, Placement, Tally};
use agkit::scenery::resolve::Conditions;
use agkit::scenery::tile::{TileError, Unresolved};
use agkit::scenery::{Scenery, SceneryError};
use std::path::{Path, PathBuf};

/// Runs `agkit place --dsf PATH`: one tile, or every tile under a folder.
pub fn run(dsf: &Path, args: &Args, params: &Params, format: Format) -> u8 {
    let scenery = match open(args) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if dsf.is_dir() {
        return run_folder(dsf, args, params, format, &scenery);
    }
    let (placements, status) = match place_one(dsf, params, &scenery) {
        Ok(x) => x,
        Err(code) => return code,
    };
    for p in &placements {
        eprint!("{}", placement_report(p, args.explain));
    }
    write_placements(
        &placements,
        out::Grouping::Combined,
        format,
        args.style,
        if args.pretty {
            out::Indent::Pretty
        } else {
            out::Indent::Compact
        },
        args.output.as_deref(),
        status,
    )
}

/// The scenery the DSF's paths resolve in (`--xplane`, or `--scenery` and
/// `--library`), its warnings printed.
fn open(args: &Args) -> Result<Scenery, u8> {
    let cond = Conditions::from_args(&args.dref, args.season.as_deref()).map_err(output::fail)?;
    let scenery = match &args.xplane {
        Some(dir) => {
            Scenery::installation(dir, cond).map(|s| s.with_package(args.scenery.as_deref()))
        }
        None => Scenery::packages(args.scenery.as_deref(), &args.library, cond),
    };
    let scenery = scenery
        .map_err(|e| match e {
            SceneryError::Installation(_) => output::fail(format!("--xplane {e}")),
            _ => output::fail(format!("--library {e}")),
        })?
        .with_art(!args.no_art);
    for e in scenery.load_errors() {
        eprintln!("warning: {}: {}", e.package, e.error);
    }
    if let Some(w) = scenery.season_warning() {
        eprintln!("warning: {w}");
    }
    Ok(scenery)
}

/// The exit status of a tile that could not be placed at all.
fn status_of(e: &TileError) -> u8 {
    match e {
        TileError::Read { .. } => EXIT_USAGE,
        // A kind added later is the input's (the enum is non-exhaustive).
        _ => EXIT_INPUT,
    }
}

/// The asset files' reports of a placed tile.
fn assets_report(tile: &TilePlacement) -> String {
    tile.assets.iter().map(|a| asset_report(a)).collect()
}

/// Every autogen use of one tile; unplaceable assets are warnings,
/// unresolved ones one grouped warning. Status 1 when an asset file has
/// errors, or when the tile has uses and none of them resolves (nothing
/// would be placed).
fn place_one(dsf: &Path, params: &Params, scenery: &Scenery) -> Result<(Vec<Placement>, u8), u8> {
    let tile = scenery.place_tile(dsf, params).map_err(|e| {
        eprintln!("error: {e}");
        status_of(&e)
    })?;
    eprint!("{}", assets_report(&tile));
    for w in &tile.warnings {
        eprintln!("warning: use {}: {}: {}", w.index, w.asset, w.message);
    }
    if let Some(whole) = &tile.whole {
        eprint!("{}", whole_report(whole));
    }
    eprint!("{}", ground_report(&tile));
    if !tile.unresolved.is_empty() {
        let skipped = tile.unresolved.uses();
        // With --all the tile's other content is placed whatever its
        // autogen does.
        if skipped == tile.uses && tile.whole.is_none() {
            let head = format!(
                "error: none of the {} of {} resolves, so nothing is placed:",
                plural(tile.uses, "autogen use"),
                dsf.display()
            );
            eprint!("{}", unresolved_report(&tile.unresolved, &head, false));
            eprintln!(
                "help: give the package the DSF belongs to (--scenery DIR), its libraries \
                 (--library DIR) or the whole X-Plane installation (--xplane DIR)"
            );
            return Err(EXIT_INPUT);
        }
        let head = format!(
            "warning: {} of {} skipped: their assets resolve nowhere",
            plural(skipped, "use"),
            tile.uses
        );
        eprint!("{}", unresolved_report(&tile.unresolved, &head, false));
    }
    let status = if tile.has_errors() {
        EXIT_INPUT
    } else {
        EXIT_OK
    };
    // The uses not placed go last: the pictures and 3-D scenes draw them
    // where the DSF puts them, marked; the tables leave them out.
    let mut placements = tile.placements;
    placements.extend(tile.unplaced);
    Ok((placements, status))
}

/// The ground a whole tile was set on, one line (and one more when the
/// mesh did not cover every point), and the exclusions applied to it
/// (one line, and one per package DSF that could not be read); nothing
/// without --all.
fn ground_report(tile: &TilePlacement) -> String {
    let mut s = String::new();
    if let Some(x) = &tile.exclusions {
        s.push_str(&format!("{}\n", x.describe()));
        for w in &x.warnings {
            s.push_str(&format!("warning: {w}\n"));
        }
    }
    let Some(g) = &tile.ground else {
        return s;
    };
    s.push_str(&format!("ground: {}\n", g.describe()));
    if tile.off_mesh > 0 {
        s.push_str(&format!(
            "warning: {} off the mesh, set at 0 m\n",
            plural(tile.off_mesh, "point")
        ));
    }
    s
}

/// What a whole tile holds per kind and what is not drawn, for stderr:
/// one line per kind, one per definition not drawn, one per definition
/// that resolves nowhere.
fn whole_report(whole: &WholeTile) -> String {
    let mut s = format!(
        "whole tile: {} in the DSF, {} placed, {} not drawn\n",
        plural(whole.in_dsf(), "item"),
        thousands(whole.counts.values().map(|c| c.placed).sum()),
        thousands(whole.not_drawn_items())
    );
    for (kind, c) in &whole.counts {
        s.push_str(&format!(
            "  {kind:<8} {:>8} in the DSF {:>8} placed {:>8} not drawn\n",
            thousands(c.in_dsf),
            thousands(c.placed),
            thousands(c.not_drawn)
        ));
    }
    for n in &whole.not_drawn {
        let def = if n.definition.is_empty() {
            n.kind.clone()
        } else {
            n.definition.clone()
        };
        s.push_str(&format!(
            "note: {} of {def} not drawn: {}\n",
            plural(n.items, "item"),
            n.why
        ));
    }
    // Each one is named by its placement's warning.
    if !whole.unresolved.is_empty() {
        s.push_str(&format!(
            "warning: {} resolve nowhere; their {} are placed from the DSF alone, without art\n",
            plural(whole.unresolved.assets.len(), "definition"),
            plural(whole.unresolved.uses(), "item")
        ));
    }
    s
}

/// What a folder run keeps of a tile once its placements are written.
struct Seen {
    /// What to print now: its asset reports (or why it failed) and, with
    /// `--explain`, the engine's decisions.
    report: String,
    /// Its warnings, to count for the end.
    warnings: Vec<String>,
    /// Its status.
    status: u8,
    /// Autogen uses, and those placed.
    uses: usize,
    placed: usize,
    /// What the placed uses hold.
    tally: Tally,
    /// Its unresolved assets.
    unresolved: Unresolved,
    /// With --all: what the tile holds.
    whole: Option<WholeTile>,
}

impl Seen {
    fn of(tile: &Result<TilePlacement, TileError>, explain: bool) -> Seen {
        let tile = match tile {
            Ok(t) => t,
            Err(e) => {
                return Seen {
                    report: format!("error: {e}\n"),
                    warnings: Vec::new(),
                    status: status_of(e),
                    uses: 0,
                    placed: 0,
                    tally: Tally::default(),
                    unresolved: Unresolved::default(),
                    whole: None,
                };
            }
        };
        let mut report = assets_report(tile);
        report.push_str(&ground_report(tile));
        let mut warnings = Vec::new();
        for p in &tile.placements {
            warnings.extend(p.warnings.iter().map(|w| super::report::about(&p.asset, w)));
            if explain {
                report.push_str(&explain_report(p));
            }
        }
        warnings.extend(
            tile.warnings
                .iter()
                .map(|w| format!("{}: {}", w.asset, w.message)),
        );
        Seen {
            report,
            warnings,
            status: if tile.has_errors() {
                EXIT_INPUT
            } else {
                EXIT_OK
            },
            uses: tile.uses,
            placed: tile.placements.len(),
            tally: Tally::of(&tile.placements),
            unresolved: tile.unresolved.clone(),
            whole: tile.whole.clone(),
        }
    }
}

/// What a folder run has met so far.
#[derive(Default)]
struct Totals {
    /// The worst status.
    status: u8,
    /// Uses placed.
    placed: usize,
    /// What they hold.
    tally: Tally,
    /// Autogen uses in the tiles read.
    uses: usize,
    /// Tiles that failed or have asset errors.
    failed: usize,
    /// Repeated warnings, counted.
    repeats: Repeats,
    /// Unresolved assets, summed.
    unresolved: Unresolved,
    /// With --all: every tile's kinds, summed.
    whole: Option<WholeTile>,
}

impl Totals {
    /// Counts one tile.
    fn add(&mut self, seen: Seen) {
        self.status = self.status.max(seen.status);
        self.failed += usize::from(seen.status != EXIT_OK);
        for w in seen.warnings {
            self.repeats.add(w);
        }
        self.uses += seen.uses;
        self.placed += seen.placed;
        self.tally.merge(&seen.tally);
        self.unresolved.merge(seen.unresolved);
        if let Some(w) = seen.whole {
            self.whole.get_or_insert_with(WholeTile::default).merge(w);
        }
    }
}

/// Places every autogen use of every `.dsf` under `dir` (path order),
/// streaming the placements to the output as one JSON array or GeoJSON
/// collection; each batch is rendered in parallel as soon as it is placed,
/// and written while the library places the next. A tile that cannot be read is reported and skipped; the status
/// is the worst seen.
fn run_folder(dir: &Path, args: &Args, params: &Params, format: Format, scenery: &Scenery) -> u8 {
    use rayon::prelude::*;
    let start = std::time::Instant::now();
    let tiles: Vec<PathBuf> = agkit::scenery::install::dsf_files(dir);
    if tiles.is_empty() {
        eprintln!(
            "error: {}: no DSF tile (*.dsf) under this folder, so nothing is placed; give a \
             tile or a folder holding tiles (such as a package's `Earth nav data`)",
            dir.display()
        );
        return EXIT_INPUT;
    }
    let bar = output::progress_bar(tiles.len(), "tiles");
    let mut totals = Totals::default();
    let mut place_all = |w: &mut dyn std::io::Write| -> Result<(), out::OutError> {
        let mut stream = out::Stream::new(w, format)?;
        // Placements so far: GeoJSON numbers them on across tiles.
        let mut placed = 0;
        // On the placing side: each tile rendered in parallel, its
        // placements dropped once rendered.
        let prepare = |batch: Vec<Result<TilePlacement, TileError>>| {
            let starts: Vec<usize> = batch
                .iter()
                .map(|t| {
                    let at = placed;
                    placed += t.as_ref().map_or(0, |t| t.placements.len());
                    at
                })
                .collect();
            batch
                .into_par_iter()
                .zip(starts)
                .map(|(t, at)| {
                    let seen = Seen::of(&t, args.explain);
                    let part = t.ok().map(|t| out::render_part(&t.placements, at, format));
                    (seen, part)
                })
                .collect::<Vec<_>>()
        };
        // Here: printed and written in path order.
        let sink = |done: Vec<(Seen, Option<Result<out::Part, out::OutError>>)>| {
            for (seen, part) in done {
                if !seen.report.is_empty() {
                    bar.suspend(|| eprint!("{}", seen.report));
                }
                totals.add(seen);
                if let Some(part) = part {
                    stream.push_part(&part?)?;
                }
            }
            Ok::<(), out::OutError>(())
        };
        scenery.place_tiles_with(&tiles, params, &|| bar.inc(1), prepare, sink)?;
        stream.finish()?.flush()?;
        Ok(())
    };
    let result = write_to(args.output.as_deref(), &mut place_all);
    bar.finish_and_clear();
    if let Err(e) = result {
        return output::fail(e);
    }
    eprint!("{}", totals.repeats.report());
    if let Some(whole) = &totals.whole {
        eprint!("{}", whole_report(whole));
    }
    let mut status = totals.status;
    if !totals.unresolved.is_empty() {
        let skipped = totals.unresolved.uses();
        let head = if skipped == totals.uses && totals.whole.is_none() {
            status = status.max(EXIT_INPUT);
            format!(
                "error: none of the {} under {} resolves, so nothing is placed:",
                plural(totals.uses, "autogen use"),
                dir.display()
            )
        } else {
            format!(
                "warning: {} of {} skipped: their assets resolve nowhere",
                plural(skipped, "use"),
                thousands(totals.uses)
            )
        };
        eprint!("{}", unresolved_report(&totals.unresolved, &head, true));
    }
    eprintln!(
        "placed {} from {}: {}, {} with errors{}, in {:.2} s",
        match (totals.tally.uses, totals.tally.definitions) {
            (_, 0) => plural(totals.placed, "use"),
            (0, n) => plural(n, "definition"),
            (u, n) => format!(
                "{} and {}",
                plural(u, "autogen use"),
                plural(n, "other definition")
            ),
        },
        plural(tiles.len(), "tile"),
        plural(totals.repeats.total(), "warning"),
        plural(totals.failed, "tile"),
        match totals.unresolved.uses() {
            0 => String::new(),
            n => format!(", {} unresolved", plural(n, "use")),
        },
        start.elapsed().as_secs_f64()
    );
    if let Some(o) = args.output.as_deref() {
        output::wrote(o, &totals.tally.to_string());
    }
    status
}
