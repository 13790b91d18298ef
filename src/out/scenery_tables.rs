//! The resolver's reports as Arrow tables: a census of an installation's
//! autogen uses ([`census_batch`]) and the findings of its check
//! ([`findings_batch`]), in the common schema of [`super::arrow`].

use super::arrow::{Cell, TableRow};
use crate::scenery::census::CensusRow;
use crate::scenery::check::Finding;

impl TableRow for CensusRow {
    fn cell(&self, column: &str) -> Cell<'_> {
        use Cell::{Int, Real, Text};
        match column {
            "tile" => Text(Some(&self.tile)),
            "dsf" => Text(Some(&self.dsf)),
            "use" => Int(i64::try_from(self.use_index).ok()),
            "kind" => Text(Some(self.kind)),
            "asset" => Text(Some(&self.asset)),
            "param" => Int(self.param.map(i64::from)),
            "height" => Real(self.height),
            "low" => Int(self.low.map(i64::from)),
            "heading" => Real(self.heading),
            "lon" => Real(Some(self.lon)),
            "lat" => Real(Some(self.lat)),
            "package" => Text(Some(&self.package)),
            "resolved_package" => Text(self.resolved_package.as_deref()),
            "resolved_file" => Text(self.resolved_file.as_deref()),
            "resolution" => Text(Some(self.resolution)),
            _ => Text(None),
        }
    }
}

/// A census ([`crate::scenery::Scenery::census`]) as one Arrow batch of
/// [`super::arrow::CENSUS`] columns.
pub fn census_batch(rows: &[CensusRow]) -> arrow_array::RecordBatch {
    super::arrow::rows_batch(super::arrow::CENSUS, rows)
}

impl TableRow for Finding {
    fn cell(&self, column: &str) -> Cell<'_> {
        use Cell::Text;
        match column {
            "severity" => Text(Some(self.severity.as_str())),
            "code" => Text(Some(self.code)),
            "package" => Text(self.package.as_deref()),
            "message" => Text(Some(&self.message)),
            _ => Text(None),
        }
    }

    fn texts(&self) -> &[String] {
        &self.details
    }
}

/// The findings of an installation's check ([`Scenery::check`](crate::scenery::Scenery::check), `agkit
/// scenery check --format json`'s `findings`, in order) as one Arrow batch
/// of [`super::arrow::SCENERY_FINDINGS`] and `details`, a list of
/// strings.
pub fn findings_batch(findings: &[Finding]) -> arrow_array::RecordBatch {
    super::arrow::rows_batch_with_list(super::arrow::SCENERY_FINDINGS, findings, "details")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_census_columns_are_the_rows_values() {
        use crate::out::arrow::CENSUS;
        use arrow_array::{Array, Float64Array, Int64Array};
        let row = CensusRow {
            tile: "+47+013".into(),
            dsf: "a/+47+013.dsf".into(),
            use_index: 3,
            kind: "agb",
            asset: "x.agb".into(),
            param: Some(769),
            height: Some(12.0),
            low: Some(1),
            heading: None,
            lon: 13.5,
            lat: 47.5,
            package: "P".into(),
            resolved_package: None,
            resolved_file: None,
            resolution: "nothing",
        };
        let b = census_batch(std::slice::from_ref(&row));
        let col = |n: &str| b.column_by_name(n).unwrap().clone();
        let ints = |n: &str| {
            col(n)
                .as_any()
                .downcast_ref::<Int64Array>()
                .unwrap()
                .clone()
        };
        let reals = |n: &str| {
            col(n)
                .as_any()
                .downcast_ref::<Float64Array>()
                .unwrap()
                .clone()
        };
        assert_eq!(ints("use").value(0), 3);
        assert_eq!(ints("param").value(0), 769);
        assert_eq!(ints("low").value(0), 1);
        assert_eq!(reals("height").value(0), 12.0);
        assert!(reals("heading").is_null(0));
        assert!(col("resolved_file").is_null(0));
        assert_eq!(
            crate::out::arrow::column_names(&b),
            CENSUS.iter().map(|c| c.name).collect::<Vec<_>>()
        );
        assert_eq!(census_batch(&[]).num_columns(), CENSUS.len());
    }

    #[test]
    fn installation_findings_keep_their_details_as_lists() {
        use arrow_array::{Array, StringArray};
        let rows = [
            Finding {
                severity: crate::diag::Severity::Error,
                code: "SCN001",
                package: Some("Pkg".into()),
                message: "m".into(),
                details: vec!["a".into(), "b".into()],
            },
            Finding {
                severity: crate::diag::Severity::Warning,
                code: "SCN002",
                package: None,
                message: "n".into(),
                details: Vec::new(),
            },
        ];
        let b = findings_batch(&rows);
        assert_eq!(
            crate::out::arrow::column_names(&b),
            ["severity", "code", "package", "message", "details"]
        );
        let package = b.column_by_name("package").unwrap();
        assert!(package.is_null(1) && !package.is_null(0));
        let details = b.column_by_name("details").unwrap();
        let details = details
            .as_any()
            .downcast_ref::<arrow_array::ListArray>()
            .unwrap();
        let list = |k: usize| {
            let v = details.value(k);
            let v = v.as_any().downcast_ref::<StringArray>().unwrap();
            (0..v.len())
                .map(|i| v.value(i).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(list(0), ["a", "b"]);
        assert!(list(1).is_empty() && !details.is_null(1));
        assert_eq!(findings_batch(&[]).schema(), b.schema());
    }
}
