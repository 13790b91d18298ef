//! Textures X-Plane art names: PNG and DDS.
//!
//! [`probe`] reads only a texture's header (size, pixel format, mipmaps);
//! [`decode`] turns its top image into RGBA8, after checking the size
//! against [`Limits::max_texture_pixels`] and [`Limits::max_unpacked_bytes`]
//! and, for DDS, that the file holds the data the header promises — so no
//! pixel is allocated for a texture that is too large or too short.
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
}

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

/// Decodes a texture's top image to RGBA8. The size is checked against
/// `limits` before any pixel is decoded.
pub fn decode(bytes: &[u8], limits: &Limits) -> Result<Image, TextureError> {
    let info = probe(bytes)?;
    check_size(&info, limits)?;
    match info.container {
        Container::Png => png::decode(bytes, limits),
        Container::Dds => dds::decode(bytes),
    }
}

/// [`decode`], with a refusal naming `file`.
pub fn read(bytes: &[u8], file: &str, limits: &Limits) -> Result<Image, Refused> {
    decode(bytes, limits).map_err(|e| Refused::new(file, None, vec![e.diagnostic()]))
}

/// The texture file at `file`, read through the input gate
/// ([`crate::fsutil::read_input`], at most `limits.max_input_bytes`) and
/// decoded ([`decode`]); the error says why in one line.
pub fn open(file: &std::path::Path, limits: &Limits) -> Result<Image, String> {
    let bytes = crate::fsutil::read_input(file, "a texture", limits.max_input_bytes)
        .map_err(|e| e.to_string())?;
    decode(&bytes, limits).map_err(|e| e.message)
}

/// What `agkit check` reports for a texture: its header, and every problem
/// decoding it finds (the pixels themselves are dropped).
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
    if let Err(e) = decode(bytes, limits) {
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
