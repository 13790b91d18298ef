//! The table of every diagnostic the AGN reader, writer and checker emit:
//! a stable code, a severity and a one-line summary (docs/agn.md, "Errors
//! and warnings", lists the same rows; a test keeps the two in step).
//! Errors stop the reading at their byte offset; the `AGN1xx` warnings are
//! `agkit check`'s.

pub use crate::diag::Rule;
use crate::diag::rules;

rules! {
    TRUNCATED = "AGN001", Error, "truncated data: a record or field runs past its chunk";
    NOT_AGN = "AGN002", Error, "not an AGN file: not RIFF, or a RIFF type other than `AGNX`";
    CHUNK_TOO_LONG = "AGN003", Error, "a chunk claims more bytes than are left";
    NOT_WHOLE_RECORDS = "AGN004", Error, "a chunk's length is not a whole number of records";
    NOT_FINITE = "AGN005", Error, "a float is NaN or infinite";
    BAD_VERTEX_COUNT = "AGN006", Error, "a vertex count the chunk cannot hold";
    BAD_TEXTURE_NAME = "AGN007", Error, "a texture name that is not NUL-padded text";
    AMBIGUOUS_RECORD = "AGN008", Error, "an A2GE chunk whose record size both known layouts divide";
    TRAILING_BYTES = "AGN009", Error, "bytes after the end of the RIFF chunk";
    WRONG_SIZE = "AGN010", Error, "a fixed-size chunk of another size";
    NOT_A_CELL_NAME = "AGN011", Error, "a file name that is not a LOD13 cell name (bulk dump)";
    NOT_WRITABLE = "AGN020", Error, "a model that cannot be written (a count or size past the format's fields)";
    NOT_CLOSED = "AGN101", Warning, "a polygon not closed, or a footprint of under 3 vertices";
    OUTSIDE_CELL = "AGN102", Warning, "a coordinate outside the cell";
    PERCENT_RANGE = "AGN103", Warning, "a GBDD percentage outside 0..20";
    PBDE_KIND = "AGN104", Warning, "a PBDE record whose kind is not 1";
    OUT_OF_CONTAINER = "AGN105", Warning, "a record chunk outside its container";
    TEXTURE_PADDING = "AGN106", Warning, "a texture name not NUL-padded to a multiple of 4 bytes";
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/agn.md names every code of the table, each once as a row of
    /// its list of errors and warnings.
    #[test]
    fn every_code_is_documented() {
        let doc = include_str!("../../docs/agn.md");
        let mut seen = std::collections::HashSet::new();
        for r in RULES {
            assert!(seen.insert(r.code), "duplicate code {}", r.code);
            assert!(
                doc.contains(&format!("`{}`", r.code)),
                "docs/agn.md lacks {}",
                r.code
            );
        }
    }
}
