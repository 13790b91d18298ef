//! The text conventions X-Plane's art formats share — OBJ8 objects
//! ([`crate::obj`]), facades ([`crate::fac`]) and forests
//! ([`crate::forest`]): the three-line header, lines and whitespace-split
//! words with byte spans, and arguments read as numbers.
//!
//! The grammar is the simulator's, not a stricter one: what X-Plane's own
//! tools read (xptools `MemFileUtils.cpp`: `MFS_xplane_header`,
//! `MFS_string_eol`, `MFS_string_match`) is read here too.
//!
//! - **Header.** An optional UTF-8 byte-order mark; the first byte `A` or
//!   `I` (the rest of that line is ignored); the version as the leading
//!   digits of the next non-blank line (the rest of it is a comment, as
//!   FS2XPlane writes `800 # Converted by …`); the keyword as the first
//!   word of the next non-blank line. Blank lines and leading spaces
//!   between the three lines are skipped, as `MFS_string_eol` skips them.
//! - **Lines** end at `\n` or `\r`; any run of them (LF, CRLF, CR CR LF)
//!   ends one line, and blank lines are skipped.
//! - **Words** are separated by spaces and tabs only.
//! - **Comments** are lines whose first word starts with `#`.
//!
//! Readers work on the file decoded as UTF-8 with invalid bytes replaced
//! (paths in old files are often Latin-1), so every span points into the
//! text a diagnostic is rendered against.

use crate::diag::{Diagnostic, Refused};
use std::borrow::Cow;
use std::ops::Range;

/// One whitespace-separated word of a line, with where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word<'a> {
    /// The word's text.
    pub text: &'a str,
    /// Its byte offset in the file's text.
    pub start: usize,
}

impl Word<'_> {
    /// The word's byte span in the file's text.
    pub fn span(&self) -> Range<usize> {
        self.start..self.start + self.text.len()
    }
}

/// One non-blank line of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line's text, without its line end.
    pub text: &'a str,
    /// Its byte offset in the file's text.
    pub start: usize,
}

impl<'a> Line<'a> {
    /// The line's byte span, without its line end.
    pub fn span(&self) -> Range<usize> {
        self.start..self.start + self.text.len()
    }

    /// The line's words, in order.
    pub fn words(&self) -> Words<'a> {
        Words {
            text: self.text,
            base: self.start,
            pos: 0,
        }
    }

    /// The first word, if any.
    pub fn keyword(&self) -> Option<Word<'a>> {
        self.words().next()
    }

    /// True when the line is a comment (its first word starts with `#`).
    pub fn is_comment(&self) -> bool {
        self.text.trim_start_matches([' ', '\t']).starts_with('#')
    }
}

/// The words of a [`Line`], split at spaces and tabs.
#[derive(Debug, Clone)]
pub struct Words<'a> {
    text: &'a str,
    base: usize,
    pos: usize,
}

impl<'a> Iterator for Words<'a> {
    type Item = Word<'a>;

    fn next(&mut self) -> Option<Word<'a>> {
        let bytes = self.text.as_bytes();
        let blank = |b: u8| b == b' ' || b == b'\t';
        while self.pos < bytes.len() && blank(bytes[self.pos]) {
            self.pos += 1;
        }
        if self.pos >= bytes.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < bytes.len() && !blank(bytes[self.pos]) {
            self.pos += 1;
        }
        // Spaces and tabs are ASCII, so both ends are char boundaries.
        Some(Word {
            text: &self.text[start..self.pos],
            start: self.base + start,
        })
    }
}

/// The non-blank lines of `text` from byte `from` on.
pub fn lines(text: &str, from: usize) -> impl Iterator<Item = Line<'_>> {
    let from = from.min(text.len());
    let rest = text.get(from..).unwrap_or("");
    rest.split(['\n', '\r'])
        .filter(|l| !l.trim_matches([' ', '\t']).is_empty())
        .map(move |l| Line {
            text: l,
            start: from + (l.as_ptr() as usize - rest.as_ptr() as usize),
        })
}

