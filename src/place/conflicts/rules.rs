//! The codes of `agkit scenery conflicts` (`CNF…`), each with a severity
//! and a one-line summary; docs/scenery.md lists the same rows and a test
//! keeps the two in step.
//!
//! Where each rule comes from:
//!
//! - `CNF001`–`CNF004`: the runway (`100`, with its blast pads, which
//!   apt.dat gives per end as the overrun length), water runway (`101`),
//!   helipad (`102`) and pavement (`110`–`116`) geometry of the apt.dat
//!   specification (apt.dat 1100/1200 file format, Laminar Research).
//!   Which content the simulator takes off an airport by itself is not
//!   written in Laminar's documents for overlays: the exclusion
//!   properties (`sim/exclude_*` in "DSF Usage in X-Plane") are the only
//!   documented way for one package to remove another's items, and
//!   WorldEditor offers them as its exclusion zone tool (xptools
//!   `src/WEDEntities/WED_ExclusionZone.cpp`, and `WED_ExclusionPoly.cpp`
//!   for X-Plane 12's polygonal form). So every item found on a feature is
//!   reported as "not known to be removed" unless an exclusion removes it.
//! - `CNF005`: an airport package's exclusions are what clears lower
//!   packages' items off its airport ("DSF Usage in X-Plane": a package's
//!   exclusions apply to lower-priority packages only); WorldEditor's
//!   Gateway validation checks one airport's own scenery, not what other
//!   packages place over it.
//! - `CNF006`: the same rule read the other way: an exclusion cannot
//!   remove what a package above it places.
//! - `CNF007`: "3-d objects are overlaid in an additive manner; in order
//!   to avoid conflicts between two sets of 3-d objects, the higher
//!   priority scenery pack must include one or more exclusion zones"
//!   (Laminar, "Prioritizing Scenery and Exclusion Zones", X-Plane
//!   developer blog, 2014-09). The blog says so of objects; that forests,
//!   facades, autogen and draped polygons of two overlays are drawn both
//!   the same way is agkit's reading of "additive" and of the exclusion
//!   kinds "DSF Usage in X-Plane" gives for each of them: no Laminar
//!   document says so in words.
//! - `CNF008`: the same post: "The runway and taxiway data for an airport
//!   comes from the highest priority scenery pack that includes that
//!   airport in its apt.dat", while the DSFs of every enabled pack are
//!   drawn (the additive rule above), so a lower pack's copy of the airport
//!   keeps placing its objects unless an exclusion above removes them.
//!   X-Plane's own knowledge base ("Prioritization of Scenery Packs")
//!   repeats the priority rule. Which apt.dat X-Plane takes is
//!   [`crate::scenery::airports`].
//! - Order problems are `scenery check`'s `SCN011`
//!   ([`crate::scenery::check::overlays_below_meshes`]): "mesh scenery
//!   excludes everything … you can't have overlays below meshes"; a base
//!   mesh above an airport package is the case where the airport's own
//!   overlay is the one below it.

use crate::diag::rules;

rules! {
    ON_RUNWAY = "CNF001", Error, "an item of another package stands on a runway or its blast pad (not known to be removed)";
    ON_HELIPAD = "CNF002", Error, "an item of another package stands on a helipad (not known to be removed)";
    ON_WATER_RUNWAY = "CNF003", Warning, "an item of another package stands on a water runway (not known to be removed)";
    ON_PAVEMENT = "CNF004", Warning, "an item of another package stands on a taxiway or apron (not known to be removed)";
    NO_EXCLUSION = "CNF005", Warning, "an airport package excludes nothing over its airport while lower packages place items there";
    ORDER_DEFEATS = "CNF006", Error, "an item stands on the airport above the package whose exclusion covers it: the pack order defeats the exclusion";
    DOUBLE = "CNF007", Warning, "two packages place the same kind of item over one area of an airport and no exclusion removes the lower one's";
    SHADOWED_AIRPORT = "CNF008", Warning, "a lower package defines the same airport ID and its DSF still places items there (X-Plane takes the airport from the higher package only)";
}

#[cfg(test)]
mod tests {
    /// docs/scenery.md lists every code with its severity.
    #[test]
    fn every_code_is_documented_with_its_severity() {
        let doc = include_str!("../../../docs/scenery.md");
        for r in super::RULES {
            let row = format!("| {} | {}", r.code, r.severity.as_str());
            assert!(doc.contains(&row), "docs/scenery.md lacks `{row}`");
        }
    }
}
