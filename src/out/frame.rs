//! The frame around a map, shared by every picture agkit draws: a header
//! (title, subtitle lines, a note), a north arrow, and a footer with a
//! scale bar and the legend. [`compose`] puts a map's layers inside it.
//!
//! Layout: the header band above the map holds the title (shrunk, then
//! shortened from the left with `...`, to fit beside the north arrow and
//! an optional inset such as a locator) and the subtitle wrapped at its
//! ` · ` separators; the footer band below holds the scale bar (at most a
//! quarter of the width) on the left and the legend in right-aligned rows
//! on the right, as many rows as the width needs. Nothing of the frame
//! overlaps the map or leaves the picture.

use super::draw::{
    Colour, Drawing, Layer, Px, REPLACEMENT, Shape, Style, Text, chars_width, text_width, xml_char,
};
use std::borrow::Cow;
use std::collections::BTreeSet;

/// Left and right margin of everything.
pub const LEFT: f64 = 30.0;
/// Room kept free at the right of the header for the north arrow.
pub const NORTH_W: f64 = 60.0;
/// Size of the subtitle.
const SUB_SIZE: f64 = 11.5;
/// Line step of the subtitle.
const SUB_STEP: f64 = 16.0;
/// Size of the legend's words.
const LEGEND_SIZE: f64 = 11.0;
/// Height of a legend row.
const LEGEND_ROW: f64 = 22.0;

/// Colour of titles and the frame's ink.
pub const INK: Colour = Colour::hex(0x222222);
/// Colour of the subtitle.
const GREY: Colour = Colour::hex(0x555555);
/// Colour of a note that says the picture leaves something out.
const NOTE: Colour = Colour::hex(0xa3321d);

/// A legend entry: an icon (shapes in a 12 × 9 box at the origin) and its
/// words.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The icon.
    pub icon: Vec<Shape>,
    /// What it stands for.
    pub word: String,
}

impl Entry {
    /// An entry of `icon` and `word`.
    pub fn new(icon: Vec<Shape>, word: impl Into<String>) -> Entry {
        Entry {
            icon,
            word: word.into(),
        }
    }

    /// A 12 × 9 swatch painted with `style`.
    pub fn swatch(style: Style, word: impl Into<String>) -> Entry {
        Entry::new(
            vec![Shape::Rect {
                at: [0.0, 0.0],
                size: [12.0, 9.0],
                style,
            }],
            word,
        )
    }

    /// A disc of radius `r` painted with `style`.
    pub fn disc(r: f64, style: Style, word: impl Into<String>) -> Entry {
        Entry::new(
            vec![Shape::Circle {
                at: [6.0, 5.0],
                r,
                style,
            }],
            word,
        )
    }
}

/// `text` at `size`, shrunk down to `min_size` and then shortened from
/// the left (with a leading `...`) until it fits in `room` pixels.
///
/// Linear in the length of `text`: a width depends on the count of
/// characters only ([`chars_width`]), so what fits is counted, not
/// measured cut by cut.
pub fn fit_text(text: &str, size: f64, min_size: f64, room: f64) -> (String, f64) {
    let n = text.chars().count();
    let mut size = size;
    while chars_width(n, size) > room && size > min_size {
        size = (size - 0.5).max(min_size);
    }
    if chars_width(n, size) <= room {
        return (text.to_string(), size);
    }
    // The most characters of the end that fit after the `...`: fewer than
    // the whole text, none at all when not even one fits.
    let keep = fitting(n + 2, size, room).saturating_sub(3).min(n - 1);
    let tail = text
        .char_indices()
        .nth(n - keep)
        .map_or("", |(i, _)| &text[i..]);
    (format!("...{tail}"), size)
}

/// The most characters, at most `n`, that fit in `room` pixels at `size`.
fn fitting(n: usize, size: f64, room: f64) -> usize {
    // Every character takes at least 0.62 × size ([`chars_width`]): no more
    // than one past `room` over that are tried, whatever `n`.
    let most = (room / (0.62 * size)).floor();
    if !(most.is_finite() && most >= 0.0) {
        // No size, no room or an endless one: all or nothing.
        return if chars_width(n, size) <= room { n } else { 0 };
    }
    (0..=n.min((most as usize).saturating_add(1)))
        .rev()
        .find(|&k| chars_width(k, size) <= room)
        .unwrap_or(0)
}