/// `bytes` as text: UTF-8, invalid sequences replaced by U+FFFD.
pub fn text(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// What reading a text art file found: its text (for rendering the
/// diagnostics), the model when the header could be read, and every
/// diagnostic in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked<T> {
    /// The file's text, as the diagnostics' spans count it.
    pub text: String,
    /// The model, unless the header was wrong. A file with errors still has
    /// one (what could be read), but it is not what X-Plane would draw.
    pub value: Option<T>,
    /// Every diagnostic, in file order.
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Checked<T> {
    /// True when a diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The model, or the refusal of `file` when there is an error (or no
    /// model).
    pub fn into_result(self, file: &str) -> Result<T, Refused> {
        match self.value {
            Some(v) if !self.has_errors() => Ok(v),
            _ => Err(Refused::new(file, Some(&self.text), self.diagnostics)),
        }
    }
}

/// A file's header, as read by [`header`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// `A` or `I` (the line-end convention of old Macs and PCs; meaningless
    /// today).
    pub origin: char,
    /// The version number of line 2.
    pub version: u32,
    /// Where the version number is.
    pub version_span: Range<usize>,
    /// Byte offset of the first line after the keyword line.
    pub body: usize,
}

/// What is wrong with a header.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderError {
    /// The file does not start with `A` or `I`.
    Origin(Range<usize>),
    /// Line 2 is not one of the versions the format has.
    Version {
        /// Where it is.
        span: Range<usize>,
        /// What it says.
        found: String,
    },
    /// Line 3 is not the format's keyword.
    Keyword {
        /// Where it is.
        span: Range<usize>,
        /// What it says.
        found: String,
    },
}

impl HeaderError {
    /// The error as a diagnostic with `code`, naming the format's
    /// `versions` and `keyword`.
    pub fn diagnostic(&self, code: &'static str, versions: &[u32], keyword: &str) -> Diagnostic {
        let versions: Vec<String> = versions.iter().map(u32::to_string).collect();
        match self {
            HeaderError::Origin(span) => Diagnostic::error(
                code,
                format!(
                    "the file must start with `A` or `I`, then the version ({}) and `{keyword}` on lines of their own",
                    versions.join(" or ")
                ),
                span.clone(),
            ),
            HeaderError::Version { span, found } => Diagnostic::error(
                code,
                format!(
                    "line 2 must be the version {}, not `{found}`",
                    versions.join(" or ")
                ),
                span.clone(),
            ),
            HeaderError::Keyword { span, found } => Diagnostic::error(
                code,
                format!("line 3 must be `{keyword}`, not `{found}`"),
                span.clone(),
            ),
        }
    }
}

/// Reads the three header lines of `text` (see the module documentation
/// for what is tolerated): the version must be one of `versions` and the
/// keyword `keyword`.
pub fn header(text: &str, versions: &[u32], keyword: &str) -> Result<Header, HeaderError> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let origin = match text[start..].chars().next() {
        Some(c @ ('A' | 'I')) => c,
        _ => {
            let end = text[start..]
                .find(['\n', '\r'])
                .map_or(text.len(), |e| start + e);
            return Err(HeaderError::Origin(start..end.max(start)));
        }
    };
    let mut rest = lines(text, start + 1);
    // The first line's remainder (after `A`) is skipped like a comment.
    let mut next = rest.next();
    if let Some(l) = next
        && l.start < first_line_end(text, start)
    {
        next = rest.next();
    }
    let Some(vline) = next else {
        return Err(HeaderError::Version {
            span: text.len()..text.len(),
            found: String::new(),
        });
    };
    let vword = vline.keyword().unwrap_or(Word {
        text: "",
        start: vline.start,
    });
    let digits = vword
        .text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(vword.text.len());
    let version = vword.text[..digits]
        .parse::<u32>()
        .ok()
        .filter(|v| versions.contains(v));
    let Some(version) = version else {
        return Err(HeaderError::Version {
            span: vword.span(),
            found: vword.text.to_string(),
        });
    };
    let Some(kline) = rest.next() else {
        return Err(HeaderError::Keyword {
            span: text.len()..text.len(),
            found: String::new(),
        });
    };
    let kword = kline.keyword().unwrap_or(Word {
        text: "",
        start: kline.start,
    });
    if kword.text != keyword {
        return Err(HeaderError::Keyword {
            span: kword.span(),
            found: kword.text.to_string(),
        });
    }
    Ok(Header {
        origin,
        version,
        version_span: vword.start..vword.start + digits,
        body: kline.start + kline.text.len(),
    })
}

