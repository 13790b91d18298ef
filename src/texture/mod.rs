//! Textures X-Plane art names: PNG and DDS.
//!
//! [`probe`] reads only a texture's header (size, pixel format, mipmaps);
//! [`decode`] turns its top image into RGBA8, after checking the size
//! against [`Limits::max_texture_pixels`] and [`Limits::max_unpacked_bytes`]
//! and, for DDS, that the file holds the data the header promises — so no
//! pixel is allocated for a texture that is too large or too short.
//!
//! **Memory.** The decoded image is the only image-sized buffer: a PNG is
//! decoded into it and expanded to four channels in place, a DDS
//! decompressed into it. Its bytes are reserved first from the
//! process-wide budget of decoded pixels ([`crate::limits::decoded`],
//! 1 GiB), which every thread shares, and given back when the [`Image`] is
//! dropped: textures decoded in parallel (rayon) hold at most the budget
//! together, however many cores there are. [`check`] decodes no image: a
//! PNG's rows are read one at a time and dropped (the zlib stream, filters
//! and checksums are still checked), a DDS's header and lengths are
//! compared with the file.
//!
//! DDS: DXT1, DXT3 and DXT5 (decoded by the `texpresso` crate) and
//! uncompressed RGB/RGBA in any byte order of 24 or 32 bits a pixel (the
//! channel masks say where each channel is); any other pixel format is an
//! error naming its FourCC. The header is read by the `ddsfile` crate. PNG
//! of any colour type and depth is decoded by the `png` crate (16-bit
//! channels keep their high byte). Diagnostics carry codes `TEX0001`… (the
//! table [`RULES`]) at byte offsets; see `docs/art.md`.

use crate::diag::{Diagnostic, Location, Refused, Severity};
use crate::limits::{LimitExceeded, Limits};
use serde::Serialize;

mod dds;
mod png;

crate::diag::rules! {
    NOT_A_TEXTURE = "TEX0001", Error, "the file is neither a PNG nor a DDS";
    BAD_HEADER = "TEX0002", Error, "the header is cut short or malformed";
    UNSUPPORTED = "TEX0003", Error, "a DDS pixel format agkit does not decode (its FourCC is named)";
    TOO_LARGE = "TEX0004", Error, "the image has more pixels than the limit";
    TRUNCATED = "TEX0005", Error, "the pixel data is cut short or corrupt";
    NOT_POWER_OF_TWO = "TEX0006", Warning, "a side is not a power of two (Laminar's scenery documentation asks for one)";
    EMPTY = "TEX0007", Error, "the width or height is zero";
    BAD_LAYOUT = "TEX0008", Error, "a DDS header declares more mipmaps than its size allows, or an empty array";
}

/// The container of a texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Container {
    /// PNG.
    Png,
    /// DirectDraw Surface.
    Dds,
}

/// What a texture's header says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Info {
    /// PNG or DDS.
    pub container: Container,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixel format: `DXT1`, `DXT3`, `DXT5`, `BGRA8`, `RGB8`, … for
    /// DDS (a FourCC agkit does not decode is named as it is); `RGBA8`,
    /// `RGB16`, `GRAY8`, `INDEXED4`, … for PNG.
    pub format: String,
    /// Images in the mipmap chain (1 without mipmaps).
    pub mipmaps: u32,
    /// True when [`decode`] can decode the pixel format.
    pub decodable: bool,
}

/// A decoded image: rows top to bottom, 4 bytes (R, G, B, A) a pixel.
///
/// An image [`decode`] made holds its bytes of the process-wide budget of
/// decoded pixels ([`crate::limits::decoded`]) until it is dropped (a clone
/// shares that reservation).
#[derive(Debug, Clone)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
    /// The bytes reserved for `rgba`, when decoded.
    grant: Option<std::sync::Arc<crate::limits::Grant>>,
}

impl Image {
    /// An image of `rgba` (`width × height × 4` bytes), outside the
    /// budget of decoded pixels.
    pub fn new(width: u32, height: u32, rgba: Vec<u8>) -> Image {
        Image {
            width,
            height,
            rgba,
            grant: None,
        }
    }

    /// Bytes of the budget of decoded pixels this image holds (0 for one
    /// made by [`Image::new`]).
    pub fn reserved(&self) -> u64 {
        self.grant.as_ref().map_or(0, |g| g.bytes())
    }
}

impl PartialEq for Image {
    fn eq(&self, other: &Image) -> bool {
        (self.width, self.height, &self.rgba) == (other.width, other.height, &other.rgba)
    }
}

impl Eq for Image {}

/// Why a texture cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code} at byte {offset}: {message}")]
pub struct TextureError {
    /// The diagnostic code (`TEX0001` …).
    pub code: &'static str,
    /// Byte offset of the problem in the file.
    pub offset: u64,
    /// What is wrong.
    pub message: String,
}

impl TextureError {
    fn new(code: &'static str, offset: u64, message: impl Into<String>) -> TextureError {
        TextureError {
            code,
            offset,
            message: message.into(),
        }
    }

    /// The error as a diagnostic at its byte offset.
    pub fn diagnostic(&self) -> Diagnostic {
        Diagnostic::new(
            Severity::Error,
            self.code,
            self.message.clone(),
            Location::Offset(self.offset),
        )
    }
}

/// True when `bytes` start like a PNG or a DDS.
pub fn is_texture(bytes: &[u8]) -> bool {
    bytes.starts_with(png::MAGIC) || bytes.starts_with(dds::MAGIC)
}