/// Splits `parts` into lines of at most `room` pixels at `size`, joined by
/// `sep`; a part too long for a line gets a line of its own. Linear in the
/// length of the parts (each line's width is kept as its count of
/// characters).
pub fn wrap(parts: &[String], sep: &str, size: f64, room: f64) -> Vec<String> {
    let sep_chars = sep.chars().count();
    let mut lines: Vec<(String, usize)> = Vec::new();
    for part in parts {
        let n = part.chars().count();
        match lines.last_mut() {
            Some((line, chars)) if chars_width(*chars + sep_chars + n, size) <= room => {
                line.push_str(sep);
                line.push_str(part);
                *chars += sep_chars + n;
            }
            _ => lines.push((part.clone(), n)),
        }
    }
    lines.into_iter().map(|(line, _)| line).collect()
}

/// Most characters of a name (an asset's, a definition's, a package's) a
/// picture writes; a longer name is written as its start and end around a
/// `…` ([`shorten_middle`]). A hundred characters hold the library path
/// and file name of nearly every asset X-Plane ships.
pub const NAME_CHARS: usize = 100;

/// `text` in at most `max` characters: a longer one as its first and last
/// characters around a `…` in the middle, the end the larger part (where
/// a path has its file name). Linear in the length of `text`.
pub fn shorten_middle(text: &str, max: usize) -> Cow<'_, str> {
    let n = text.chars().count();
    if n <= max {
        return Cow::Borrowed(text);
    }
    let Some(kept) = max.checked_sub(1) else {
        return Cow::Borrowed("");
    };
    let head = kept * 2 / 5;
    let tail = kept - head;
    let at = |k: usize| text.char_indices().nth(k).map_or(text.len(), |(i, _)| i);
    Cow::Owned(format!("{}…{}", &text[..at(head)], &text[at(n - tail)..]))
}

/// The names a picture writes (of assets, definitions, packages), each as
/// [`Names::show`] writes it, and what was changed in them, to be said
/// once ([`Names::note`]).
#[derive(Debug, Clone, Default)]
pub struct Names<'a> {
    /// Names written with [`REPLACEMENT`] for characters XML 1.0 does
    /// not allow.
    replaced: BTreeSet<&'a str>,
    /// Names longer than [`NAME_CHARS`], written shortened.
    cut: BTreeSet<&'a str>,
}

impl<'a> Names<'a> {
    /// `name` as the picture writes it: at most [`NAME_CHARS`] characters
    /// ([`shorten_middle`]), each character XML 1.0 does not allow
    /// ([`xml_char`]) as [`REPLACEMENT`]. Linear in the length of `name`.
    pub fn show(&mut self, name: &'a str) -> Cow<'a, str> {
        let shown = shorten_middle(name, NAME_CHARS);
        if let Cow::Owned(_) = shown {
            self.cut.insert(name);
        }
        if shown.chars().all(xml_char) {
            return shown;
        }
        self.replaced.insert(name);
        let clean = shown
            .chars()
            .map(|c| if xml_char(c) { c } else { REPLACEMENT })
            .collect();
        Cow::Owned(clean)
    }

    /// What [`Names::show`] changed, in one sentence; `None` when every
    /// name was written as it is.
    pub fn note(&self) -> Option<String> {
        let mut said = Vec::new();
        if !self.replaced.is_empty() {
            said.push(format!(
                "{} with characters XML 1.0 does not allow, written as U+FFFD ({REPLACEMENT})",
                super::thousands(self.replaced.len())
            ));
        }
        if !self.cut.is_empty() {
            said.push(format!(
                "{} of more than {NAME_CHARS} characters, written as {} start and end around …",
                super::thousands(self.cut.len()),
                if self.cut.len() == 1 { "its" } else { "their" }
            ));
        }
        (!said.is_empty()).then(|| {
            format!(
                "names: {}; the JSON and GeoJSON outputs hold them whole",
                said.join("; ")
            )
        })
    }
}

/// The band above the map: a title, subtitle lines and a note, wrapped to
/// the picture's width less the north arrow and an inset at the right.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The title as drawn (maybe shortened).
    pub title: String,
    /// Its size.
    pub title_size: f64,
    /// Subtitle lines.
    pub sub: Vec<String>,
    /// Note lines (drawn in red under the subtitle).
    pub note: Vec<String>,
    /// Height of the band.
    pub height: f64,
}

