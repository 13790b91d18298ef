//! The overview of a scene too busy to draw item by item: what a picture
//! shows when its items are more than the bound of one picture
//! (`Limits::max_drawn_items`).
//!
//! Each use is drawn as its DSF polygon (or a dot at its DSF point),
//! coloured by its asset, with its count of items as a label where the
//! label fits; the legend gives each asset's uses and items. When even the
//! uses are more than the bound, the map is a grid of cells shaded by the
//! items their uses hold (a cell holds the uses whose origin is in it),
//! with the busiest cell's count in the legend. Either way the picture
//! holds at most about the bound in shapes, whatever the scene.

use super::draw::{CATEGORIES, Colour, Layer, Px, Shape, Style, Text, text_width};
use super::frame::{Entry, Names};
use super::labels::{self, Labels};
use super::schematic::unplaced_style;
use super::svg::{Frames, Sheet, View};

/// Asset colours, most used asset first; the assets past them share the
/// last (grey).
const PALETTE: &[Colour] = CATEGORIES.split_last().unwrap().1;
/// Colour of the assets past the palette.
const OTHER: Colour = CATEGORIES[CATEGORIES.len() - 1];
/// Side of a grid cell, pixels.
const CELL_PX: f64 = 12.0;
/// Most grid cells along a side.
const MAX_CELLS: f64 = 1000.0;
/// Size of the count labels.
const COUNT_SIZE: f64 = 10.0;
/// Smallest use (its box's larger side, pixels) that gets its count.
const COUNT_MIN_PX: f64 = 24.0;

/// An asset of the scene: its name, uses and items.
struct AssetCount<'a> {
    name: &'a str,
    uses: usize,
    items: usize,
}

/// The scene's assets, most used first, and each placed use's asset
/// index into that list.
fn assets<'a>(scene: &Sheet<'a>) -> (Vec<AssetCount<'a>>, Vec<usize>) {
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut list: Vec<AssetCount> = Vec::new();
    for p in &scene.placements {
        let k = *index.entry(&p.asset).or_insert_with(|| {
            list.push(AssetCount {
                name: &p.asset,
                uses: 0,
                items: 0,
            });
            list.len() - 1
        });
        list[k].uses += 1;
        list[k].items += p.items();
    }
    let mut order: Vec<usize> = (0..list.len()).collect();
    order.sort_by(|&a, &b| {
        (list[b].uses, list[b].items, list[a].name).cmp(&(
            list[a].uses,
            list[a].items,
            list[b].name,
        ))
    });
    let mut rank = vec![0; list.len()];
    for (r, &k) in order.iter().enumerate() {
        rank[k] = r;
    }
    let of_use = scene
        .placements
        .iter()
        .map(|p| rank[index[p.asset.as_str()]])
        .collect();
    let mut sorted: Vec<Option<AssetCount>> = list.into_iter().map(Some).collect();
    let list = order.iter().filter_map(|&k| sorted[k].take()).collect();
    (list, of_use)
}

fn colour(rank: usize) -> Colour {
    PALETTE.get(rank).copied().unwrap_or(OTHER)
}

/// The assets of an overview's scene, as its legend names them (each name
/// as [`Names::show`] writes it), and each placed use's colour rank.
pub(super) struct Legend {
    /// The legend's entries of the assets, most used first.
    entries: Vec<Entry>,
    /// Each placed use's rank among the assets (its colour).
    of_use: Vec<usize>,
}

