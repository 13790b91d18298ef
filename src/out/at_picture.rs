//! The picture of `scenery at`: every item within the radius, top down,
//! coloured by the package that places it and shaped by its kind —
//! objects are squares, autogen points rings, trees dots, areas (facades,
//! forests, draped polygons, beaches, autogen blocks and strings) closed
//! outlines, lines and networks open lines. Excluded items are grey and
//! finely dashed; items whose definition resolves to no file are dashed
//! outlines without fill; what autogen places is drawn smaller and
//! thinner than the autogen itself. The frame is that of every agkit
//! picture ([`super::frame`]): a title naming the point and radius,
//! a north arrow, a scale bar and a legend of the packages (in priority
//! order) and of the symbols drawn. Package names are written as every
//! picture writes names ([`super::frame::Names`]: shortened past
//! [`super::frame::NAME_CHARS`] characters, U+FFFD for characters
//! XML does not allow), and the header says when one was changed.
//!
//! Bounded whatever the radius holds: past `Limits::max_drawn_items`
//! items the map is a grid of cells shaded by their count of items, and
//! the header says so.

use super::draw::{CATEGORIES, Colour, Drawing, Layer, Paint, Px, Shape, Style, TextMode};
use super::frame::{self, Entry, Footer, Header, LEFT, Names};
use crate::geom::LocalFrame;
use crate::limits::Limits;
use crate::place::at::{AtReport, Item, ItemKind};

/// Width of the picture and of its map, pixels.
const WIDTH: f64 = 900.0;
/// Height of the map, pixels.
const MAP_H: f64 = 640.0;
/// Room between the radius circle and the map's edge, pixels.
const MARGIN: f64 = 10.0;

/// Package colours, in priority order (repeating past the end).
const PALETTE: [Colour; 10] = CATEGORIES;

/// Grey of excluded items.
const EXCLUDED: Colour = Colour::hex(0xb0b0b0);
/// Grey of the legend's symbols.
const SYMBOL: Colour = Colour::hex(0x555555);
/// Most packages the legend names; the rest are counted.
const LEGEND_PACKAGES: usize = 12;

/// How words are written: SVG `<text>` or strokes of agkit's built-in font
/// (for PNG, which is rasterised without fonts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Words {
    /// `<text>` elements.
    Text,
    /// Stroked glyph paths.
    Strokes,
}

/// The colour of the package ranked `k` in the report's package list.
fn colour(k: usize) -> Colour {
    PALETTE[k % PALETTE.len()]
}

/// The picture as an SVG document.
pub fn to_svg(report: &AtReport, words: Words) -> String {
    let mode = match words {
        Words::Text => TextMode::Text,
        Words::Strokes => TextMode::Outlined,
    };
    draw(report, Limits::default().max_drawn_items).to_svg(mode)
}

/// The kinds of symbol drawn, for the legend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Symbol {
    Object,
    AutogenPoint,
    Tree,
    Area,
    AutogenString,
    Line,
}

impl Symbol {
    fn of(kind: ItemKind) -> Symbol {
        match kind {
            ItemKind::Object => Symbol::Object,
            ItemKind::AutogenPoint => Symbol::AutogenPoint,
            ItemKind::Tree => Symbol::Tree,
            ItemKind::AutogenString => Symbol::AutogenString,
            ItemKind::Line | ItemKind::String | ItemKind::Network => Symbol::Line,
            _ => Symbol::Area,
        }
    }

    fn entry(self) -> Entry {
        let s = Style::fill(SYMBOL).fill_opacity(0.35).stroke(SYMBOL, 1.2);
        match self {
            Symbol::Object => Entry::new(
                vec![Shape::Rect {
                    at: [3.0, 1.5],
                    size: [6.0, 6.0],
                    style: s,
                }],
                "object",
            ),
            Symbol::AutogenPoint => Entry::new(
                vec![Shape::Circle {
                    at: [6.0, 4.5],
                    r: 4.0,
                    style: Style::outline(SYMBOL, 1.6),
                }],
                "autogen point",
            ),
            Symbol::Tree => Entry::disc(2.5, Style::fill(SYMBOL), "tree"),
            Symbol::Area => Entry::swatch(s, "area (facade, forest, polygon, block)"),
            Symbol::AutogenString => Entry::swatch(
                Style::fill(SYMBOL).fill_opacity(0.06).stroke(SYMBOL, 1.6),
                "autogen string",
            ),
            Symbol::Line => Entry::new(
                vec![Shape::Line {
                    points: vec![[0.0, 7.0], [5.0, 2.0], [12.0, 4.0]],
                    style: Style::outline(SYMBOL, 2.0),
                }],
                "line, string, network",
            ),
        }
    }
}

