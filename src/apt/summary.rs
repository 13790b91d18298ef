//! What `agkit info` says about an `apt.dat`: its version and, per airport,
//! what it holds.

use super::AptFile;
use serde::Serialize;

/// The summary of one airport.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AirportSummary {
    /// Its ID.
    pub icao: String,
    /// Its name.
    pub name: String,
    /// `land`, `seaport` or `heliport`.
    pub kind: &'static str,
    /// Elevation, feet.
    pub elevation_ft: f64,
    /// 1-based line of its header.
    pub line: usize,
    /// Land runways, by their end numbers (`09/27`).
    pub runways: Vec<String>,
    /// Water runways.
    pub water_runways: usize,
    /// Helipads.
    pub helipads: usize,
    /// Pavement areas.
    pub pavements: usize,
    /// Linear features.
    pub lines: usize,
    /// Boundaries.
    pub boundaries: usize,
    /// Metadata rows.
    pub metadata: usize,
    /// Other rows (signs, frequencies, taxi network, start-ups …).
    pub other_rows: usize,
}

/// The summary of an `apt.dat`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Always `apt.dat`.
    pub format: &'static str,
    /// The version.
    pub version: u32,
    /// The rest of the version line.
    pub comment: String,
    /// Each airport.
    pub airports: Vec<AirportSummary>,
    /// Rows read per code.
    pub rows: Vec<(u32, usize)>,
    /// Errors found.
    pub errors: usize,
    /// Warnings found.
    pub warnings: usize,
}

impl Summary {
    /// The summary of `f`, with the counts of its diagnostics.
    pub fn of(f: &AptFile, errors: usize, warnings: usize) -> Summary {
        Summary {
            format: "apt.dat",
            version: f.version,
            comment: f.comment.clone(),
            airports: f
                .airports
                .iter()
                .map(|a| AirportSummary {
                    icao: a.icao.clone(),
                    name: a.name.clone(),
                    kind: a.kind.as_str(),
                    elevation_ft: a.elevation_ft,
                    line: a.line,
                    runways: a
                        .runways
                        .iter()
                        .map(|r| format!("{}/{}", r.ends[0].number, r.ends[1].number))
                        .collect(),
                    water_runways: a.water_runways.len(),
                    helipads: a.helipads.len(),
                    pavements: a.pavements.len(),
                    lines: a.lines.len(),
                    boundaries: a.boundaries.len(),
                    metadata: a.metadata.len(),
                    other_rows: a.other.len(),
                })
                .collect(),
            rows: f.row_counts.clone(),
            errors,
            warnings,
        }
    }

    /// A few aligned lines for people.
    pub fn to_human(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "format     apt.dat {} ({})", self.version, self.comment);
        let _ = writeln!(
            s,
            "airports   {}",
            crate::ground::words::count(self.airports.len(), "airport")
        );
        for a in &self.airports {
            let _ = writeln!(
                s,
                "  {:<8} {} ({}, {} ft, line {})",
                a.icao, a.name, a.kind, a.elevation_ft, a.line
            );
            let mut parts = Vec::new();
            if !a.runways.is_empty() {
                parts.push(format!("runways {}", a.runways.join(" ")));
            }
            for (n, what) in [
                (a.water_runways, "water runway"),
                (a.helipads, "helipad"),
                (a.pavements, "pavement"),
                (a.lines, "line"),
                (a.boundaries, "boundary"),
                (a.metadata, "metadata row"),
                (a.other_rows, "other row"),
            ] {
                if n > 0 {
                    let many = match what {
                        "boundary" => "boundaries".to_string(),
                        w => format!("{w}s"),
                    };
                    parts.push(format!("{n} {}", if n == 1 { what } else { &many }));
                }
            }
            if !parts.is_empty() {
                let _ = writeln!(s, "           {}", parts.join(", "));
            }
        }
        let _ = writeln!(
            s,
            "problems   {}, {}",
            crate::ground::words::count(self.errors, "error"),
            crate::ground::words::count(self.warnings, "warning")
        );
        s
    }
}
