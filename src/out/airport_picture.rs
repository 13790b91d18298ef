//! Issue 50's picture of one airport of a conflict report: its runways,
//! helipads and pavement (the shapes and colours of the 3-D scene and the
//! tile pictures, [`crate::scene::airports`]), its boundary outlined, and
//! each finding marked where it reaches deepest, a red ring with its code
//! (`CNF001` …) beside it. North up, the airport and its findings filling
//! the map. `agkit scenery conflicts --picture DIR` writes one per airport
//! looked at.

use super::draw::{Colour, Drawing, Layer, Shape, Style, Text, TextMode};
use crate::geom::{LocalFrame, LonLat};
use crate::place::conflicts::ConflictReport;

/// Width of the picture, pixels.
const W: f64 = 900.0;
/// Margin around the map and room for the title, pixels.
const MARGIN: f64 = 24.0;
const TITLE: f64 = 40.0;

/// The picture of airport `k` of `report` (`None` past its airports):
/// its shapes beneath, then the findings on it, marked with their codes.
pub fn airport_drawing(report: &ConflictReport, k: usize) -> Option<Drawing> {
    let info = report.airports.get(k)?;
    let airport = report.records.get(k)?;
    let frame = LocalFrame::new(info.at);
    let shapes = crate::scene::airports::shapes(airport);
    let boundary: Vec<Vec<LonLat>> = airport
        .boundaries
        .iter()
        .flat_map(|b| b.rings.iter().map(crate::apt::bezier::points))
        .collect();
    let findings: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.airport == info.id)
        .collect();
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    let mut grow = |q: LonLat| {
        let p = frame.to_local(q);
        if p.iter().all(|v| v.is_finite()) {
            for c in 0..2 {
                lo[c] = lo[c].min(p[c]);
                hi[c] = hi[c].max(p[c]);
            }
        }
    };
    shapes
        .iter()
        .flat_map(|s| s.rings())
        .flatten()
        .for_each(&mut grow);
    boundary.iter().flatten().copied().for_each(&mut grow);
    findings.iter().for_each(|f| grow(f.at));
    if !lo[0].is_finite() {
        lo = [-100.0, -100.0];
        hi = [100.0, 100.0];
    }
    let span = [(hi[0] - lo[0]).max(50.0), (hi[1] - lo[1]).max(50.0)];
    let scale = (W - 2.0 * MARGIN) / span[0];
    let scale = scale.min(700.0 / span[1]);
    let h = (span[1] * scale + 2.0 * MARGIN + TITLE).round();
    let px = |q: LonLat| {
        let p = frame.to_local(q);
        [
            MARGIN + (p[0] - lo[0]) * scale,
            TITLE + MARGIN + (hi[1] - p[1]) * scale,
        ]
    };
    let ring = |r: &[LonLat]| r.iter().map(|&q| px(q)).collect::<Vec<_>>();
    let mut title = Layer::new("title", Style::default());
    let words = format!(
        "{} {}: {} on its runways and pavement ({})",
        info.id,
        info.name,
        super::count(findings.len(), "finding"),
        info.apt_file
    );
    let (words, size) = super::frame::fit_text(&words, 14.0, 10.0, W - 2.0 * MARGIN);
    title.shapes.push(Shape::Text(
        Text::new(words, [MARGIN, 26.0], size, Colour::hex(0x202020)).bold(),
    ));
    let mut pavement = Layer::new("airport-pavement", Style::default());
    let mut runways = Layer::new("airport-runway", Style::default());
    for s in &shapes {
        let rings = s.rings().iter().map(|r| ring(r)).collect();
        let style = Style::fill(Colour::hex(crate::scene::airports::shape_colour(s)));
        let layer = match s.part {
            crate::scene::airports::Part::Pavement => &mut pavement,
            _ => &mut runways,
        };
        layer.shapes.push(Shape::Area { rings, style });
    }
    let mut bounds = Layer::new(
        "airport-boundary",
        Style::outline(Colour::hex(0x6b2f8a), 1.2).dashed(6.0, 3.0),
    );
    for r in &boundary {
        let mut pts = ring(r);
        if let Some(&first) = pts.first() {
            pts.push(first);
        }
        bounds.shapes.push(Shape::Line {
            points: pts,
            style: Style::default(),
        });
    }
    let mut marks = Layer::new("findings", Style::default());
    for f in &findings {
        let at = px(f.at);
        let c = match f.severity {
            "error" => Colour::hex(0xd62728),
            "warning" => Colour::hex(0xff7f0e),
            _ => Colour::hex(0x1f77b4),
        };
        marks.shapes.push(Shape::Circle {
            at,
            r: 6.0,
            style: Style::outline(c, 2.0),
        });
        marks.shapes.push(Shape::Text(Text::new(
            f.code,
            [at[0] + 8.0, at[1] - 6.0],
            11.0,
            c,
        )));
    }
    Some(Drawing {
        size: [W, h],
        background: Colour::hex(0xfbfaf6),
        layers: vec![pavement, runways, bounds, marks, title],
    })
}

/// [`airport_drawing`] as SVG text (words as `<text>`).
pub fn airport_svg(report: &ConflictReport, k: usize) -> Option<String> {
    airport_drawing(report, k).map(|d| d.to_svg(TextMode::Text))
}

/// [`airport_drawing`] as PNG bytes (words drawn in the built-in stroke
/// font, so no font is needed).
pub fn airport_png(report: &ConflictReport, k: usize) -> Option<Result<Vec<u8>, super::OutError>> {
    airport_drawing(report, k).map(|d| super::png::to_png(&d.to_svg(TextMode::Outlined)))
}