impl Header {
    /// A header of `title`, the subtitle `parts` (joined by ` · `) and a
    /// `note`, in a picture `w` wide with `inset` pixels kept free at the
    /// right beside the north arrow.
    pub fn new(title: &str, parts: &[String], note: Option<&str>, w: f64, inset: f64) -> Header {
        let room = w - 2.0 * LEFT - NORTH_W - inset;
        let (title, title_size) = fit_text(title, 17.0, 12.0, room);
        let fit = |lines: Vec<String>| -> Vec<String> {
            lines
                .into_iter()
                .map(|l| fit_text(&l, SUB_SIZE, SUB_SIZE, room).0)
                .collect()
        };
        let sub = fit(wrap(parts, " · ", SUB_SIZE, room));
        let note = match note {
            Some(n) => {
                let words: Vec<String> = n.split(' ').map(str::to_string).collect();
                fit(wrap(&words, " ", SUB_SIZE, room))
            }
            None => Vec::new(),
        };
        let lines = (sub.len() + note.len()).max(1);
        let height = (47.0 + (lines as f64 - 1.0) * SUB_STEP + 17.0).max(64.0);
        Header {
            title,
            title_size,
            sub,
            note,
            height,
        }
    }

    fn layer(&self) -> Layer {
        let mut l = Layer::new("title", Style::default());
        l.shapes.push(Shape::Text(
            Text::new(&self.title, [LEFT, 28.0], self.title_size, INK).bold(),
        ));
        let lines = self.sub.iter().map(|s| (s, GREY));
        let notes = self.note.iter().map(|s| (s, NOTE));
        for (i, (line, colour)) in lines.chain(notes).enumerate() {
            let y = 47.0 + i as f64 * SUB_STEP;
            l.shapes
                .push(Shape::Text(Text::new(line, [LEFT, y], SUB_SIZE, colour)));
        }
        l
    }
}

/// The north arrow at the top right of a picture `w` wide.
fn north_arrow(w: f64) -> Layer {
    let x = w - 34.0;
    let mut l = Layer::new("north", Style::default());
    l.shapes.push(Shape::Area {
        rings: vec![vec![[x, 14.0], [x + 9.0, 40.0], [x, 33.0], [x - 9.0, 40.0]]],
        style: Style::fill(INK),
    });
    l.shapes.push(Shape::Text(
        Text::new("N", [x, 54.0], 11.0, INK).centred_x(),
    ));
    l
}

/// The band below the map: the scale bar at the left, the legend in
/// right-aligned rows at the right.
#[derive(Debug, Clone, PartialEq)]
pub struct Footer {
    /// Bar length in metres.
    pub bar_m: f64,
    /// Bar length in pixels.
    pub bar_px: f64,
    /// The bar's label.
    pub bar_text: String,
    /// The legend's entries.
    pub entries: Vec<Entry>,
    /// Legend rows: (x of each entry, entry index), right-aligned.
    pub rows: Vec<Vec<(f64, usize)>>,
    /// Height of the band.
    pub height: f64,
}

