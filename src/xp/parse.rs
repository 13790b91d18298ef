//! Document → typed model, in one pass over the lines.
//!
//! This layer reports what can only be seen in file order (argument counts
//! and types, header, directives in the wrong format or the wrong place, cuts
//! order, END_CUTS, CORNER_ORDER placement, …). Rules that look at the
//! finished model live in [`super::check`](mod@super::check).

use super::doc::{Document, number as parse_number, tokens};
use super::model::*;
use super::rules::codes as c;
use crate::diag::{Diagnostic, Location};
use std::collections::HashMap;

pub use super::rules::MAX_DIAGNOSTICS;

/// A token: absolute byte offset and text.
type Tok<'a> = (usize, &'a str);

/// The result of reading a document: the model (absent when the header does
/// not say which format the file is) and the diagnostics found on the way.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The model, when the format could be determined.
    pub asset: Option<Asset>,
    /// Diagnostics in line order.
    pub diags: Vec<Diagnostic>,
}

impl Parsed {
    /// Adds the diagnostics of [`validate`](super::check::validate) of the
    /// model (if there is one) to `out`.
    pub fn validate(&self, doc: &Document, out: &mut Vec<Diagnostic>) {
        if let Some(asset) = &self.asset {
            super::check::validate(doc, asset, out);
        }
    }
}

/// The tokens joined by single spaces, in one allocation.
fn join(toks: &[Tok]) -> String {
    let len = toks.iter().map(|t| t.1.len() + 1).sum::<usize>();
    let mut out = String::with_capacity(len.saturating_sub(1));
    for (i, t) in toks.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(t.1);
    }
    out
}

/// Reads a [`Document`] into the model, one line at a time.
pub fn read(doc: &Document) -> Parsed {
    let mut b = Builder::new(doc);
    let Some((kind, body_start)) = b.header() else {
        return Parsed {
            asset: None,
            diags: b.diags,
        };
    };
    b.start(kind);
    let mut buf: Vec<Tok<'_>> = Vec::with_capacity(16);
    for (i, line) in doc.lines().iter().enumerate().skip(body_start) {
        let text = doc.text(line);
        buf.clear();
        doc.tokens_into(line, &mut buf);
        // A `#` token starts a comment: the whole line, or the rest of it.
        if let Some(k) = buf.iter().position(|t| t.1.starts_with('#')) {
            if k == 0 {
                b.comment(text, i + 1);
            }
            buf.truncate(k);
        }
        if buf.is_empty() {
            continue;
        }
        b.directive(i + 1, &buf);
    }
    b.finish();
    Parsed {
        asset: b.asset,
        diags: b.diags,
    }
}

#[derive(Debug, Default)]
struct Cut {
    value: f64,
    line: usize,
    slop: Option<(f64, usize)>,
    antislop: Option<(f64, usize)>,
}

#[derive(Debug, Default)]
struct GridState {
    /// Cuts per direction (0 = H → columns, 1 = V → rows).
    cuts: [Vec<Cut>; 2],
    overlap: [f64; 2],
    antislop_default: [f64; 2],
    ended: bool,
    /// Whether the bands were already built.
    built: bool,
    first_line: usize,
}

struct PendingUse {
    set: usize,
    axis: usize,
    index: usize,
    name: String,
    line: usize,
    span: std::ops::Range<usize>,
}

struct Builder<'d> {
    doc: &'d Document,
    diags: Vec<Diagnostic>,
    asset: Option<Asset>,
    kind: Kind,
    pending_id: Option<(i64, usize)>,
    grid: Option<GridState>,
    corner_priority: usize,
    spelling_priority: usize,
    /// Last priority marker line (corner, edge) with whether a rule followed.
    markers: [Option<(usize, bool)>; 2],
    uses: Vec<PendingUse>,
    /// Grid count when the last non-formula annotation went into a grid (AGB).
    ann_grid: Option<usize>,
    /// Index (in `named_s` / `named_t`) of the first definition of each
    /// spelling name, per axis (S, T): the one `USE_SPELLING_*` refers to.
    named: [HashMap<String, usize>; 2],
    /// Errors and warnings pushed so far.
    counts: [usize; 2],
}

/// Every directive keyword the model knows (upper case, sorted).
pub const KEYWORDS: &[&str] = &[
    "ANCHOR_PT",
    "ANTISLOP_H",
    "ANTISLOP_V",
    "ATOMIC_SPELLING",
    "ATOMIC_SPELLING_CORNER",
    "CAPS",
    "CORNER",
    "CORNER_LEN",
    "CORNER_ORDER",
    "CORNER_PAIR",
    "CREASING_ANGLE",
    "CROP",
    "CROP_POLY",
    "CUT_H",
    "CUT_V",
    "DECAL",
    "DECAL_KEYED",
    "DECAL_LIB",
    "DECAL_PARAMS",
    "DECAL_PARAMS_PROJ",
    "DECAL_PARAMS_RGBA",
    "DECAL_RGBA",
    "DEFINE_SPELLING_S",
    "DEFINE_SPELLING_T",
    "DEPTH_RANGE",
    "DITHER_ALPHA",
    "EDGE_BEST",
    "EDGE_MAX",
    "EDGE_MIN",
    "END_CUTS",
    "FAC",
    "FACADE",
    "FAC_WALLS",
    "FILL_LAYER",
    "FLIP_180",
    "FREQUENCY",
    "GROUND_PT",
    "GROUND_PT_FORMULA",
    "GROUP",
    "HEIGHT_RANGE",
    "HIDE_TILE",
    "HIDE_TILES",
    "LAYER_GROUP",
    "MESH_SHADER",
    "NO_BLEND",
    "OBJECT",
    "OBJ_DELTA",
    "OBJ_DRAPED",
    "OBJ_GRADED",
    "OBJ_SCRAPER",
    "OVERLAP_H",
    "OVERLAP_V",
    "PIVOT_LEAD_PT",
    "PIVOT_TRAIL_PT",
    "PRIORITY_MARKER",
    "PRIORITY_MARKER_CORNER",
    "ROTATION",
    "SHARE_Y",
    "SLOPE_LIMIT",
    "SLOP_H",
    "SLOP_V",
    "SPELLING",
    "SPELLING_S",
    "SPELLING_SET",
    "SPELLING_T",
    "STOP_PT",
    "SUB_GRID",
    "TEXTURE",
    "TEXTURE_HEIGHT",
    "TEXTURE_LIT",
    "TEXTURE_NORMAL",
    "TEXTURE_SCALE",
    "TEXTURE_WIDTH",
    "TILE",
    "TILE_ID",
    "TILE_LOD",
    "TREE",
    "TREE_LINE",
    "USE_GRID",
    "USE_SPELLING_S",
    "USE_SPELLING_T",
    "VEGETATION",
    "WIDTH_RANGE",
];

/// Slots of the keyword hash table (a power of two, about three times the
/// number of keywords so probes stay short).
const KW_SLOTS: usize = 256;
/// An empty slot of the keyword table.
const KW_EMPTY: u8 = u8::MAX;

/// The first and the last (up to) eight bytes of `b` as words.
fn kw_words(b: &[u8]) -> (u64, u64) {
    if let (Some(head), Some(tail)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        return (u64::from_le_bytes(*head), u64::from_le_bytes(*tail));
    }
    let mut w = [0u8; 8];
    w[..b.len()].copy_from_slice(b);
    let w = u64::from_le_bytes(w);
    (w, w)
}

/// A table slot for a keyword: its length and its first and last eight
/// bytes, mixed by one multiplication (no loop over the bytes).
fn kw_hash(b: &[u8]) -> usize {
    let (head, tail) = kw_words(b);
    let h = (head ^ tail.rotate_left(23) ^ b.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> 56) as usize & (KW_SLOTS - 1)
}

/// Lookup tables built once from [`KEYWORDS`].
struct KeywordTables {
    /// Open addressing from [`kw_hash`] to index in [`KEYWORDS`].
    slots: [u8; KW_SLOTS],
    /// [`formats`] of each keyword, by index.
    formats: [(bool, bool, bool); KEYWORDS.len()],
}

