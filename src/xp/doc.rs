//! The lossless line document under the typed model (in the spirit of
//! toml_edit): every byte of the input is kept — a UTF-8 byte-order mark, each
//! line's text and its own line ending (LF, CRLF, a lone CR, or none at the
//! end of the file) — so `Document::to_string` (its `Display`) gives the input
//! back byte for byte and [`Document::to_canonical`] gives the form `agkit fmt`
//! writes.
//!
//! Line ends are those of X-Plane's own text scanner (`MFS_string_eol` in
//! xptools' `MemFileUtils.cpp`, which WorldEditor's autogen reader uses): LF,
//! CRLF and a lone CR (classic Mac OS files) each end a line.
//!
//! Tokens are whitespace-separated `&str` slices of the source; nothing is
//! allocated per token.

use std::fmt;
use std::ops::Range;

/// How one line ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`.
    Lf,
    /// `\r\n`.
    CrLf,
    /// A lone `\r` (not followed by `\n`).
    Cr,
    /// The last line of a file without a final newline.
    None,
}

impl LineEnding {
    /// The bytes of the ending.
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
            LineEnding::Cr => "\r",
            LineEnding::None => "",
        }
    }
}

/// What a line holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// Only whitespace.
    Blank,
    /// A whole-line comment: the first non-blank character is `#`.
    Comment,
    /// A directive (or a header line): at least one token.
    Directive,
}

/// One line of a [`Document`]: byte offsets into the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// Byte offset where the line's text starts.
    pub start: usize,
    /// Byte offset where the line's text ends (before the line ending).
    pub end: usize,
    /// The line ending.
    pub ending: LineEnding,
}

/// An autogen text file kept losslessly, line by line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    source: String,
    body: usize,
    lines: Vec<Line>,
}

/// ASCII whitespace that separates tokens within a line (space, tab, VT,
/// FF; CR, which only ends lines, is kept here for text that is not split
/// into lines).
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// The whitespace-separated tokens of `text` with their byte offsets
/// relative to `text`.
pub fn tokens(text: &str) -> Tokens<'_> {
    Tokens { text, pos: 0 }
}

/// Iterator over the tokens of one line (see [`tokens`] and
/// [`Document::tokens`]).
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    /// The text.
    text: &'a str,
    /// Where the next search starts.
    pos: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let b = self.text.as_bytes();
        let start = self.pos + b[self.pos..].iter().position(|&c| !is_space(c))?;
        let end = start
            + b[start..]
                .iter()
                .position(|&c| is_space(c))
                .unwrap_or(b.len() - start);
        self.pos = end;
        Some((start, &self.text[start..end]))
    }
}

/// Parses a number token: the decimal forms `1`, `-0`, `1.`, `.5`,
/// `2.000000`, `1e3`, `+2`. `Err(true)` for NaN, infinities and values that
/// overflow (`1e999`), `Err(false)` for anything else that is not a number.
pub(crate) fn number(t: &str) -> Result<f64, bool> {
    let plain = !t.is_empty()
        && t.bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'-' | b'+' | b'e' | b'E'));
    if !plain {
        let l = t.trim_start_matches(['+', '-']).to_ascii_lowercase();
        return Err(matches!(l.as_str(), "nan" | "inf" | "infinity"));
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(true),
        Err(_) => Err(false),
    }
}

impl Document {
    /// Splits `source` into lines. Never fails: every input is a document.
    pub fn parse(source: &str) -> Document {
        Document::from_string(source.to_string())
    }

    /// [`Document::parse`] of a text already owned (no copy is made).
    pub fn from_string(source: String) -> Document {
        let body = if source.starts_with('\u{feff}') { 3 } else { 0 };
        let bytes = source.as_bytes();
        let mut lines = Vec::with_capacity(bytes.len() / 24 + 1);
        let mut start = body;
        let mut ends = memchr::memchr2_iter(b'\n', b'\r', &bytes[body..]).map(|i| body + i);
        while let Some(at) = ends.next() {
            let ending = match bytes[at] {
                b'\n' => LineEnding::Lf,
                _ if bytes.get(at + 1) == Some(&b'\n') => {
                    // The `\n` of this CRLF ends nothing more.
                    ends.next();
                    LineEnding::CrLf
                }
                _ => LineEnding::Cr,
            };
            lines.push(Line {
                start,
                end: at,
                ending,
            });
            start = at + ending.as_str().len();
        }
        if start < bytes.len() {
            lines.push(Line {
                start,
                end: bytes.len(),
                ending: LineEnding::None,
            });
        }
        Document {
            source,
            body,
            lines,
        }
    }