/// The version and keyword of an X-Plane text header, read as tolerantly
/// as [`header`] reads it but with any version: what the file says it is.
pub fn sniff(text: &str) -> Option<(u32, &str)> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    if !matches!(text[start..].chars().next(), Some('A' | 'I')) {
        return None;
    }
    let end = first_line_end(text, start);
    let mut rest = lines(text, start + 1).skip_while(|l| l.start < end);
    let vword = rest.next()?.keyword()?;
    let digits = vword
        .text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(vword.text.len());
    let version = vword.text[..digits].parse().ok()?;
    Some((version, rest.next()?.keyword()?.text))
}

fn first_line_end(text: &str, start: usize) -> usize {
    text[start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |e| start + e)
}

/// The codes a format gives the argument problems [`Args`] finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArgCodes {
    /// A directive has fewer arguments than it needs.
    pub missing: &'static str,
    /// An argument that must be a number is not one.
    pub not_number: &'static str,
    /// A number is NaN or infinite.
    pub not_finite: &'static str,
    /// A finite number outside [`MAX_MAGNITUDE`] (or a divisor too close
    /// to 0, see [`MIN_DIVISOR`]).
    pub out_of_range: &'static str,
}

/// The largest magnitude of a number an art file may give for a length,
/// a coordinate, a distance, a texture coordinate or fraction, a share or
/// an angle: 10⁶ (a thousand kilometres; no real object, facade or tree
/// comes near it, and the real files agkit is tested on stay below 10⁵).
///
/// Within it every value agkit derives — a footprint turned and moved
/// into a tile, a facade's walls and roof, a tree's quad and texture
/// window, squared lengths and cross products — is finite in `f64` and
/// fits `f32` (10³⁸), the precision glTF stores. Counts and indices are
/// whole numbers with their own limits, not this one.
pub const MAX_MAGNITUDE: f64 = 1e6;

/// The smallest magnitude of a number other texture coordinates are
/// divided by (a facade's `TEX_SIZE`, a forest's `SCALE_X`/`SCALE_Y`),
/// unless it is 0 (which readers take as "not given"): a quotient of two
/// numbers within [`MAX_MAGNITUDE`] then stays within 10⁹.
pub const MIN_DIVISOR: f64 = 1e-3;

/// The arguments of one directive line, read in order.
///
/// Every reading method returns the value or the diagnostic saying why
/// there is none (with the format's [`ArgCodes`]); the directive's reader
/// decides whether that stops the line.
#[derive(Debug, Clone)]
pub struct Args<'a> {
    line: Line<'a>,
    keyword: Word<'a>,
    words: std::iter::Peekable<Words<'a>>,
    codes: ArgCodes,
    read: usize,
}

impl<'a> Args<'a> {
    /// The arguments of `line` (its first word is the keyword).
    pub fn new(line: Line<'a>, codes: ArgCodes) -> Args<'a> {
        let mut words = line.words();
        let keyword = words.next().unwrap_or(Word {
            text: "",
            start: line.start,
        });
        Args {
            line,
            keyword,
            words: words.peekable(),
            codes,
            read: 0,
        }
    }

    /// The directive's keyword.
    pub fn keyword(&self) -> Word<'a> {
        self.keyword
    }

