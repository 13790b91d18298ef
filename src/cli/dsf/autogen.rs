//! `agkit dsf autogen`: every autogen use of a DSF, for people or as JSON.

use crate::cli::output::{self, EXIT_OK};
use agkit::dsf::{self, autogen::AutogenKind};
use clap::ValueEnum;
use std::path::Path;

/// Output style of `dsf autogen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One block per use, for people (`human` is another name for it).
    #[value(alias = "human")]
    Text,
    /// A JSON array of uses.
    Json,
}

pub fn autogen(file: &Path, format: Format) -> u8 {
    let d = match super::common::load(file) {
        Ok(d) => d,
        Err(c) => return c,
    };
    let uses = dsf::autogen_uses(&d);
    match format {
        Format::Json => match serde_json::to_string_pretty(&uses) {
            Ok(s) => println!("{s}"),
            Err(e) => return output::fail(e),
        },
        Format::Text => print!("{}", human(&uses)),
    }
    EXIT_OK
}

/// The human listing of autogen uses.
fn human(uses: &[dsf::autogen::AutogenUse]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    for (i, u) in uses.iter().enumerate() {
        let _ = writeln!(
            s,
            "#{i} {} {} (definition {})",
            u.kind.as_str(),
            u.asset,
            u.def
        );
        match u.kind {
            AutogenKind::Agp => {
                if let (Some(p), Some(h)) = (u.point, u.heading) {
                    let _ = writeln!(s, "  point {:.9} {:.9}  heading {:.3}", p[0], p[1], h);
                }
            }
            AutogenKind::Agb | AutogenKind::Ags => {
                let low = if u.kind == AutogenKind::Agb {
                    "spelling set"
                } else {
                    "spawning contours"
                };
                let _ = writeln!(
                    s,
                    "  param {}: height {} m, {low} {}",
                    u.param.unwrap_or(0),
                    u.height.unwrap_or(0.0),
                    u.low.unwrap_or(0)
                );
                for (k, w) in u.windings.iter().enumerate() {
                    let _ = writeln!(s, "  winding {k} ({} points)", w.len());
                    for p in w {
                        let _ = writeln!(s, "    {:.9} {:.9}", p[0], p[1]);
                    }
                }
            }
        }
    }
    let _ = writeln!(s, "{}", agkit::out::count(uses.len(), "autogen use"));
    s
}
