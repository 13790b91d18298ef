//! The `library.txt` reader: every directive X-Plane knows, kept in file
//! order with the region and status in force at each export.
//!
//! A `library.txt` sits at the root of a scenery package. Its three header
//! lines are `A` or `I`, the version (`800`, or `1200` for files using the
//! seasonal exports) and `LIBRARY`; then one directive per line (space or
//! tab separated, CR LF or LF, `#` starts a comment line):
//!
//! | Directive | Meaning |
//! |---|---|
//! | `EXPORT v r` | `r` (a file of the package) is one alternative for the virtual path `v` |
//! | `EXPORT_EXCLUDE v r` | as `EXPORT`, and it hides the package's other exports of `v` |
//! | `EXPORT_EXTEND v r` | adds `r` without replacing lower-priority packages' exports |
//! | `EXPORT_BACKUP v r` | used only when nothing else exports `v` |
//! | `EXPORT_RATIO w v r` | as `EXPORT`, picked with weight `w` (others weigh 1) |
//! | `EXPORT_SEASON s v r`, `EXPORT_EXCLUDE_SEASON`, `EXPORT_EXTEND_SEASON` | X-Plane 12: only in the seasons `s` (comma-separated) |
//! | `REGION_DEFINE name` | starts a region; the `REGION_*` lines after it describe it |
//! | `REGION_RECT w s e n` | the tiles whose south-west corner lies in `w..=e`, `s..=n` |
//! | `REGION_BITMAP file` | the tiles marked in a world bitmap of the package |
//! | `REGION_ALL` | every tile |
//! | `REGION_DREF dataref op value` | and only while the comparison holds (`==` `!=` `<` `<=` `>` `>=`); several stack |
//! | `REGION name` | the exports below apply only in that region |
//! | `PUBLIC [date]`, `PRIVATE`, `DEPRECATED`, `SEMI_DEPRECATED` | how WorldEditor lists the exports below |
//!
//! The virtual path is one token; the real path is the rest of the line and
//! may hold spaces. Backslashes in either are read as `/`. Problems are
//! [`Diagnostic`]s with codes `LIB001`… and byte spans, so they print as
//! `file:line:column` like every other agkit report.

use super::rules::library::codes;
use crate::check::Contents;
use crate::diag::{Diagnostic, Severity};
use std::ops::Range;

/// Most bytes of a `library.txt` read (the largest real one, OpenSceneryX,
/// is 1.7 MB).
pub const MAX_LIBRARY_BYTES: u64 = 64 << 20;

/// How an export line adds its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ExportKind {
    /// `EXPORT` (and `EXPORT_SEASON`).
    Export,
    /// `EXPORT_EXCLUDE` (and `EXPORT_EXCLUDE_SEASON`).
    ExportExclude,
    /// `EXPORT_EXTEND` (and `EXPORT_EXTEND_SEASON`).
    ExportExtend,
    /// `EXPORT_BACKUP`.
    ExportBackup,
    /// `EXPORT_RATIO`.
    ExportRatio,
}

impl ExportKind {
    /// The directive as written (without a `_SEASON` suffix).
    pub fn as_str(self) -> &'static str {
        match self {
            ExportKind::Export => "EXPORT",
            ExportKind::ExportExclude => "EXPORT_EXCLUDE",
            ExportKind::ExportExtend => "EXPORT_EXTEND",
            ExportKind::ExportBackup => "EXPORT_BACKUP",
            ExportKind::ExportRatio => "EXPORT_RATIO",
        }
    }
}

/// How WorldEditor lists the exports after a status directive. The
/// simulator resolves every status alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// `PUBLIC` (the default).
    #[default]
    Public,
    /// `PRIVATE`: hidden in WorldEditor.
    Private,
    /// `DEPRECATED`: hidden in WorldEditor, kept for old scenery.
    Deprecated,
    /// `SEMI_DEPRECATED`: listed but discouraged.
    SemiDeprecated,
}

