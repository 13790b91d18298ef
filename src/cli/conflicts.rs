//! `agkit scenery conflicts --xplane DIR [--tile LAT,LON | --airport ID |
//! --bbox W,S,E,N] [--format text|json] [--fix DIR]`: what the enabled
//! packages place on the runways, helipads and pavement of the
//! installation's airports, who placed it and the exclusion that removes
//! it; `--fix` writes those exclusions as an overlay package. Exit 1 when
//! an error is found.

use super::output::{self, EXIT_INPUT, EXIT_OK};
use agkit::place::conflicts::{self, ConflictOptions, ConflictReport, Scope};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Output of `scenery conflicts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Findings for people, as a compiler prints them.
    Text,
    /// `{"airports", "findings", "missing_exclusions", "excluded", …}`.
    Json,
}

/// Arguments of `agkit scenery conflicts`.
#[derive(Debug, clap::Args)]
pub struct ConflictsArgs {
    #[command(flatten)]
    install: super::scenery::Install,
    /// Only the airports whose reference point is in the tile of this
    /// point: latitude,longitude in degrees.
    #[arg(long, value_name = "LAT,LON", allow_hyphen_values = true, conflicts_with_all = ["airport", "bbox"])]
    tile: Option<String>,
    /// Only the airport of this ID.
    #[arg(long, value_name = "ID", conflicts_with = "bbox")]
    airport: Option<String>,
    /// Only the airports whose reference point is in this box: west,
    /// south, east, north in degrees.
    #[arg(long, value_name = "W,S,E,N", allow_hyphen_values = true)]
    bbox: Option<String>,
    /// Do not place autogen uses (test the uses only, not what they place).
    #[arg(long)]
    no_autogen: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write an overlay package excluding what was found into this folder
    /// (which must not exist yet, or be empty).
    #[arg(long, value_name = "DIR")]
    fix: Option<PathBuf>,
}

fn scope(a: &ConflictsArgs) -> Result<Scope, String> {
    if let Some(t) = &a.tile {
        let p = super::coords::parse(t, "--tile", false)?;
        return Ok(Scope::Tile(agkit::dsf::Tile::of(p.lon, p.lat)));
    }
    if let Some(id) = &a.airport {
        return Ok(Scope::Airport(id.trim().to_string()));
    }
    if let Some(b) = &a.bbox {
        let v: Vec<f64> = b
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--bbox {b}: give west,south,east,north in degrees"))?;
        let [w, s, e, n] = v[..] else {
            return Err(format!("--bbox {b}: give west,south,east,north in degrees"));
        };
        if !(w < e
            && s < n
            && (-180.0..=180.0).contains(&w)
            && (-180.0..=180.0).contains(&e)
            && (-90.0..=90.0).contains(&s)
            && (-90.0..=90.0).contains(&n))
        {
            return Err(format!(
                "--bbox {b}: west < east and south < north, in range"
            ));
        }
        return Ok(Scope::Bbox([w, s, e, n]));
    }
    Ok(Scope::All)
}

/// Refuses a `--fix` folder that holds anything.
fn check_fix_folder(dir: &Path) -> Result<(), String> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(format!(
                    "{}: --fix writes a new package and this folder is not empty; \
                     name a folder that does not exist yet",
                    dir.display()
                ));
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(_) if dir.exists() => Err(format!(
            "{}: not a folder; name a folder that does not exist yet",
            dir.display()
        )),
        Err(e) => Err(format!("{}: {e}", dir.display())),
    }
}

/// Runs `agkit scenery conflicts`.
pub fn run(a: ConflictsArgs) -> u8 {
    let scope = match scope(&a) {
        Ok(s) => s,
        Err(e) => return output::fail(e),
    };
    if let Some(dir) = &a.fix
        && let Err(e) = check_fix_folder(dir)
    {
        return output::fail(e);
    }
    let scenery = match super::scenery::open(&a.install) {
        Ok(x) => x,
        Err(code) => return code,
    };
    for e in scenery.load_errors() {
        eprintln!("warning: {}: {}", e.package, e.error);
    }
    let opts = ConflictOptions {
        scope,
        params: agkit::place::Params::default(),
        expand_autogen: !a.no_autogen,
    };
    let r = match scenery.conflicts(&opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    let mut notes = String::new();
    if let Some(dir) = &a.fix {
        match write_fix(dir, &r, scenery.install().map(|i| i.custom.as_path())) {
            Ok(n) => notes = n,
            Err(e) => return output::fail(e),
        }
    }
    let bytes = match a.format {
        Format::Text => {
            let mut t = text(&r);
            t.push_str(&notes);
            t.into_bytes()
        }
        Format::Json => match serde_json::to_vec_pretty(&r) {
            Ok(mut b) => {
                b.push(b'\n');
                if !notes.is_empty() {
                    eprint!("{notes}");
                }
                b
            }
            Err(e) => return output::fail(e),
        },
    };
    match output::write_output(None, &bytes, "") {
        EXIT_OK if r.has_errors() => EXIT_INPUT,
        code => code,
    }
}

/// Writes the fix package; returns the lines saying where it goes.
fn write_fix(dir: &Path, r: &ConflictReport, custom: Option<&Path>) -> Result<String, String> {
    let tiles = conflicts::fix_tiles(r)?;
    let mut s = String::new();
    if tiles.is_empty() {
        let _ = writeln!(s, "nothing to exclude: {} not written", dir.display());
        return Ok(s);
    }
    for t in &tiles {
        let path = dir.join(&t.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        agkit::fsutil::write_atomic(&path, &t.bytes)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let n: usize = tiles.iter().map(|t| t.exclusions).sum();
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string());
    let inside = custom.and_then(|c| {
        let d = dir.canonicalize().ok()?;
        (d.parent()? == c.canonicalize().ok()?).then_some(())
    });
    let line = match inside {
        Some(()) => format!("SCENERY_PACK Custom Scenery/{name}/"),
        None => format!("SCENERY_PACK {}/", dir.display()),
    };
    let _ = writeln!(
        s,
        "wrote {} with {} in {} (read back and checked)",
        dir.display(),
        agkit::out::count(n, "exclusion"),
        agkit::out::count(tiles.len(), "DSF")
    );
    if inside.is_none() {
        let _ = writeln!(s, "move it into Custom Scenery, then:");
    }
    match &r.fix_above {
        Some(p) => {
            let _ = writeln!(
                s,
                "add to scenery_packs.ini, above the line of `{p}`:\n  {line}"
            );
        }
        None => {
            let _ = writeln!(s, "add to scenery_packs.ini:\n  {line}");
        }
    }
    Ok(s)
}

/// The findings as a compiler prints them.
pub fn text(r: &ConflictReport) -> String {
    let mut s = String::new();
    for f in &r.findings {
        let _ = writeln!(
            s,
            "{}[{}]: {} of `{}` stands {:.1} m into {} {} of {}",
            f.severity,
            f.code,
            f.kind.as_str().replace('_', " "),
            f.package,
            f.depth_m,
            f.feature.as_str(),
            f.feature_name,
            f.airport
        );
        let def = match (f.definition_index, f.entity) {
            (Some(d), Some(e)) => format!("entity {e}, definition {d}"),
            _ => "definition".to_string(),
        };
        let _ = writeln!(s, "  --> {}/{}: {def} `{}`", f.package, f.dsf, f.definition);
        if let Some(p) = &f.placed_by {
            let _ = writeln!(s, "   = placed by the autogen use `{p}`");
        }
        let _ = writeln!(
            s,
            "   = {} {} is at {}:{} ({:.6}, {:.6})",
            f.feature.as_str(),
            f.feature_name,
            f.apt_file,
            f.apt_line,
            f.at[1],
            f.at[0]
        );
        let _ = writeln!(s, "   = fix: {}\n", f.advice);
    }
    for m in &r.missing_exclusions {
        let _ = writeln!(
            s,
            "{}[{}]: `{}` defines {} but excludes nothing over it, while {} place {} there",
            m.severity,
            m.code,
            m.package,
            m.airport,
            m.packages
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", "),
            agkit::out::count(m.items, "item")
        );
        let _ = writeln!(s, "  --> {}:{}", m.apt_file, m.apt_line);
        let _ = writeln!(
            s,
            "   = fix: draw exclusion zones over the airport in `{}` (WorldEditor's exclusion tool), or use --fix\n",
            m.package
        );
    }
    let errors = r.findings.iter().filter(|f| f.severity == "error").count();
    let _ = writeln!(
        s,
        "{} looked at: {}, {} ({} errors), {} already excluded",
        agkit::out::count(r.airports.len(), "airport"),
        agkit::out::count(r.findings.len(), "item on a feature"),
        agkit::out::count(r.missing_exclusions.len(), "missing exclusion"),
        errors,
        r.excluded.len()
    );
    s
}