    /// The whole line.
    pub fn line(&self) -> Line<'a> {
        self.line
    }

    /// True when no argument is left.
    pub fn is_empty(&mut self) -> bool {
        self.words.peek().is_none()
    }

    /// The next argument as it is written.
    pub fn word(&mut self, what: &str) -> Result<Word<'a>, Diagnostic> {
        match self.words.next() {
            Some(w) => {
                self.read += 1;
                Ok(w)
            }
            None => Err(self.missing(what)),
        }
    }

    /// The next argument, if there is one.
    pub fn optional_word(&mut self) -> Option<Word<'a>> {
        let w = self.words.next();
        self.read += usize::from(w.is_some());
        w
    }

    /// The next argument as a finite number within [`MAX_MAGNITUDE`].
    pub fn number(&mut self, what: &str) -> Result<f64, Diagnostic> {
        let w = self.word(what)?;
        number(w, self.codes, what)
    }

    /// The next argument as a number texture coordinates are divided by:
    /// a [`Args::number`] that is 0 or at least [`MIN_DIVISOR`] in
    /// magnitude.
    pub fn divisor(&mut self, what: &str) -> Result<f64, Diagnostic> {
        let w = self.word(what)?;
        let v = number(w, self.codes, what)?;
        if v != 0.0 && v.abs() < MIN_DIVISOR {
            return Err(Diagnostic::error(
                self.codes.out_of_range,
                format!(
                    "{what} `{}` is too close to 0: other coordinates are divided by it, so agkit takes 0 or a size from {MIN_DIVISOR} to {MAX_MAGNITUDE:e}",
                    w.text
                ),
                w.span(),
            ));
        }
        Ok(v)
    }

    /// The next argument as a number, if there is one that is a number (a
    /// word that is not one is left unread); a number outside
    /// [`MAX_MAGNITUDE`] is an error (it is read, and refused, as
    /// [`Args::number`] refuses it).
    pub fn optional_number(&mut self) -> Result<Option<f64>, Diagnostic> {
        let Some(&w) = self.words.peek() else {
            return Ok(None);
        };
        if w.text
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .is_none()
        {
            return Ok(None);
        }
        self.words.next();
        self.read += 1;
        number(w, self.codes, "a number").map(Some)
    }

    /// The next argument as an integer (a number written with a fraction
    /// is truncated, as X-Plane's `MFS_int` stops at the point), at least
    /// `min` and at most `max`.
    pub fn integer(&mut self, what: &str, min: i64, max: i64) -> Result<i64, Diagnostic> {
        let w = self.word(what)?;
        let v = finite(w, self.codes, what)?;
        let t = v.trunc();
        if t < min as f64 || t > max as f64 {
            return Err(Diagnostic::error(
                self.codes.not_number,
                format!(
                    "{} of `{}` must be a whole number from {min} to {max}, not `{}`",
                    what, self.keyword.text, w.text
                ),
                w.span(),
            ));
        }
        Ok(t as i64)
    }

    /// Skips a leading number when more words follow it: the ratio of
    /// `TEXTURE_NORMAL [ratio] path`.
    pub fn skip_ratio(&mut self) {
        let mut probe = self.clone();
        if probe.optional_number().is_ok_and(|v| v.is_some()) && !probe.is_empty() {
            *self = probe;
        }
    }

    /// The rest of the line after the arguments read so far, trimmed (a
    /// path may contain spaces), or `None` when nothing is left.
    pub fn rest(&mut self) -> Option<Word<'a>> {
        let first = self.words.next()?;
        let end = self.line.start + self.line.text.trim_end_matches([' ', '\t']).len();
        let text = &self.line.text[first.start - self.line.start..end - self.line.start];
        while self.words.next().is_some() {}
        Some(Word {
            text,
            start: first.start,
        })
    }

    /// The number of arguments read so far.
    pub fn count(&self) -> usize {
        self.read
    }

    /// The diagnostic for a missing argument `what`.
    pub fn missing(&self, what: &str) -> Diagnostic {
        Diagnostic::error(
            self.codes.missing,
            format!("`{}` needs {what}", self.keyword.text),
            self.line.span(),
        )
    }
}

/// Reads a text art file: decodes `bytes` (see [`text`]), reads its header
/// (the version one of `versions`, the keyword `keyword`; otherwise one
/// error with `header_code` and no model) and runs `body` on the text, the
/// header and the diagnostics list. The diagnostics come back sorted by
/// position.
pub fn check_with<T>(
    bytes: &[u8],
    versions: &[u32],
    keyword: &str,
    header_code: &'static str,
    body: impl FnOnce(&str, &Header, &mut Vec<Diagnostic>) -> T,
) -> Checked<T> {
    let text = self::text(bytes).into_owned();
    let mut diags = Vec::new();
    let value = match header(&text, versions, keyword) {
        Ok(h) => Some(body(&text, &h, &mut diags)),
        Err(e) => {
            diags.push(e.diagnostic(header_code, versions, keyword));
            None
        }
    };
    diags.sort_by_key(|d| match &d.location {
        crate::diag::Location::Span(r) => r.start,
        _ => usize::MAX,
    });
    Checked {
        text,
        value,
        diagnostics: diags,
    }
}