/// The drawing of the report, with at most `max_items` items drawn one by
/// one (more are counted per cell).
pub fn draw(report: &AtReport, max_items: usize) -> Drawing {
    let frame_ll = LocalFrame::new(report.center);
    let map_w = WIDTH - 2.0 * LEFT;
    let radius_px = MAP_H.min(map_w) / 2.0 - MARGIN;
    let scale = radius_px / report.radius_m;
    let rank = |i: &Item| {
        report
            .packages
            .iter()
            .position(|p| p.name == i.package)
            .unwrap_or(0)
    };
    let excluded = report
        .items
        .iter()
        .filter(|i| i.excluded_by.is_some())
        .count();
    let unresolved = report.items.iter().filter(|i| unresolved(i)).count();
    let overview = report.items.len() > max_items;
    let note = overview.then(|| {
        format!(
            "overview: {} are more than the {} one picture draws; drawn as counts per cell (the JSON and GeoJSON list every item)",
            crate::ground::words::count(report.items.len(), "item"),
            crate::ground::words::thousands(max_items)
        )
    });
    let mut packages_here: Vec<usize> = report.items.iter().map(rank).collect();
    packages_here.sort_unstable();
    packages_here.dedup();
    let title = format!(
        "Scenery within {} m of lat {:.6}, lon {:.6}",
        report.radius_m, report.center[1], report.center[0]
    );
    let parts = vec![
        format!(
            "{} from {}",
            crate::ground::words::count(report.items.len(), "item"),
            crate::ground::words::count(packages_here.len(), "package")
        ),
        format!("{excluded} excluded"),
        format!("{unresolved} unresolved"),
    ];
    // The packages placing something here, in priority order, their
    // names written through `names` before the header is laid out, so
    // that the header can say what was changed.
    let mut names = Names::default();
    let mut packages = Vec::new();
    for &k in packages_here.iter().take(LEGEND_PACKAGES) {
        let p = &report.packages[k];
        let n = report.items.iter().filter(|i| i.package == p.name).count();
        packages.push(Entry::swatch(
            Style::fill(colour(k)),
            format!(
                "#{} {}: {}",
                p.priority,
                names.show(&p.name),
                crate::ground::words::count(n, "item")
            ),
        ));
    }
    let said: Vec<String> = note.into_iter().chain(names.note()).collect();
    let said = (!said.is_empty()).then(|| said.join("; "));
    let header = Header::new(&title, &parts, said.as_deref(), WIDTH, 0.0);
    let top = header.height;
    let c = [LEFT + map_w / 2.0, top + MAP_H / 2.0];
    let px = |ll: [f64; 2]| {
        let p = frame_ll.to_local(ll);
        [c[0] + p[0] * scale, c[1] - p[1] * scale]
    };

    let mut circle = Layer::new("radius", Style::default());
    circle.shapes.push(Shape::Circle {
        at: c,
        r: radius_px,
        style: Style::fill(Colour::hex(0xf7f7f2))
            .stroke(Colour::hex(0x999999), 1.0)
            .dashed(4.0, 4.0),
    });
    let cross = Style::outline(Colour::hex(0x666666), 1.0);
    circle.shapes.push(Shape::Line {
        points: vec![[c[0] - 8.0, c[1]], [c[0] + 8.0, c[1]]],
        style: cross,
    });
    circle.shapes.push(Shape::Line {
        points: vec![[c[0], c[1] - 8.0], [c[0], c[1] + 8.0]],
        style: cross,
    });

    let mut entries = Vec::new();
    let mut layers = vec![circle];
    if overview {
        let points = report.items.iter().map(|i| (px([i.lon, i.lat]), 1));
        let b = frame::map_box(WIDTH, &header, MAP_H);
        let (layer, entry) = super::overview::grid_of(points, b, scale);
        layers.push(layer);
        entries.push(entry);
    } else {
        let (mut layer, symbols) = items_layer(report, &px, &rank);
        layer.clip = Some(frame::map_box(WIDTH, &header, MAP_H));
        layers.push(layer);
        entries.extend(symbols.into_iter().map(Symbol::entry));
    }
    entries.extend(packages);
    if packages_here.len() > LEGEND_PACKAGES {
        entries.push(Entry::swatch(
            Style::fill(Colour::hex(0xdddddd)),
            format!(
                "{} more",
                crate::ground::words::count(packages_here.len() - LEGEND_PACKAGES, "package")
            ),
        ));
    }
    if excluded > 0 && !overview {
        entries.push(Entry::swatch(
            Style::fill(EXCLUDED).stroke(EXCLUDED, 1.0).dashed(2.0, 2.0),
            "excluded",
        ));
    }
    if unresolved > 0 && !overview {
        entries.push(Entry::swatch(
            Style::outline(SYMBOL, 1.4).dashed(4.0, 2.0),
            "unresolved (no file)",
        ));
    }
    let footer = Footer::new(scale, WIDTH, entries);
    frame::compose(WIDTH, &header, layers, MAP_H, Vec::new(), &footer)
}

