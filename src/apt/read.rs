//! Reading an `apt.dat` and checking it as it is read.
//!
//! One pass over the lines: each row is split into words, its code looked
//! up, its fields read into the model; a row that cannot be read gets a
//! diagnostic at its span and is left out (the rest of the file is still
//! read, so one report lists every problem). What the reader accepts
//! follows `ReadAptFileMem` (`src/XESCore/AptIO.cpp` in xptools): the
//! header (`A`/`a`/`I`/`i`, then a version number), the field counts per
//! row, lines whose first word is not a number skipped, nothing read after
//! `99`. Where WorldEditor refuses a whole file (an unknown row, a row
//! before any airport) agkit reports the row and reads on.

use super::spec::{self, row};
use super::{
    Airport, AirportKind, AptFile, Boundary, Helipad, LinearFeature, Metadata, Node, OtherRow,
    Path, Pavement, Runway, RunwayEnd, WaterEnd, WaterRunway, codes,
};
use crate::diag::{Diagnostic, Location, Refused, Severity};
use crate::geom::LonLat;
use crate::limits::Limits;
use crate::xptext::{Checked, Word};
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

/// Reads an `apt.dat`, refusing it (with every diagnostic, naming `file`)
/// when it has an error.
pub fn read(bytes: &[u8], file: &str, limits: &Limits) -> Result<AptFile, Refused> {
    check(bytes, limits).into_result(file)
}

/// Reads an `apt.dat`: its text, the model (unless the header is wrong) and
/// every diagnostic in file order. Memory is proportional to the input:
/// one record per row read.
pub fn check(bytes: &[u8], limits: &Limits) -> Checked<AptFile> {
    check_keeping(bytes, limits, &mut |_| true)
}

/// [`check`] keeping only the airports `keep` says yes to, each asked as
/// soon as its last row is read: what reading the airports of one tile out
/// of a whole installation's `apt.dat` needs, its memory the airports kept
/// and one more. Every airport is still checked.
pub fn check_keeping(
    bytes: &[u8],
    _limits: &Limits,
    keep: &mut dyn FnMut(&Airport) -> bool,
) -> Checked<AptFile> {
    let text = crate::xptext::text(bytes).into_owned();
    let mut diagnostics = Vec::new();
    if std::str::from_utf8(bytes).is_err() {
        diagnostics.push(Diagnostic::new(
            Severity::Warning,
            codes::BAD_UTF8,
            "the file is not UTF-8: invalid bytes are read as U+FFFD (apt.dat 1100 and later are UTF-8)",
            Location::File,
        ));
    }
    let value = Reader::new(&text, &mut diagnostics, keep).run();
    Checked {
        text,
        value,
        diagnostics,
    }
}

/// One line of the text: its 1-based number, byte offset and text without
/// the line end (LF, CRLF or a lone CR end a line).
struct RawLine<'a> {
    number: usize,
    start: usize,
    text: &'a str,
}

/// The lines of `text` from byte `from`, numbered from `first`.
fn raw_lines(text: &str, from: usize, first: usize) -> impl Iterator<Item = RawLine<'_>> {
    let b = text.as_bytes();
    let mut pos = from;
    let mut number = first;
    std::iter::from_fn(move || {
        if pos > b.len() || (pos == b.len() && pos != from) {
            return None;
        }
        let end = memchr::memchr2(b'\n', b'\r', &b[pos..]).map_or(b.len(), |k| pos + k);
        let line = RawLine {
            number,
            start: pos,
            text: &text[pos..end],
        };
        number += 1;
        pos = if end == b.len() {
            b.len() + 1
        } else if b[end] == b'\r' && b.get(end + 1) == Some(&b'\n') {
            end + 2
        } else {
            end + 1
        };
        Some(line)
    })
}

/// The feature whose nodes the next node rows add to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Pavement,
    Line,
    Boundary,
}

impl Open {
    fn noun(self) -> &'static str {
        match self {
            Open::Pavement => "pavement (110)",
            Open::Line => "linear feature (120)",
            Open::Boundary => "boundary (130)",
        }
    }
}

