//! The apt.dat vocabulary: versions, row codes and the codes of surfaces,
//! in one place (what the reader beside it and the checks share).
//!
//! The facts come from the airport file specification Laminar publishes
//! (apt.dat 1000, 1100 and 1200) and from xptools, which reads and writes
//! the same rows: the row-code `enum` of `src/XESCore/AptDefs.h` and the
//! reader `ReadAptFileMem` of `src/XESCore/AptIO.cpp` (field counts per
//! row, the header, the versions it accepts).

/// The versions agkit reads as current: what `ReadAptFileMem` accepts from
/// 850 on (`AptIO.cpp`). 1000 added traffic flows, 1050 the 1302 metadata
/// rows, 1100 new surfaces and lines, 1130 frequencies to the kHz, 1200
/// runway skid marks and numbered surfaces (20–38, 50–55).
pub const VERSIONS: &[u32] = &[1000, 1050, 1100, 1130, 1200];

/// Older versions `ReadAptFileMem` also accepts (703, 715, 810, 850):
/// agkit reads them with a warning, since their legacy rows (`10`) are
/// kept as other rows, not as runways.
pub const OLD_VERSIONS: &[u32] = &[703, 715, 810, 850];

/// Row codes, as `AptDefs.h` names them.
pub mod row {
    /// Land airport header: `1 elevation_ft 0 0 ICAO name…`.
    pub const AIRPORT: u32 = 1;
    /// Legacy runway or taxiway (810 and earlier).
    pub const LEGACY_RUNWAY: u32 = 10;
    /// Seaplane base header (same fields as [`AIRPORT`]).
    pub const SEAPORT: u32 = 16;
    /// Heliport header (same fields as [`AIRPORT`]).
    pub const HELIPORT: u32 = 17;
    /// End of the file: nothing after it is read.
    pub const END_OF_FILE: u32 = 99;
    /// Land runway: width, surface, shoulder, smoothness, centre lights,
    /// edge lights, distance signs, then two ends of nine fields each.
    pub const RUNWAY: u32 = 100;
    /// Water runway: width, buoys, then two ends (number, lat, lon).
    pub const WATER_RUNWAY: u32 = 101;
    /// Helipad: designator, lat, lon, heading, length, width, surface,
    /// markings, shoulder, smoothness, edge lights.
    pub const HELIPAD: u32 = 102;
    /// Runway skid marks and marking sizes (1200).
    pub const RUNWAY_SKIDS: u32 = 105;
    /// Pavement (taxiway or apron) header: surface, smoothness, texture
    /// heading, description.
    pub const PAVEMENT: u32 = 110;
    /// Node: lat, lon, then optional line and lighting codes.
    pub const NODE: u32 = 111;
    /// Bezier node: lat, lon, control lat, control lon, then optional codes.
    pub const BEZIER_NODE: u32 = 112;
    /// Node closing a ring (the ring joins back to its first node).
    pub const CLOSE: u32 = 113;
    /// Bezier node closing a ring.
    pub const BEZIER_CLOSE: u32 = 114;
    /// Node ending an open line (not joined back).
    pub const END: u32 = 115;
    /// Bezier node ending an open line.
    pub const BEZIER_END: u32 = 116;
    /// Linear feature (painted line, light string) header: description.
    pub const LINEAR_FEATURE: u32 = 120;
    /// Airport boundary header: description.
    pub const BOUNDARY: u32 = 130;
    /// Airport metadata: `1302 key value`.
    pub const METADATA: u32 = 1302;
}

/// True for the rows of a path (111–116).
pub fn is_node(code: u32) -> bool {
    (row::NODE..=row::BEZIER_END).contains(&code)
}

/// True for the node rows that carry a control point (112, 114, 116).
pub fn is_bezier(code: u32) -> bool {
    matches!(code, row::BEZIER_NODE | row::BEZIER_CLOSE | row::BEZIER_END)
}

/// True for the airport header rows (1, 16, 17).
pub fn is_header(code: u32) -> bool {
    matches!(code, row::AIRPORT | row::SEAPORT | row::HELIPORT)
}