impl Footer {
    /// The footer of a map drawn at `scale` pixels per metre in a picture
    /// `w` wide.
    pub fn new(scale: f64, w: f64, entries: Vec<Entry>) -> Footer {
        // A bar of a round length (1, 2 or 5 × 10^k m) of at most 1/4 of
        // the picture's inner width.
        let target = (w - 2.0 * LEFT) / 4.0 / scale;
        let mag = 10f64.powf(target.log10().floor());
        let bar_m = [5.0, 2.0, 1.0]
            .iter()
            .map(|m| m * mag)
            .find(|&l| l <= target)
            .unwrap_or(mag);
        let bar_px = bar_m * scale;
        let bar_text = if bar_m >= 1000.0 {
            format!("{} km", bar_m / 1000.0)
        } else {
            format!("{bar_m} m")
        };
        let bar_w = bar_px.max(text_width(&bar_text, 11.0));
        let left = LEFT + bar_w + 30.0;
        let right = w - LEFT;
        // An entry wider than a row is shortened in the middle to fit one.
        let most = fitting(usize::MAX, LEGEND_SIZE, right - left - 17.0);
        let entries: Vec<Entry> = entries
            .into_iter()
            .map(|mut e| {
                if let Cow::Owned(short) = shorten_middle(&e.word, most) {
                    e.word = short;
                }
                e
            })
            .collect();
        let entry = |i: usize| 17.0 + text_width(&entries[i].word, LEGEND_SIZE);
        const GAP: f64 = 16.0;
        // Fill rows left to right, then right-align each.
        let mut rows: Vec<Vec<usize>> = Vec::new();
        let mut used = 0.0;
        for i in 0..entries.len() {
            let e = entry(i);
            match rows.last_mut() {
                Some(row) if used + GAP + e <= right - left => {
                    row.push(i);
                    used += GAP + e;
                }
                _ => {
                    rows.push(vec![i]);
                    used = e;
                }
            }
        }
        let rows: Vec<Vec<(f64, usize)>> = rows
            .into_iter()
            .map(|row| {
                let total: f64 =
                    row.iter().map(|&i| entry(i)).sum::<f64>() + GAP * (row.len() - 1) as f64;
                let mut x = (right - total).max(left);
                row.into_iter()
                    .map(|i| {
                        let at = x;
                        x += entry(i) + GAP;
                        (at, i)
                    })
                    .collect()
            })
            .collect();
        let height = (rows.len() as f64 * LEGEND_ROW).max(34.0) + 12.0;
        Footer {
            bar_m,
            bar_px,
            bar_text,
            entries,
            rows,
            height,
        }
    }

    fn layers(&self, top: f64) -> [Layer; 2] {
        let y = top + 6.0;
        let px = self.bar_px;
        let mut scale = Layer::new("scale", Style::default());
        scale.data.push(("data-metres", self.bar_m.to_string()));
        scale.shapes.push(Shape::Rect {
            at: [LEFT, y],
            size: [px / 2.0, 5.0],
            style: Style::fill(INK),
        });
        scale.shapes.push(Shape::Rect {
            at: [LEFT + px / 2.0, y],
            size: [px / 2.0, 5.0],
            style: Style::fill(Colour(255, 255, 255)).stroke(INK, 1.0),
        });
        scale.shapes.push(Shape::Text(Text::new(
            &self.bar_text,
            [LEFT, y + 20.0],
            11.0,
            INK,
        )));
        let mut legend = Layer::new("legend", Style::default());
        for (r, row) in self.rows.iter().enumerate() {
            let y = top + 4.0 + r as f64 * LEGEND_ROW;
            for &(x, i) in row {
                let e = &self.entries[i];
                let mut shapes = e.icon.clone();
                shapes.push(Shape::Text(Text::new(
                    &e.word,
                    [17.0, 9.0],
                    LEGEND_SIZE,
                    Colour::hex(0x333333),
                )));
                legend.shapes.push(Shape::Group { at: [x, y], shapes });
            }
        }
        [scale, legend]
    }
}

