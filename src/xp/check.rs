//! Validation rules on the finished model.

use super::doc::Document;
use super::model::Asset;
use crate::diag::Diagnostic;

/// Adds the diagnostics of the model-level rules to `out`.
pub fn validate(_doc: &Document, _asset: &Asset, _out: &mut Vec<Diagnostic>) {}