/// Runs `f` on each line of `text` from byte `from` that is not a comment,
/// until it returns `Ok(false)`; returns the diagnostics it returned.
pub fn each_line<'a>(
    text: &'a str,
    from: usize,
    mut f: impl FnMut(Line<'a>) -> Result<bool, Diagnostic>,
) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for line in lines(text, from) {
        if line.is_comment() {
            continue;
        }
        match f(line) {
            Ok(true) => {}
            Ok(false) => break,
            Err(d) => errors.push(d),
        }
    }
    errors
}

/// The eight numbers of a mesh vertex row (`VT`, `VERTEX`): x y z, the
/// normal, s t. Numbers after them (some exporters write a ninth, X-Plane
/// 12 trees up to three for wind) are left unread.
pub fn vertex(a: &mut Args<'_>) -> Result<[f64; 8], Diagnostic> {
    let mut v = [0.0; 8];
    for (x, what) in v
        .iter_mut()
        .zip(["x", "y", "z", "nx", "ny", "nz", "s", "t"])
    {
        *x = a.number(what)?;
    }
    Ok(v)
}

/// Reads the indices of an `IDX` row of a mesh that has `vertices` so far;
/// an index that is not one of them is an error with `code`. Returns how
/// many were read.
pub fn indices(a: &mut Args<'_>, vertices: usize, code: &'static str) -> Result<usize, Diagnostic> {
    indices_into(a, vertices, code, &mut Vec::new())
}

/// [`indices`], keeping the values in `out` (each below `vertices`, so
/// within `u32` for any mesh that passed its declared counts' limit).
pub fn indices_into(
    a: &mut Args<'_>,
    vertices: usize,
    code: &'static str,
    out: &mut Vec<u32>,
) -> Result<usize, Diagnostic> {
    let mut n = 0;
    while let Some(w) = a.optional_word() {
        let v = finite(w, a.codes, "an index")?;
        if v < 0.0 || v.fract() != 0.0 || v >= vertices as f64 {
            return Err(Diagnostic::error(
                code,
                format!(
                    "index `{}` is not one of the {vertices} vertices the mesh has so far",
                    w.text
                ),
                w.span(),
            ));
        }
        out.push(v.min(u32::MAX as f64) as u32);
        n += 1;
    }
    Ok(n)
}

/// Adds the `count` vertices and indices a mesh line declares to the
/// file's running `total`, and refuses the line (an error with `code` at
/// `span`) when the total passes `limit`: a file's meshes are capped
/// together, not only one by one.
pub fn declare(
    total: &mut u64,
    count: u64,
    limit: u64,
    code: &'static str,
    span: Range<usize>,
) -> Result<(), Diagnostic> {
    *total = total.saturating_add(count);
    crate::limits::LimitExceeded::check("vertices and indices the meshes declare", *total, limit)
        .map_err(|e| Diagnostic::error(code, e.to_string(), span))
}

/// A mesh as a facade or a forest writes it: `MESH` with the counts it
/// declares, then `VERTEX` and `IDX` rows. One type and one reader for
/// both formats ([`MeshBlock::declared`], [`MeshBlock::vertex`],
/// [`MeshBlock::idx_row`]).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct MeshBlock {
    /// Vertices and indices `MESH` declares.
    pub declared: [u64; 2],
    /// `VERTEX` rows read.
    pub vertices: usize,
    /// Indices read.
    pub indices: usize,
    /// The box around the vertices, if any.
    pub bounds: Option<crate::geom::Box3>,
    /// The vertices' positions (x right, y up, z toward the viewer, as
    /// written), kept for building the mesh.
    #[serde(skip)]
    pub positions: Vec<[f64; 3]>,
    /// The vertices' texture coordinates s, t.
    #[serde(skip)]
    pub uvs: Vec<[f64; 2]>,
    /// The indices read, three per triangle.
    #[serde(skip)]
    pub idx: Vec<u32>,
    /// The `MESH` line's byte span in the file.
    #[serde(skip)]
    pub at: Range<usize>,
}