    /// How many lines end in LF, CRLF and a lone CR: `[lf, crlf, cr]`.
    pub fn line_ending_counts(&self) -> [usize; 3] {
        let mut n = [0; 3];
        for l in &self.lines {
            match l.ending {
                LineEnding::Lf => n[0] += 1,
                LineEnding::CrLf => n[1] += 1,
                LineEnding::Cr => n[2] += 1,
                LineEnding::None => {}
            }
        }
        n
    }

    /// A note for `agkit fmt` when [`Document::to_canonical`] changes line
    /// ends (it writes LF only): which ends the file had, or `None` when
    /// every line already ends in LF.
    pub fn line_ending_note(&self) -> Option<String> {
        let [_, crlf, cr] = self.line_ending_counts();
        let mut had = Vec::new();
        if crlf > 0 {
            had.push(format!("{crlf} CRLF"));
        }
        if cr > 0 {
            had.push(format!("{cr} lone CR"));
        }
        (!had.is_empty()).then(|| {
            format!(
                "line ends written as LF (the file had {} line end(s))",
                had.join(" and ")
            )
        })
    }

    /// The source text, given back.
    pub fn into_source(self) -> String {
        self.source
    }

    /// The whole source text, byte for byte.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// True when the file starts with a UTF-8 byte-order mark.
    pub fn has_bom(&self) -> bool {
        self.body == 3
    }

    /// The lines (line `n` is `lines()[n - 1]`).
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The text of a line without its ending.
    pub fn text(&self, line: &Line) -> &str {
        &self.source[line.start..line.end]
    }