/// One export line.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// Which directive.
    pub kind: ExportKind,
    /// Weight of the random pick (`EXPORT_RATIO`'s, else 1).
    pub weight: f64,
    /// The seasons of an `EXPORT_*_SEASON` line, as written.
    pub seasons: Option<Vec<String>>,
    /// The virtual path, `\` read as `/`.
    pub virtual_path: String,
    /// The file, relative to the package root, `\` read as `/`.
    pub real_path: String,
    /// 1-based line.
    pub line: usize,
    /// Byte span of the line in the file.
    pub span: Range<usize>,
    /// Index into [`LibraryFile::regions`] of the `REGION` in force, `None`
    /// before any `REGION` line (everywhere).
    pub region: Option<usize>,
    /// The status in force.
    pub status: Status,
}

impl Export {
    /// True when the real path climbs out of the package (`../`), which
    /// Laminar says never to do.
    pub fn leaves_package(&self) -> bool {
        leaves_root(&self.real_path)
    }

    /// True when the real path is absolute or names a drive
    /// ([`is_absolute`]): never followed.
    pub fn is_absolute(&self) -> bool {
        is_absolute(&self.real_path)
    }
}

/// A comparison in `REGION_DREF`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum CmpOp {
    /// `==`
    #[serde(rename = "==")]
    Eq,
    /// `!=`
    #[serde(rename = "!=")]
    Ne,
    /// `<`
    #[serde(rename = "<")]
    Lt,
    /// `<=`
    #[serde(rename = "<=")]
    Le,
    /// `>`
    #[serde(rename = ">")]
    Gt,
    /// `>=`
    #[serde(rename = ">=")]
    Ge,
}

impl CmpOp {
    fn parse(s: &str) -> Option<CmpOp> {
        Some(match s {
            "==" => CmpOp::Eq,
            "!=" => CmpOp::Ne,
            "<" => CmpOp::Lt,
            "<=" => CmpOp::Le,
            ">" => CmpOp::Gt,
            ">=" => CmpOp::Ge,
            _ => return None,
        })
    }

    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// `a op b`.
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

/// One `REGION_DREF` condition.
#[derive(Debug, Clone, PartialEq)]
pub struct DrefCondition {
    /// The dataref name.
    pub dataref: String,
    /// The comparison.
    pub op: CmpOp,
    /// The value compared with.
    pub value: f64,
    /// 1-based line.
    pub line: usize,
}

impl std::fmt::Display for DrefCondition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.dataref, self.op.as_str(), self.value)
    }
}

/// A region: an area of 1°×1° tiles and the dataref conditions stacked on
/// it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Region {
    /// The name given by `REGION_DEFINE`.
    pub name: String,
    /// 1-based line of the `REGION_DEFINE`.
    pub line: usize,
    /// `REGION_RECT` west, south, east, north (tile corners, inclusive).
    pub rects: Vec<[i32; 4]>,
    /// True after `REGION_ALL`.
    pub all: bool,
    /// `REGION_BITMAP` files (relative to the package).
    pub bitmaps: Vec<String>,
    /// `REGION_DREF` conditions; all must hold.
    pub drefs: Vec<DrefCondition>,
    /// False for a name used by `REGION` without a `REGION_DEFINE`.
    pub defined: bool,
}

impl Region {
    /// True when the region covers every tile by `REGION_ALL` or a
    /// `REGION_RECT` spanning the globe.
    pub fn is_global(&self) -> bool {
        self.all
            || self
                .rects
                .iter()
                .any(|r| r[0] <= -180 && r[1] <= -90 && r[2] >= 179 && r[3] >= 89)
    }

