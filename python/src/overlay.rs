//! `agkit.overlay.build`: GeoJSON features and rules → a scenery folder of
//! DSF overlay tiles, by the library's [`agkit::overlay::build_folder`]
//! (what `agkit overlay build` runs).

use crate::error::{Class, Error, detached};
use crate::source::Source;
use agkit::overlay::{self, BuildOptions, FolderOptions, Rules, build::OverlayError};
use pyo3::prelude::*;
use pyo3::types::PyMapping;
use std::path::{Path, PathBuf};

/// The rules: a TOML source (path or text), or a mapping written as TOML.
enum RulesArg {
    Source(Source),
    Toml(String),
}

impl RulesArg {
    fn extract(obj: &Bound<'_, PyAny>) -> PyResult<RulesArg> {
        if obj.cast::<PyMapping>().is_ok() {
            let value: toml::Value = pythonize::depythonize(obj).map_err(|e| {
                Error::value(format!(
                    "rules: the mapping cannot be written as TOML ({e})"
                ))
            })?;
            let text = toml::to_string(&value).map_err(|e| {
                Error::value(format!(
                    "rules: the mapping cannot be written as TOML ({e})"
                ))
            })?;
            return Ok(RulesArg::Toml(text));
        }
        Ok(RulesArg::Source(Source::extract(obj)?))
    }

    /// Its name in messages and the folder `preview_file`s are relative
    /// to (the rules file's).
    fn name_and_base(&self) -> (String, Option<PathBuf>) {
        match self {
            RulesArg::Source(s) => (
                s.name(),
                s.path()
                    .map(|p| p.parent().unwrap_or(Path::new(".")).to_path_buf()),
            ),
            RulesArg::Toml(_) => ("<rules>".into(), None),
        }
    }

    fn text(&self) -> Result<String, Error> {
        match self {
            RulesArg::Source(s) => Ok(String::from_utf8_lossy(&s.bytes()?).into_owned()),
            RulesArg::Toml(t) => Ok(t.clone()),
        }
    }
}

/// An overlay that could not be built or written, as a Python exception.
fn overlay_error(features: &str, e: OverlayError) -> Error {
    match e {
        OverlayError::Io { path, error } => Error::io(&path, error),
        OverlayError::Invalid(list) => Error::plain(
            Class::Parse,
            Some(features),
            format!(
                "{} problem(s); nothing was written (lenient=True skips invalid features): {}",
                list.len(),
                list.join("; ")
            ),
        ),
        e @ OverlayError::Encode { .. } => {
            Error::plain(Class::Build, Some(features), e.to_string())
        }
        e @ OverlayError::Foreign { .. } => Error::plain_whole(Class::Build, None, e.to_string()),
        // A kind the library adds later (the enum is non-exhaustive).
        e => Error::plain_whole(Class::Build, None, e.to_string()),
    }
}

/// Builds DSF overlay tiles placing autogen on GeoJSON features
/// (`agkit overlay build`); see `agkit.overlay.build`. `features` is a
/// path or GeoJSON text, `rules` a path, TOML text or a mapping.
#[pyfunction]
#[pyo3(signature = (features, rules, out_dir, *, base=None, preview=None, lenient=false))]
pub fn overlay_build<'py>(
    py: Python<'py>,
    features: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyAny>,
    out_dir: PathBuf,
    base: Option<PathBuf>,
    preview: Option<&str>,
    lenient: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let features = Source::extract(features)?;
    let rules = RulesArg::extract(rules)?;
    let preview = match preview {
        None => None,
        Some("svg") => Some(false),
        Some("png") => Some(true),
        Some(other) => {
            return Err(Error::value(format!(
                "preview {other:?} is not \"svg\" or \"png\" (or None)"
            ))
            .into());
        }
    };
    let (rules_name, rules_base) = rules.name_and_base();
    let base = base.or(rules_base).unwrap_or_else(|| PathBuf::from("."));
    let opts = FolderOptions {
        build: BuildOptions {
            lenient,
            ..BuildOptions::default()
        },
        preview,
    };
    let report = detached(py, || {
        let text = rules.text()?;
        let rules = Rules::parse(&text).map_err(|e| {
            Error::at_line_col(
                Class::Parse,
                &rules_name,
                e.line,
                e.column,
                e.message.clone(),
            )
        })?;
        let name = features.name();
        let geo = String::from_utf8_lossy(&features.bytes()?).into_owned();
        let feats = overlay::read_features(&geo)
            .map_err(|e| Error::plain(Class::Parse, Some(&name), e.to_string()))?;
        overlay::build_folder(&feats, &rules, &base, &out_dir, &opts)
            .map(|b| b.overlay.report)
            .map_err(|e| overlay_error(&name, e))
    })?;
    crate::to_py(py, &report)
}