    /// The tokens of a line with their offsets in the line (see [`tokens`]).
    pub fn tokens(&self, line: &Line) -> Tokens<'_> {
        tokens(self.text(line))
    }

    /// Appends the tokens of a line to `out`, with their byte offsets in the
    /// source (the same tokens as [`Document::tokens`]).
    pub fn tokens_into<'a>(&'a self, line: &Line, out: &mut Vec<(usize, &'a str)>) {
        out.extend(self.tokens(line).map(|(at, t)| (line.start + at, t)));
    }

    /// The text of 1-based line `n` (empty when out of range).
    pub fn line_text(&self, n: usize) -> &str {
        match n.checked_sub(1).and_then(|i| self.lines.get(i)) {
            Some(l) => self.text(l),
            None => "",
        }
    }

    /// The byte span of 1-based line `n`'s text without leading and trailing
    /// whitespace (an empty span at the end of the file when out of range).
    pub fn line_span(&self, n: usize) -> Range<usize> {
        match n.checked_sub(1).and_then(|i| self.lines.get(i)) {
            Some(l) => {
                let t = self.text(l);
                let mut toks = tokens(t);
                match toks.next() {
                    Some((s, _)) => {
                        let e = t.trim_end_matches(|c: char| c.is_ascii_whitespace()).len();
                        l.start + s..l.start + e.max(s)
                    }
                    None => l.start..l.end,
                }
            }
            None => self.source.len()..self.source.len(),
        }
    }

    /// The byte span of token `i` (0 = the directive keyword) of 1-based line
    /// `n`; the whole line when there is no such token.
    pub fn token_span(&self, n: usize, i: usize) -> Range<usize> {
        if let Some(l) = n.checked_sub(1).and_then(|k| self.lines.get(k))
            && let Some((s, t)) = tokens(self.text(l)).nth(i)
        {
            return l.start + s..l.start + s + t.len();
        }
        self.line_span(n)
    }

    /// The kind of a line.
    pub fn kind(&self, line: &Line) -> LineKind {
        match tokens(self.text(line)).next() {
            None => LineKind::Blank,
            Some((_, t)) if t.starts_with('#') => LineKind::Comment,
            Some(_) => LineKind::Directive,
        }
    }

    /// The canonical form written by `agkit fmt`:
    ///
    /// - no byte-order mark, LF line endings, a final newline;
    /// - directive lines: tokens joined by exactly one space, no indentation
    ///   and no trailing space; keywords and numbers exactly as written; a
    ///   path argument (TEXTURE, OBJECT, FACADE, VEGETATION, …) runs to the end
    ///   of the line and is kept byte for byte, inner spaces and tabs included;
    /// - comment lines kept in place, only leading/trailing whitespace removed;
    /// - blank lines kept, but a run of blank lines becomes one, and blank
    ///   lines at the start and end of the file are removed.
    ///
    /// The meaning never changes: the model parsed from the canonical text is
    /// the model parsed from the input (only line numbers can differ).
    pub fn to_canonical(&self) -> String {
        let mut out = String::with_capacity(self.source.len());
        let mut pending_blank = false;
        for l in &self.lines {
            let text = self.text(l);
            let mut toks = tokens(text).peekable();
            if toks.peek().is_none() {
                pending_blank = !out.is_empty();
                continue;
            }
            if pending_blank {
                out.push('\n');
                pending_blank = false;
            }
            let first = toks.peek().map(|&(_, t)| t).unwrap_or("");
            if first.starts_with('#') {
                out.push_str(text.trim_matches(|c: char| c.is_ascii_whitespace()));
            } else {
                let all: Vec<(usize, &str)> = toks.collect();
                let verbatim = path_argument(&all);
                for (k, &(at, t)) in all.iter().enumerate() {
                    if k > 0 {
                        out.push(' ');
                    }
                    if Some(k) == verbatim {
                        // A path runs to the end of the line and may hold
                        // runs of spaces or tabs: keep it exactly.
                        let (last_at, last) = all[all.len() - 1];
                        out.push_str(&text[at..last_at + last.len()]);
                        break;
                    }
                    out.push_str(t);
                }
            }
            out.push('\n');
        }
        if out.starts_with('\u{feff}') {
            // A stray U+FEFF token (`AG0079`) would become a byte-order mark
            // at the start of the output and vanish on the next read: one
            // space keeps it a token, so the text means the same and fmt
            // stays idempotent.
            out.insert(0, ' ');
        }
        out
    }

    /// True when the source already is in canonical form.
    pub fn is_canonical(&self) -> bool {
        self.to_canonical() == self.source
    }
}

impl fmt::Display for Document {
    /// Writes the source back byte for byte.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// For a directive whose last argument is a path that runs to the end of the
/// line (and so may contain whitespace), the index of the token where that
/// path starts; `None` for every other line.
fn path_argument(toks: &[(usize, &str)]) -> Option<usize> {
    let kw = toks.first()?.1.to_ascii_uppercase();
    let at = match kw.as_str() {
        "TEXTURE" | "TEXTURE_LIT" | "DECAL_LIB" | "OBJECT" | "FACADE" | "VEGETATION" => 1,
        // `TEXTURE_NORMAL [ratio] path`: the ratio is a number token.
        "TEXTURE_NORMAL" if toks.len() >= 3 && number(toks[1].1).is_ok() => 2,
        "TEXTURE_NORMAL" => 1,
        _ => return None,
    };
    (toks.len() > at).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// LF, CRLF and a lone CR each end a line, whatever the mix: the
        /// lines are the texts between them with their own endings, and the
        /// document gives the bytes back.
        #[test]
        fn every_line_end_ends_a_line(
            lines in proptest::collection::vec(
                ("[ -~\t]{0,12}", prop_oneof![Just(LineEnding::Lf), Just(LineEnding::CrLf), Just(LineEnding::Cr)]),
                0..12,
            ),
            last in "[ -~]{0,5}",
        ) {
            let mut src: String = lines.iter().map(|(t, e)| format!("{t}{}", e.as_str())).collect();
            src.push_str(&last);
            let d = Document::parse(&src);
            prop_assert_eq!(d.to_string(), src.clone());
            // A lone CR just before an empty LF line is a CRLF.
            let mut want: Vec<(String, LineEnding)> = Vec::new();
            for (t, e) in &lines {
                match want.last_mut() {
                    Some((_, prev @ LineEnding::Cr)) if t.is_empty() && *e == LineEnding::Lf => {
                        *prev = LineEnding::CrLf;
                    }
                    _ => want.push((t.clone(), *e)),
                }
            }
            if !last.is_empty() {
                want.push((last.clone(), LineEnding::None));
            }
            let got: Vec<(String, LineEnding)> =
                d.lines().iter().map(|l| (d.text(l).to_string(), l.ending)).collect();
            prop_assert_eq!(&got, &want);
            let n = want.iter().filter(|(_, e)| *e != LineEnding::None).fold([0; 3], |mut n, (_, e)| {
                n[*e as usize] += 1;
                n
            });
            prop_assert_eq!(d.line_ending_counts(), n);
            prop_assert_eq!(d.line_ending_note().is_some(), n[1] + n[2] > 0);
            prop_assert!(!d.to_canonical().contains('\r'));
        }
    }

