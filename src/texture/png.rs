//! PNG through the `png` crate: the header for [`probe`], every colour
//! type expanded to RGBA8 for [`decode`].

use super::{Container, Image, Info, TextureError, codes};
use crate::limits::Limits;
use ::png::{BitDepth, ColorType, Decoder, Transformations};
use std::io::Cursor;

/// The first bytes of a PNG file.
pub(super) const MAGIC: &[u8] = b"\x89PNG";

fn format_name(color: ColorType, depth: BitDepth) -> String {
    let kind = match color {
        ColorType::Grayscale => "GRAY",
        ColorType::GrayscaleAlpha => "GRAYA",
        ColorType::Rgb => "RGB",
        ColorType::Rgba => "RGBA",
        ColorType::Indexed => "INDEXED",
    };
    format!("{kind}{}", depth as u8)
}

pub(super) fn probe(bytes: &[u8]) -> Result<Info, TextureError> {
    let mut decoder = Decoder::new(Cursor::new(bytes));
    let info = decoder.read_header_info().map_err(|e| {
        TextureError::new(
            codes::BAD_HEADER,
            8,
            format!("the PNG header is malformed: {e}"),
        )
    })?;
    Ok(Info {
        container: Container::Png,
        width: info.width,
        height: info.height,
        format: format_name(info.color_type, info.bit_depth),
        mipmaps: 1,
        decodable: true,
    })
}

pub(super) fn decode(bytes: &[u8], limits: &Limits) -> Result<Image, TextureError> {
    // The crate's own allocation cap, set to what the limits allow (the
    // caller already checked the image's size against them).
    let cap = usize::try_from(limits.max_unpacked_bytes).unwrap_or(usize::MAX);
    let mut decoder = Decoder::new_with_limits(Cursor::new(bytes), ::png::Limits { bytes: cap });
    decoder.set_transformations(Transformations::EXPAND | Transformations::STRIP_16);
    let corrupt = |e: ::png::DecodingError| {
        TextureError::new(
            codes::TRUNCATED,
            bytes.len() as u64,
            format!("the PNG data is cut short or corrupt: {e}"),
        )
    };
    let mut reader = decoder.read_info().map_err(corrupt)?;
    let size = reader.output_buffer_size().ok_or_else(|| {
        TextureError::new(
            codes::TOO_LARGE,
            8,
            "the PNG image overflows this machine's memory",
        )
    })?;
    let mut buf = vec![0u8; size];
    let frame = reader.next_frame(&mut buf).map_err(corrupt)?;
    let header = reader.info();
    if (frame.width, frame.height) != (header.width, header.height) {
        // An animated PNG whose first frame is not the whole image.
        return Err(TextureError::new(
            codes::TRUNCATED,
            8,
            format!(
                "the first frame is {} × {} pixels but the image {} × {}",
                frame.width, frame.height, header.width, header.height
            ),
        ));
    }
    let (w, h) = (frame.width as usize, frame.height as usize);
    let channels = match frame.color_type {
        ColorType::Grayscale => 1,
        ColorType::GrayscaleAlpha => 2,
        ColorType::Rgb => 3,
        ColorType::Rgba => 4,
        ColorType::Indexed => {
            return Err(TextureError::new(
                codes::TRUNCATED,
                8,
                "the PNG palette could not be expanded",
            ));
        }
    };
    let mut rgba = Vec::with_capacity(w * h * 4);
    for row in buf.chunks(frame.line_size.max(1)).take(h) {
        for px in row.chunks_exact(channels).take(w) {
            let p = match channels {
                1 => [px[0], px[0], px[0], 255],
                2 => [px[0], px[0], px[0], px[1]],
                3 => [px[0], px[1], px[2], 255],
                _ => [px[0], px[1], px[2], px[3]],
            };
            rgba.extend_from_slice(&p);
        }
    }
    if rgba.len() != w * h * 4 {
        return Err(TextureError::new(
            codes::TRUNCATED,
            bytes.len() as u64,
            "the PNG image has fewer pixels than its header says",
        ));
    }
    Ok(Image {
        width: frame.width,
        height: frame.height,
        rgba,
    })
}
