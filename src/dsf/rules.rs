//! The table of every diagnostic the DSF reader, checker and text builder
//! emit: a stable code, a severity and a one-line summary (docs/dsf.md,
//! "Errors", lists the same rows; a test keeps the two in step). Errors
//! stop the reading at their byte offset; the warnings are `agkit
//! check`'s, at the offset of the command that made the entity.

pub use crate::diag::Rule;
use crate::diag::rules;

rules! {
    NOT_DSF = "DSF001", Error, "not a DSF: no `XPLNEDSF` cookie, and not a 7z archive";
    BAD_VERSION = "DSF002", Error, "the master version is not 1";
    TRUNCATED = "DSF003", Error, "the file ends inside a structure (header, footer, atom header)";
    BAD_ATOM_LENGTH = "DSF004", Error, "an atom length below 8 or past its parent's end";
    MISSING_ATOM = "DSF005", Error, "a required atom is missing";
    BAD_STRING_TABLE = "DSF006", Error, "a bad string table (odd PROP count, last string without NUL)";
    BAD_POOL = "DSF007", Error, "a bad point pool (encoding, RLE run, size)";
    BAD_SCALE = "DSF008", Error, "a pool without its scale atom, or a scale atom of the wrong size";
    POOL_INDEX = "DSF009", Error, "a pool index out of range (or geometry before any pool select)";
    POINT_INDEX = "DSF010", Error, "a point index past the end of its pool";
    DEF_INDEX = "DSF011", Error, "a definition index out of range (or none selected)";
    UNKNOWN_OPCODE = "DSF012", Error, "an opcode that does not exist";
    TRUNCATED_COMMAND = "DSF013", Error, "a command runs past the end of CMDS";
    BAD_GEOMETRY = "DSF014", Error, "a command that does not fit the state";
    TOO_LARGE = "DSF015", Error, "the input asks for more memory than its size allows";
    BAD_7Z = "DSF016", Error, "an unreadable 7z archive";
    BAD_RASTER = "DSF017", Error, "a raster header or its data is malformed";
    MD5_MISMATCH = "DSF020", Warning, "the MD5 footer does not match the bytes before it";
    AGB_NOT_QUAD = "DSF021", Warning, "an AGB use that is not one winding of 4 points";
    WINDING_ORDER = "DSF022", Warning, "an AGB winding that is clockwise, or an AGS with no counter-clockwise winding";
    AGS_CONTOURS = "DSF023", Warning, "an AGS whose spawning-contour count exceeds its windings";
    AUTOGEN_DEPTH = "DSF024", Warning, "an AGB/AGS polygon whose pool holds more than lon/lat";
    AGP_ELEVATION = "DSF025", Warning, "an AGP placed from a 4-plane pool (AGPs take no elevation)";
    BOUNDS = "DSF026", Warning, "tile bounds missing, not integers in range, or inverted";
    FILTER_WITHOUT_APTID = "DSF027", Warning, "a filter index without a matching `sim/filter/aptid`";
    TEXT_ERROR = "DSF030", Error, "a DSF2Text error (`dsf build`), at file:line:column";
    NOT_WRITABLE = "DSF031", Error, "a model that cannot be written (`dsf build`), at the entity's line";
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/dsf.md names every code of the table, each as a row of its
    /// table of errors and warnings, and has no row the table lacks.
    #[test]
    fn every_code_is_documented() {
        let doc = include_str!("../../docs/dsf.md");
        let mut seen = std::collections::HashSet::new();
        for r in RULES {
            assert!(seen.insert(r.code), "duplicate code {}", r.code);
            assert!(
                doc.contains(&format!("| {} |", r.code)),
                "docs/dsf.md lacks a row for {}",
                r.code
            );
        }
        for line in doc.lines().filter(|l| l.starts_with("| DSF0")) {
            let code = line[2..8].to_string();
            assert!(
                seen.contains(code.as_str()),
                "docs/dsf.md row {code} is in no rule"
            );
        }
    }
}