impl Legend {
    /// The legend of `scene`'s assets, their names written through
    /// `names`.
    pub(super) fn of<'a>(scene: &Sheet<'a>, names: &mut Names<'a>) -> Legend {
        let (list, of_use) = assets(scene);
        let mut entries = Vec::new();
        for (rank, a) in list.iter().enumerate().take(PALETTE.len()) {
            entries.push(Entry::swatch(
                Style::fill(colour(rank))
                    .fill_opacity(0.35)
                    .stroke(colour(rank), 1.0),
                format!(
                    "{}: {}, {}",
                    names.show(a.name),
                    super::count(a.uses, "use"),
                    super::count(a.items, "item")
                ),
            ));
        }
        if list.len() > PALETTE.len() {
            let rest = &list[PALETTE.len()..];
            entries.push(Entry::swatch(
                Style::fill(OTHER).fill_opacity(0.35).stroke(OTHER, 1.0),
                format!(
                    "{} more: {}, {}",
                    super::count(rest.len(), "asset"),
                    super::count(rest.iter().map(|a| a.uses).sum(), "use"),
                    super::count(rest.iter().map(|a| a.items).sum(), "item")
                ),
            ));
        }
        Legend { entries, of_use }
    }
}

/// The map's layers and the legend of an overview of `scene`, whose
/// assets' legend is `legend` ([`Legend::of`]).
pub(super) fn paint(
    scene: &Sheet,
    legend: Legend,
    frames: &Frames,
    view: &View,
    labels: &mut Labels,
    max_items: usize,
) -> (Vec<Layer>, Vec<Entry>) {
    let mut entries = Vec::new();
    let layers = if scene.uses() <= max_items.max(1) {
        outlines(scene, frames, view, labels, &legend.of_use)
    } else {
        let (layer, entry) = grid(scene, frames, view);
        entries.push(entry);
        vec![layer]
    };
    entries.extend(legend.entries);
    if !scene.unplaced.is_empty() && scene.uses() <= max_items.max(1) {
        entries.push(Entry::swatch(unplaced_style(), "use not placed"));
    }
    (layers, entries)
}

