//! Diagnostics shared by every format: a problem found in an input, where it
//! is, how bad it is and a stable code.
//!
//! A [`Diagnostic`] stores a [`Location`]: a byte span for text files (line and
//! column are computed only when displayed, as toml_edit does) or a byte
//! offset for binary files. [`render_human`] prints rustc-style reports with
//! the source line and a caret; [`to_json`] prints the stable JSON form that
//! `agkit check --format json` emits.

pub mod cap;

use serde::Serialize;
use std::ops::Range;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The input is wrong: the simulator would reject or misread it.
    Error,
    /// The input is accepted but probably not what the author meant.
    Warning,
    /// Extra information.
    Note,
}

impl Severity {
    /// Lower-case name as printed (`error`, `warning`, `note`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// Where a diagnostic points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A byte range of a text source (0-based, end exclusive).
    Span(Range<usize>),
    /// A byte offset into a binary file.
    Offset(u64),
    /// The file as a whole.
    File,
}

/// A diagnostic's stable code (`AG0012`, `AGN004`, `DSF010`, …): one of
/// the constants a format's `rules!` table declares, never spelled where
/// it is reported. It prints, compares and serialises as the code's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(&'static str);

impl Code {
    /// The code whose text is `code`.
    pub const fn new(code: &'static str) -> Code {
        Code(code)
    }

    /// The code's text.
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::ops::Deref for Code {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl From<&'static str> for Code {
    fn from(code: &'static str) -> Code {
        Code(code)
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for Code {
    fn eq(&self, other: &String) -> bool {
        self.0 == other
    }
}

impl PartialEq<Code> for &str {
    fn eq(&self, other: &Code) -> bool {
        *self == other.0
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

/// One problem found in an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// Stable code, from a `rules!` table.
    pub code: Code,
    /// What is wrong and what to do about it.
    pub message: String,
    /// Where it is.
    pub location: Location,
}

impl Diagnostic {
    /// An error at a text span.
    pub fn error(code: impl Into<Code>, message: impl Into<String>, span: Range<usize>) -> Self {
        Self::new(Severity::Error, code, message, Location::Span(span))
    }

    /// A warning at a text span.
    pub fn warning(code: impl Into<Code>, message: impl Into<String>, span: Range<usize>) -> Self {
        Self::new(Severity::Warning, code, message, Location::Span(span))
    }

    /// A diagnostic with any severity and location.
    pub fn new(
        severity: Severity,
        code: impl Into<Code>,
        message: impl Into<String>,
        location: Location,
    ) -> Self {
        Diagnostic {
            severity,
            code: code.into(),
            message: message.into(),
            location,
        }
    }

    /// True for [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `source` with every lone CR (one not followed by LF) turned into LF:
/// the same bytes and offsets, split into lines as the text formats read
/// them (LF, CRLF and a lone CR each end a line). Borrowed when there is no
/// lone CR.
fn lines_as_read(source: &str) -> std::borrow::Cow<'_, str> {
    let b = source.as_bytes();
    let lone = |i: usize| b.get(i + 1) != Some(&b'\n');
    if !memchr::memchr_iter(b'\r', b).any(lone) {
        return std::borrow::Cow::Borrowed(source);
    }
    let mut v = b.to_vec();
    for i in memchr::memchr_iter(b'\r', b).filter(|&i| lone(i)) {
        v[i] = b'\n';
    }
    // Only ASCII bytes changed: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(v).unwrap_or_else(|_| source.to_string()))
}

/// One rule of a format's diagnostics table: a stable code, the severity
/// of every diagnostic with that code, and what the rule checks.
///
/// Each format keeps its table (`xp::RULES`, `obj::RULES`, …) beside its
/// checks; `docs/diagnostics.md` documents the same rows and a test keeps
/// the two in step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Stable code (`AG0001`, `OBJ0001`, …).
    pub code: &'static str,
    /// Severity of every diagnostic with this code.
    pub severity: Severity,
    /// What the rule checks.
    pub summary: &'static str,
}

/// Declares a format's diagnostics table: `NAME = "CODE", Severity,
/// "summary";` rows become a `codes` module of constants and a `RULES`
/// slice of [`Rule`]s, in the order written.
macro_rules! rules {
    ($($name:ident = $code:literal, $sev:ident, $summary:literal;)*) => {
        /// The code constants, by name.
        pub mod codes {
            $(
                #[doc = $summary]
                pub const $name: &str = $code;
            )*
        }
        /// Every rule, in code order.
        pub const RULES: &[$crate::diag::Rule] = &[
            $($crate::diag::Rule {
                code: $code,
                severity: $crate::diag::Severity::$sev,
                summary: $summary,
            },)*
        ];
    };
}
pub(crate) use rules;

/// 1-based line and column (in characters) of a byte offset in `source`
/// (LF, CRLF and a lone CR end lines).
///
/// Offsets past the end map to the position just after the last character.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let source = &*lines_as_read(source);
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = source[line_start..offset].chars().count() + 1;
    (line, column)
}

/// Where the lines of a text start, found in one pass: the line of any
/// offset is then a binary search.
///
/// [`line_col`] scans the text before the offset each time, which is right
/// for one position and quadratic for many (a file of 40,000 repeated
/// directives, each with a diagnostic). Whatever looks up more than one
/// position of the same text — [`to_json`], a reader naming an earlier
/// line in a message — builds one `LineIndex` and asks it. Lines end as
/// [`line_col`] ends them: LF, CRLF or a lone CR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of each line's first byte; the first is 0.
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `source`'s lines.
    pub fn new(source: &str) -> LineIndex {
        let b = source.as_bytes();
        let mut starts = vec![0];
        for i in memchr::memchr2_iter(b'\n', b'\r', b) {
            // A CR followed by LF ends its line at the LF.
            if b[i] == b'\n' || b.get(i + 1) != Some(&b'\n') {
                starts.push(i + 1);
            }
        }
        LineIndex { starts }
    }

    /// The number of lines (a text ending in a line break has an empty
    /// last line).
    pub fn lines(&self) -> usize {
        self.starts.len()
    }

    /// The 1-based line of byte `offset` (past the end: the last line).
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).max(1)
    }

    /// The byte span of 1-based line `line` of `source` (the text this
    /// index was built from) without its line break; past the last line,
    /// the last line's.
    pub fn span(&self, source: &str, line: usize) -> std::ops::Range<usize> {
        let last = self.starts.last().copied().unwrap_or(0);
        let start = self
            .starts
            .get(line.max(1) - 1)
            .copied()
            .unwrap_or(last)
            .min(source.len());
        let end = source.as_bytes()[start..]
            .iter()
            .position(|&c| c == b'\n' || c == b'\r')
            .map_or(source.len(), |k| start + k);
        start..end
    }

    /// The 1-based line and column (in characters) of byte `offset` of
    /// `source`, the text this index was built from; the same answer as
    /// [`line_col`].
    pub fn line_col(&self, source: &str, offset: usize) -> (usize, usize) {
        line_col_indexed(source, self, offset, None)
    }
}

