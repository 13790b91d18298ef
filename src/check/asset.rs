//! An autogen asset read from its file to be placed: the parsed asset
//! when it can be placed, and what the checks say about it.
//!
//! Placement ignores a line the checks warn about (a misspelt directive,
//! say), so the warnings come with the asset: whoever places it tells the
//! author, as `agkit check` would.

use crate::diag::Diagnostic;
use crate::xp::model::Asset;
use std::path::{Path, PathBuf};

/// Why an asset file cannot be placed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AssetFileError {
    /// The file could not be read (missing, not a regular file, too
    /// large …).
    #[error("{source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: crate::fsutil::InputError,
    },
    /// The file is another kind of file agkit can tell (a DSF, an image,
    /// GeoJSON …).
    #[error("{}: {why}", path.display())]
    NotAutogen {
        /// The file.
        path: PathBuf,
        /// What it is and which command reads it.
        why: String,
    },
    /// The text has errors (listed in [`AssetFile::diagnostics`]) or
    /// cannot be parsed at all.
    #[error("{}: {}", path.display(), match errors {
        0 => "cannot be parsed".to_string(),
        n => crate::ground::words::count(*n, "error"),
    })]
    Invalid {
        /// The file.
        path: PathBuf,
        /// How many diagnostics are errors.
        errors: usize,
    },
}

/// An autogen text file (.agp, .agb, .ags) read and checked.
#[derive(Debug)]
pub struct AssetFile {
    /// The file.
    pub path: PathBuf,
    /// The asset, or why it cannot be placed.
    pub asset: Result<Asset, AssetFileError>,
    /// What the checks found, warnings included (in text order).
    pub diagnostics: Vec<Diagnostic>,
    /// The text the diagnostics point into (lossy UTF-8); empty when there
    /// are none.
    pub text: String,
}

impl AssetFile {
    /// Reads, parses and checks `path`. Never fails: a file that cannot be
    /// placed has an `Err` asset saying why.
    pub fn read(path: &Path) -> AssetFile {
        let mut file = AssetFile {
            path: path.to_path_buf(),
            asset: Err(AssetFileError::Invalid {
                path: path.to_path_buf(),
                errors: 0,
            }),
            diagnostics: Vec::new(),
            text: String::new(),
        };
        let max = crate::limits::Limits::default().max_input_bytes;
        let bytes = match crate::fsutil::read_file(path, "an autogen asset", max) {
            Ok(b) => b,
            Err(source) => {
                file.asset = Err(AssetFileError::Read {
                    path: path.to_path_buf(),
                    source,
                });
                return file;
            }
        };
        let refusal =
            super::Contents::of(&bytes).refusal(super::AUTOGEN_TEXT, &[super::Contents::Autogen]);
        if let Some(why) = refusal {
            file.asset = Err(AssetFileError::NotAutogen {
                path: path.to_path_buf(),
                why,
            });
            return file;
        }
        let text = String::from_utf8_lossy(&bytes);
        let (asset, diagnostics) = crate::xp::parse_lenient(&text);
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        file.asset = match asset {
            Some(a) if errors == 0 => Ok(a),
            _ => Err(AssetFileError::Invalid {
                path: path.to_path_buf(),
                errors,
            }),
        };
        if !diagnostics.is_empty() {
            file.text = text.into_owned();
        }
        file.diagnostics = diagnostics;
        file
    }

    /// True when the checks found something (or the file cannot be
    /// placed): what a caller reports.
    pub fn has_news(&self) -> bool {
        self.asset.is_err() || !self.diagnostics.is_empty()
    }
}

/// The JSON form: `{"file", "placeable", "error", "diagnostics"}`, the
/// diagnostics as `agkit check --format json` gives them.
impl serde::Serialize for AssetFile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let file = self.path.display().to_string();
        let mut st = s.serialize_struct("AssetFile", 4)?;
        st.serialize_field("file", &file)?;
        st.serialize_field("placeable", &self.asset.is_ok())?;
        st.serialize_field("error", &self.asset.as_ref().err().map(ToString::to_string))?;
        let text = (!self.text.is_empty()).then_some(self.text.as_str());
        st.serialize_field(
            "diagnostics",
            &crate::diag::to_json(&file, text, &self.diagnostics),
        )?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_foreign_and_broken_files_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let missing = AssetFile::read(&dir.path().join("nope.agb"));
        assert!(matches!(missing.asset, Err(AssetFileError::Read { .. })));
        let dsf = dir.path().join("x.agp");
        std::fs::write(&dsf, b"XPLNEDSF\x01\0\0\0").unwrap();
        let e = AssetFile::read(&dsf).asset.unwrap_err().to_string();
        assert!(e.contains("it is a DSF tile"), "{e}");
        let bad = dir.path().join("bad.agp");
        std::fs::write(&bad, "A\n1000\nAG_POINT\n\nTEXTURE_SCALE nope\n").unwrap();
        let f = AssetFile::read(&bad);
        assert!(f.has_news() && !f.text.is_empty());
        let json = serde_json::to_value(&f).unwrap();
        assert_eq!(json["placeable"], false);
        let scale = json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "AG0004");
        assert_eq!(scale.unwrap()["line"], 5, "{json}");
        assert!(f.asset.unwrap_err().to_string().contains("error"));
    }
}