    /// Whether the tile with south-west corner (`west`, `south`) lies in the
    /// region's rectangles (`Some`), or `None` when only a bitmap could
    /// tell.
    pub fn covers(&self, west: i32, south: i32) -> Option<bool> {
        if self.is_global()
            || self
                .rects
                .iter()
                .any(|r| (r[0]..=r[2]).contains(&west) && (r[1]..=r[3]).contains(&south))
        {
            return Some(true);
        }
        if self.bitmaps.is_empty() {
            Some(false)
        } else {
            None
        }
    }
}

/// The header of a `library.txt`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    /// `A` or `I` (line ending convention of the author's platform).
    pub origin: String,
    /// The version (`800`, `1200`).
    pub version: u32,
}

/// A parsed `library.txt`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LibraryFile {
    /// The header, when it was readable.
    pub header: Option<Header>,
    /// Export lines in file order.
    pub exports: Vec<Export>,
    /// Regions in `REGION_DEFINE` order.
    pub regions: Vec<Region>,
    /// Problems found, in file order.
    pub diagnostics: Vec<Diagnostic>,
}

impl LibraryFile {
    /// True when a diagnostic is an error (X-Plane rejects the file or a
    /// line of it).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// True when the header is wrong, so X-Plane ignores the whole file.
    pub fn header_rejected(&self) -> bool {
        self.header.is_none()
    }
}

/// `\` read as `/`; surrounding spaces dropped.
pub fn normalize(p: &str) -> String {
    p.trim()
        .chars()
        .map(|c| if c == '\\' { '/' } else { c })
        .collect()
}

/// True for a path that names a place of its own instead of one in the
/// package: `/abs/x.obj`, `//server/x.obj` (a `\\server\x.obj` read with
/// `/`), or a drive letter (`C:/x.obj`, `C:x.obj`). agkit never follows
/// one.
pub fn is_absolute(path: &str) -> bool {
    let b = path.trim_start().as_bytes();
    b.first() == Some(&b'/') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
}

/// True when a relative path climbs above its root (`../x`, `a/../../x`),
/// or the path is absolute ([`is_absolute`]).
pub fn leaves_root(path: &str) -> bool {
    let mut depth = 0i64;
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                depth -= 1;
                if depth < 0 {
                    return true;
                }
            }
            _ => depth += 1,
        }
    }
    is_absolute(path)
}

/// The lines of a text file (after a byte-order mark), each with the byte
/// offset where it starts. Lines end in LF, CR LF or a lone CR: old Mac
/// files (one of the corpus libraries) use CR alone.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let bytes = text.as_bytes();
    let mut at = start;
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        let s = at;
        let mut e = s;
        while e < bytes.len() && bytes[e] != b'\n' && bytes[e] != b'\r' {
            e += 1;
        }
        at = e;
        if at < bytes.len() && bytes[at] == b'\r' {
            at += 1;
        }
        if at < bytes.len() && bytes[at] == b'\n' && (at == e || bytes[at - 1] == b'\r') {
            at += 1;
        }
        Some((s, &text[s..e]))
    })
}

/// 1-based line and column of a byte offset, counting lines as [`lines`]
/// does.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut last = (1, 0);
    for (i, (start, _)) in lines(text).enumerate() {
        if start > offset {
            break;
        }
        last = (i + 1, start);
    }
    let col = text
        .get(last.1..offset.min(text.len()))
        .map_or(1, |t| t.chars().count() + 1);
    (last.0, col)
}

/// Why `text` is not `what` when its first bytes show it to be another kind
/// of file agkit can name (a DSF, an image, binary data …): `not {what}: it
/// is …`. `None` for `own` and for any other text, which the reader
/// explains line by line.
pub(crate) fn foreign(text: &str, what: &str, own: Contents) -> Option<String> {
    Contents::of(text.as_bytes()).refusal(what, &[own])
}

/// Most characters of a file's text quoted in a message.
const QUOTED_CHARS: usize = 200;

/// File text as a message quotes it: a damaged file's "line" can be
/// megabytes, so at most [`QUOTED_CHARS`] characters, then `…`.
pub(crate) fn quote(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]).into(),
        None => text.into(),
    }
}

