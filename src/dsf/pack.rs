//! The 7z form of a DSF, as Laminar ships its Global Scenery tiles and
//! X-Plane 10+ reads them: a 7-Zip archive holding the one DSF (DSF notes
//! §5; xptools `DSFLib.cpp` opens a file as 7z first and reads its first
//! entry). The archive is written with LZMA, the method AutoOrtho asks
//! `7z` for (`-m0=lzma` in `autoortho/utils/dsf_utils.py`) and one every
//! 7z reader of X-Plane's and DSFTool's (xptools `src/lzma19`) decodes.

use std::io::Cursor;

/// Why a DSF could not be packed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackError(pub String);

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "could not write the 7z archive: {}", self.0)
    }
}

impl std::error::Error for PackError {}

/// The LZMA preset [`pack_7z`] uses: 7-Zip's default level (5).
pub const LEVEL: u32 = 5;

/// `dsf` (a plain DSF's bytes) as a 7z archive holding it under `name`
/// (the tile's file name, such as `+47+013.dsf`).
pub fn pack_7z(dsf: &[u8], name: &str) -> Result<Vec<u8>, PackError> {
    use sevenz_rust2::encoder_options::LzmaOptions;
    use sevenz_rust2::{ArchiveEntry, ArchiveWriter};
    let e = |e: sevenz_rust2::Error| PackError(e.to_string());
    let mut w = ArchiveWriter::new(Cursor::new(Vec::with_capacity(dsf.len() / 3))).map_err(e)?;
    w.set_content_methods(vec![LzmaOptions::from_level(LEVEL).into()]);
    w.push_archive_entry(ArchiveEntry::new_file(name), Some(dsf))
        .map_err(e)?;
    let out = w.finish().map_err(|x| PackError(x.to_string()))?;
    Ok(out.into_inner())
}

/// `name` of a DSF output path: its file name, or `tile.dsf`.
pub fn entry_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "tile.dsf".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_tile_reads_back_as_the_same_tile() {
        let d = crate::dsf::Dsf::overlay(13, 47);
        let plain = crate::dsf::build(&d, &Default::default()).unwrap();
        let packed = pack_7z(&plain, "+47+013.dsf").unwrap();
        assert!(packed.starts_with(&crate::dsf::read::SEVENZ_MAGIC));
        assert_eq!(crate::dsf::read::unpack_7z(&packed).unwrap(), plain);
        let back = crate::dsf::read(&packed).unwrap();
        assert!(back.compressed);
        assert_eq!(back.properties, d.properties);
    }
}
