//! The picture of `scenery at`: every item within the radius, top down,
//! coloured by the package that places it; excluded items are grey and
//! dashed, what autogen places is drawn thinner than the autogen itself.
//! A legend names the packages in priority order.

use super::at::{AtReport, Item, ItemKind};
use crate::geom::LocalFrame;
use std::fmt::Write as _;

/// Side of the map square, pixels.
const MAP: f64 = 800.0;
/// Width of the legend column, pixels.
const LEGEND: f64 = 340.0;
/// Margin around the map, pixels.
const MARGIN: f64 = 20.0;

/// Package colours, in priority order (repeating past the end).
const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f",
];

/// Grey of excluded items.
const EXCLUDED: &str = "#b0b0b0";

/// How words are written: SVG `<text>` or strokes of agkit's built-in font
/// (for PNG, which is rasterised without fonts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Words {
    /// `<text>` elements.
    Text,
    /// Stroked glyph paths.
    Strokes,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn word(svg: &mut String, words: Words, text: &str, x: f64, y: f64, size: f64, fill: &str) {
    match words {
        Words::Text => {
            let _ = writeln!(
                svg,
                r#"<text x="{x:.1}" y="{y:.1}" font-family="sans-serif" font-size="{size:.1}" fill="{fill}">{}</text>"#,
                escape(text)
            );
        }
        Words::Strokes => {
            let _ = writeln!(
                svg,
                r#"<path d="{}" fill="none" stroke="{fill}" stroke-width="{:.2}" stroke-linecap="round" stroke-linejoin="round"/>"#,
                crate::out::strokefont::path(text, x, y, size),
                size / 10.0
            );
        }
    }
}

/// The colour of the package named `name` (by its place in the report's
/// package list).
fn colour(report: &AtReport, name: &str) -> &'static str {
    let k = report
        .packages
        .iter()
        .position(|p| p.name == name)
        .unwrap_or(0);
    PALETTE[k % PALETTE.len()]
}