/// Splits off the first whitespace-separated token: (token, its byte range
/// in `line` from `at`, the rest after the separating blanks).
fn token(line: &str, at: usize) -> Option<(&str, Range<usize>, usize)> {
    let bytes = line.as_bytes();
    let mut s = at;
    while s < bytes.len() && (bytes[s] == b' ' || bytes[s] == b'\t') {
        s += 1;
    }
    if s >= bytes.len() {
        return None;
    }
    let mut e = s;
    while e < bytes.len() && bytes[e] != b' ' && bytes[e] != b'\t' {
        e += 1;
    }
    Some((&line[s..e], s..e, e))
}

/// Reads a `library.txt`. It never fails: what cannot be read is a
/// diagnostic, and the rest is kept.
pub fn parse(text: &str) -> LibraryFile {
    if let Some(why) = foreign(text, "a library list (library.txt)", Contents::Library) {
        let mut file = LibraryFile::default();
        file.diagnostics.push(Diagnostic::new(
            Severity::Error,
            codes::HEADER,
            format!("{why}; X-Plane ignores it"),
            crate::diag::Location::File,
        ));
        return file;
    }
    let mut p = Parser {
        file: LibraryFile::default(),
        define: None,
        region: None,
        status: Status::Public,
    };
    let mut header: Vec<(usize, Range<usize>, &str)> = Vec::new();
    for (i, (start, line)) in lines(text).enumerate() {
        let span = start..start + line.len();
        if header.len() < 3 {
            if line.trim().is_empty() {
                continue;
            }
            header.push((i + 1, span, line.trim()));
            if header.len() == 3 {
                p.header(&header);
            }
            continue;
        }
        p.line(i + 1, line, start);
    }
    if header.len() < 3 {
        p.file.diagnostics.push(Diagnostic::new(
            Severity::Error,
            codes::HEADER,
            "the file ends before its 3-line header (`A` or `I`, `800`, `LIBRARY`); \
             X-Plane ignores it",
            crate::diag::Location::File,
        ));
    }
    empty_regions(&mut p.file);
    p.file
}

struct Parser {
    file: LibraryFile,
    /// The region being defined (index), if any.
    define: Option<usize>,
    /// The region in force for exports.
    region: Option<usize>,
    status: Status,
}

impl Parser {
    fn diag(&mut self, severity: Severity, code: &'static str, msg: String, span: Range<usize>) {
        self.file.diagnostics.push(Diagnostic::new(
            severity,
            code,
            msg,
            crate::diag::Location::Span(span),
        ));
    }

    fn header(&mut self, lines: &[(usize, Range<usize>, &str)]) {
        let [(_, s1, l1), (_, s2, l2), (_, s3, l3)] = lines else {
            return;
        };
        let mut ok = true;
        if *l1 != "A" && *l1 != "I" {
            self.diag(
                Severity::Error,
                codes::HEADER,
                format!(
                    "line 1 must be `A` or `I`, not `{}`; X-Plane ignores this library",
                    quote(l1)
                ),
                s1.clone(),
            );
            ok = false;
        }
        let version = l2
            .split_whitespace()
            .next()
            .and_then(|v| v.parse::<u32>().ok());
        match version {
            Some(800 | 1200) => {}
            _ => {
                self.diag(
                    Severity::Error,
                    codes::HEADER,
                    format!("line 2 must be the version `800` (or `1200`), not `{}`; X-Plane ignores this library", quote(l2)),
                    s2.clone(),
                );
                ok = false;
            }
        }
        if l3.split_whitespace().next() != Some("LIBRARY") {
            self.diag(
                Severity::Error,
                codes::HEADER,
                format!(
                    "line 3 must be `LIBRARY`, not `{}`; X-Plane ignores this library",
                    quote(l3)
                ),
                s3.clone(),
            );
            ok = false;
        }
        if ok {
            self.file.header = Some(Header {
                origin: (*l1).to_string(),
                version: version.unwrap_or(800),
            });
        }
    }