/// Reads a texture's header only: its size and pixel format.
pub fn probe(bytes: &[u8]) -> Result<Info, TextureError> {
    if bytes.starts_with(png::MAGIC) {
        png::probe(bytes)
    } else if bytes.starts_with(dds::MAGIC) {
        dds::probe(bytes).map(|(info, _)| info)
    } else {
        Err(TextureError::new(
            codes::NOT_A_TEXTURE,
            0,
            "not a texture: a PNG starts with \\x89PNG, a DDS with `DDS `",
        ))
    }
}

/// Bytes a decoder may allocate for its own rows and tables, beside the
/// image: a few rows of the widest image and the zlib window, with room.
fn row_cap(info: &Info) -> usize {
    // Up to 8 bytes a pixel (RGBA16), a handful of rows.
    let row = info.width as usize * 8 + 64;
    row.saturating_mul(8).saturating_add(1 << 20)
}

/// Decodes a texture's top image to RGBA8. The header is read first and
/// the size checked against `limits`, then the image's bytes are reserved
/// from the process-wide budget ([`crate::limits::decoded`]; this may wait
/// for other threads to give theirs back), before any pixel is decoded.
pub fn decode(bytes: &[u8], limits: &Limits) -> Result<Image, TextureError> {
    let info = probe(bytes)?;
    check_size(&info, limits)?;
    if info.container == Container::Dds {
        // Refused for a lying header or a short file before reserving.
        dds::check_layout(bytes)?;
    }
    // The image's bytes; the decoder's own rows (`row_cap`, a few rows and
    // a megabyte) are not counted.
    let extra = row_cap(&info);
    let image_bytes = u64::from(info.width) * u64::from(info.height) * 4;
    let grant = crate::limits::decoded()
        .reserve("bytes of decoded textures held at once", image_bytes)
        .map_err(|e| TextureError::new(codes::TOO_LARGE, 0, e.to_string()))?;
    let mut rgba = Vec::new();
    let (width, height) = match info.container {
        Container::Png => png::decode_into(bytes, extra, &mut rgba)?,
        Container::Dds => dds::decode_into(bytes, &mut rgba)?,
    };
    Ok(Image {
        width,
        height,
        rgba,
        grant: Some(std::sync::Arc::new(grant)),
    })
}

/// [`decode`], with a refusal naming `file`.
pub fn read(bytes: &[u8], file: &str, limits: &Limits) -> Result<Image, Refused> {
    decode(bytes, limits).map_err(|e| Refused::new(file, None, vec![e.diagnostic()]))
}

/// Why [`open`] could not give a texture's pixels.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The file cannot be read.
    #[error(transparent)]
    Read(#[from] crate::fsutil::InputError),
    /// It does not decode: the code and byte offset of the problem.
    #[error("{error}")]
    Decode {
        /// The file.
        file: std::path::PathBuf,
        /// What is wrong, where.
        error: TextureError,
    },
}

/// The texture file at `file`, read through the input gate
/// ([`crate::fsutil::read_input`], at most `limits.max_input_bytes`) and
/// decoded ([`decode`]).
pub fn open(file: &std::path::Path, limits: &Limits) -> Result<Image, OpenError> {
    let bytes = crate::fsutil::read_input(file, "a texture", limits.max_input_bytes)?;
    decode(&bytes, limits).map_err(|error| OpenError::Decode {
        file: file.to_path_buf(),
        error,
    })
}

/// What `agkit check` reports for a texture: its header, and every problem
/// in its structure — without decoding the image: a PNG's rows are read one
/// at a time and dropped, a DDS's header and lengths are compared with the
/// file.
pub fn check(bytes: &[u8], limits: &Limits) -> (Option<Info>, Vec<Diagnostic>) {
    let info = match probe(bytes) {
        Ok(i) => i,
        Err(e) => return (None, vec![e.diagnostic()]),
    };
    let mut diags = Vec::new();
    if !info.width.is_power_of_two() || !info.height.is_power_of_two() {
        diags.push(Diagnostic::new(
            Severity::Warning,
            codes::NOT_POWER_OF_TWO,
            format!(
                "{} × {} pixels: not a power of two on each side",
                info.width, info.height
            ),
            Location::Offset(0),
        ));
    }
    let checked = check_size(&info, limits).and_then(|()| match info.container {
        Container::Png => png::validate(bytes, row_cap(&info)),
        Container::Dds => dds::check_layout(bytes).and_then(|()| {
            if info.decodable {
                Ok(())
            } else {
                Err(TextureError::new(
                    codes::UNSUPPORTED,
                    84,
                    format!(
                        "DDS pixel format `{}` is not decoded: agkit reads DXT1, DXT3, DXT5 and 24- or 32-bit RGB(A)",
                        info.format
                    ),
                ))
            }
        }),
    });
    if let Err(e) = checked {
        diags.push(e.diagnostic());
    }
    (Some(info), diags)
}

/// Checks the image of `info` against `limits`.
fn check_size(info: &Info, limits: &Limits) -> Result<(), TextureError> {
    if info.width == 0 || info.height == 0 {
        return Err(TextureError::new(
            codes::EMPTY,
            0,
            format!("the image is {} × {} pixels", info.width, info.height),
        ));
    }
    let pixels = info.width as u64 * info.height as u64;
    LimitExceeded::check("pixels of the texture", pixels, limits.max_texture_pixels)
        .and_then(|()| {
            LimitExceeded::check(
                "bytes of the decoded texture",
                pixels * 4,
                limits.max_unpacked_bytes,
            )
        })
        .map_err(|e| TextureError::new(codes::TOO_LARGE, 0, e.to_string()))
}
