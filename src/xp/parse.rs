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

mod annotation;
mod common;
pub(crate) mod directives;
mod draw;
mod grid;
mod spelling;
mod string;
mod tile;

use directives::DIRECTIVES;

/// The table's spelling of a directive, checked against
/// [`DIRECTIVES`](directives::DIRECTIVES) when the crate compiles (a name
/// that is not in the table fails the build).
macro_rules! kw {
    ($name:literal) => {
        const { $crate::xp::parse::directives::name($name) }
    };
}
pub(crate) use kw;

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

/// One directive line, as its handler in [`DIRECTIVES`] reads it.
struct Args<'t, 'a> {
    /// The keyword as the table spells it.
    kw: &'static str,
    /// The line number (1-based).
    line: usize,
    /// The tokens of the line, the keyword first.
    toks: &'t [Tok<'a>],
    /// The spelling name glued to `DEFINE_SPELLING_S` / `_T`
    /// (`DEFINE_SPELLING_Sname`), when it is.
    glued: Option<&'a str>,
}

impl<'t, 'a> Args<'t, 'a> {
    /// The keyword, the line number, the tokens and the arguments (the
    /// tokens after the keyword).
    fn parts(&self) -> (&'static str, usize, &'t [Tok<'a>], &'t [Tok<'a>]) {
        (self.kw, self.line, self.toks, &self.toks[1..])
    }
}

/// Every directive keyword the model knows (upper case, sorted): the names
/// of the directive table.
pub const KEYWORDS: &[&str] = &directives::NAMES;

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

/// Lookup table built once from [`DIRECTIVES`].
struct KeywordTables {
    /// Open addressing from [`kw_hash`] to index in [`DIRECTIVES`].
    slots: [u8; KW_SLOTS],
}

/// The keyword table: one hash and usually one comparison per directive
/// line instead of string matches.
fn keyword_tables() -> &'static KeywordTables {
    static TABLES: std::sync::OnceLock<KeywordTables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut slots = [KW_EMPTY; KW_SLOTS];
        for (i, d) in DIRECTIVES.iter().enumerate() {
            let mut h = kw_hash(d.name.as_bytes());
            while slots[h] != KW_EMPTY {
                h = (h + 1) & (KW_SLOTS - 1);
            }
            slots[h] = u8::try_from(i).expect("fewer than 255 keywords");
        }
        KeywordTables { slots }
    })
}

/// The longest keyword, in bytes (longer tokens are not hashed at all).
const KW_MAX_LEN: usize = 32;

/// True when a directive of these [`Formats`](directives::Formats) is valid
/// in `kind`.
fn valid_in((agp, agb, ags): directives::Formats, kind: Kind) -> bool {
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
    DIRECTIVES
        .iter()
        .filter(|d| valid_in(d.formats, kind))
        .map(|d| (strsim::damerau_levenshtein(&raw, d.name), d.name))
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
        if DIRECTIVES[usize::from(i)].name == kw {
            return Some(usize::from(i));
        }
        h = (h + 1) & (KW_SLOTS - 1);
    }
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
                    let k = DIRECTIVES[i].name;
                    if i != const { directives::index("USE_SPELLING_T") }
                        && i != const { directives::index("DEFINE_SPELLING_T") }
                    {
                        let span = self.doc.token_span(line, 0);
                        self.warn(
                            c::LOWERCASE_KEYWORD,
                            format!("write the directive `{raw}` in upper case: `{k}`"),
                            span,
                        );
                    }
                    i
                } else if up.starts_with(kw!("DEFINE_SPELLING_S"))
                    || up.starts_with(kw!("DEFINE_SPELLING_T"))
                {
                    glued_name = Some(&raw[17..]);
                    if up.as_bytes()[16] == b'S' {
                        const { directives::index("DEFINE_SPELLING_S") }
                    } else {
                        const { directives::index("DEFINE_SPELLING_T") }
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
        let d = &DIRECTIVES[id];
        if !valid_in(d.formats, self.kind) {
            let span = self.doc.token_span(line, 0);
            let fmt = self.kind.header();
            self.err(
                c::WRONG_FORMAT,
                format!(
                    "{} is not valid in an {fmt} file: remove it or change the header",
                    d.name
                ),
                span,
            );
            return;
        }
        let args = Args {
            kw: d.name,
            line,
            toks,
            glued: glued_name,
        };
        (d.handler)(self, &args);
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

    // -------------------------------------------------------------- AGS ----

    fn mark_rule(&mut self, which: usize) {
        if let Some(m) = self.markers[which].as_mut() {
            m.1 = true;
        }
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

    /// Every directive of the table has a handler that reads its line:
    /// in each format that takes it, a line of it changes the model or the
    /// diagnostics (a handler that did nothing would not) and is never
    /// reported unknown; in the others it is reported as of the wrong
    /// format.
    #[test]
    fn every_directive_is_handled_in_the_formats_that_take_it() {
        let read_text = |text: &str| {
            let doc = Document::parse(text);
            let p = read(&doc);
            (format!("{:?}", p.asset), p.diags)
        };
        for d in DIRECTIVES {
            for kind in [Kind::Agp, Kind::Agb, Kind::Ags] {
                let tile = if kind == Kind::Agb {
                    ""
                } else {
                    "TILE 0 0 64 64\n"
                };
                let base = format!("A\n1000\n{}\n{tile}", kind.header());
                let text = format!("{base}{} 1 2 3 4 5 6 7 8 9 10\n", d.name);
                let (before, _) = read_text(&base);
                let (after, diags) = read_text(&text);
                let codes: Vec<&str> = diags.iter().map(|g| g.code.as_str()).collect();
                assert!(
                    !codes.contains(&c::UNKNOWN_DIRECTIVE),
                    "{} {kind:?}",
                    d.name
                );
                if valid_in(d.formats, kind) {
                    assert!(!codes.contains(&c::WRONG_FORMAT), "{} {kind:?}", d.name);
                    let (_, base_diags) = read_text(&base);
                    assert!(
                        after != before || diags.len() > base_diags.len(),
                        "{} in {kind:?} changed nothing",
                        d.name
                    );
                } else {
                    assert!(codes.contains(&c::WRONG_FORMAT), "{} {kind:?}", d.name);
                }
            }
        }
    }

    /// The table's names are what the public list and the compile-time
    /// lookup spell.
    #[test]
    fn keywords_are_the_table_names() {
        assert_eq!(KEYWORDS.len(), DIRECTIVES.len());
        for (i, (k, d)) in KEYWORDS.iter().zip(DIRECTIVES).enumerate() {
            assert_eq!(*k, d.name);
            assert_eq!(directives::index(k), i);
            assert_eq!(keyword_index(k), Some(i));
        }
        assert_eq!(kw!("TILE"), "TILE");
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