/// A row being read: its code, words and place.
struct Row<'a> {
    code: u32,
    words: Vec<Word<'a>>,
    text: &'a str,
    start: usize,
    line: usize,
}

impl<'a> Row<'a> {
    fn span(&self) -> Range<usize> {
        self.start..self.start + self.text.len()
    }

    /// Needs `n` words (the code included).
    fn needs(&self, n: usize, what: &str) -> Result<(), Diagnostic> {
        if self.words.len() >= n {
            return Ok(());
        }
        Err(Diagnostic::error(
            codes::MISSING_FIELD,
            format!(
                "a {what} row ({}) needs {} fields after its code, this one has {}",
                self.code,
                n - 1,
                self.words.len().saturating_sub(1)
            ),
            self.span(),
        ))
    }

    fn word(&self, i: usize) -> &'a str {
        self.words.get(i).map_or("", |w| w.text)
    }

    /// Word `i` as a finite number.
    fn number(&self, i: usize, what: &str) -> Result<f64, Diagnostic> {
        let w = self.words[i];
        match w.text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(Diagnostic::error(
                codes::NOT_A_NUMBER,
                format!("the {what} `{}` is not a number", w.text),
                w.span(),
            )),
        }
    }

    /// Word `i` as a whole number of at least 0 (a code). A code written
    /// with a fraction (`1.0`) is read as X-Plane's scanner reads it, by
    /// its whole part.
    fn code_at(&self, i: usize, what: &str) -> Result<u32, Diagnostic> {
        let v = self.number(i, what)?;
        if v < 0.0 || v > f64::from(u32::MAX) {
            let w = self.words[i];
            return Err(Diagnostic::error(
                codes::NOT_A_NUMBER,
                format!("the {what} `{}` is not a code (a whole number ≥ 0)", w.text),
                w.span(),
            ));
        }
        Ok(v as u32)
    }

    /// Words `i` and `i + 1` as latitude then longitude, on the world.
    fn lat_lon(&self, i: usize, what: &str) -> Result<LonLat, Diagnostic> {
        let lat = self.number(i, &format!("latitude of the {what}"))?;
        let lon = self.number(i + 1, &format!("longitude of the {what}"))?;
        if lat.abs() > 90.0 || lon.abs() > 180.0 {
            let span = self.words[i].start..self.words[i + 1].span().end;
            return Err(Diagnostic::error(
                codes::OFF_THE_WORLD,
                format!(
                    "the {what} at latitude {lat}, longitude {lon} is off the world \
                     (latitude within ±90°, longitude within ±180°)"
                ),
                span,
            ));
        }
        Ok([lon, lat])
    }

    /// The text from word `i` to the end of the row (empty without one).
    fn rest(&self, i: usize) -> String {
        match self.words.get(i) {
            Some(w) => self.text[w.start - self.start..].trim().to_string(),
            None => String::new(),
        }
    }
}

struct Reader<'t, 'd> {
    text: &'t str,
    diags: &'d mut Vec<Diagnostic>,
    keep: &'d mut dyn FnMut(&Airport) -> bool,
    airports: Vec<Airport>,
    /// The airport being read, with the span of its header.
    current: Option<Range<usize>>,
    open: Option<(Open, Range<usize>)>,
    seen: HashMap<String, usize>,
    counts: BTreeMap<u32, usize>,
}

impl<'t, 'd> Reader<'t, 'd> {
    fn new(
        text: &'t str,
        diags: &'d mut Vec<Diagnostic>,
        keep: &'d mut dyn FnMut(&Airport) -> bool,
    ) -> Self {
        Reader {
            text,
            diags,
            keep,
            airports: Vec::new(),
            current: None,
            open: None,
            seen: HashMap::new(),
            counts: BTreeMap::new(),
        }
    }