/// Each use as its outline (or point) with its item count.
fn outlines(
    scene: &Sheet,
    frames: &Frames,
    view: &View,
    labels: &mut Labels,
    of_use: &[usize],
) -> Vec<Layer> {
    let mut uses = Layer::new("uses", Style::default());
    let mut unplaced = Layer::new("unplaced", unplaced_style());
    let mut counts = Vec::new();
    let n_placed = scene.placements.len();
    for (i, p) in scene.placements.iter().chain(&scene.unplaced).enumerate() {
        let rings: Vec<Vec<Px>> = p
            .polygon
            .iter()
            .map(|r| r.iter().map(|&q| view.px(frames.to_common(i, q))).collect())
            .collect();
        let placed = i < n_placed;
        let style = if placed {
            let c = colour(of_use[i]);
            Style::fill(c).fill_opacity(0.35).stroke(c, 0.8)
        } else {
            Style::default()
        };
        let layer = if placed { &mut uses } else { &mut unplaced };
        if rings.iter().all(Vec::is_empty) {
            let at = view.px(frames.to_common(i, [0.0, 0.0]));
            layer.shapes.push(Shape::Circle { at, r: 2.5, style });
            labels.obstacle(labels::disc(at, 2.5));
            continue;
        }
        let mut b = [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut sum = [0.0, 0.0];
        let outer = &rings[0];
        for q in outer {
            b = [
                b[0].min(q[0]),
                b[1].min(q[1]),
                b[2].max(q[0]),
                b[3].max(q[1]),
            ];
            sum = [sum[0] + q[0], sum[1] + q[1]];
        }
        let n = outer.len().max(1) as f64;
        if placed {
            counts.push((
                p.items(),
                [sum[0] / n, sum[1] / n],
                (b[2] - b[0]).max(b[3] - b[1]),
            ));
        }
        layer.shapes.push(Shape::Area { rings, style });
    }
    // Counts on the uses wide enough to hold them (a point's count would
    // stand for a dot too small to tell which).
    let mut count_layer = Layer::new("labels", Style::default());
    for (items, at, size) in counts {
        let text = super::thousands(items);
        if size < COUNT_MIN_PX || size < text_width(&text, COUNT_SIZE) + 4.0 {
            continue;
        }
        let t = Text::new(text, at, COUNT_SIZE, Colour::hex(0x222222)).centred();
        if let Some(t) = labels.place(t, &[at], 1.0) {
            count_layer.shapes.push(Shape::Text(t));
        }
    }
    vec![uses, unplaced, count_layer]
}

/// Items per grid cell of [`CELL_PX`], shaded: the map when the uses
/// themselves are too many to draw.
fn grid(scene: &Sheet, frames: &Frames, view: &View) -> (Layer, Entry) {
    let points = (scene.placements.iter().enumerate())
        .map(|(i, p)| (view.px(frames.to_common(i, [0.0, 0.0])), p.items().max(1)));
    grid_of(points, view.bbox(), view.scale)
}

/// `points` (each a pixel and its count of items) summed per grid cell of
/// [`CELL_PX`] over the map box `b`, cells shaded by the logarithm of
/// their count; points outside the box are left out. `scale` (pixels per
/// metre) gives the cell's size in the legend.
pub(crate) fn grid_of(
    points: impl Iterator<Item = (Px, usize)>,
    b: [f64; 4],
    scale: f64,
) -> (Layer, Entry) {
    // A map is at most a few thousand pixels a side; a box that is not
    // (or not finite) is counted in at most MAX_CELLS a side.
    let side = |len: f64| (len / CELL_PX).ceil().clamp(1.0, MAX_CELLS) as usize;
    let (cols, rows) = (side(b[2] - b[0]), side(b[3] - b[1]));
    let mut cells = vec![0usize; cols * rows];
    for (at, n) in points {
        let c = ((at[0] - b[0]) / CELL_PX).floor();
        let r = ((at[1] - b[1]) / CELL_PX).floor();
        if c >= 0.0 && r >= 0.0 && (c as usize) < cols && (r as usize) < rows {
            let cell = &mut cells[r as usize * cols + c as usize];
            *cell = cell.saturating_add(n);
        }
    }
    let most = cells.iter().copied().max().unwrap_or(0).max(1);
    let ink = Colour::hex(0x1f4e79);
    let mut layer = Layer::new("cells", Style::fill(ink));
    for (k, &n) in cells.iter().enumerate().filter(|(_, n)| **n > 0) {
        let (r, c) = (k / cols, k % cols);
        // Shaded by the logarithm of the count: a cell of one item shows.
        let shade = 0.15 + 0.85 * ((n as f64).ln_1p() / (most as f64).ln_1p());
        layer.shapes.push(Shape::Rect {
            at: [b[0] + c as f64 * CELL_PX, b[1] + r as f64 * CELL_PX],
            size: [CELL_PX, CELL_PX],
            style: Style::default().fill_opacity((shade * 100.0).round() / 100.0),
        });
    }
    let metres = CELL_PX / scale;
    let side = if metres >= 1000.0 {
        format!("{:.1} km", metres / 1000.0)
    } else {
        format!("{metres:.0} m")
    };
    let entry = Entry::swatch(
        Style::fill(ink).fill_opacity(0.6),
        format!(
            "items in a cell of {side} (darkest: {})",
            super::thousands(most)
        ),
    );
    (layer, entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_counted_within_a_bounded_grid() {
        let points = [
            ([5.0, 5.0], 3),
            ([6.0, 7.0], 2),
            ([30.0, 5.0], 1),
            ([-1.0, 0.0], 9),
        ];
        let (layer, entry) = grid_of(points.into_iter(), [0.0, 0.0, 48.0, 24.0], 2.0);
        // Two cells hold points (the third point is in another cell, the
        // fourth outside the box).
        assert_eq!(layer.shapes.len(), 2);
        assert!(
            entry.word.contains("a cell of 6 m (darkest: 5)"),
            "{}",
            entry.word
        );
        // A box no map has: the grid stays at most MAX_CELLS a side.
        let far = [([1e9, 1e9], 1)];
        let (layer, _) = grid_of(far.into_iter(), [0.0, 0.0, 1e12, f64::INFINITY], 1.0);
        assert_eq!(layer.shapes.len(), 0, "beyond the last cell");
    }
}