/// True when the item names a definition that resolves to no file (a
/// tree of an asset without `VEGETATION` names none).
fn unresolved(item: &Item) -> bool {
    item.resolved.is_none() && !item.definition.is_empty()
}

/// Every item as its symbol, in drawing order (excluded first, then the
/// lowest priority, so the higher packages are on top), clipped to the
/// map; and the symbols used.
fn items_layer(
    report: &AtReport,
    px: &dyn Fn([f64; 2]) -> Px,
    rank: &dyn Fn(&Item) -> usize,
) -> (Layer, Vec<Symbol>) {
    let mut order: Vec<(usize, &Item)> = report.items.iter().enumerate().collect();
    order.sort_by_key(|(k, i)| (i.excluded_by.is_none(), std::cmp::Reverse(rank(i)), *k));
    let mut layer = Layer::new("items", Style::default());
    let mut symbols = Vec::new();
    for (_, item) in order {
        let symbol = Symbol::of(item.kind);
        symbols.push(symbol);
        let excluded = item.excluded_by.is_some();
        let unresolved = unresolved(item);
        let stroke = if excluded {
            EXCLUDED
        } else {
            colour(rank(item))
        };
        // Ground cover (draped polygons, forests, beaches) lighter than
        // buildings, so that what stands on it stays visible.
        let ground = matches!(
            item.kind,
            ItemKind::Polygon | ItemKind::Forest | ItemKind::Beach
        );
        let fill_opacity = match (excluded, item.kind) {
            (true, _) => 0.15,
            (_, ItemKind::AutogenString) => 0.06,
            _ if ground => 0.12,
            _ => 0.35,
        };
        let child = item.placed_by.is_some();
        let width = if child { 0.8 } else { 1.6 };
        let mut style = Style::fill(stroke)
            .fill_opacity(fill_opacity)
            .stroke(stroke, width);
        if excluded {
            style = style.dashed(2.0, 2.0);
        }
        if unresolved {
            style = Style {
                fill: Some(Paint::None),
                ..style.dashed(4.0, 2.0)
            };
        }
        let at = px([item.lon, item.lat]);
        match symbol {
            Symbol::Object => {
                let h = if child { 2.0 } else { 3.5 };
                layer.shapes.push(Shape::Rect {
                    at: [at[0] - h, at[1] - h],
                    size: [2.0 * h, 2.0 * h],
                    style: if unresolved {
                        style
                    } else {
                        style.fill_opacity(0.8)
                    },
                });
            }
            Symbol::AutogenPoint => layer.shapes.push(Shape::Circle {
                at,
                r: 5.0,
                style: Style {
                    fill: Some(Paint::None),
                    ..style
                },
            }),
            Symbol::Tree => layer.shapes.push(Shape::Circle {
                at,
                r: 2.0,
                style: if unresolved {
                    style
                } else {
                    style.fill_opacity(0.8)
                },
            }),
            Symbol::Area | Symbol::AutogenString => {
                let rings = item
                    .shape
                    .iter()
                    .map(|ring| ring.iter().map(|&p| px(p)).collect())
                    .collect();
                layer.shapes.push(Shape::Area { rings, style });
            }
            Symbol::Line => {
                let style = Style {
                    fill: Some(Paint::None),
                    stroke_width: Some(width + 0.8),
                    ..style
                };
                for ring in &item.shape {
                    layer.shapes.push(Shape::Line {
                        points: ring.iter().map(|&p| px(p)).collect(),
                        style,
                    });
                }
            }
        }
    }
    symbols.sort_unstable();
    symbols.dedup();
    (layer, symbols)
}