    fn run(mut self) -> Option<AptFile> {
        let text = self.text;
        let from = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let mut lines = raw_lines(text, from, 1);
        // The header: `A` or `I`, then the version line.
        let first = lines.next();
        let origin = first
            .as_ref()
            .map(|l| l.text.trim())
            .filter(|t| matches!(*t, "A" | "a" | "I" | "i"))
            .and_then(|t| t.chars().next());
        let Some(origin) = origin else {
            let span = first.map_or(0..0, |l| l.start..l.start + l.text.len());
            self.diags.push(Diagnostic::error(
                codes::HEADER,
                "not an apt.dat: the first line must be `A` or `I`",
                span,
            ));
            return None;
        };
        let second = lines.next();
        let version_line = second.as_ref().map_or("", |l| l.text);
        let mut words = version_line.split_whitespace();
        let Some(version) = words.next().and_then(|w| w.parse::<u32>().ok()) else {
            let span = second.map_or(text.len()..text.len(), |l| l.start..l.start + l.text.len());
            self.diags.push(Diagnostic::error(
                codes::HEADER,
                "not an apt.dat: the second line must start with the version (1000, 1100, 1200 …)",
                span,
            ));
            return None;
        };
        let second = second.expect("a version was read from it");
        let comment = version_line
            .trim_start()
            .get(version.to_string().len()..)
            .unwrap_or("")
            .trim()
            .to_string();
        if !spec::VERSIONS.contains(&version) {
            let why = if spec::OLD_VERSIONS.contains(&version) {
                "an old version: its legacy rows are kept, not read as runways"
            } else {
                "not a version X-Plane 11 or 12 writes"
            };
            self.diags.push(Diagnostic::warning(
                codes::VERSION,
                format!("version {version} is {why} (agkit reads 1000, 1050, 1100, 1130, 1200)"),
                second.start..second.start + version.to_string().len(),
            ));
        }
        let mut ended = false;
        for l in lines {
            let words: Vec<Word<'_>> = crate::xptext::Line {
                text: l.text,
                start: l.start,
            }
            .words()
            .collect();
            let Some(first) = words.first().copied() else {
                continue;
            };
            let Ok(code) = first.text.parse::<u32>() else {
                self.diags.push(Diagnostic::warning(
                    codes::UNKNOWN_ROW,
                    format!(
                        "`{}` is not a row code: WorldEditor's reader skips the line",
                        first.text
                    ),
                    first.span(),
                ));
                continue;
            };
            *self.counts.entry(code).or_default() += 1;
            let r = Row {
                code,
                words,
                text: l.text,
                start: l.start,
                line: l.number,
            };
            if code == row::END_OF_FILE {
                ended = true;
                break;
            }
            if let Err(d) = self.row(&r) {
                self.diags.push(d);
            }
        }
        self.close_feature();
        self.close_airport();
        if !ended {
            self.diags.push(Diagnostic::warning(
                codes::NO_END,
                "no `99` row ends the file (X-Plane reads up to the end anyway)",
                text.len()..text.len(),
            ));
        }
        Some(AptFile {
            origin,
            version,
            comment,
            airports: self.airports,
            ended,
            row_counts: self.counts.into_iter().collect(),
        })
    }

    fn airport(&mut self) -> &mut Airport {
        self.airports
            .last_mut()
            .expect("rows are read only inside an airport")
    }

    fn row(&mut self, r: &Row<'_>) -> Result<(), Diagnostic> {
        let code = r.code;
        if spec::is_node(code) {
            return self.node(r);
        }
        self.close_feature();
        if let Some(kind) = AirportKind::from_code(code) {
            return self.header(r, kind);
        }
        if self.current.is_none() {
            return Err(Diagnostic::error(
                codes::BEFORE_AIRPORT,
                format!(
                    "a {} row ({code}) before the first airport header (1, 16 or 17): \
                     it belongs to no airport",
                    spec::row_name(code).unwrap_or("row")
                ),
                r.span(),
            ));
        }
        match code {
            row::METADATA => {
                r.needs(2, "metadata")?;
                let m = Metadata {
                    key: r.word(1).to_string(),
                    value: r.rest(2),
                    line: r.line,
                };
                self.airport().metadata.push(m);
            }
            row::RUNWAY => {
                let rw = runway(r)?;
                if rw.ends[0].at == rw.ends[1].at {
                    self.diags.push(Diagnostic::warning(
                        codes::ZERO_LENGTH,
                        format!(
                            "runway {}/{} has both ends at the same point",
                            rw.ends[0].number, rw.ends[1].number
                        ),
                        r.span(),
                    ));
                }
                self.airport().runways.push(rw);
            }
            row::WATER_RUNWAY => {
                r.needs(spec::WATER_RUNWAY_FIELDS, "water runway")?;
                let w = WaterRunway {
                    width_m: r.number(1, "width")?,
                    buoys: r.code_at(2, "buoys flag")? != 0,
                    ends: [
                        WaterEnd {
                            number: r.word(3).to_string(),
                            at: r.lat_lon(4, "water runway end")?,
                        },
                        WaterEnd {
                            number: r.word(6).to_string(),
                            at: r.lat_lon(7, "water runway end")?,
                        },
                    ],
                    line: r.line,
                };
                self.airport().water_runways.push(w);
            }
            row::HELIPAD => {
                r.needs(spec::HELIPAD_FIELDS, "helipad")?;
                let h = Helipad {
                    designator: r.word(1).to_string(),
                    at: r.lat_lon(2, "helipad")?,
                    heading: r.number(4, "heading")?,
                    length_m: r.number(5, "length")?,
                    width_m: r.number(6, "width")?,
                    surface: r.code_at(7, "surface code")?,
                    markings: r.code_at(8, "markings code")?,
                    shoulder: r.code_at(9, "shoulder code")?,
                    smoothness: r.number(10, "smoothness")?,
                    edge_lights: r.code_at(11, "edge lighting code")?,
                    line: r.line,
                };
                self.airport().helipads.push(h);
            }
            row::PAVEMENT => {
                r.needs(4, "pavement")?;
                let p = Pavement {
                    surface: r.code_at(1, "surface code")?,
                    smoothness: r.number(2, "smoothness")?,
                    texture_heading: r.number(3, "texture heading")?,
                    name: r.rest(4),
                    rings: Vec::new(),
                    line: r.line,
                };
                self.airport().pavements.push(p);
                self.open = Some((Open::Pavement, r.span()));
            }
            row::LINEAR_FEATURE => {
                let l = LinearFeature {
                    name: r.rest(1),
                    paths: Vec::new(),
                    line: r.line,
                };
                self.airport().lines.push(l);
                self.open = Some((Open::Line, r.span()));
            }
            row::BOUNDARY => {
                let b = Boundary {
                    name: r.rest(1),
                    rings: Vec::new(),
                    line: r.line,
                };
                self.airport().boundaries.push(b);
                self.open = Some((Open::Boundary, r.span()));
            }
            _ => {
                if spec::row_name(code).is_none() {
                    self.diags.push(Diagnostic::warning(
                        codes::UNKNOWN_ROW,
                        format!(
                            "row code {code} is not in the apt.dat specification: agkit keeps \
                             the row unread (WorldEditor refuses the file)"
                        ),
                        r.words[0].span(),
                    ));
                }
                let o = OtherRow {
                    code,
                    text: r.text.trim().to_string(),
                    line: r.line,
                };
                self.airport().other.push(o);
            }
        }
        Ok(())
    }

    fn header(&mut self, r: &Row<'_>, kind: AirportKind) -> Result<(), Diagnostic> {
        self.close_airport();
        r.needs(5, "airport header")?;
        let elevation_ft = r.number(1, "elevation (feet)")?;
        let icao = r.word(4).to_string();
        if let Some(prev) = self.seen.insert(icao.clone(), r.line) {
            self.diags.push(Diagnostic::warning(
                codes::DUPLICATE_ID,
                format!(
                    "airport {icao} is already defined at line {prev} of this file; \
                     which one X-Plane keeps, no source says"
                ),
                r.words[4].span(),
            ));
        }
        self.airports.push(Airport {
            kind,
            elevation_ft,
            icao,
            name: r.rest(5),
            line: r.line,
            metadata: Vec::new(),
            runways: Vec::new(),
            water_runways: Vec::new(),
            helipads: Vec::new(),
            pavements: Vec::new(),
            lines: Vec::new(),
            boundaries: Vec::new(),
            other: Vec::new(),
        });
        self.current = Some(r.span());
        Ok(())
    }

    fn node(&mut self, r: &Row<'_>) -> Result<(), Diagnostic> {
        let Some((open, _)) = self.open.clone() else {
            return Err(Diagnostic::error(
                codes::NODE_OUTSIDE,
                format!(
                    "a {} row ({}) outside any pavement (110), linear feature (120) or \
                     boundary (130): it belongs to no path",
                    spec::row_name(r.code).unwrap_or("node"),
                    r.code
                ),
                r.span(),
            ));
        };
        let bezier = spec::is_bezier(r.code);
        r.needs(if bezier { 5 } else { 3 }, "node")?;
        let at = r.lat_lon(1, "node")?;
        let control = if bezier {
            Some(r.lat_lon(3, "bezier control point")?)
        } else {
            None
        };
        let first_attr = if bezier { 5 } else { 3 };
        let mut attributes = Vec::new();
        for i in first_attr..r.words.len() {
            attributes.push(r.code_at(i, "line or lighting code")?);
        }
        let node = Node {
            code: r.code,
            at,
            control,
            attributes,
            line: r.line,
        };
        let paths = self.paths(open);
        if paths.last().is_none_or(|p| p.ended) {
            paths.push(Path::default());
        }
        let path = paths.last_mut().expect("a path was just pushed");
        path.nodes.push(node);
        let (closes, ends) = match r.code {
            row::CLOSE | row::BEZIER_CLOSE => (true, true),
            row::END | row::BEZIER_END => (false, true),
            _ => (false, false),
        };
        if ends {
            path.closed = closes;
            path.ended = true;
            let n = path.nodes.len();
            let ring = open != Open::Line;
            if ring && !closes {
                return Err(Diagnostic::error(
                    codes::RING_OPEN_LINE,
                    format!(
                        "a {} ring is ended by a {} row, which ends an open line: a ring \
                         ends with 113 or 114",
                        open.noun(),
                        r.code
                    ),
                    r.span(),
                ));
            }
            // Two nodes with a handle make a curved loop (Laminar's own
            // test_apt.dat closes painted lines so); straight, a ring needs
            // three.
            let curved = path.nodes.iter().any(|n| n.control.is_some());
            let min = if closes && !curved { 3 } else { 2 };
            if n < min {
                return Err(Diagnostic::error(
                    codes::SHORT_RING,
                    format!(
                        "a {} {} of {n} node{}: it needs at least {min}",
                        open.noun(),
                        if closes { "ring" } else { "line" },
                        if n == 1 { "" } else { "s" }
                    ),
                    r.span(),
                ));
            }
        }
        Ok(())
    }

    fn paths(&mut self, open: Open) -> &mut Vec<Path> {
        let a = self.airport();
        match open {
            Open::Pavement => &mut a.pavements.last_mut().expect("open").rings,
            Open::Line => &mut a.lines.last_mut().expect("open").paths,
            Open::Boundary => &mut a.boundaries.last_mut().expect("open").rings,
        }
    }

    /// Ends the open feature: its last path must have been ended, and it
    /// must have one.
    fn close_feature(&mut self) {
        let Some((open, span)) = self.open.take() else {
            return;
        };
        let paths = self.paths(open);
        match paths.last() {
            None => self.diags.push(Diagnostic::warning(
                codes::EMPTY_FEATURE,
                format!(
                    "a {} with no nodes: X-Plane draws nothing of it",
                    open.noun()
                ),
                span,
            )),
            Some(p) if !p.ended => {
                let line = p.nodes.last().map_or(0, |n| n.line);
                let what = if open == Open::Line {
                    "line: its last node must be 113/114 (closed) or 115/116 (open)"
                } else {
                    "ring: its last node must be 113 or 114"
                };
                self.diags.push(Diagnostic::error(
                    codes::UNCLOSED_RING,
                    format!(
                        "this {} has an unended {what} (the path stops at line {line})",
                        open.noun()
                    ),
                    span,
                ));
            }
            Some(_) => {}
        }
    }

    /// Ends the current airport: it should have somewhere to land.
    fn close_airport(&mut self) {
        let Some(span) = self.current.take() else {
            return;
        };
        let a = self.airports.last().expect("an airport is open");
        if a.runways.is_empty() && a.water_runways.is_empty() && a.helipads.is_empty() {
            let d = Diagnostic::warning(
                codes::NO_RUNWAY,
                format!("airport {} has no runway, water runway or helipad", a.icao),
                span,
            );
            self.diags.push(d);
        }
        if !(self.keep)(a) {
            self.airports.pop();
        }
    }
}