impl MeshBlock {
    /// The mesh the `MESH` line `line` declares with `counts` (vertices,
    /// indices), once [`declare`] has added them to the file's running
    /// `total` within `limit`: refused (an error with `code` on the line)
    /// before anything is allocated for it.
    pub fn declared(
        line: Line<'_>,
        counts: [u64; 2],
        total: &mut u64,
        limit: u64,
        code: &'static str,
    ) -> Result<MeshBlock, Diagnostic> {
        declare(total, counts[0] + counts[1], limit, code, line.span())?;
        Ok(MeshBlock {
            declared: counts,
            at: line.start..line.start + line.text.len(),
            ..MeshBlock::default()
        })
    }

    /// Adds a `VERTEX` row as [`vertex`] reads it: its position and its
    /// texture coordinates (the normal is not kept).
    pub fn vertex(&mut self, v: [f64; 8]) {
        self.vertices += 1;
        crate::geom::Box3::grow(&mut self.bounds, [v[0], v[1], v[2]]);
        self.positions.push([v[0], v[1], v[2]]);
        self.uvs.push([v[6], v[7]]);
    }

    /// Reads the indices of an `IDX` row ([`indices_into`]); one that is
    /// not one of the vertices read so far is an error with `code`.
    pub fn idx_row(&mut self, a: &mut Args<'_>, code: &'static str) -> Result<(), Diagnostic> {
        self.indices += indices_into(a, self.vertices, code, &mut self.idx)?;
        Ok(())
    }
}

/// The error with `code` for a directive that comes before `needs`, the
/// directive it belongs to (a wall property before any `WALL`, …).
pub fn out_of_place(code: &'static str, line: Line<'_>, needs: &str) -> Diagnostic {
    let kw = line.keyword().map_or("", |w| w.text);
    Diagnostic::error(
        code,
        format!("`{kw}` before {needs}: it belongs to one"),
        line.span(),
    )
}

/// `w` as a finite number (`1`, `-0.5`, `.5`, `1.`, `1e3`) within
/// [`MAX_MAGNITUDE`]: every length, coordinate, fraction and share an art
/// file gives is read so.
pub fn number(w: Word<'_>, codes: ArgCodes, what: &str) -> Result<f64, Diagnostic> {
    let v = finite(w, codes, what)?;
    if v.abs() > MAX_MAGNITUDE {
        return Err(Diagnostic::error(
            codes.out_of_range,
            format!(
                "{what} `{}` is outside the range agkit can draw (-{MAX_MAGNITUDE:e} to {MAX_MAGNITUDE:e})",
                w.text
            ),
            w.span(),
        ));
    }
    Ok(v)
}

