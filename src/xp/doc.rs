//! The lossless line document under the typed model (in the spirit of
//! toml_edit): every byte of the input is kept — a UTF-8 byte-order mark, each
//! line's text and its own line ending (LF, CRLF or none at the end of the
//! file) — so `Document::to_string` (its `Display`) gives the input back
//! byte for byte and [`Document::to_canonical`] gives the form `agkit fmt`
//! writes.
//!
//! Tokens are whitespace-separated `&str` slices of the source; nothing is
//! allocated per token.

use super::swar::{eq_bytes, eq_mask64, gather, separator_bytes, word};
use std::fmt;
use std::ops::Range;

/// How one line ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`.
    Lf,
    /// `\r\n`.
    CrLf,
    /// The last line of a file without a final newline.
    None,
}

impl LineEnding {
    /// The bytes of the ending.
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
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

/// ASCII whitespace that separates tokens (space, tab, CR, VT, FF).
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// The whitespace-separated tokens of `text` with their byte offsets
/// relative to `text`.
pub fn tokens(text: &str) -> Tokens<'_> {
    Tokens {
        text,
        win: 0,
        space: window_mask(text.as_bytes(), 0, text.len(), space_bytes),
        pos: 0,
    }
}

/// Iterator over the tokens of one line (see [`tokens`] and
/// [`Document::tokens`]).
///
/// Tokens are read off a bit mask of the text (one bit per byte, set for a
/// separator), so finding a token's start and end is a few bit operations on
/// 64 bytes at a time instead of a branch per byte.
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    /// The text.
    text: &'a str,
    /// Where the current 64-byte window starts.
    win: usize,
    /// Separator mask of the window (see [`window_mask`]).
    space: u64,
    /// Where the next search starts.
    pos: usize,
}

/// [`separator_bytes`] without `\n`: the bytes [`is_space`] accepts, for
/// text that is not split into lines first.
fn space_bytes(x: u64) -> u64 {
    separator_bytes(x) & !eq_bytes(x, b'\n')
}

