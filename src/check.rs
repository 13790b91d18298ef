//! What `agkit check` does to one file, as a library function.
//!
//! The CLI (`agkit check`) and the previewer's diagnostics panel
//! (`agkit serve`, `GET /api/asset`) both call [`check_bytes`], so the two
//! can never disagree about a file.

use crate::diag::Diagnostic;
use std::path::Path;

/// What kind of file a path holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// An autogen text file (AGP, AGB, AGS, or anything else read as text).
    Text,
    /// An FSX AGN file.
    Agn,
    /// A DSF tile.
    Dsf,
}

/// Decides the kind of a file from its first bytes (the DSF and 7z magic,
/// RIFF), then from its extension; anything else is text.
pub fn classify(path: &Path, bytes: &[u8]) -> FileKind {
    if bytes.starts_with(b"XPLNEDSF") || bytes.starts_with(&[0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) {
        return FileKind::Dsf;
    }
    if bytes.starts_with(b"RIFF") {
        return FileKind::Agn;
    }
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("agn") => FileKind::Agn,
        Some("dsf") => FileKind::Dsf,
        _ => FileKind::Text,
    }
}

/// Checks one file's bytes: the diagnostics and, for a text file, the text
/// they point into (invalid UTF-8 decoded lossily, and reported).
pub fn check_bytes(path: &Path, bytes: &[u8]) -> (Option<String>, Vec<Diagnostic>) {
    match classify(path, bytes) {
        FileKind::Agn => (None, crate::agn::check_bytes(bytes)),
        FileKind::Dsf => (None, crate::dsf::check_bytes(bytes)),
        FileKind::Text => {
            let (text, diags) = crate::xp::check_bytes(bytes);
            (Some(text), diags)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_by_magic_then_extension() {
        let p = Path::new("x.ags");
        assert_eq!(classify(p, b"A\n1000\nAG_STRING\n"), FileKind::Text);
        assert_eq!(classify(p, b"XPLNEDSF\x01\0\0\0"), FileKind::Dsf);
        assert_eq!(classify(p, b"RIFF\0\0\0\0"), FileKind::Agn);
        assert_eq!(classify(Path::new("x.AGN"), b""), FileKind::Agn);
        assert_eq!(classify(Path::new("x.dsf"), b"junk"), FileKind::Dsf);
    }

    #[test]
    fn text_keeps_its_source_and_reports_bad_utf8() {
        let (text, diags) = check_bytes(Path::new("a.agp"), b"A\n1000\nAG_POINT\n\xff\n");
        let text = text.unwrap();
        assert!(text.contains('\u{fffd}'));
        assert!(diags.iter().any(|d| d.is_error()));
        let (text, _) = check_bytes(Path::new("a.agn"), b"RIFF");
        assert!(text.is_none());
    }
}
