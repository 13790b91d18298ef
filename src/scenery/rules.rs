//! The tables of every diagnostic the resolver emits: `library.txt`
//! (`LIB…`), `scenery_packs.ini` (`INI…`) and the findings of `agkit
//! scenery check` (`SCN…`), each row a stable code, a severity and a
//! one-line summary. docs/scenery.md lists the same rows; a test keeps the
//! two in step. A finding whose severity depends on what it carries
//! (`SCN009`, `SCN012`: the severity of the diagnostics inside) has the
//! highest it can take here.

pub use crate::diag::Rule;

/// `library.txt` diagnostics.
pub mod library {
    use crate::diag::rules;

    rules! {
        HEADER = "LIB001", Error, "the header is not `A`/`I`, `800`, `LIBRARY`: X-Plane ignores the file";
        NO_PATHS = "LIB002", Error, "an export without its virtual and real paths";
        BAD_RATIO = "LIB003", Error, "an `EXPORT_RATIO` that is not a positive number";
        UNKNOWN = "LIB004", Warning, "an unknown directive, or a header line repeated inside the file";
        LEAVES_PACKAGE = "LIB005", Warning, "a real path leaving the package with `../`";
        BAD_RECT = "LIB006", Error, "a malformed `REGION_RECT`";
        REGION_FIRST = "LIB007", Warning, "a `REGION_*` line before any `REGION_DEFINE`";
        UNDEFINED_REGION = "LIB008", Warning, "a `REGION` naming an undefined region";
        BAD_DREF = "LIB009", Error, "a malformed `REGION_DREF`";
        EMPTY_REGION = "LIB010", Warning, "a region with no `REGION_RECT`, `REGION_BITMAP` or `REGION_ALL` that has exports under it: they apply on no tile";
    }
}

/// `scenery_packs.ini` diagnostics.
pub mod packs {
    use crate::diag::rules;

    rules! {
        HEADER = "INI001", Warning, "the header is not `I`, `1000 Version`, `SCENERY`";
        NOT_A_PACK = "INI002", Warning, "a line that is not a `SCENERY_PACK` or `SCENERY_PACK_DISABLED` line";
    }
}

/// The findings of `agkit scenery check`.
pub mod check {
    use crate::diag::rules;

    rules! {
        UNRESOLVED = "SCN001", Error, "paths a package's DSFs name that resolve nowhere";
        EXPORT_MISSING = "SCN002", Warning, "exports naming files missing from their package";
        SHADOWED = "SCN003", Note, "exports a higher-priority package shadows on every tile";
        DISABLED_NEEDED = "SCN004", Warning, "a disabled pack whose exports enabled packs need";
        OUTSIDE_PACKAGE = "SCN005", Warning, "exports or DSF paths reaching outside their package with `../`";
        LISTED_TWICE = "SCN006", Warning, "a pack listed twice in `scenery_packs.ini`";
        LISTED_MISSING = "SCN007", Warning, "a pack listed in `scenery_packs.ini` that does not exist";
        NOT_LISTED = "SCN008", Note, "packs `scenery_packs.ini` does not list (X-Plane adds them on top)";
        LIBRARY_PROBLEMS = "SCN009", Error, "problems in a `library.txt` (the `LIB` codes)";
        DSF_UNREADABLE = "SCN010", Error, "a DSF that cannot be read";
        BELOW_MESH = "SCN011", Warning, "an overlay DSF below another package's base mesh of its tile";
        PACKS_PROBLEMS = "SCN012", Warning, "problems in `scenery_packs.ini` (the `INI` codes)";
        LIBRARY_UNREADABLE = "SCN013", Error, "a `library.txt` that cannot be read";
        ABSOLUTE_EXPORT = "SCN014", Warning, "exports naming an absolute or drive-letter path";
        ART_MISSING = "SCN015", Warning, "art a package's scenery names that cannot be found or read";
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/scenery.md names every code, and the findings' table gives
    /// each `SCN` code the table's severity (first, for a finding whose
    /// severity is that of what it carries).
    #[test]
    fn every_code_is_documented_with_its_severity() {
        let doc = include_str!("../../docs/scenery.md");
        let all = [library::RULES, packs::RULES, check::RULES];
        let mut seen = std::collections::HashSet::new();
        for r in all.iter().flat_map(|t| t.iter()) {
            assert!(seen.insert(r.code), "duplicate code {}", r.code);
            assert!(doc.contains(r.code), "docs/scenery.md lacks {}", r.code);
        }
        for r in check::RULES {
            let row = format!("| {} | {}", r.code, r.severity.as_str());
            assert!(doc.contains(&row), "docs/scenery.md lacks `{row}`");
        }
    }
}