/// Every row code the reader knows, with what it is. Rows agkit does not
/// model (viewpoints, signs, frequencies, flows, the taxi network, start
/// locations, trucks, jetways) are kept as [`super::OtherRow`]s, with
/// their text and line.
pub const ROWS: &[(u32, &str)] = &[
    (1, "land airport header"),
    (10, "legacy runway or taxiway (810)"),
    (14, "viewpoint (tower)"),
    (15, "start-up location (legacy)"),
    (16, "seaplane base header"),
    (17, "heliport header"),
    (18, "airport light beacon"),
    (19, "windsock"),
    (20, "taxiway sign"),
    (21, "lighting object (VASI, PAPI, …)"),
    (50, "frequency: AWOS/ATIS (10 kHz)"),
    (51, "frequency: CTAF (10 kHz)"),
    (52, "frequency: clearance delivery (10 kHz)"),
    (53, "frequency: ground (10 kHz)"),
    (54, "frequency: tower (10 kHz)"),
    (55, "frequency: approach (10 kHz)"),
    (56, "frequency: departure (10 kHz)"),
    (99, "end of file"),
    (100, "land runway"),
    (101, "water runway"),
    (102, "helipad"),
    (105, "runway skid marks"),
    (110, "pavement"),
    (111, "node"),
    (112, "bezier node"),
    (113, "node closing a ring"),
    (114, "bezier node closing a ring"),
    (115, "node ending a line"),
    (116, "bezier node ending a line"),
    (120, "linear feature"),
    (130, "airport boundary"),
    (1000, "traffic flow"),
    (1001, "traffic flow: wind rule"),
    (1002, "traffic flow: ceiling rule"),
    (1003, "traffic flow: visibility rule"),
    (1004, "traffic flow: time rule"),
    (1050, "frequency: AWOS/ATIS"),
    (1051, "frequency: CTAF"),
    (1052, "frequency: clearance delivery"),
    (1053, "frequency: ground"),
    (1054, "frequency: tower"),
    (1055, "frequency: approach"),
    (1056, "frequency: departure"),
    (1100, "traffic flow: runway in use (10 kHz)"),
    (1101, "traffic flow: VFR pattern"),
    (1110, "traffic flow: runway in use"),
    (1200, "taxi routing network"),
    (1201, "taxi routing node"),
    (1202, "taxi routing edge"),
    (1203, "taxi routing edge shape point"),
    (1204, "taxi routing edge active zone"),
    (1205, "taxi routing edge control point"),
    (1206, "ground truck route edge"),
    (1300, "start-up location"),
    (1301, "start-up location: ramp metadata"),
    (1302, "airport metadata"),
    (1400, "truck parking"),
    (1401, "truck destination"),
    (1402, "custom truck"),
    (1500, "jetway"),
    (1501, "custom jetway"),
];

/// What a row code is, when the reader knows it.
pub fn row_name(code: u32) -> Option<&'static str> {
    ROWS.binary_search_by_key(&code, |&(c, _)| c)
        .ok()
        .map(|i| ROWS[i].1)
}

/// The name of a runway, helipad or pavement surface code
/// (`AptDefs.h`: 1–5, 12–15 all versions; 20–38 and 50–55, the asphalt
/// and concrete shades of 1200).
pub fn surface_name(code: u32) -> &'static str {
    match code {
        1 => "asphalt",
        2 => "concrete",
        3 => "grass",
        4 => "dirt",
        5 => "gravel",
        12 => "dry lakebed",
        13 => "water",
        14 => "snow or ice",
        15 => "transparent",
        20..=38 => "asphalt",
        50..=55 => "concrete",
        _ => "unknown",
    }
}

/// The fields of a land runway row (100), the code included: eight, then
/// nine per end (`ReadAptFileMem` scans 26).
pub const RUNWAY_FIELDS: usize = 26;
/// The fields of a water runway row (101), the code included.
pub const WATER_RUNWAY_FIELDS: usize = 9;
/// The fields of a helipad row (102), the code included.
pub const HELIPAD_FIELDS: usize = 12;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_sorted_for_the_binary_search() {
        assert!(ROWS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(row_name(112), Some("bezier node"));
        assert_eq!(row_name(7), None);
        assert!(is_node(111) && is_node(116) && !is_node(110) && !is_node(120));
        assert!(is_bezier(114) && !is_bezier(113));
    }
}