/// The picture as an SVG document.
pub fn to_svg(report: &AtReport, words: Words) -> String {
    let frame = LocalFrame::new(report.center);
    let scale = (MAP / 2.0 - MARGIN) / report.radius_m;
    let c = MARGIN + MAP / 2.0 - MARGIN;
    let px = |ll: [f64; 2]| {
        let p = frame.to_local(ll);
        (c + p[0] * scale, c - p[1] * scale)
    };
    let (w, h) = (MAP + LEGEND, MAP);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = writeln!(svg, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    let _ = writeln!(
        svg,
        r##"<circle cx="{c:.1}" cy="{c:.1}" r="{:.1}" fill="#f7f7f2" stroke="#999999" stroke-dasharray="4 4"/>"##,
        report.radius_m * scale
    );
    let _ = writeln!(
        svg,
        r##"<path d="M{:.1} {c:.1}H{:.1}M{c:.1} {:.1}V{:.1}" stroke="#666666" stroke-width="1"/>"##,
        c - 8.0,
        c + 8.0,
        c - 8.0,
        c + 8.0
    );

    // Items are clipped to the map square, clear of the legend.
    let _ = writeln!(
        svg,
        r#"<clipPath id="map"><rect width="{MAP}" height="{MAP}"/></clipPath><g clip-path="url(#map)">"#
    );
    // Lowest priority first, so higher packages are drawn on top; excluded
    // items first of all, under everything that stays.
    let mut order: Vec<(usize, &Item)> = report.items.iter().enumerate().collect();
    let rank = |i: &Item| {
        report
            .packages
            .iter()
            .position(|p| p.name == i.package)
            .unwrap_or(0)
    };
    order.sort_by_key(|(k, i)| (i.excluded_by.is_none(), std::cmp::Reverse(rank(i)), *k));
    for (_, item) in order {
        // Ground cover (draped polygons, forests, beaches) lighter than
        // buildings, so that what stands on it stays visible.
        let ground = matches!(
            item.kind,
            ItemKind::Polygon | ItemKind::Forest | ItemKind::Beach
        );
        let (stroke, fill_opacity, dash) = if item.excluded_by.is_some() {
            (EXCLUDED, 0.15, r#" stroke-dasharray="3 3""#)
        } else if ground {
            (colour(report, &item.package), 0.12, "")
        } else {
            (colour(report, &item.package), 0.35, "")
        };
        let width = if item.placed_by.is_some() { 0.8 } else { 1.6 };
        let path = |ring: &[[f64; 2]], close: bool| {
            let mut d = String::new();
            for (k, p) in ring.iter().enumerate() {
                let (x, y) = px(*p);
                let _ = write!(d, "{}{x:.1} {y:.1}", if k == 0 { "M" } else { "L" });
            }
            if close {
                d.push('Z');
            }
            d
        };
        match item.kind {
            ItemKind::Object | ItemKind::AutogenPoint | ItemKind::Tree => {
                let (x, y) = px([item.lon, item.lat]);
                let r = match (item.kind, item.placed_by.is_some()) {
                    (ItemKind::Tree, _) => 2.0,
                    (_, true) => 2.5,
                    (ItemKind::AutogenPoint, _) => 5.0,
                    _ => 3.5,
                };
                let (fill, op) = if item.kind == ItemKind::AutogenPoint {
                    ("none", 1.0)
                } else {
                    (stroke, 0.8)
                };
                let _ = writeln!(
                    svg,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r}" fill="{fill}" fill-opacity="{op}" stroke="{stroke}" stroke-width="{width}"{dash}/>"#
                );
            }
            k if k.is_area() || k == ItemKind::AutogenString => {
                let d: String = item
                    .shape
                    .iter()
                    .map(|ring| path(ring, k != ItemKind::AutogenString))
                    .collect();
                let fill = if k == ItemKind::AutogenString {
                    "none"
                } else {
                    stroke
                };
                let _ = writeln!(
                    svg,
                    r#"<path d="{d}" fill="{fill}" fill-opacity="{fill_opacity}" fill-rule="evenodd" stroke="{stroke}" stroke-width="{width}"{dash}/>"#
                );
            }
            _ => {
                let d: String = item.shape.iter().map(|ring| path(ring, false)).collect();
                let _ = writeln!(
                    svg,
                    r#"<path d="{d}" fill="none" stroke="{stroke}" stroke-width="{}"{dash}/>"#,
                    width + 0.8
                );
            }
        }
    }

    svg.push_str("</g>\n");
    // Legend: the title, the packages with items here, excluded grey.
    let x0 = MAP + 10.0;
    let mut y = 30.0;
    let title = format!(
        "{:.6}, {:.6}  r {} m",
        report.center[1], report.center[0], report.radius_m
    );
    word(&mut svg, words, &title, x0, y, 14.0, "#222222");
    y += 20.0;
    let excluded = report
        .items
        .iter()
        .filter(|i| i.excluded_by.is_some())
        .count();
    let counts = format!("{} items, {excluded} excluded", report.items.len());
    word(&mut svg, words, &counts, x0, y, 12.0, "#444444");
    y += 28.0;
    for (k, p) in report.packages.iter().enumerate() {
        let n = report.items.iter().filter(|i| i.package == p.name).count();
        if n == 0 {
            continue;
        }
        let _ = writeln!(
            svg,
            r#"<rect x="{x0}" y="{:.1}" width="14" height="14" fill="{}"/>"#,
            y - 12.0,
            PALETTE[k % PALETTE.len()]
        );
        let label = format!("{}. {} ({n})", p.priority, p.name);
        word(&mut svg, words, &label, x0 + 22.0, y, 12.0, "#222222");
        y += 22.0;
        if y > h - 40.0 {
            break;
        }
    }
    if excluded > 0 {
        let _ = writeln!(
            svg,
            r#"<rect x="{x0}" y="{:.1}" width="14" height="14" fill="{EXCLUDED}"/>"#,
            y - 12.0
        );
        word(&mut svg, words, "excluded", x0 + 22.0, y, 12.0, "#222222");
    }
    // Scale bar: a round length near a quarter of the radius.
    let target = report.radius_m / 4.0;
    let mag = 10f64.powf(target.log10().floor());
    let len = [1.0, 2.0, 5.0]
        .iter()
        .map(|m| m * mag)
        .rfind(|l| *l <= target)
        .unwrap_or(mag);
    let (bx, by) = (MARGIN, h - MARGIN);
    let _ = writeln!(
        svg,
        r##"<path d="M{bx} {by}H{:.1}" stroke="#222222" stroke-width="2"/>"##,
        bx + len * scale
    );
    word(
        &mut svg,
        words,
        &format!("{len} m"),
        bx,
        by - 6.0,
        11.0,
        "#222222",
    );
    svg.push_str("</svg>\n");
    svg
}