    fn line(&mut self, no: usize, line: &str, start: usize) {
        let Some((word, wspan, after)) = token(line, 0) else {
            return;
        };
        if word.starts_with('#') {
            return;
        }
        let abs = |r: Range<usize>| start + r.start..start + r.end;
        let whole = abs(wspan.start..line.trim_end().len());
        match word {
            "EXPORT" | "EXPORT_EXCLUDE" | "EXPORT_EXTEND" | "EXPORT_BACKUP" => {
                let kind = match word {
                    "EXPORT" => ExportKind::Export,
                    "EXPORT_EXCLUDE" => ExportKind::ExportExclude,
                    "EXPORT_EXTEND" => ExportKind::ExportExtend,
                    _ => ExportKind::ExportBackup,
                };
                self.export(no, line, start, after, kind, 1.0, None, whole);
            }
            "EXPORT_SEASON" | "EXPORT_EXCLUDE_SEASON" | "EXPORT_EXTEND_SEASON" => {
                let kind = match word {
                    "EXPORT_SEASON" => ExportKind::Export,
                    "EXPORT_EXCLUDE_SEASON" => ExportKind::ExportExclude,
                    _ => ExportKind::ExportExtend,
                };
                let Some((seasons, _, after)) = token(line, after) else {
                    return self.too_few(word, "a season list, a virtual path and a file", whole);
                };
                let seasons = seasons
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                self.export(no, line, start, after, kind, 1.0, Some(seasons), whole);
            }
            "EXPORT_RATIO" => {
                let Some((ratio, rspan, after)) = token(line, after) else {
                    return self.too_few(word, "a ratio, a virtual path and a file", whole);
                };
                match ratio.parse::<f64>() {
                    Ok(w) if w.is_finite() && w > 0.0 => self.export(
                        no,
                        line,
                        start,
                        after,
                        ExportKind::ExportRatio,
                        w,
                        None,
                        whole,
                    ),
                    _ => self.diag(
                        Severity::Error,
                        codes::BAD_RATIO,
                        format!(
                            "EXPORT_RATIO needs a positive number, not `{}`; the line is ignored",
                            quote(ratio)
                        ),
                        abs(rspan),
                    ),
                }
            }
            "REGION_DEFINE" => match token(line, after) {
                Some((name, _, _)) => {
                    self.file.regions.push(Region {
                        name: name.to_string(),
                        line: no,
                        defined: true,
                        ..Region::default()
                    });
                    self.define = Some(self.file.regions.len() - 1);
                }
                None => self.too_few(word, "a region name", whole),
            },
            "REGION_RECT" | "REGION_BITMAP" | "REGION_ALL" | "REGION_DREF" => {
                let Some(k) = self.define else {
                    return self.diag(
                        Severity::Warning,
                        codes::REGION_FIRST,
                        format!(
                            "{word} before any REGION_DEFINE describes no region; it is ignored"
                        ),
                        whole,
                    );
                };
                self.region_line(no, word, line, after, k, whole);
            }
            "REGION" => match token(line, after) {
                Some((name, nspan, _)) => {
                    match self.file.regions.iter().rposition(|r| r.name == name) {
                        Some(k) => self.region = Some(k),
                        None => {
                            self.diag(
                                Severity::Warning,
                                codes::UNDEFINED_REGION,
                                format!("REGION `{}` was not defined by a REGION_DEFINE above; the exports below it apply nowhere", quote(name)),
                                abs(nspan),
                            );
                            self.file.regions.push(Region {
                                name: name.to_string(),
                                line: no,
                                ..Region::default()
                            });
                            self.region = Some(self.file.regions.len() - 1);
                        }
                    }
                    self.define = None;
                }
                None => self.too_few(word, "a region name", whole),
            },
            "PUBLIC" => self.status = Status::Public,
            "PRIVATE" => self.status = Status::Private,
            "DEPRECATED" => self.status = Status::Deprecated,
            "SEMI_DEPRECATED" => self.status = Status::SemiDeprecated,
            "A" | "I" | "800" | "1200" | "LIBRARY" => self.diag(
                Severity::Warning,
                codes::UNKNOWN,
                format!(
                    "`{word}` repeats a header line inside the file (two libraries pasted \
                     together?); X-Plane ignores the line"
                ),
                abs(wspan),
            ),
            _ => self.diag(
                Severity::Warning,
                codes::UNKNOWN,
                format!(
                    "unknown directive `{}`; X-Plane ignores the line",
                    quote(word)
                ),
                abs(wspan),
            ),
        }
    }