/// A land runway row (100).
fn runway(r: &Row<'_>) -> Result<Runway, Diagnostic> {
    r.needs(spec::RUNWAY_FIELDS, "land runway")?;
    let end = |k: usize| -> Result<RunwayEnd, Diagnostic> {
        Ok(RunwayEnd {
            number: r.word(k).to_string(),
            at: r.lat_lon(k + 1, &format!("runway end {}", r.word(k)))?,
            displaced_m: r.number(k + 3, "displaced threshold")?,
            overrun_m: r.number(k + 4, "overrun")?,
            markings: r.code_at(k + 5, "markings code")?,
            approach_lights: r.code_at(k + 6, "approach lighting code")?,
            tdz_lights: r.code_at(k + 7, "touchdown zone lighting flag")? != 0,
            reil: r.code_at(k + 8, "REIL code")?,
        })
    };
    Ok(Runway {
        width_m: r.number(1, "width")?,
        surface: r.code_at(2, "surface code")?,
        shoulder: r.code_at(3, "shoulder code")?,
        smoothness: r.number(4, "smoothness")?,
        centre_lights: r.code_at(5, "centre-line lights flag")? != 0,
        edge_lights: r.code_at(6, "edge lighting code")?,
        distance_signs: r.code_at(7, "distance signs flag")? != 0,
        ends: [end(8)?, end(17)?],
        line: r.line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes_of(text: &str) -> Vec<String> {
        check(text.as_bytes(), &Limits::default())
            .diagnostics
            .into_iter()
            .map(|d| d.code.to_string())
            .collect()
    }

    const RWY: &str = "100 30 1 0 0.25 0 0 0 09 47.0 13.0 0 0 0 0 0 0 27 47.0 13.01 0 0 0 0 0 0";

    #[test]
    fn lines_are_numbered_across_every_line_ending() {
        let t = "a\r\nb\rc\n\nd";
        let v: Vec<(usize, &str)> = raw_lines(t, 0, 1).map(|l| (l.number, l.text)).collect();
        assert_eq!(v, [(1, "a"), (2, "b"), (3, "c"), (4, ""), (5, "d")]);
    }

    #[test]
    fn a_clean_airport_has_no_diagnostics() {
        let t = format!(
            "I\n1100 x\n\n1 10 0 0 XTST Test field\n1302 city Somewhere Else\n{RWY}\n\
             110 1 0.25 90 Apron\n111 47.001 13.0\n112 47.001 13.001 47.0015 13.001\n\
             113 47.0005 13.001\n120 Line\n111 47.0 13.0 1\n115 47.0 13.001 1 102\n\
             130 Boundary\n111 47.0 13.0\n111 47.01 13.0\n113 47.01 13.01\n99\n"
        );
        let c = check(t.as_bytes(), &Limits::default());
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        let f = c.value.unwrap();
        let a = &f.airports[0];
        assert_eq!((a.icao.as_str(), a.name.as_str()), ("XTST", "Test field"));
        assert_eq!(a.meta("city"), Some("Somewhere Else"));
        assert_eq!(a.pavements[0].rings[0].nodes.len(), 3);
        assert!(a.pavements[0].rings[0].closed);
        assert_eq!(
            a.pavements[0].rings[0].nodes[1].control,
            Some([13.001, 47.0015])
        );
        assert_eq!(a.lines[0].paths[0].nodes[1].attributes, [1, 102]);
        assert!(!a.lines[0].paths[0].closed);
        assert_eq!(a.boundaries[0].line, 14);
        assert!(f.ended);
        assert!((a.runways[0].length_m() - 760.0).abs() < 5.0);
    }

    #[test]
    fn problems_are_found_at_their_rows() {
        assert_eq!(codes_of("X\n1100\n"), ["APT001"]);
        assert_eq!(codes_of("I\nversion\n"), ["APT001"]);
        assert_eq!(
            codes_of(&format!("I\n900\n1 0 0 0 X\n{RWY}\n99\n")),
            ["APT002"]
        );
        assert_eq!(codes_of(&format!("I\n1100\n{RWY}\n99\n")), ["APT009"]);
        let head = format!("I\n1100\n1 0 0 0 X n\n{RWY}\n");
        let with = |rows: &str| codes_of(&format!("{head}{rows}\n99\n"));
        assert_eq!(with("7777 x"), ["APT003"]);
        assert_eq!(with("100 30 1"), ["APT004"]);
        assert_eq!(with("102 H1 47 13 0 10 10 1 0 0 x 0"), ["APT005"]);
        assert_eq!(with("102 H1 97 13 0 10 10 1 0 0 0 0"), ["APT006"]);
        assert_eq!(
            with("110 1 0 0 a\n111 47 13\n111 47.1 13\n111 47 13.1"),
            ["APT007"]
        );
        assert_eq!(with("111 47 13"), ["APT008"]);
        assert_eq!(with("130 b\n111 47 13\n113 47.1 13"), ["APT010"]);
        assert_eq!(
            with("120 loop\n112 47 13 47 13.1\n114 47.1 13 47.1 12.9"),
            [] as [&str; 0]
        );
        assert_eq!(codes_of(&head), ["APT011"]);
        assert_eq!(
            with("1 0 0 0 X again\n102 H1 47 13 0 10 10 1 0 0 0 0"),
            ["APT012"]
        );
        assert_eq!(
            with("100 30 1 0 0.25 0 0 0 09 47.0 13.0 0 0 0 0 0 0 27 47.0 13.0 0 0 0 0 0 0"),
            ["APT013"]
        );
        assert_eq!(with("1 0 0 0 Y none"), ["APT014"]);
        assert_eq!(with("120 nothing"), ["APT015"]);
        assert_eq!(
            with("130 b\n111 47 13\n111 47.1 13\n115 47 13.1"),
            ["APT017"]
        );
    }

    #[test]
    fn every_rule_is_documented_once() {
        let doc = include_str!("../../docs/diagnostics.md");
        let mut seen = std::collections::HashSet::new();
        for r in super::super::RULES {
            assert!(seen.insert(r.code), "{} twice", r.code);
            let row = format!("| {} | {} |", r.code, r.severity.as_str());
            assert!(doc.contains(&row), "docs/diagnostics.md lacks `{row}`");
        }
    }

    #[test]
    fn invalid_utf8_is_a_warning_and_the_rest_is_read() {
        let mut b = b"I\n1100\n1 0 0 0 X caf".to_vec();
        b.push(0xE9);
        b.extend_from_slice(format!("\n{RWY}\n99\n").as_bytes());
        let c = check(&b, &Limits::default());
        let codes: Vec<&str> = c.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["APT016"]);
        assert_eq!(c.value.unwrap().airports[0].name, "caf\u{fffd}");
    }
}