/// The keyword tables: one hash and usually one comparison per directive
/// line instead of string matches.
fn keyword_tables() -> &'static KeywordTables {
    static TABLES: std::sync::OnceLock<KeywordTables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut slots = [KW_EMPTY; KW_SLOTS];
        let mut fmts = [(false, false, false); KEYWORDS.len()];
        for (i, k) in KEYWORDS.iter().enumerate() {
            let mut h = kw_hash(k.as_bytes());
            while slots[h] != KW_EMPTY {
                h = (h + 1) & (KW_SLOTS - 1);
            }
            slots[h] = u8::try_from(i).expect("fewer than 255 keywords");
            fmts[i] = formats(k);
        }
        KeywordTables {
            slots,
            formats: fmts,
        }
    })
}

/// The longest keyword, in bytes (longer tokens are not hashed at all).
const KW_MAX_LEN: usize = 32;

/// True when a keyword of these [`formats`] is valid in `kind`.
fn valid_in((agp, agb, ags): (bool, bool, bool), kind: Kind) -> bool {
    match kind {
        Kind::Agp => agp,
        Kind::Agb => agb,
        Kind::Ags => ags,
    }
}

/// The directive valid in `kind` nearest to the unknown `raw` by edit
/// distance (letters changed, added, dropped or swapped, case ignored), when
/// it is within a third of the length (at least one edit, as rustc and
/// cargo suggest names); the first in [`KEYWORDS`] order on a tie.
fn nearest_keyword(raw: &str, kind: Kind) -> Option<&'static str> {
    if raw.len() > 2 * KW_MAX_LEN {
        return None;
    }
    let raw = raw.to_ascii_uppercase();
    let limit = (raw.len() / 3).max(1);
    let formats = &keyword_tables().formats;
    KEYWORDS
        .iter()
        .zip(formats)
        .filter(|&(_, &f)| valid_in(f, kind))
        .map(|(k, _)| (strsim::damerau_levenshtein(&raw, k), *k))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// The index in [`KEYWORDS`] of the keyword spelled exactly `kw`.
fn keyword_index(kw: &str) -> Option<usize> {
    if kw.len() > KW_MAX_LEN {
        return None;
    }
    let t = &keyword_tables().slots;
    let mut h = kw_hash(kw.as_bytes());
    loop {
        let i = t[h];
        if i == KW_EMPTY {
            return None;
        }
        if KEYWORDS[usize::from(i)] == kw {
            return Some(usize::from(i));
        }
        h = (h + 1) & (KW_SLOTS - 1);
    }
}

/// The index of `name` in [`KEYWORDS`], evaluated at compile time where used
/// in a constant (a name that is not a keyword fails the build).
const fn kw_const(name: &str) -> usize {
    let name = name.as_bytes();
    let mut i = 0;
    'next: while i < KEYWORDS.len() {
        let k = KEYWORDS[i].as_bytes();
        if k.len() == name.len() {
            let mut j = 0;
            while j < k.len() {
                if k[j] != name[j] {
                    i += 1;
                    continue 'next;
                }
                j += 1;
            }
            return i;
        }
        i += 1;
    }
    panic!("not a keyword")
}

/// The known keyword spelled exactly `kw`.
#[cfg(test)]
fn canonical_keyword(kw: &str) -> Option<&'static str> {
    keyword_index(kw).map(|i| KEYWORDS[i])
}

/// An asset of `kind` with nothing in it yet.
fn empty_asset(kind: Kind) -> Asset {
    Asset {
        kind,
        common: Common::default(),
        tiles: Vec::new(),
        block: (kind == Kind::Agb).then(BlockProps::default),
        string: (kind == Kind::Ags).then(StringProps::default),
        meta: Vec::new(),
        unknown: Vec::new(),
    }
}

/// Which formats accept a keyword: (agp, agb, ags).
fn formats(kw: &str) -> (bool, bool, bool) {
    match kw {
        "TILE_ID" | "TILE" | "ROTATION" | "ANCHOR_PT" | "GROUND_PT" | "CROP_POLY" => {
            (true, false, true)
        }
        "CREASING_ANGLE"
        | "FILL_LAYER"
        | "SHARE_Y"
        | "STOP_PT"
        | "PIVOT_LEAD_PT"
        | "PIVOT_TRAIL_PT"
        | "GROUP"
        | "CORNER"
        | "CORNER_LEN"
        | "CORNER_PAIR"
        | "ATOMIC_SPELLING_CORNER"
        | "CORNER_ORDER"
        | "PRIORITY_MARKER_CORNER"
        | "SPELLING"
        | "ATOMIC_SPELLING"
        | "PRIORITY_MARKER"
        | "CAPS" => (false, false, true),
        "CROP" | "FLIP_180" | "SUB_GRID" | "OVERLAP_H" | "OVERLAP_V" | "ANTISLOP_H"
        | "ANTISLOP_V" | "CUT_H" | "CUT_V" | "SLOP_H" | "SLOP_V" | "END_CUTS" | "EDGE_MIN"
        | "EDGE_BEST" | "EDGE_MAX" | "GROUND_PT_FORMULA" | "SPELLING_SET" | "HEIGHT_RANGE"
        | "WIDTH_RANGE" | "DEPTH_RANGE" | "FREQUENCY" | "USE_GRID" | "SPELLING_S"
        | "SPELLING_T" | "DEFINE_SPELLING_S" | "DEFINE_SPELLING_T" | "USE_SPELLING_S"
        | "USE_SPELLING_T" => (false, true, false),
        _ => (true, true, true),
    }
}

impl<'d> Builder<'d> {
    fn new(doc: &'d Document) -> Self {
        Builder {
            doc,
            diags: Vec::new(),
            asset: None,
            kind: Kind::Agp,
            pending_id: None,
            grid: None,
            corner_priority: 0,
            spelling_priority: 0,
            markers: [None, None],
            uses: Vec::new(),
            ann_grid: None,
            named: [HashMap::new(), HashMap::new()],
            counts: [0, 0],
        }
    }

    fn err(&mut self, code: &'static str, msg: impl Into<String>, span: std::ops::Range<usize>) {
        if self.counts[0] < MAX_DIAGNOSTICS {
            self.counts[0] += 1;
            self.diags.push(Diagnostic::error(code, msg, span));
        }
    }

    fn warn(&mut self, code: &'static str, msg: impl Into<String>, span: std::ops::Range<usize>) {
        if self.counts[1] < MAX_DIAGNOSTICS {
            self.counts[1] += 1;
            self.diags.push(Diagnostic::warning(code, msg, span));
        }
    }

    fn asset(&mut self) -> &mut Asset {
        let kind = self.kind;
        self.asset.get_or_insert_with(|| empty_asset(kind))
    }

    /// Reads lines 1–3. Returns the kind and the index of the first body line.
    fn header(&mut self) -> Option<(Kind, usize)> {
        let doc = self.doc;
        let lines = doc.lines();
        let end = doc.source().len();
        let kind_of = |t: &str| match t {
            "AG_POINT" => Some(Kind::Agp),
            "AG_BLOCK" => Some(Kind::Agb),
            "AG_STRING" => Some(Kind::Ags),
            _ => None,
        };
        let line_tokens = |n: usize| -> Vec<&str> {
            lines
                .get(n)
                .map(|l| tokens(doc.text(l)).map(|(_, t)| t).collect())
                .unwrap_or_default()
        };
        let l1 = line_tokens(0);
        if lines.is_empty() {
            self.err(
                c::HEADER_ORIGIN,
                "the file is empty: an autogen file starts with the lines `A`, `1000` and `AG_POINT`, `AG_BLOCK` or `AG_STRING`",
                end..end,
            );
            return None;
        }
        if !(l1 == ["A"] || l1 == ["I"]) {
            self.err(
                c::HEADER_ORIGIN,
                "line 1 must be `A` (or `I`): start the file with the 3-line autogen header",
                doc.line_span(1),
            );
        }
        if line_tokens(1) != ["1000"] {
            self.err(
                c::HEADER_VERSION,
                "line 2 must be the version `1000`",
                doc.line_span(2),
            );
        }
        let l3 = line_tokens(2);
        let k = if l3.len() == 1 { kind_of(l3[0]) } else { None };
        match k {
            Some(k) => Some((k, 3)),
            None => {
                self.err(
                    c::HEADER_KIND,
                    "line 3 must be `AG_POINT`, `AG_BLOCK` or `AG_STRING` (it decides the format)",
                    doc.line_span(3),
                );
                // Recover when the header is merely shifted by a line.
                (0..2).find_map(|i| {
                    let t = line_tokens(i);
                    (t.len() == 1)
                        .then(|| kind_of(t[0]))
                        .flatten()
                        .map(|k| (k, i + 1))
                })
            }
        }
    }