    fn too_few(&mut self, word: &str, wants: &str, span: Range<usize>) {
        self.diag(
            Severity::Error,
            codes::NO_PATHS,
            format!("{word} needs {wants}; the line is ignored"),
            span,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn export(
        &mut self,
        no: usize,
        line: &str,
        start: usize,
        after: usize,
        kind: ExportKind,
        weight: f64,
        seasons: Option<Vec<String>>,
        whole: Range<usize>,
    ) {
        let Some((vpath, _, after)) = token(line, after) else {
            return self.too_few(kind.as_str(), "a virtual path and a file", whole);
        };
        let real = line[after..].trim();
        if real.is_empty() {
            return self.diag(
                Severity::Error,
                codes::NO_PATHS,
                format!(
                    "{} `{}` names no file after the virtual path (a space missing?); \
                     the line is ignored",
                    kind.as_str(),
                    quote(vpath)
                ),
                whole,
            );
        }
        let real_at = start + after + (line[after..].len() - line[after..].trim_start().len());
        let export = Export {
            kind,
            weight,
            seasons,
            virtual_path: normalize(vpath),
            real_path: normalize(real),
            line: no,
            span: whole,
            region: self.region,
            status: self.status,
        };
        if export.leaves_package() {
            self.diag(
                Severity::Warning,
                codes::LEAVES_PACKAGE,
                format!(
                    "`{}` leaves the package: a library must export only its own files \
                     (Laminar: \"do not reference libraries by file path\")",
                    quote(&export.real_path)
                ),
                real_at..real_at + real.len(),
            );
        }
        self.file.exports.push(export);
    }

    fn region_line(
        &mut self,
        no: usize,
        word: &str,
        line: &str,
        after: usize,
        k: usize,
        whole: Range<usize>,
    ) {
        let args: Vec<&str> = line[after..].split_whitespace().collect();
        match word {
            "REGION_ALL" => self.file.regions[k].all = true,
            "REGION_BITMAP" => {
                let file = line[after..].trim();
                if file.is_empty() {
                    return self.too_few(word, "a bitmap file", whole);
                }
                self.file.regions[k].bitmaps.push(normalize(file));
            }
            "REGION_RECT" => {
                let v: Option<Vec<i32>> = args.iter().map(|a| a.parse::<i32>().ok()).collect();
                match v.as_deref() {
                    Some(&[w, s, e, n])
                        if w <= e
                            && s <= n
                            && (-180..=180).contains(&w)
                            && (-180..=180).contains(&e)
                            && (-90..=90).contains(&s)
                            && (-90..=90).contains(&n) =>
                    {
                        self.file.regions[k].rects.push([w, s, e, n]);
                    }
                    _ => self.diag(
                        Severity::Error,
                        codes::BAD_RECT,
                        format!(
                            "REGION_RECT needs 4 whole degrees west south east north \
                             (west <= east, south <= north), not `{}`; the line is ignored",
                            quote(&args.join(" "))
                        ),
                        whole,
                    ),
                }
            }
            _ => {
                // REGION_DREF dataref op value
                let cond = match args.as_slice() {
                    [d, op, v] => CmpOp::parse(op).and_then(|op| {
                        v.parse::<f64>()
                            .ok()
                            .filter(|v| v.is_finite())
                            .map(|value| DrefCondition {
                                dataref: (*d).to_string(),
                                op,
                                value,
                                line: no,
                            })
                    }),
                    _ => None,
                };
                match cond {
                    Some(c) => self.file.regions[k].drefs.push(c),
                    None => self.diag(
                        Severity::Error,
                        codes::BAD_DREF,
                        format!(
                            "REGION_DREF needs `dataref op value` with op one of == != < <= > >=, \
                             not `{}`; the line is ignored",
                            quote(&args.join(" "))
                        ),
                        whole,
                    ),
                }
            }
        }
    }
}

/// `LIB010` for regions that describe no tiles (no `REGION_RECT`,
/// `REGION_BITMAP` or `REGION_ALL`) but have exports under them.
fn empty_regions(file: &mut LibraryFile) {
    let mut used = vec![false; file.regions.len()];
    for e in &file.exports {
        if let Some(r) = e.region {
            used[r] = true;
        }
    }
    for (k, r) in file.regions.iter().enumerate() {
        if used[k] && r.defined && !r.is_global() && r.rects.is_empty() && r.bitmaps.is_empty() {
            file.diagnostics.push(Diagnostic::new(
                Severity::Warning,
                codes::EMPTY_REGION,
                format!(
                    "region `{}` (line {}) has no REGION_RECT, REGION_BITMAP or REGION_ALL, \
                     so the exports under it apply on no tile",
                    r.name, r.line
                ),
                crate::diag::Location::File,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_directive() {
        let f = parse(
            "A\r\n800\r\nLIBRARY\r\n\r\n# c\r\nEXPORT lib/a.agp real/a b.agp\r\n\
             EXPORT_RATIO 2.5 lib\\a.agp x\\y.agp\r\nEXPORT_EXTEND lib/a.agp e.agp\r\n\
             EXPORT_BACKUP lib/b.agp b.agp\r\nREGION_DEFINE r\r\nREGION_RECT 6 47 15 55\r\n\
             REGION_DREF sim/time/local_date_days >= 165\r\nREGION_DREF x/y != 0.5\r\n\
             REGION r\r\nDEPRECATED\r\nEXPORT_EXCLUDE\tlib/c.obj\t\tc.obj \r\n\
             EXPORT_SEASON sum,win lib/d.obj d.obj\r\n",
        );
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
        assert_eq!(f.header.as_ref().unwrap().version, 800);
        let e = &f.exports;
        assert_eq!(e.len(), 6);
        assert_eq!((e[0].real_path.as_str(), e[0].line), ("real/a b.agp", 6));
        assert_eq!(e[1].kind, ExportKind::ExportRatio);
        assert_eq!(
            (
                e[1].weight,
                e[1].virtual_path.as_str(),
                e[1].real_path.as_str()
            ),
            (2.5, "lib/a.agp", "x/y.agp")
        );
        assert_eq!(e[2].kind, ExportKind::ExportExtend);
        assert_eq!(e[3].kind, ExportKind::ExportBackup);
        assert_eq!(e[3].region, None);
        assert_eq!(e[4].kind, ExportKind::ExportExclude);
        assert_eq!((e[4].real_path.as_str(), e[4].region), ("c.obj", Some(0)));
        assert_eq!(e[4].status, Status::Deprecated);
        assert_eq!(
            e[5].seasons.as_deref(),
            Some(&["sum".to_string(), "win".to_string()][..])
        );
        let r = &f.regions[0];
        assert_eq!(r.rects, vec![[6, 47, 15, 55]]);
        assert_eq!(r.drefs.len(), 2);
        assert_eq!(r.drefs[0].to_string(), "sim/time/local_date_days >= 165");
        assert_eq!(r.covers(13, 47), Some(true));
        assert_eq!(r.covers(16, 47), Some(false));
    }

    #[test]
    fn problems_are_diagnostics_with_spans() {
        let src = "A\n800\nLIBRARY\nEXPORT lib/a.obj\nEXPORT_RATIO x lib/b.obj b.obj\n\
                   REGION_RECT 1 2 3 4\nREGION_DEFINE r\nREGION_RECT 5 4 3\nFOO bar\n\
                   REGION nowhere\nEXPORT lib/c.obj ../other/c.obj\n";
        let f = parse(src);
        let codes: Vec<&str> = f.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(
            codes,
            [
                "LIB002", "LIB003", "LIB007", "LIB006", "LIB004", "LIB008", "LIB005"
            ]
        );
        let crate::diag::Location::Span(s) = &f.diagnostics[6].location else {
            panic!()
        };
        assert_eq!(&src[s.clone()], "../other/c.obj");
        assert_eq!(f.exports.len(), 1, "only the well-formed export is kept");
    }

    #[test]
    fn bad_header_and_bom() {
        let src = "\u{feff}A\n800\nLIBRARY\nEXPORT a b\n";
        let f = parse(src);
        assert!(f.diagnostics.is_empty());
        assert_eq!(&src[f.exports[0].span.clone()], "EXPORT a b");
        let f = parse("A\n900\nLIBRARIES\n");
        assert!(f.header_rejected());
        assert_eq!(f.diagnostics.len(), 2);
        let f = parse("I\n800\n");
        assert!(f.header_rejected() && f.has_errors());
    }

    #[test]
    fn lines_end_in_lf_crlf_or_cr() {
        let t = "A\r800\r\nLIBRARY\n\rEXPORT a b\r";
        let v: Vec<(usize, &str)> = lines(t).collect();
        assert_eq!(
            v,
            [
                (0, "A"),
                (2, "800"),
                (7, "LIBRARY"),
                (15, ""),
                (16, "EXPORT a b")
            ]
        );
        assert_eq!(line_col(t, 16), (5, 1));
        assert_eq!(line_col(t, 23), (5, 8));
        let f = parse("A\r800\rLIBRARY\rEXPORT a b\rEXPORT c d\r");
        assert_eq!(f.exports.len(), 2);
        assert_eq!(f.exports[1].line, 5);
        assert_eq!(
            lines("\u{feff}x\ny").collect::<Vec<_>>(),
            [(3, "x"), (5, "y")]
        );
    }

    #[test]
    fn quoted_text_is_cut_on_a_character() {
        assert_eq!(quote("abc"), "abc");
        let exact = "é".repeat(QUOTED_CHARS);
        assert_eq!(quote(&exact), exact);
        let q = quote(&"é".repeat(QUOTED_CHARS + 1)).into_owned();
        assert_eq!(q.chars().count(), QUOTED_CHARS + 1);
        assert!(q.ends_with("é…"));
    }

    #[test]
    fn another_kind_of_file_is_one_error() {
        for bytes in [
            &b"XPLNEDSF\x01\0\0\0"[..],
            b"A\n1000\nAG_POINT\n",
            b"ab\0cd",
        ] {
            let f = parse(&String::from_utf8_lossy(bytes));
            assert!(f.header_rejected() && f.exports.is_empty());
            assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
            assert!(f.diagnostics[0].message.starts_with("not a library list"));
        }
    }

    #[test]
    fn leaving_the_root() {
        assert!(leaves_root("../a.obj"));
        assert!(leaves_root("a/../../b.obj"));
        assert!(leaves_root("/abs/b.obj"));
        assert!(leaves_root("C:/abs/b.obj") && leaves_root("//server/b.obj"));
        assert!(is_absolute("c:b.obj") && is_absolute("/x") && !is_absolute("a/c:b"));
        assert!(!leaves_root("a/../b.obj"));
        assert!(!leaves_root("./a/./b.obj"));
    }
}