impl<'a> Tokens<'a> {
    /// Moves the window to start at `at` when `at` is past it.
    fn reach(&mut self, at: usize) {
        if at >= self.win + 64 {
            self.win = at;
            self.space = window_mask(self.text.as_bytes(), at, self.text.len(), space_bytes);
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let len = self.text.len();
        // The first non-separator at or after `pos`; the mask is made one
        // window at a time, so finding an early token never reads the rest
        // of a long line.
        let start = loop {
            if self.pos >= len {
                return None;
            }
            self.reach(self.pos);
            let cand = !self.space & (!0u64 << (self.pos - self.win));
            if cand != 0 {
                break self.win + cand.trailing_zeros() as usize;
            }
            self.pos = self.win + 64;
        };
        // The first separator after it (bits past the end are set).
        let mut at = start;
        let end = loop {
            self.reach(at);
            let after = self.space & (!0u64 << (at - self.win));
            if after != 0 {
                break self.win + after.trailing_zeros() as usize;
            }
            at = self.win + 64;
        };
        self.pos = end;
        Some((start, &self.text[start..end]))
    }
}

/// The mask of the (at most) 64 bytes of `src` from `base` that come before
/// `end`: bit `i` set when `mark` marks byte `base + i` (see
/// [`separator_bytes`]), and every bit from `end` on set.
fn window_mask(src: &[u8], base: usize, end: usize, mark: fn(u64) -> u64) -> u64 {
    let n = (end - base).min(64);
    let mut m = 0u64;
    let mut i = 0;
    while i < n {
        m |= gather(mark(word(src, base + i))) << i;
        i += 8;
    }
    if n < 64 {
        m |= !0u64 << n;
    }
    m
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
        // 64 bytes at a time: a mask of the newlines, read off bit by bit.
        for base in (body..bytes.len()).step_by(64) {
            let mut nl = eq_mask64(bytes, base, b'\n');
            while nl != 0 {
                let at = base + nl.trailing_zeros() as usize;
                nl &= nl - 1;
                let (end, ending) = if at > start && bytes[at - 1] == b'\r' {
                    (at - 1, LineEnding::CrLf)
                } else {
                    (at, LineEnding::Lf)
                };
                lines.push(Line { start, end, ending });
                start = at + 1;
            }
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
    ///
    /// All token edges of 64 bytes are found at once: starts are the bytes
    /// after a separator that are not one, ends the separators after a token
    /// byte, and the two masks are read off bit by bit, so tokens do not wait
    /// on each other.
    pub fn tokens_into<'a>(&'a self, line: &Line, out: &mut Vec<(usize, &'a str)>) {
        let (s, e) = (line.start, line.end);
        if s >= e {
            return;
        }
        let mut closed = out.len();
        // Whether the byte before the current word is a separator.
        let mut after_space = true;
        let src = self.source.as_bytes();
        for base in (s..e).step_by(64) {
            let m = window_mask(src, base, e, separator_bytes);
            let mut starts = !m & ((m << 1) | u64::from(after_space));
            let mut ends = m & ((!m << 1) | u64::from(!after_space));
            after_space = m >> 63 == 1;
            while starts != 0 {
                let at = base + starts.trailing_zeros() as usize;
                starts &= starts - 1;
                out.push((at, ""));
            }
            while ends != 0 {
                let at = base + ends.trailing_zeros() as usize;
                ends &= ends - 1;
                let (start, _) = out[closed];
                out[closed].1 = &self.source[start..at];
                closed += 1;
            }
        }
        // A token running to the end of the line.
        if closed < out.len() {
            let (start, _) = out[closed];
            out[closed].1 = &self.source[start..e];
        }
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
        "TEXTURE_NORMAL" if toks.len() >= 3 && super::num::parse_number(toks[1].1).is_ok() => 2,
        "TEXTURE_NORMAL" => 1,
        _ => return None,
    };
    (toks.len() > at).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The tokenizer's meaning, one byte at a time.
    fn naive_tokens(text: &str) -> Vec<(usize, &str)> {
        let b = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if is_space(b[i]) {
                i += 1;
                continue;
            }
            let s = i;
            while i < b.len() && !is_space(b[i]) {
                i += 1;
            }
            out.push((s, &text[s..i]));
        }
        out
    }

    proptest! {
        /// The word-at-a-time tokenizer finds exactly the tokens of the
        /// byte loop, for lines of any length (windows of 64 bytes and
        /// tokens across them), every whitespace and control byte, and
        /// multi-byte characters; with and without read-ahead past the line.
        #[test]
        fn tokens_match_the_byte_loop(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just(" ".to_string()), Just("\t".to_string()), Just("\r".to_string()),
                    Just("\u{b}".to_string()), Just("\u{c}".to_string()), Just("\n".to_string()),
                    Just("\u{0}".to_string()), Just("\u{8}".to_string()), Just("\u{e}".to_string()),
                    Just("\u{1f}".to_string()), Just("\u{7f}".to_string()), Just("\u{a0}".to_string()),
                    Just("é".to_string()), Just("\u{feff}".to_string()),
                    "[!-~]{1,70}",
                ],
                0..40,
            ),
            tail in "[ -~]{0,20}",
        ) {
            let line: String = parts.concat();
            let got: Vec<_> = tokens(&line).collect();
            prop_assert_eq!(&got, &naive_tokens(&line));
            // Inside a document: every line, between others.
            let src = format!("{tail}\r\n{}\n{tail}", line.replace('\n', " "));
            let d = Document::parse(&src);
            for l in d.lines() {
                let want = naive_tokens(d.text(l));
                let got: Vec<_> = d.tokens(l).collect();
                prop_assert_eq!(&got, &want);
                let mut spans = vec![(7, "x")];
                d.tokens_into(l, &mut spans);
                let rel: Vec<_> = spans[1..].iter().map(|&(at, t)| (at - l.start, t)).collect();
                prop_assert_eq!(&rel, &want);
            }
        }
    }

    #[test]
    fn space_bytes_are_is_space() {
        // `swar`'s tests cover the separators; without `\n` they are
        // exactly `is_space`.
        for c in 0..=255u8 {
            let w = u64::from_le_bytes([b'x', c, b'x', b'x', b'x', b'x', b'x', b'x']);
            let want = if is_space(c) { 2 } else { 0 };
            assert_eq!(gather(space_bytes(w)), want, "byte {c:#x}");
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