    fn start(&mut self, kind: Kind) {
        self.kind = kind;
        self.asset = Some(empty_asset(kind));
    }

    fn comment(&mut self, text: &str, line: usize) {
        let t = text.trim_start_matches(|c: char| c.is_ascii_whitespace());
        let body = &t[1..];
        let key_end = body
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(body.len());
        let key = &body[..key_end];
        if key == "object_wed" || key == "wed_text" {
            let value = body[key_end..]
                .trim_matches(|c: char| c.is_ascii_whitespace())
                .to_string();
            self.asset().meta.push(Meta {
                key: key.to_string(),
                value,
                line,
            });
        }
    }

    // ------------------------------------------------------------ args ----

    /// Checks the argument count; false (after an error) when too few.
    fn arity(&mut self, line: usize, toks: &[Tok], min: usize, max: Option<usize>) -> bool {
        let n = toks.len() - 1;
        let kw = toks[0].1;
        if n < min {
            let want = match max {
                Some(m) if m == min => format!("{min}"),
                Some(m) => format!("{min} to {m}"),
                None => format!("at least {min}"),
            };
            let span = self.doc.line_span(line);
            self.err(
                c::TOO_FEW_ARGS,
                format!("{kw} needs {want} argument(s) but has {n}: add the missing values"),
                span,
            );
            return false;
        }
        if let Some(m) = max
            && n > m
        {
            let s = toks[m + 1].0;
            let e = toks[n].0 + toks[n].1.len();
            self.warn(
                c::TOO_MANY_ARGS,
                format!(
                    "{kw} takes at most {m} argument(s) but has {n}: X-Plane's readers ignore the extra values, and so does agkit; remove them"
                ),
                s..e,
            );
        }
        true
    }

    fn num(&mut self, t: Tok) -> Option<f64> {
        match parse_number(t.1) {
            Ok(v) => Some(v),
            Err(nonfinite) => self.not_a_number(t, nonfinite),
        }
    }

    /// Reports a token that should have been a number.
    #[cold]
    fn not_a_number(&mut self, t: Tok, nonfinite: bool) -> Option<f64> {
        let span = t.0..t.0 + t.1.len();
        if nonfinite {
            self.err(
                c::NOT_FINITE,
                format!("`{}` is not a finite number: use a decimal value", t.1),
                span,
            );
        } else {
            self.err(
                c::NOT_A_NUMBER,
                format!("`{}` is not a number: write a decimal value", t.1),
                span,
            );
        }
        None
    }

    /// An integer argument: a whole number, also written as `2.0`.
    fn int(&mut self, t: Tok) -> Option<i64> {
        if let Ok(v) = t.1.parse::<i64>() {
            return Some(v);
        }
        let v = self.num(t)?;
        if v.fract() == 0.0 && v.abs() < 9.0e15 {
            return Some(v as i64);
        }
        self.err(
            c::NOT_INTEGER,
            format!("`{}` must be a whole number", t.1),
            t.0..t.0 + t.1.len(),
        );
        None
    }