/// A picture `w` wide: the header, the map's layers (drawn from the
/// header's bottom, `map_h` tall), the layers of an inset in the header
/// (a locator), the north arrow and the footer.
pub fn compose(
    w: f64,
    header: &Header,
    map: Vec<Layer>,
    map_h: f64,
    inset: Vec<Layer>,
    footer: &Footer,
) -> Drawing {
    let footer_top = header.height + map_h + 14.0;
    let h = (footer_top + footer.height).ceil();
    let mut layers = Vec::with_capacity(map.len() + inset.len() + 4);
    layers.push(header.layer());
    layers.extend(map);
    layers.extend(inset);
    layers.push(north_arrow(w));
    layers.extend(footer.layers(footer_top));
    Drawing {
        size: [w.round(), h],
        background: Colour::hex(0xfbfaf6),
        layers,
    }
}

/// The map's pixel box in a picture composed by [`compose`]: `[x0, y0,
/// x1, y1]` of a map `map_h` tall under `header`.
pub fn map_box(w: f64, header: &Header, map_h: f64) -> [f64; 4] {
    [LEFT, header.height, w - LEFT, header.height + map_h]
}

/// A point inside a 12 × 9 legend box, for icons.
pub const ICON_CENTRE: Px = [6.0, 4.5];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_shrunk_then_shortened_to_fit() {
        let (t, size) = fit_text("short", 17.0, 12.0, 500.0);
        assert_eq!((t.as_str(), size), ("short", 17.0));
        let long = "a".repeat(50);
        let (t, size) = fit_text(&long, 17.0, 12.0, text_width(&long, 13.0));
        assert_eq!(t, long);
        assert!((12.0..=13.0).contains(&size), "{size}");
        let (t, size) = fit_text(&long, 17.0, 12.0, 100.0);
        assert_eq!(size, 12.0);
        assert!(t.starts_with("...") && text_width(&t, size) <= 100.0, "{t}");
        let parts = ["aaaa".to_string(), "bbbb".to_string(), "cccc".to_string()];
        let room = text_width("aaaa · bbbb", 10.0);
        assert_eq!(wrap(&parts, " · ", 10.0, room), ["aaaa · bbbb", "cccc"]);
    }

    /// Characters [`text_width`] counts while `f` runs.
    fn measured<T>(f: impl FnOnce() -> T) -> (T, usize) {
        use crate::out::draw::MEASURED;
        let before = MEASURED.with(|m| m.get());
        let out = f();
        (out, MEASURED.with(|m| m.get()) - before)
    }

    #[test]
    fn fitting_a_long_text_counts_it_once_not_cut_by_cut() {
        // Shortened from the left as before: the end that fits after `...`.
        let long: String = ('a'..='z').cycle().take(20_000).collect();
        let room = text_width(&"x".repeat(40), 12.0);
        let (t, size) = fit_text(&long, 17.0, 12.0, room);
        assert_eq!(size, 12.0);
        assert!(t.starts_with("...") && long.ends_with(&t[3..]), "{t}");
        assert!(text_width(&t, size) <= room);
        assert!(
            text_width(&format!(".{t}"), size) > room,
            "the most that fits"
        );
        // No room at all: the dots alone.
        assert_eq!(fit_text(&long, 12.0, 12.0, 1.0).0, "...");
        // Measured once, not once per character cut off (which took 0.6 s
        // for a name of 25,000 characters, 6.5 s for 100,000): the work of
        // the header and the legend is the same for a text 10 times longer.
        let header = |n: usize| {
            let name = "é".repeat(n);
            let parts = vec![name.clone(), "seed 0".to_string()];
            let entries = vec![Entry::swatch(Style::default(), name.clone())];
            measured(|| {
                let h = Header::new(&name, &parts, Some(&name), 900.0, 0.0);
                let f = Footer::new(1.0, 900.0, entries);
                (h, f)
            })
        };
        let ((h, f), short) = header(10_000);
        let (_, ten_times) = header(100_000);
        assert!(ten_times <= short, "{short} then {ten_times}");
        let room = 900.0 - 2.0 * LEFT - NORTH_W;
        assert!(
            h.sub
                .iter()
                .chain(&h.note)
                .all(|l| text_width(l, SUB_SIZE) <= room)
        );
        assert!(h.note.len() == 1 && h.sub.len() == 2, "{:?}", h.sub);
        // The legend's entry is shortened in the middle to fit its row.
        let word = &f.entries[0].word;
        assert!(word.starts_with('é') && word.contains('…') && word.ends_with('é'));
        assert!(
            17.0 + text_width(word, LEGEND_SIZE) <= 900.0 - 2.0 * LEFT,
            "{word}"
        );
    }

    #[test]
    fn names_are_shortened_in_the_middle_and_cleaned_and_it_is_said_once() {
        assert_eq!(shorten_middle("abc", 3), "abc");
        assert_eq!(shorten_middle("abcdef", 4), "a…ef");
        assert_eq!(shorten_middle("abcdef", 1), "…");
        assert_eq!(shorten_middle("abcdef", 0), "");
        let long = format!("lib/{}/end.agb", "ü".repeat(10_000));
        let mut names = Names::default();
        let short = names.show(&long).into_owned();
        assert_eq!(short.chars().count(), NAME_CHARS);
        assert!(
            short.starts_with("lib/ü") && short.ends_with("ü/end.agb"),
            "{short}"
        );
        assert_eq!(short.matches('…').count(), 1);
        assert_eq!(names.show("a\u{1}b\u{1b}c.obj"), "a\u{FFFD}b\u{FFFD}c.obj");
        assert_eq!(names.show("plain.obj"), "plain.obj");
        // A name written twice is one name changed.
        names.show(&long);
        let note = names.note().expect("a note");
        assert_eq!(
            note,
            "names: 1 with characters XML 1.0 does not allow, written as U+FFFD (\u{FFFD}); \
             1 of more than 100 characters, written as its start and end around …; \
             the JSON and GeoJSON outputs hold them whole"
        );
        // What the cut leaves out is not said to be replaced.
        let mut names = Names::default();
        let hidden = format!("{}\u{1}{}", "a".repeat(500), "b".repeat(500));
        assert!(names.show(&hidden).chars().all(xml_char));
        assert!(!names.note().unwrap().contains("U+FFFD"));
        assert_eq!(Names::default().note(), None);
    }

    #[test]
    fn legend_wraps_and_stays_inside_the_picture() {
        let entries: Vec<Entry> = ["tile (arrow: texture up)", "facade", "tree", "object", "x"]
            .iter()
            .map(|w| Entry::swatch(Style::default(), *w))
            .collect();
        for w in [900.0, 600.0, 420.0] {
            let f = Footer::new(0.5, w, entries.clone());
            let n: usize = f.rows.iter().map(Vec::len).sum();
            assert_eq!(n, 5);
            let left = LEFT + f.bar_px.max(text_width(&f.bar_text, 11.0)) + 30.0;
            for row in &f.rows {
                let &(x0, _) = row.first().unwrap();
                let &(x1, i) = row.last().unwrap();
                assert!(x0 >= left - 1e-9, "{w}: {x0} < {left}");
                let end = x1 + 17.0 + text_width(&f.entries[i].word, LEGEND_SIZE);
                assert!(end <= w - LEFT + 1e-9 || row.len() == 1, "{w}: {end}");
            }
            assert!(f.bar_px <= (w - 2.0 * LEFT) / 4.0 + 1e-9);
            if w == 900.0 {
                assert_eq!(f.rows.len(), 1);
            } else {
                assert!(f.rows.len() > 1);
            }
            assert!(f.height >= f.rows.len() as f64 * LEGEND_ROW);
        }
    }

    #[test]
    fn a_note_gets_lines_of_its_own() {
        let long = "word ".repeat(60);
        let h = Header::new("t", &["a".into(), "b".into()], Some(&long), 900.0, 0.0);
        assert_eq!(h.sub, ["a · b"]);
        assert!(h.note.len() >= 2, "{:?}", h.note);
        let room = 900.0 - 2.0 * LEFT - NORTH_W;
        assert!(h.note.iter().all(|l| text_width(l, SUB_SIZE) <= room));
        let plain = Header::new("t", &["a".into()], None, 900.0, 0.0);
        assert!(h.height >= plain.height + h.note.len() as f64 * SUB_STEP);
    }
}
