//! The airports of a whole tile in the pictures: runways, helipads and
//! pavement ([`crate::scene::airports::shapes`]) filled in their surface's
//! colour ([`crate::scene::airports::shape_colour`], the 3-D scene's), one
//! layer per kind of shape, beneath every other layer of the map and cut
//! to it. The map's extent is the items'; an airport reaching beyond it is
//! drawn where it crosses the map.

use super::draw::{Colour, Layer, Shape, Style};
use super::frame::Entry;
use super::svg::{Frames, Sheet, View};
use crate::scene::airports::{self, Part};

/// The layers of the airports the first placement of `scene` carrying
/// them has (empty without), bottom first, and their legend entries.
pub(super) fn layers(scene: &Sheet, frames: &Frames, view: &View) -> (Vec<Layer>, Vec<Entry>) {
    let Some(found) = scene.placements.iter().find_map(|p| p.airports.as_ref()) else {
        return (Vec::new(), Vec::new());
    };
    let kinds: [(Part, &'static str); 6] = [
        (Part::Pavement, "airport-pavement"),
        (Part::BlastPad, "airport-blast-pad"),
        (Part::Displaced, "airport-displaced"),
        (Part::Runway, "airport-runway"),
        (Part::WaterRunway, "airport-water-runway"),
        (Part::Helipad, "airport-helipad"),
    ];
    let mut layers: Vec<Layer> = kinds
        .iter()
        .map(|(_, id)| {
            let mut l = Layer::new(id, Style::default());
            l.clip = Some(view.bbox());
            l
        })
        .collect();
    let mut legend: Vec<(Part, u32, u32)> = Vec::new();
    for a in &found.0.airports {
        for s in airports::shapes(&a.airport) {
            let c = airports::shape_colour(&s);
            let rings = s
                .rings()
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|&q| view.px(frames.common.to_local(q)))
                        .collect()
                })
                .collect();
            let k = kinds.iter().position(|(p, _)| *p == s.part).unwrap_or(0);
            layers[k].shapes.push(Shape::Area {
                rings,
                style: Style::fill(Colour::hex(c)),
            });
            if !legend.iter().any(|(p, x, _)| *p == s.part && *x == c) {
                legend.push((s.part, c, s.surface));
            }
        }
    }
    layers.retain(|l| !l.shapes.is_empty());
    let entries = legend
        .into_iter()
        .map(|(part, c, surface)| {
            let word = match part {
                Part::BlastPad | Part::Displaced | Part::WaterRunway => part.as_str().to_string(),
                _ => format!(
                    "{} ({})",
                    part.as_str(),
                    crate::apt::spec::surface_name(surface)
                ),
            };
            Entry::swatch(Style::fill(Colour::hex(c)), word)
        })
        .collect();
    (layers, entries)
}