    fn nums<const N: usize>(&mut self, toks: &[Tok]) -> Option<[f64; N]> {
        let mut out = [0.0; N];
        let mut ok = true;
        for (i, t) in toks.iter().take(N).enumerate() {
            match self.num(*t) {
                Some(v) => out[i] = v,
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn ints(&mut self, toks: &[Tok]) -> Option<Vec<i64>> {
        let mut out = Vec::with_capacity(toks.len());
        let mut ok = true;
        for t in toks {
            match self.int(*t) {
                Some(v) => out.push(v),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn points(&mut self, toks: &[Tok]) -> Option<Vec<Px>> {
        let mut out = Vec::with_capacity(toks.len() / 2);
        let mut ok = true;
        for pair in toks.chunks(2) {
            match self.nums::<2>(pair) {
                Some(p) if pair.len() == 2 => out.push(p),
                _ => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// The text from token `i` to the end of the line (paths may hold spaces).
    fn rest(&self, toks: &[Tok], i: usize) -> String {
        let s = toks[i].0;
        let last = toks[toks.len() - 1];
        self.doc.source()[s..last.0 + last.1.len()].to_string()
    }

    fn dup<T>(&mut self, slot: &Option<T>, line: usize, what: &str) {
        if slot.is_some() {
            let span = self.doc.token_span(line, 0);
            self.warn(
                c::DUPLICATE,
                format!("{what} appears more than once; the last one wins: remove the earlier one"),
                span,
            );
        }
    }

    // ------------------------------------------------------- directives ----

    fn directive(&mut self, line: usize, toks: &[Tok]) {
        let raw = toks[0].1;
        let mut glued_name: Option<&str> = None;
        let id = match keyword_index(raw) {
            Some(i) => i,
            None => {
                let up = raw.to_ascii_uppercase();
                if let Some(i) = keyword_index(&up) {
                    let k = KEYWORDS[i];
                    if k != "USE_SPELLING_T" && k != "DEFINE_SPELLING_T" {
                        let span = self.doc.token_span(line, 0);
                        self.warn(
                            c::LOWERCASE_KEYWORD,
                            format!("write the directive `{raw}` in upper case: `{k}`"),
                            span,
                        );
                    }
                    i
                } else if up.starts_with("DEFINE_SPELLING_S") || up.starts_with("DEFINE_SPELLING_T")
                {
                    glued_name = Some(&raw[17..]);
                    if up.as_bytes()[16] == b'S' {
                        const { kw_const("DEFINE_SPELLING_S") }
                    } else {
                        const { kw_const("DEFINE_SPELLING_T") }
                    }
                } else {
                    // The suggestion costs a pass over the keywords: only
                    // for warnings that are kept.
                    if self.counts[1] < MAX_DIAGNOSTICS {
                        let span = self.doc.token_span(line, 0);
                        let msg = match nearest_keyword(raw, self.kind) {
                            Some(k) => format!(
                                "unknown directive `{raw}`: did you mean `{k}`? Placement ignores this line (it is kept as written)"
                            ),
                            None => format!(
                                "unknown directive `{raw}`: placement ignores this line (it is kept as written); check its spelling"
                            ),
                        };
                        self.warn(c::UNKNOWN_DIRECTIVE, msg, span);
                    }
                    let args = join(&toks[1..]);
                    self.asset().unknown.push(Unknown {
                        keyword: raw.to_string(),
                        args,
                        line,
                    });
                    return;
                }
            }
        };
        let kw = KEYWORDS[id];
        if !valid_in(keyword_tables().formats[id], self.kind) {
            let span = self.doc.token_span(line, 0);
            let fmt = self.kind.header();
            self.err(
                c::WRONG_FORMAT,
                format!("{kw} is not valid in an {fmt} file: remove it or change the header"),
                span,
            );
            return;
        }
        // Annotations (most lines of a big file) first: no other handler
        // knows their keywords, so the order does not change the outcome.
        if self.annotation(kw, line, toks) {
            return;
        }
        match self.kind {
            Kind::Agb => {
                if self.block_directive(kw, line, toks, glued_name) {
                    return;
                }
            }
            Kind::Ags => {
                if self.string_directive(kw, line, toks) {
                    return;
                }
            }
            Kind::Agp => {}
        }
        if self.kind != Kind::Agb && self.tile_directive(kw, line, toks) {
            return;
        }
        self.common_directive(kw, line, toks);
    }

    fn common_directive(&mut self, kw: &str, line: usize, toks: &[Tok]) {
        let a = &toks[1..];
        match kw {
            "TEXTURE" | "TEXTURE_LIT" | "DECAL_LIB" | "OBJECT" | "FACADE" | "VEGETATION" => {
                if !self.arity(line, toks, 1, None) {
                    return;
                }
                let value = Lined {
                    value: self.rest(toks, 1),
                    line,
                };
                let cm = &self.asset().common;
                match kw {
                    "TEXTURE" => {
                        let had = cm.texture.is_some();
                        self.dup(&had.then_some(()), line, kw);
                        self.asset().common.texture = Some(value);
                    }
                    "TEXTURE_LIT" => {
                        let had = cm.texture_lit.is_some();
                        self.dup(&had.then_some(()), line, kw);
                        self.asset().common.texture_lit = Some(value);
                    }
                    "DECAL_LIB" => self.asset().common.decal_lib.push(value),
                    "OBJECT" => self.asset().common.objects.push(value),
                    "FACADE" => self.asset().common.facades.push(value),
                    _ => {
                        if let Some(first) = &cm.vegetation {
                            let first = first.line;
                            let span = self.doc.token_span(line, 0);
                            self.err(
                                c::TWO_VEGETATION,
                                format!("only one VEGETATION is allowed (the first is on line {first}): remove this one"),
                                span,
                            );
                        } else {
                            self.asset().common.vegetation = Some(value);
                        }
                    }
                }
            }
            "TEXTURE_NORMAL" => {
                if !self.arity(line, toks, 1, None) {
                    return;
                }
                let (ratio, path_at) = match (a.len() >= 2).then(|| parse_number(a[0].1)) {
                    Some(Ok(r)) => (Some(r), 2),
                    _ => (None, 1),
                };
                let path = self.rest(toks, path_at);
                let had = self.asset().common.texture_normal.is_some();
                self.dup(&had.then_some(()), line, kw);
                self.asset().common.texture_normal = Some(Lined {
                    value: TextureNormal { ratio, path },
                    line,
                });
            }
            "TEXTURE_SCALE" | "DITHER_ALPHA" => {
                if !self.arity(line, toks, 2, Some(2)) {
                    return;
                }
                if let Some(v) = self.nums::<2>(a) {
                    let cm = &mut self.asset().common;
                    let slot = if kw == "DITHER_ALPHA" {
                        &mut cm.dither_alpha
                    } else {
                        &mut cm.texture_scale
                    };
                    let had = slot.replace(Lined { value: v, line }).is_some();
                    self.dup(&had.then_some(()), line, kw);
                }
            }
            "TEXTURE_WIDTH" | "TEXTURE_HEIGHT" | "TILE_LOD" => {
                if !self.arity(line, toks, 1, Some(1)) {
                    return;
                }
                if let Some([v]) = self.nums::<1>(a) {
                    let cm = &mut self.asset().common;
                    let slot = match kw {
                        "TEXTURE_WIDTH" => &mut cm.texture_width,
                        "TEXTURE_HEIGHT" => &mut cm.texture_height,
                        _ => &mut cm.tile_lod,
                    };
                    let had = slot.replace(Lined { value: v, line }).is_some();
                    self.dup(&had.then_some(()), line, kw);
                }
            }
            "MESH_SHADER" => {
                let had = self.asset().common.mesh_shader.is_some();
                self.dup(&had.then_some(()), line, kw);
                let value = a.iter().map(|t| t.1.to_string()).collect();
                self.asset().common.mesh_shader = Some(Lined { value, line });
            }
            "NO_BLEND" => {
                if !self.arity(line, toks, 0, Some(1)) {
                    return;
                }
                let v = match a.first() {
                    Some(t) => match self.num(*t) {
                        Some(v) => Some(v),
                        None => return,
                    },
                    None => None,
                };
                let had = self.asset().common.no_blend.is_some();
                self.dup(&had.then_some(()), line, kw);
                self.asset().common.no_blend = Some(Lined { value: v, line });
            }
            "LAYER_GROUP" => {
                if !self.arity(line, toks, 2, Some(2)) {
                    return;
                }
                let (name, off) = if a[0].1.parse::<i64>().is_ok() || parse_number(a[0].1).is_ok() {
                    (a[1], a[0])
                } else {
                    (a[0], a[1])
                };
                if let Some(offset) = self.int(off) {
                    let had = self.asset().common.layer_group.is_some();
                    self.dup(&had.then_some(()), line, kw);
                    self.asset().common.layer_group = Some(Lined {
                        value: LayerGroup {
                            name: name.1.to_string(),
                            offset,
                        },
                        line,
                    });
                }
            }
            "SLOPE_LIMIT" => {
                if !self.arity(line, toks, 4, Some(4)) {
                    return;
                }
                if let Some(v) = self.nums::<4>(a) {
                    let had = self.asset().common.slope_limit.is_some();
                    self.dup(&had.then_some(()), line, kw);
                    self.asset().common.slope_limit = Some(Lined { value: v, line });
                }
            }
            "HIDE_TILES" | "HIDE_TILE" => {
                self.arity(line, toks, 0, Some(0));
                let expected = if self.kind == Kind::Ags {
                    "HIDE_TILE"
                } else {
                    "HIDE_TILES"
                };
                if kw != expected {
                    let span = self.doc.token_span(line, 0);
                    let fmt = self.kind.header();
                    self.warn(
                        c::HIDE_SPELLING,
                        format!("{fmt} files spell this directive `{expected}`: rename `{kw}`"),
                        span,
                    );
                }
                let had = self.asset().common.hide_tiles.is_some();
                self.dup(&had.then_some(()), line, kw);
                self.asset().common.hide_tiles = Some(line);
            }
            k if k.starts_with("DECAL") => {
                let mut values = Vec::new();
                let mut rest = Vec::new();
                for t in a {
                    match parse_number(t.1) {
                        Ok(v) if rest.is_empty() => values.push(v),
                        Err(true) => {
                            self.num(*t);
                            return;
                        }
                        _ => rest.push(t.1.to_string()),
                    }
                }
                self.asset().common.decal_params.push(Lined {
                    value: DecalParams {
                        keyword: k.to_string(),
                        values,
                        rest,
                    },
                    line,
                });
            }
            _ => {}
        }
    }

    /// TILE_ID, TILE and per-tile properties (AGP, AGS).
    fn tile_directive(&mut self, kw: &str, line: usize, toks: &[Tok]) -> bool {
        let a = &toks[1..];
        match kw {
            "TILE_ID" => {
                if self.arity(line, toks, 1, Some(1))
                    && let Some(id) = self.int(a[0])
                {
                    if let Some((_, l)) = self.pending_id {
                        self.dangling_id(l);
                    }
                    self.pending_id = Some((id, line));
                }
            }
            "TILE" => {
                if !self.arity(line, toks, 4, Some(4)) {
                    return true;
                }
                let Some(rect) = self.nums::<4>(a) else {
                    return true;
                };
                let index = self.asset().tiles.len() as i64;
                let (id, explicit_id) = match self.pending_id.take() {
                    Some((id, _)) => (id, true),
                    None => (index, false),
                };
                self.asset().tiles.push(Tile {
                    id,
                    explicit_id,
                    rect,
                    line,
                    rotation: None,
                    anchor: None,
                    ground: None,
                    crop_poly: None,
                    stop_pts: Vec::new(),
                    pivot_lead: None,
                    pivot_trail: None,
                    annotations: Vec::new(),
                });
            }
            "ROTATION" => {
                if !self.arity(line, toks, 1, Some(1)) {
                    return true;
                }
                let Some(v) = self.int(a[0]) else { return true };
                if let Some(t) = self.current_tile(line, kw) {
                    let had = t.rotation.replace(Lined { value: v, line }).is_some();
                    self.dup(&had.then_some(()), line, kw);
                }
            }
            "ANCHOR_PT" | "GROUND_PT" | "STOP_PT" | "PIVOT_LEAD_PT" | "PIVOT_TRAIL_PT" => {
                if !self.arity(line, toks, 2, Some(2)) {
                    return true;
                }
                let Some(p) = self.nums::<2>(a) else {
                    return true;
                };
                let v = Lined { value: p, line };
                if let Some(t) = self.current_tile(line, kw) {
                    let slot = match kw {
                        "ANCHOR_PT" => &mut t.anchor,
                        "GROUND_PT" => &mut t.ground,
                        "PIVOT_LEAD_PT" => &mut t.pivot_lead,
                        "PIVOT_TRAIL_PT" => &mut t.pivot_trail,
                        _ => {
                            t.stop_pts.push(v);
                            return true;
                        }
                    };
                    let had = slot.replace(v).is_some();
                    self.dup(&had.then_some(()), line, kw);
                }
            }
            "CROP_POLY" => {
                if !self.arity(line, toks, 2, None) {
                    return true;
                }
                if a.len() % 2 == 1 {
                    let span = self.doc.line_span(line);
                    self.err(
                        c::TOO_FEW_ARGS,
                        "CROP_POLY needs x y pairs: one coordinate is missing its partner",
                        span,
                    );
                    return true;
                }
                let Some(pts) = self.points(a) else {
                    return true;
                };
                if let Some(t) = self.current_tile(line, kw) {
                    let had = t.crop_poly.replace(Lined { value: pts, line }).is_some();
                    self.dup(&had.then_some(()), line, kw);
                }
            }
            _ => return false,
        }
        true
    }

    fn dangling_id(&mut self, l: usize) {
        let span = self.doc.line_span(l);
        self.warn(
            c::DANGLING_TILE_ID,
            "this TILE_ID is not followed by a TILE, so it names nothing: add the TILE or remove it",
            span,
        );
    }

    fn current_tile(&mut self, line: usize, kw: &str) -> Option<&mut Tile> {
        if self.asset.as_ref().is_some_and(|a| a.tiles.is_empty()) {
            let span = self.doc.line_span(line);
            self.err(
                c::BEFORE_TILE,
                format!("{kw} comes before any TILE: move it after the TILE it belongs to"),
                span,
            );
            return None;
        }
        self.asset().tiles.last_mut()
    }

    /// OBJ_*, FAC, FAC_WALLS, TREE, TREE_LINE.
    fn annotation(&mut self, kw: &str, line: usize, toks: &[Tok]) -> bool {
        let a = &toks[1..];
        let kind = match kw {
            "OBJ_DRAPED" | "OBJ_GRADED" | "OBJ_SCRAPER" | "OBJ_DELTA" => {
                let base = match kw {
                    "OBJ_SCRAPER" => 7,
                    "OBJ_DELTA" => 5,
                    _ => 4,
                };
                if !self.arity(line, toks, base, Some(base + 2)) {
                    return true;
                }
                if a.len() == base + 1 {
                    let span = self.doc.token_span(line, base + 1);
                    self.err(
                        c::TOO_FEW_ARGS,
                        format!("{kw} show levels come in pairs `lo hi`: add the missing level or remove this one"),
                        span,
                    );
                    return true;
                }
                let Some([x, y, heading]) = self.nums::<3>(a) else {
                    return true;
                };
                let (mode, index) = match kw {
                    "OBJ_DRAPED" => (Some(ObjMode::Draped), self.int(a[3])),
                    "OBJ_GRADED" => (Some(ObjMode::Graded), self.int(a[3])),
                    "OBJ_SCRAPER" => {
                        let i = self.int(a[3]);
                        let m = self
                            .nums::<3>(&a[4..7])
                            .map(|[min, max, step]| ObjMode::Scraper { min, max, step });
                        (m, i)
                    }
                    _ => {
                        let h = self.num(a[3]).map(|height| ObjMode::Delta { height });
                        (h, self.int(a[4]))
                    }
                };
                let show = if a.len() >= base + 2 {
                    match (self.int(a[base]), self.int(a[base + 1])) {
                        (Some(lo), Some(hi)) => Some([lo, hi]),
                        _ => return true,
                    }
                } else {
                    None
                };
                let (Some(mode), Some(index)) = (mode, index) else {
                    return true;
                };
                AnnotationKind::Object(ObjectAnn {
                    mode,
                    at: [x, y],
                    heading,
                    index,
                    show,
                })
            }
            "FAC" | "FAC_WALLS" => {
                let walls = kw == "FAC_WALLS";
                let stride = if walls { 3 } else { 2 };
                if !self.arity(line, toks, 2 + stride, None) {
                    return true;
                }
                if !(a.len() - 2).is_multiple_of(stride) {
                    let span = self.doc.line_span(line);
                    let what = if walls {
                        "x y wall triples"
                    } else {
                        "x y pairs"
                    };
                    self.err(
                        c::TOO_FEW_ARGS,
                        format!("{kw} points come as {what}: a value is missing"),
                        span,
                    );
                    return true;
                }
                let index = self.int(a[0]);
                let height = self.num(a[1]);
                let mut points = Vec::with_capacity((a.len() - 2) / stride);
                let mut wall_types = Vec::new();
                let mut ok = true;
                for chunk in a[2..].chunks(stride) {
                    match self.nums::<2>(chunk) {
                        Some(p) => points.push(p),
                        None => ok = false,
                    }
                    if walls {
                        match self.int(chunk[2]) {
                            Some(w) => wall_types.push(w),
                            None => ok = false,
                        }
                    }
                }
                let (Some(index), Some(height), true) = (index, height, ok) else {
                    return true;
                };
                AnnotationKind::Facade(FacadeAnn {
                    index,
                    height,
                    points,
                    walls: walls.then_some(wall_types),
                })
            }
            "TREE" => {
                if !self.arity(line, toks, 5, Some(5)) {
                    return true;
                }
                let v = self.nums::<4>(a);
                let layer = self.int(a[4]);
                let (Some([x, y, heading, width]), Some(layer)) = (v, layer) else {
                    return true;
                };
                AnnotationKind::Tree(TreeAnn {
                    at: [x, y],
                    heading,
                    width,
                    layer,
                })
            }
            "TREE_LINE" => {
                if !self.arity(line, toks, 5, Some(5)) {
                    return true;
                }
                let v = self.nums::<4>(a);
                let layer = self.int(a[4]);
                let (Some([x0, y0, x1, y1]), Some(layer)) = (v, layer) else {
                    return true;
                };
                AnnotationKind::TreeLine(TreeLineAnn {
                    from: [x0, y0],
                    to: [x1, y1],
                    layer,
                })
            }
            "GROUND_PT_FORMULA" => {
                if !self.arity(line, toks, 4, Some(4)) {
                    return true;
                }
                let Some([x_ratio, x_delta, y_ratio, y_delta]) = self.nums::<4>(a) else {
                    return true;
                };
                AnnotationKind::GroundFormula(GroundFormula {
                    x_ratio,
                    x_delta,
                    y_ratio,
                    y_delta,
                })
            }
            _ => return false,
        };
        self.push_annotation(Annotation { kind, line }, kw);
        true
    }

    fn push_annotation(&mut self, ann: Annotation, kw: &str) {
        let line = ann.line;
        if self.kind == Kind::Agb {
            if !self.grid_state(line).ended {
                self.before_end_cuts(line, kw);
            }
            let is_formula = matches!(ann.kind, AnnotationKind::GroundFormula(_));
            let grid = self.current_grid();
            grid.annotations.push(ann);
            // Whether the current grid (the last one) already holds an annotation a
            // formula can apply to; remembered by grid count instead of searched.
            let grids = self
                .asset
                .as_ref()
                .and_then(|a| a.block.as_ref())
                .map_or(0, |b| b.grids.len());
            let has_prev = self.ann_grid == Some(grids);
            if !is_formula {
                self.ann_grid = Some(grids);
            } else if !has_prev {
                self.formula_without_annotation(line);
            }
        } else if let Some(t) = self.current_tile(line, kw) {
            t.annotations.push(ann);
        }
    }

    /// An AGB annotation before its grid's END_CUTS.
    #[cold]
    fn before_end_cuts(&mut self, line: usize, kw: &str) {
        let span = self.doc.line_span(line);
        self.err(
            c::ANN_BEFORE_END_CUTS,
            format!("{kw} comes before END_CUTS: annotations of a grid go after its END_CUTS"),
            span,
        );
    }

    /// A GROUND_PT_FORMULA with no annotation before it in its grid.
    #[cold]
    fn formula_without_annotation(&mut self, line: usize) {
        let span = self.doc.token_span(line, 0);
        self.err(
            c::FORMULA_WITHOUT_ANN,
            "GROUND_PT_FORMULA applies to the annotation before it, but this grid has none: put it after the OBJ_GRADED it registers",
            span,
        );
    }

    // -------------------------------------------------------------- AGB ----

    fn current_grid(&mut self) -> &mut Grid {
        let b = self.asset().block.get_or_insert_with(BlockProps::default);
        if b.grids.is_empty() {
            b.grids.push(Grid::default());
        }
        let last = b.grids.len() - 1;
        &mut b.grids[last]
    }

    fn grid_state(&mut self, line: usize) -> &mut GridState {
        if self.grid.is_none() {
            self.current_grid();
        }
        self.grid.get_or_insert_with(|| GridState {
            first_line: line,
            ..GridState::default()
        })
    }

    /// Builds the bands of the current grid from its cuts (at END_CUTS, at
    /// the next SUB_GRID or at the end of the file).
    fn build_bands(&mut self) {
        let Some(gs) = self.grid.as_mut() else { return };
        if gs.built {
            return;
        }
        gs.built = true;
        let Some(gs) = self.grid.take() else { return };
        let mut diags = Vec::new();
        let mut bands: [Vec<Band>; 2] = [Vec::new(), Vec::new()];
        for (d, out) in bands.iter_mut().enumerate() {
            let cuts = &gs.cuts[d];
            let dir = if d == 0 { 'H' } else { 'V' };
            if cuts.len() < 2 {
                let l = cuts.first().map_or(gs.first_line, |c| c.line);
                diags.push(Diagnostic::error(
                    c::TOO_FEW_CUTS,
                    format!(
                        "this grid has {} CUT_{dir}; a grid needs at least two cuts in each direction",
                        cuts.len()
                    ),
                    self.doc.line_span(l),
                ));
            }
            for (i, cut) in cuts.iter().enumerate() {
                if i + 1 == cuts.len() {
                    for (what, p) in [("SLOP", cut.slop), ("ANTISLOP", cut.antislop)] {
                        if let Some((_, l)) = p {
                            diags.push(Diagnostic::error(
                                c::SLOP_ON_LAST_CUT,
                                format!("{what}_{dir} after the last CUT_{dir} has no band to apply to: move it between two cuts"),
                                self.doc.token_span(l, 0),
                            ));
                        }
                    }
                    break;
                }
                let slop = cut.slop.map(|s| s.0);
                let antislop = match (slop, cut.antislop) {
                    (_, Some((v, _))) => v,
                    (Some(_), None) => 0.0,
                    (None, None) => gs.antislop_default[d],
                };
                out.push(Band {
                    start: cut.value,
                    end: cuts[i + 1].value,
                    slop,
                    antislop,
                    line: cut.line,
                });
            }
        }
        for d in diags {
            let Location::Span(span) = d.location else {
                continue;
            };
            self.err(d.code.as_str(), d.message, span);
        }
        let [cols, rows] = bands;
        let lined = |v: &Vec<Cut>| {
            v.iter()
                .map(|c| Lined {
                    value: c.value,
                    line: c.line,
                })
                .collect::<Vec<_>>()
        };
        let (ch, cv) = (lined(&gs.cuts[0]), lined(&gs.cuts[1]));
        let grid = self.current_grid();
        grid.cuts_h = ch;
        grid.cuts_v = cv;
        grid.columns = cols;
        grid.rows = rows;
        self.grid = Some(GridState { built: true, ..gs });
    }

    fn finish_grid(&mut self) {
        if let Some(gs) = &self.grid
            && !gs.ended
        {
            let l = gs.first_line;
            let span = self.doc.line_span(l);
            self.err(
                c::NO_END_CUTS,
                "this grid has no END_CUTS: add END_CUTS after its last cut",
                span,
            );
        }
        self.build_bands();
        self.grid = None;
    }

    fn spelling_set(&mut self, line: usize, kw: &str) -> Option<&mut SpellingSet> {
        if self
            .asset()
            .block
            .as_ref()
            .is_some_and(|b| b.spelling_sets.is_empty())
        {
            let span = self.doc.line_span(line);
            self.err(
                c::BEFORE_SPELLING_SET,
                format!("{kw} comes before any SPELLING_SET: start a spelling set first"),
                span,
            );
            return None;
        }
        self.asset().block.as_mut()?.spelling_sets.last_mut()
    }

    fn block_directive(
        &mut self,
        kw: &str,
        line: usize,
        toks: &[Tok],
        glued: Option<&str>,
    ) -> bool {
        let a = &toks[1..];
        match kw {
            "CROP" => {
                if !self.arity(line, toks, 1, Some(1)) {
                    return true;
                }
                let Some(v) = self.int(a[0]) else { return true };
                if v != 0 && v != 1 {
                    let span = self.doc.token_span(line, 1);
                    self.err(c::BAD_CROP, "CROP takes 0 (off) or 1 (on)", span);
                    return true;
                }
                let b = self.asset().block.get_or_insert_with(BlockProps::default);
                let had = b
                    .crop
                    .replace(Lined {
                        value: v == 1,
                        line,
                    })
                    .is_some();
                self.dup(&had.then_some(()), line, kw);
            }
            "FLIP_180" => {
                self.arity(line, toks, 0, Some(0));
                let b = self.asset().block.get_or_insert_with(BlockProps::default);
                let had = b.flip_180.replace(line).is_some();
                self.dup(&had.then_some(()), line, kw);
            }
            "SUB_GRID" => {
                self.arity(line, toks, 0, Some(0));
                if self.grid.is_some() {
                    self.finish_grid();
                }
                let b = self.asset().block.get_or_insert_with(BlockProps::default);
                b.grids.push(Grid {
                    line: Some(line),
                    ..Grid::default()
                });
                self.grid = Some(GridState {
                    first_line: line,
                    ..GridState::default()
                });
            }
            "OVERLAP_H" | "OVERLAP_V" | "ANTISLOP_H" | "ANTISLOP_V" | "CUT_H" | "CUT_V"
            | "SLOP_H" | "SLOP_V" => {
                let d = usize::from(kw.ends_with('V'));
                let optional = kw.starts_with("SLOP");
                if !self.arity(line, toks, usize::from(!optional), Some(1)) {
                    return true;
                }
                let v = match a.first() {
                    Some(t) => match self.num(*t) {
                        Some(v) => Some(v),
                        None => return true,
                    },
                    None => None,
                };
                let gs = self.grid_state(line);
                if gs.ended {
                    let span = self.doc.token_span(line, 0);
                    self.err(
                        c::AFTER_END_CUTS,
                        format!(
                            "{kw} comes after END_CUTS: move it before END_CUTS or start a SUB_GRID"
                        ),
                        span,
                    );
                    return true;
                }
                let dir = if d == 0 { 'H' } else { 'V' };
                match kw.split('_').next() {
                    Some("OVERLAP") => gs.overlap[d] = v.unwrap_or(0.0),
                    Some("CUT") => {
                        let v = v.unwrap_or(0.0);
                        let prev = gs.cuts[d].last().map(|c| c.value);
                        gs.cuts[d].push(Cut {
                            value: v,
                            line,
                            ..Cut::default()
                        });
                        if let Some(p) = prev.filter(|&p| v <= p) {
                            let span = self.doc.token_span(line, 1);
                            self.err(
                                c::CUTS_ORDER,
                                format!("CUT_{dir} {v} is not greater than the cut before it ({p}): cuts must increase"),
                                span,
                            );
                        }
                    }
                    Some("ANTISLOP") => {
                        let v = v.unwrap_or(0.0);
                        match gs.cuts[d].last_mut() {
                            Some(cut) => {
                                let had = cut.antislop.replace((v, line)).is_some();
                                self.dup(&had.then_some(()), line, kw);
                            }
                            None => gs.antislop_default[d] = v,
                        }
                    }
                    _ => {
                        let overlap = v.unwrap_or(gs.overlap[d]);
                        match gs.cuts[d].last_mut() {
                            Some(cut) => {
                                let had = cut.slop.replace((overlap, line)).is_some();
                                self.dup(&had.then_some(()), line, kw);
                            }
                            None => {
                                let span = self.doc.token_span(line, 0);
                                self.err(
                                    c::SLOP_BEFORE_CUT,
                                    format!("{kw} comes before the first CUT_{dir}: put it after the cut that opens its band"),
                                    span,
                                );
                            }
                        }
                    }
                }
            }
            "END_CUTS" => {
                self.arity(line, toks, 0, Some(0));
                let gs = self.grid_state(line);
                if gs.ended {
                    let span = self.doc.token_span(line, 0);
                    self.warn(
                        c::DUPLICATE,
                        "END_CUTS appears twice in this grid: remove one",
                        span,
                    );
                    return true;
                }
                gs.ended = true;
                self.build_bands();
                self.current_grid().end_cuts = Some(line);
            }
            "EDGE_MIN" | "EDGE_BEST" | "EDGE_MAX" => {
                if !self.arity(line, toks, 4, Some(4)) {
                    return true;
                }
                let Some(v) = self.nums::<4>(a) else {
                    return true;
                };
                self.grid_state(line);
                let g = self.current_grid();
                let slot = match kw {
                    "EDGE_MIN" => &mut g.edge_min,
                    "EDGE_BEST" => &mut g.edge_best,
                    _ => &mut g.edge_max,
                };
                let had = slot.replace(Lined { value: v, line }).is_some();
                self.dup(&had.then_some(()), line, kw);
            }
            "SPELLING_SET" => {
                if !self.arity(line, toks, 1, Some(1)) {
                    return true;
                }
                let Some(param) = self.int(a[0]) else {
                    return true;
                };
                let b = self.asset().block.get_or_insert_with(BlockProps::default);
                b.spelling_sets.push(SpellingSet {
                    param,
                    line,
                    height_range: None,
                    width_range: None,
                    depth_range: None,
                    frequency: None,
                    use_grid: None,
                    spellings_s: Vec::new(),
                    spellings_t: Vec::new(),
                });
            }
            "HEIGHT_RANGE" | "WIDTH_RANGE" | "DEPTH_RANGE" => {
                if !self.arity(line, toks, 2, Some(2)) {
                    return true;
                }
                let Some(v) = self.nums::<2>(a) else {
                    return true;
                };
                let Some(set) = self.spelling_set(line, kw) else {
                    return true;
                };
                let slot = match kw {
                    "HEIGHT_RANGE" => &mut set.height_range,
                    "WIDTH_RANGE" => &mut set.width_range,
                    _ => &mut set.depth_range,
                };
                let had = slot.replace(Lined { value: v, line }).is_some();
                self.dup(&had.then_some(()), line, kw);
            }
            "FREQUENCY" => {
                if !self.arity(line, toks, 1, Some(1)) {
                    return true;
                }
                let Some(v) = self.num(a[0]) else { return true };
                let Some(set) = self.spelling_set(line, kw) else {
                    return true;
                };
                let had = set.frequency.replace(Lined { value: v, line }).is_some();
                self.dup(&had.then_some(()), line, kw);
            }
            "USE_GRID" => {
                if !self.arity(line, toks, 1, Some(1)) {
                    return true;
                }
                let Some(v) = self.int(a[0]) else { return true };
                let Some(set) = self.spelling_set(line, kw) else {
                    return true;
                };
                let had = set.use_grid.replace(Lined { value: v, line }).is_some();
                self.dup(&had.then_some(()), line, kw);
            }
            "SPELLING_S" | "SPELLING_T" => {
                if !self.arity(line, toks, 1, None) {
                    return true;
                }
                let Some(indices) = self.ints(a) else {
                    return true;
                };
                let Some(set) = self.spelling_set(line, kw) else {
                    return true;
                };
                let sp = Spelling {
                    indices,
                    name: None,
                    line,
                };
                if kw.ends_with('S') {
                    set.spellings_s.push(sp);
                } else {
                    set.spellings_t.push(sp);
                }
            }
            "DEFINE_SPELLING_S" | "DEFINE_SPELLING_T" => {
                let (name, idx) = match glued {
                    Some(n) => (n, a),
                    None => {
                        if !self.arity(line, toks, 2, None) {
                            return true;
                        }
                        (a[0].1, &a[1..])
                    }
                };
                if idx.is_empty() {
                    self.arity(line, toks, 2, None);
                    return true;
                }
                let Some(indices) = self.ints(idx) else {
                    return true;
                };
                let axis = usize::from(!kw.ends_with('S'));
                let kind = self.kind;
                let b = self
                    .asset
                    .get_or_insert_with(|| empty_asset(kind))
                    .block
                    .get_or_insert_with(BlockProps::default);
                let list = if axis == 0 {
                    &mut b.named_s
                } else {
                    &mut b.named_t
                };
                let dup = match self.named[axis].get(name) {
                    Some(&first) => Some(list[first].line),
                    None => {
                        self.named[axis].insert(name.to_string(), list.len());
                        None
                    }
                };
                list.push(NamedSpelling {
                    name: name.to_string(),
                    indices,
                    line,
                });
                if let Some(first) = dup {
                    let span = self.doc.line_span(line);
                    self.warn(
                        c::DUPLICATE_NAMED_SPELLING,
                        format!("spelling `{name}` is already defined on line {first}; the first definition is used: rename one"),
                        span,
                    );
                }
            }
            "USE_SPELLING_S" | "USE_SPELLING_T" => {
                if !self.arity(line, toks, 1, Some(1)) {
                    return true;
                }
                let name = a[0].1.to_string();
                let span = a[0].0..a[0].0 + a[0].1.len();
                let axis = usize::from(kw.ends_with('T'));
                let Some(set) = self.spelling_set(line, kw) else {
                    return true;
                };
                let list = if axis == 0 {
                    &mut set.spellings_s
                } else {
                    &mut set.spellings_t
                };
                list.push(Spelling {
                    indices: Vec::new(),
                    name: Some(name.clone()),
                    line,
                });
                let index = list.len() - 1;
                let set = self
                    .asset()
                    .block
                    .get_or_insert_with(BlockProps::default)
                    .spelling_sets
                    .len()
                    - 1;
                self.uses.push(PendingUse {
                    set,
                    axis,
                    index,
                    name,
                    line,
                    span,
                });
            }
            _ => return false,
        }
        true
    }

    // -------------------------------------------------------------- AGS ----

    fn ranges(&mut self, a: &[Tok]) -> Option<Vec<Range2>> {
        let mut out = Vec::with_capacity(a.len() / 2);
        for pair in a.chunks(2) {
            out.push(self.nums::<2>(pair)?);
        }
        Some(out)
    }

    fn mark_rule(&mut self, which: usize) {
        if let Some(m) = self.markers[which].as_mut() {
            m.1 = true;
        }
    }

    fn string_directive(&mut self, kw: &str, line: usize, toks: &[Tok]) -> bool {
        let a = &toks[1..];
        match kw {
            "CREASING_ANGLE" => {
                if !self.arity(line, toks, 2, Some(2)) {
                    return true;
                }
                if let Some(v) = self.nums::<2>(a) {
                    let s = self.asset().string.get_or_insert_with(StringProps::default);
                    let had = s.creasing_angle.replace(Lined { value: v, line }).is_some();
                    self.dup(&had.then_some(()), line, kw);
                }
            }
            "FILL_LAYER" => {
                if !self.arity(line, toks, 1, Some(1)) {
                    return true;
                }
                if let Some(v) = self.int(a[0]) {
                    let s = self.asset().string.get_or_insert_with(StringProps::default);
                    let had = s.fill_layer.replace(Lined { value: v, line }).is_some();
                    self.dup(&had.then_some(()), line, kw);
                }
            }
            "SHARE_Y" => {
                self.arity(line, toks, 0, Some(0));
                let s = self.asset().string.get_or_insert_with(StringProps::default);
                let had = s.share_y.replace(line).is_some();
                self.dup(&had.then_some(()), line, kw);
            }
            "GROUP" => {
                if !self.arity(line, toks, 2, None) {
                    return true;
                }
                if let (Some(id), Some(tiles)) = (self.int(a[0]), self.ints(&a[1..])) {
                    let s = self.asset().string.get_or_insert_with(StringProps::default);
                    s.groups.push(Group { id, tiles, line });
                }
            }
            "CORNER" | "CORNER_LEN" | "CORNER_PAIR" | "ATOMIC_SPELLING_CORNER" => {
                let nums = if kw == "CORNER" { 2 } else { 7 };
                if !self.arity(line, toks, nums + 1, None) {
                    return true;
                }
                let n_tiles = a.len() - nums;
                if n_tiles != 1 && n_tiles != 3 {
                    let span =
                        self.doc.token_span(line, nums + 1).start..self.doc.line_span(line).end;
                    self.err(
                        c::CORNER_TILE_COUNT,
                        format!("{kw} names {n_tiles} tiles; a corner has one tile or three (preceding, middle, trailing)"),
                        span,
                    );
                    return true;
                }
                let (r, g) = if nums == 2 {
                    (self.ranges(&a[..2]), Some(0))
                } else {
                    (self.ranges(&a[..6]), self.int(a[6]))
                };
                let tiles = self.ints(&a[nums..]);
                let (Some(r), Some(group), Some(tiles)) = (r, g, tiles) else {
                    return true;
                };
                let kind = match kw {
                    "CORNER" => CornerKind::Corner { angle: r[0] },
                    "CORNER_LEN" => CornerKind::Len {
                        len1: r[0],
                        angle: r[1],
                        len2: r[2],
                        group,
                    },
                    "CORNER_PAIR" => CornerKind::Pair {
                        angle1: r[0],
                        length: r[1],
                        angle2: r[2],
                        group,
                    },
                    _ => CornerKind::Atomic {
                        len1: r[0],
                        angle: r[1],
                        len2: r[2],
                        group,
                    },
                };
                let priority = self.corner_priority;
                self.mark_rule(0);
                let s = self.asset().string.get_or_insert_with(StringProps::default);
                s.corners.push(CornerRule {
                    kind,
                    tiles,
                    order: None,
                    priority,
                    line,
                });
            }
            "CORNER_ORDER" => {
                if !self.arity(line, toks, 3, Some(3)) {
                    return true;
                }
                let Some(v) = self.ints(&a[..3]) else {
                    return true;
                };
                let order = [v[0], v[1], v[2]];
                let mut sorted = order;
                sorted.sort_unstable();
                if sorted != [0, 1, 2] {
                    let span = self.doc.line_span(line);
                    self.err(
                        c::ORDER_PERMUTATION,
                        format!(
                            "CORNER_ORDER {} {} {} is not a permutation of 0 1 2: name each of the three tiles once",
                            v[0], v[1], v[2]
                        ),
                        span,
                    );
                    return true;
                }
                let s = self.asset().string.get_or_insert_with(StringProps::default);
                match s.corners.last_mut() {
                    Some(cr) if cr.tiles.len() == 3 => {
                        let had = cr.order.replace(Lined { value: order, line }).is_some();
                        self.dup(&had.then_some(()), line, kw);
                    }
                    _ => {
                        let span = self.doc.token_span(line, 0);
                        self.err(
                            c::ORDER_WITHOUT_CORNER,
                            "CORNER_ORDER must follow a corner directive with three tiles: move it after one",
                            span,
                        );
                    }
                }
            }
            "PRIORITY_MARKER_CORNER" | "PRIORITY_MARKER" => {
                self.arity(line, toks, 0, Some(0));
                let which = usize::from(kw == "PRIORITY_MARKER");
                if let Some((l, false)) = self.markers[which] {
                    self.empty_marker(l);
                }
                self.markers[which] = Some((line, false));
                if which == 0 {
                    self.corner_priority += 1;
                } else {
                    self.spelling_priority += 1;
                }
            }
            "SPELLING" | "ATOMIC_SPELLING" => {
                let atomic = kw == "ATOMIC_SPELLING";
                if !self.arity(line, toks, if atomic { 4 } else { 1 }, None) {
                    return true;
                }
                let (cond, ids) = if atomic {
                    let r = self.nums::<2>(&a[..2]);
                    let g = self.int(a[2]);
                    match (r, g) {
                        (Some(length), Some(group)) => {
                            (Some(AtomicCond { length, group }), &a[3..])
                        }
                        _ => return true,
                    }
                } else {
                    (None, a)
                };
                let Some(tiles) = self.ints(ids) else {
                    return true;
                };
                let priority = self.spelling_priority;
                self.mark_rule(1);
                let s = self.asset().string.get_or_insert_with(StringProps::default);
                s.spellings.push(EdgeSpelling {
                    tiles,
                    atomic: cond,
                    priority,
                    line,
                });
            }
            "CAPS" => {
                if !self.arity(line, toks, 1, None) {
                    return true;
                }
                if let Some(v) = self.ints(a) {
                    let s = self.asset().string.get_or_insert_with(StringProps::default);
                    s.caps.push(Lined { value: v, line });
                }
            }
            _ => return false,
        }
        true
    }

    fn empty_marker(&mut self, l: usize) {
        let span = self.doc.token_span(l, 0);
        self.warn(
            c::EMPTY_PRIORITY,
            "no rule follows this priority marker, so its group is empty: remove it",
            span,
        );
    }

    // ------------------------------------------------------------- end ----

    fn finish(&mut self) {
        if let Some((_, l)) = self.pending_id.take() {
            self.dangling_id(l);
        }
        for which in 0..2 {
            if let Some((l, false)) = self.markers[which] {
                self.empty_marker(l);
            }
        }
        if self.kind == Kind::Agb {
            if self.grid.is_some() {
                self.finish_grid();
            }
            let uses = std::mem::take(&mut self.uses);
            let first = std::mem::take(&mut self.named);
            for u in uses {
                let b = self.asset().block.get_or_insert_with(BlockProps::default);
                let named = if u.axis == 0 { &b.named_s } else { &b.named_t };
                match first[u.axis].get(&u.name).map(|&i| &named[i]) {
                    Some(n) => {
                        let indices = n.indices.clone();
                        let set = &mut b.spelling_sets[u.set];
                        let list = if u.axis == 0 {
                            &mut set.spellings_s
                        } else {
                            &mut set.spellings_t
                        };
                        list[u.index].indices = indices;
                    }
                    None => {
                        let axis = if u.axis == 0 { 'S' } else { 'T' };
                        self.err(
                            c::USE_SPELLING_UNKNOWN,
                            format!(
                                "no DEFINE_SPELLING_{axis} defines `{}`: define it or fix the name",
                                u.name
                            ),
                            u.span,
                        );
                        let _ = u.line;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_keyword_suggests_within_a_third_of_the_length() {
        assert_eq!(
            nearest_keyword("OBJ_DRAPPED", Kind::Agp),
            Some("OBJ_DRAPED")
        );
        assert_eq!(
            nearest_keyword("obj_drapped", Kind::Agp),
            Some("OBJ_DRAPED")
        );
        // A swap of two letters is one edit.
        assert_eq!(nearest_keyword("TIEL", Kind::Agp), Some("TILE"));
        assert_eq!(nearest_keyword("GLITTER", Kind::Agp), None);
        assert_eq!(nearest_keyword("", Kind::Agp), None);
        // Only directives the format accepts: CUT_H is an AGB one.
        assert_eq!(nearest_keyword("CUT_HH", Kind::Agb), Some("CUT_H"));
        assert_ne!(nearest_keyword("CUT_HH", Kind::Agp), Some("CUT_H"));
        // Long tokens are not compared at all.
        assert_eq!(nearest_keyword(&"TILE".repeat(100), Kind::Agp), None);
    }

    #[test]
    fn keywords_sorted_for_binary_search() {
        assert!(KEYWORDS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(canonical_keyword("TILE"), Some("TILE"));
        assert_eq!(canonical_keyword("TILES"), None);
        assert_eq!(canonical_keyword(""), None);
        assert_eq!(canonical_keyword("tile"), None);
        for k in KEYWORDS {
            assert!(k.len() <= KW_MAX_LEN, "{k}");
            assert_eq!(canonical_keyword(k), Some(*k));
            assert_eq!(canonical_keyword(&format!("{k}X")), None);
            // A prefix is found only when it is a keyword itself (HIDE_TILE).
            let prefix = &k[..k.len() - 1];
            assert_eq!(
                canonical_keyword(prefix),
                KEYWORDS.iter().find(|&&x| x == prefix).copied()
            );
        }
    }
}