    #[test]
    fn tokens_and_numbers() {
        let d = Document::parse("  TILE\t0 \u{b}1.5\u{c}x\u{a0}y \n");
        let toks: Vec<_> = d.tokens(&d.lines()[0]).collect();
        assert_eq!(toks, [(2, "TILE"), (7, "0"), (10, "1.5"), (14, "x\u{a0}y")]);
        let mut spans = vec![(9, "z")];
        d.tokens_into(&d.lines()[0], &mut spans);
        assert_eq!(spans[1..], toks);
        for (t, v) in [
            ("1", 1.0),
            ("-0", 0.0),
            ("1.", 1.0),
            (".5", 0.5),
            ("2.000000", 2.0),
            ("1e3", 1000.0),
            ("+2", 2.0),
        ] {
            assert_eq!(number(t), Ok(v), "{t}");
        }
        for t in ["nan", "NaN", "inf", "-inf", "Infinity", "1e999"] {
            assert_eq!(number(t), Err(true), "{t}");
        }
        for t in ["", "x", "1,5", "0x10", "1..2", "-", "e"] {
            assert_eq!(number(t), Err(false), "{t}");
        }
    }

    #[test]
    fn lossless_for_mixed_endings_and_bom() {
        for s in [
            "",
            "\n",
            "A\r\n1000\nAG_POINT",
            "\u{feff}A\n\t1000  \r\nAG_BLOCK\r\n\r\n",
            "x\r",
            "a\r\r\nb",
        ] {
            let d = Document::parse(s);
            assert_eq!(d.to_string(), s);
            let rebuilt: String = std::iter::once(if d.has_bom() { "\u{feff}" } else { "" })
                .map(str::to_string)
                .chain(
                    d.lines()
                        .iter()
                        .map(|l| format!("{}{}", d.text(l), l.ending.as_str())),
                )
                .collect();
            assert_eq!(rebuilt, s);
        }
    }

    #[test]
    fn canonical_collapses_space_and_blank_runs() {
        let d = Document::parse(
            "\u{feff}A\r\n1000\nAG_POINT  \n\n\n\tTILE  0\t0 1 1 \r\n  # c  x \n\n",
        );
        assert_eq!(
            d.to_canonical(),
            "A\n1000\nAG_POINT\n\nTILE 0 0 1 1\n# c  x\n"
        );
        let c = Document::parse(&d.to_canonical());
        assert!(c.is_canonical());
    }

    #[test]
    fn spans() {
        let d = Document::parse("A\n  TILE 1  2\n");
        assert_eq!(d.token_span(2, 0), 4..8);
        assert_eq!(d.token_span(2, 1), 9..10);
        assert_eq!(d.token_span(2, 2), 12..13);
        assert_eq!(d.line_span(2), 4..13);
        assert_eq!(d.line_span(9), 14..14);
    }
}