/// [`line_col`] with the line starts of `source` already known; `last` is an
/// earlier (offset, line, column) to count the column on from when it lies
/// on the same line before `offset`.
fn line_col_indexed(
    source: &str,
    index: &LineIndex,
    offset: usize,
    last: Option<(usize, usize, usize)>,
) -> (usize, usize) {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let line = index.line(offset);
    let column = match last {
        Some((o, l, c)) if l == line && o <= offset => c + source[o..offset].chars().count(),
        _ => source[index.starts[line - 1]..offset].chars().count() + 1,
    };
    (line, column)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The JSON record of one diagnostic, as `agkit check --format json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JsonDiagnostic {
    /// File name as given on the command line.
    pub file: String,
    /// 1-based line, or null for binary files and whole-file problems.
    pub line: Option<usize>,
    /// 1-based column, or null like `line`.
    pub column: Option<usize>,
    /// Byte offset for binary files, else null.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// `error`, `warning` or `note`.
    pub severity: Severity,
    /// Stable code.
    pub code: String,
    /// Message.
    pub message: String,
}

/// Converts diagnostics of one file to their JSON records.
///
/// `source` is the text of the file when it is a text file, so spans can be
/// turned into line and column.
pub fn to_json(file: &str, source: Option<&str>, diags: &[Diagnostic]) -> Vec<JsonDiagnostic> {
    let read = source.filter(|_| !diags.is_empty()).map(lines_as_read);
    let source = read.as_deref().or(source);
    // Line starts, built once when there is more than one position to look
    // up (a pass over the text per diagnostic would be quadratic).
    let index = match source {
        Some(src) if diags.len() > 1 => Some(LineIndex::new(src)),
        _ => None,
    };
    // The last position looked up: diagnostics come sorted, so the column of
    // the next one on the same line is counted on from there.
    let mut last: Option<(usize, usize, usize)> = None;
    diags
        .iter()
        .map(|d| {
            let (line, column, offset) = match (&d.location, source) {
                (Location::Span(r), Some(src)) => {
                    let (l, c) = if let Some(index) = &index {
                        let (l, c) = line_col_indexed(src, index, r.start, last);
                        last = Some((floor_char_boundary(src, r.start.min(src.len())), l, c));
                        (l, c)
                    } else {
                        line_col(src, r.start)
                    };
                    (Some(l), Some(c), None)
                }
                (Location::Span(r), None) => (None, None, Some(r.start as u64)),
                (Location::Offset(o), _) => (None, None, Some(*o)),
                (Location::File, _) => (None, None, None),
            };
            JsonDiagnostic {
                file: file.to_string(),
                line,
                column,
                offset,
                severity: d.severity,
                code: d.code.to_string(),
                message: d.message.clone(),
            }
        })
        .collect()
}

/// A file a reader refused: its name, where its first error is and every
/// diagnostic found in it (warnings included), so that a caller can print
/// one line (`Display`) or the whole report ([`render_human`] on
/// [`Refused::diagnostics`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The file's name as the caller gave it.
    pub file: String,
    /// `file:line:column` (text) or `file @ byte N` (binary) of the first
    /// error.
    pub at: String,
    /// Every diagnostic, in file order; at least one is an error.
    pub diagnostics: Vec<Diagnostic>,
}

impl Refused {
    /// The refusal of `file` for `diagnostics`; `source` is the text they
    /// point into (for line and column), `None` for a binary file.
    pub fn new(file: &str, source: Option<&str>, diagnostics: Vec<Diagnostic>) -> Refused {
        let first = diagnostics
            .iter()
            .find(|d| d.is_error())
            .or(diagnostics.first());
        let at = match (first.map(|d| &d.location), source) {
            (Some(Location::Span(r)), Some(src)) => {
                let (line, column) = line_col(src, r.start);
                format!("{file}:{line}:{column}")
            }
            (Some(Location::Span(r)), None) => format!("{file} @ byte {}", r.start),
            (Some(Location::Offset(o)), _) => format!("{file} @ byte {o}"),
            _ => file.to_string(),
        };
        Refused {
            file: file.to_string(),
            at,
            diagnostics,
        }
    }

    /// The first error (or, failing one, the first diagnostic).
    pub fn first(&self) -> Option<&Diagnostic> {
        self.diagnostics
            .iter()
            .find(|d| d.is_error())
            .or(self.diagnostics.first())
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.first() {
            Some(d) => write!(
                f,
                "{}: {}[{}]: {}",
                self.at,
                d.severity.as_str(),
                d.code,
                d.message
            )?,
            None => write!(f, "{}: refused", self.at)?,
        }
        let more = self.diagnostics.iter().filter(|d| d.is_error()).count();
        if more > 1 {
            write!(f, " (and {} more errors)", more - 1)?;
        }
        Ok(())
    }
}

impl std::error::Error for Refused {}

/// Source lines longer than this many bytes are not quoted by
/// [`render_human`].
pub const LONG_LINE: usize = 1024;

/// Renders diagnostics of one file the way rustc does: a header line with the
/// code, the `--> file:line:column` pointer, the source line and a caret.
///
/// Binary locations print `--> file @ byte N`. No colour is used, so the
/// output is stable for snapshot tests and pipes.
pub fn render_human(file: &str, source: Option<&str>, diags: &[Diagnostic]) -> String {
    use codespan_reporting::diagnostic::{Diagnostic as CsDiag, Label};
    use codespan_reporting::files::{Files, SimpleFile};
    use codespan_reporting::term::{self, Config};

    let mut out = String::new();
    if diags.is_empty() {
        // Building the file's line index costs a pass over the whole text.
        return out;
    }
    let read = source.map(lines_as_read);
    let source = read.as_deref();
    let text = source.unwrap_or("");
    let files = SimpleFile::new(file, text);
    let config = Config::default();
    // The last (offset, line, column) of a long line: columns on the same
    // line are counted on from there (diagnostics come sorted).
    let mut last: Option<(usize, usize, usize)> = None;
    for d in diags {
        let base = match d.severity {
            Severity::Error => CsDiag::error(),
            Severity::Warning => CsDiag::warning(),
            Severity::Note => CsDiag::note(),
        }
        .with_code(d.code.to_string())
        .with_message(d.message.clone());
        match (&d.location, source) {
            (Location::Span(r), Some(src)) => {
                let start = floor_char_boundary(src, r.start.min(src.len()));
                let end = floor_char_boundary(src, r.end.min(src.len())).max(start);
                let line = files.line_index((), start).unwrap_or(0);
                let range = files.line_range((), line).unwrap_or(start..start);
                if range.len() > LONG_LINE {
                    // Quoting a line of megabytes under each of its
                    // diagnostics would print gigabytes: point at it instead.
                    let column = match last {
                        Some((o, l, c)) if l == line && o <= start => {
                            c + src[o..start].chars().count()
                        }
                        _ => src[range.start..start].chars().count() + 1,
                    };
                    last = Some((start, line, column));
                    out.push_str(&format!(
                        "{}[{}]: {}\n  --> {file}:{}:{column} (a line of {} bytes, not shown)\n\n",
                        d.severity.as_str(),
                        d.code,
                        d.message,
                        line + 1,
                        range.len()
                    ));
                    continue;
                }
                let cs = base.with_labels(vec![Label::primary((), start..end)]);
                let mut buf = String::new();
                if term::emit_to_string(&mut buf, &config, &files, &cs).is_ok() {
                    out.push_str(&buf);
                    continue;
                }
                out.push_str(&plain(file, d));
            }
            _ => out.push_str(&plain(file, d)),
        }
    }
    out
}

fn plain(file: &str, d: &Diagnostic) -> String {
    let at = match &d.location {
        Location::Offset(o) => format!("{file} @ byte {o}"),
        Location::Span(r) => format!("{file} @ byte {}", r.start),
        Location::File => file.to_string(),
    };
    format!(
        "{}[{}]: {}\n  --> {}\n\n",
        d.severity.as_str(),
        d.code,
        d.message,
        at
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexed_line_col_equals_the_scan() {
        let src = "ab\n\nçd\r\nxyz\rw\r\r\nv\r";
        let index = LineIndex::new(src);
        assert_eq!(index.lines(), 8);
        let mut last = None;
        for off in 0..=src.len() + 2 {
            let got = index.line_col(src, off);
            assert_eq!(got, line_col(src, off), "{off}");
            let on = line_col_indexed(src, &index, off, last);
            assert_eq!(on, got, "{off} after {last:?}");
            last = Some((floor_char_boundary(src, off.min(src.len())), got.0, got.1));
        }
    }

    #[test]
    fn long_lines_are_pointed_at_not_quoted() {
        let src = format!("A\nTILE{}\n", " x".repeat(LONG_LINE));
        let diags: Vec<_> = [5usize, 7]
            .iter()
            .map(|&o| Diagnostic::error("AG0001", "bad", o..o + 1))
            .collect();
        let out = render_human("f.agp", Some(&src), &diags);
        assert!(out.len() < 400, "{out}");
        assert!(out.contains("--> f.agp:2:4 (a line of"), "{out}");
        assert!(out.contains("--> f.agp:2:6 (a line of"), "{out}");
        let short = render_human("f.agp", Some("A\nTILE x\n"), &diags[..1]);
        assert!(short.contains("TILE x"), "{short}");
    }

    #[test]
    fn a_lone_cr_ends_a_line() {
        let src = "A\r1000\r\nAG_POINT\rTILE x";
        assert_eq!(line_col(src, src.find("TILE").unwrap()), (4, 1));
        assert_eq!(line_col(src, src.find("1000").unwrap()), (2, 1));
        let d = [
            Diagnostic::error("X1", "m", 2..6),
            Diagnostic::error("X2", "m", src.len() - 1..src.len()),
        ];
        let json = to_json("f", Some(src), &d);
        assert_eq!((json[0].line, json[1].line), (Some(2), Some(4)));
        assert_eq!(json[1].column, Some(6));
        let human = render_human("f", Some(src), &d[1..]);
        assert!(
            human.contains("f:4:6") && human.contains("TILE x"),
            "{human}"
        );
    }

    #[test]
    fn line_col_counts_lines_and_chars() {
        let s = "A\n1000\nAG_POINT\nTILE x";
        assert_eq!(line_col(s, 0), (1, 1));
        assert_eq!(line_col(s, 2), (2, 1));
        assert_eq!(line_col(s, s.len()), (4, 7));
        assert_eq!(line_col("é\nx", 3), (2, 1));
    }

    #[test]
    fn json_has_line_and_column_for_text() {
        let src = "A\n1000\nAG_BLOCK\n";
        let d = Diagnostic::error("AG0001", "bad", 7..15);
        let j = to_json("f.agb", Some(src), &[d]);
        assert_eq!(j[0].line, Some(3));
        assert_eq!(j[0].column, Some(1));
        assert_eq!(j[0].offset, None);
    }

    #[test]
    fn binary_offsets_render() {
        let d = Diagnostic::new(Severity::Error, "AGN001", "short", Location::Offset(12));
        let s = render_human("x.agn", None, std::slice::from_ref(&d));
        assert!(s.contains("x.agn @ byte 12"), "{s}");
        assert_eq!(to_json("x.agn", None, &[d])[0].offset, Some(12));
    }
}