/// `w` as a finite number of any magnitude: a count or an index, which the
/// caller bounds itself.
pub fn finite(w: Word<'_>, codes: ArgCodes, what: &str) -> Result<f64, Diagnostic> {
    match w.text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(Diagnostic::error(
            codes.not_finite,
            format!("{what} must be a finite number, not `{}`", w.text),
            w.span(),
        )),
        Err(_) => Err(Diagnostic::error(
            codes.not_number,
            format!("{what} must be a number, not `{}`", w.text),
            w.span(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODES: ArgCodes = ArgCodes {
        missing: "X1",
        not_number: "X2",
        not_finite: "X3",
        out_of_range: "X4",
    };

    #[test]
    fn headers_bend_as_the_simulators_tools_read_them() {
        for text in [
            "A\n800\nOBJ\nVT",
            "I\r\n800\r\nOBJ\r\nVT",
            "\u{feff}A\n800\nOBJ\n",
            "A \n800 \nOBJ  \n",
            "A\r\r\n\r\r\n800\r\r\n\r\r\nOBJ\r\r\n",
            "A\n 800\n OBJ\n",
            "I\n800 # Converted by FS2XPlane 3.26\nOBJ\n",
            "I\n800\t# Converted\nOBJ\n",
        ] {
            let h = header(text, &[800], "OBJ").unwrap_or_else(|e| panic!("{text:?}: {e:?}"));
            assert_eq!(h.version, 800, "{text:?}");
            assert_eq!(&text[h.version_span.clone()], "800");
        }
        assert!(matches!(
            header(" A\n800\nOBJ\n", &[800], "OBJ"),
            Err(HeaderError::Origin(_))
        ));
        assert!(matches!(
            header("A\n850\nOBJ\n", &[800], "OBJ"),
            Err(HeaderError::Version { .. })
        ));
        assert!(matches!(
            header("A\n800\nOBJECT\n", &[800], "OBJ"),
            Err(HeaderError::Keyword { .. })
        ));
        assert!(matches!(
            header("A", &[800], "OBJ"),
            Err(HeaderError::Version { .. })
        ));
        assert!(matches!(
            header("", &[800], "OBJ"),
            Err(HeaderError::Origin(_))
        ));
        assert_eq!(
            sniff("A\r\n\r\n1000\r\n\r\nFACADE\r\n"),
            Some((1000, "FACADE"))
        );
        assert_eq!(sniff("I\n700\nOBJ\n"), Some((700, "OBJ")));
        assert_eq!(sniff("I\n700\n"), None);
        assert_eq!(sniff("X\n800\nOBJ\n"), None);
        let h = header("A\n1000\nFACADE\nRING 1\n", &[800, 1000], "FACADE").unwrap();
        assert_eq!(h.version, 1000);
        let body: Vec<_> = lines("A\n1000\nFACADE\nRING 1\n", h.body).collect();
        assert_eq!(body.len(), 1);
        assert_eq!(body[0].text, "RING 1");
    }

    #[test]
    fn lines_and_words_carry_their_offsets() {
        let text = "A\r\r\n  VT 1\t2  \r\n\n# c\n";
        let ls: Vec<_> = lines(text, 0).collect();
        assert_eq!(ls.len(), 3);
        let words: Vec<_> = ls[1].words().collect();
        assert_eq!(words.len(), 3);
        for w in &words {
            assert_eq!(&text[w.span()], w.text);
        }
        assert!(ls[2].is_comment());
    }

    #[test]
    fn args_read_numbers_and_the_rest() {
        let text = "TEXTURE  my tex.png  \nVT 1 nan x\n";
        let ls: Vec<_> = lines(text, 0).collect();
        let mut a = Args::new(ls[0], CODES);
        assert_eq!(a.keyword().text, "TEXTURE");
        assert_eq!(a.rest().unwrap().text, "my tex.png");
        assert!(a.rest().is_none());
        let mut a = Args::new(ls[1], CODES);
        assert_eq!(a.number("x").unwrap(), 1.0);
        assert_eq!(a.number("y").unwrap_err().code, "X3");
        assert_eq!(a.number("z").unwrap_err().code, "X2");
        assert_eq!(a.number("w").unwrap_err().code, "X1");
        assert_eq!(a.count(), 3);
        // Within ±1e6 for what is drawn; counts have their own limits; a
        // divisor is 0 or at least 1e-3.
        let text = "X 1e6 -1000001 4e9 1e-300 0 0.001 0.0009 1e300 n\n";
        let ls: Vec<_> = lines(text, 0).collect();
        let mut a = Args::new(ls[0], CODES);
        assert_eq!(a.number("a").unwrap(), 1e6);
        assert_eq!(a.number("b").unwrap_err().code, "X4");
        assert_eq!(a.integer("c", 0, u32::MAX as i64).unwrap(), 4_000_000_000);
        assert_eq!(a.number("d").unwrap(), 1e-300);
        assert_eq!(a.divisor("e").unwrap(), 0.0);
        assert_eq!(a.divisor("f").unwrap(), 0.001);
        assert_eq!(a.divisor("g").unwrap_err().code, "X4");
        assert_eq!(a.optional_number().unwrap_err().code, "X4");
        assert_eq!(a.optional_number().unwrap(), None);
        assert_eq!(a.word("n").unwrap().text, "n");
    }
}
