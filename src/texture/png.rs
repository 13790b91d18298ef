//! PNG through the `png` crate: the header for [`probe`], every colour
//! type expanded to RGBA8 for [`decode`] (in the one buffer the image is
//! returned in), and the whole stream read row by row, keeping none, for
//! [`validate`].

use super::{Container, Info, TextureError, codes};
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

fn corrupt(bytes: &[u8]) -> impl Fn(::png::DecodingError) -> TextureError + '_ {
    |e| {
        TextureError::new(
            codes::TRUNCATED,
            bytes.len() as u64,
            format!("the PNG data is cut short or corrupt: {e}"),
        )
    }
}

/// A reader of `bytes` past its header, allocating at most `cap` bytes of
/// its own (its row buffers), expanding to 8-bit channels when `expand`.
fn reader(
    bytes: &[u8],
    cap: usize,
    expand: bool,
) -> Result<::png::Reader<Cursor<&[u8]>>, TextureError> {
    let mut decoder = Decoder::new_with_limits(Cursor::new(bytes), ::png::Limits { bytes: cap });
    if expand {
        decoder.set_transformations(Transformations::EXPAND | Transformations::STRIP_16);
    } else {
        decoder.set_transformations(Transformations::IDENTITY);
    }
    decoder.read_info().map_err(corrupt(bytes))
}

/// The first frame of an animated PNG must be the whole image.
fn whole_frame(w: u32, h: u32, header: &::png::Info) -> Result<(), TextureError> {
    if (w, h) != (header.width, header.height) {
        return Err(TextureError::new(
            codes::TRUNCATED,
            8,
            format!(
                "the first frame is {w} × {h} pixels but the image {} × {}",
                header.width, header.height
            ),
        ));
    }
    Ok(())
}

/// Reads every row of the image, keeping none: the zlib stream, the
/// filters and the checksums are checked, in memory of a few rows.
pub(super) fn validate(bytes: &[u8], row_cap: usize) -> Result<(), TextureError> {
    let mut reader = reader(bytes, row_cap, false)?;
    let (w, h) = (reader.info().width, reader.info().height);
    let (fw, fh) = reader
        .info()
        .frame_control()
        .map_or((w, h), |f| (f.width, f.height));
    whole_frame(fw, fh, reader.info())?;
    let mut rows = 0u64;
    while let Some(row) = reader.next_interlaced_row().map_err(corrupt(bytes))? {
        if matches!(row.interlace(), ::png::InterlaceInfo::Null(_)) {
            rows += 1;
        }
    }
    let interlaced = reader.info().interlaced;
    if !interlaced && rows != u64::from(h) {
        return Err(TextureError::new(
            codes::TRUNCATED,
            bytes.len() as u64,
            format!("the PNG image has {rows} rows but its header says {h}"),
        ));
    }
    Ok(())
}

/// Decodes the image into `out` (cleared first), expanded to RGBA8: the
/// decoder writes its 1-, 2-, 3- or 4-channel rows straight into the front
/// of `out`, sized for RGBA, and they are spread to four channels in place,
/// from the last pixel back, so no second image-sized buffer is made.
/// `row_cap` bounds the decoder's own buffers.
pub(super) fn decode_into(
    bytes: &[u8],
    row_cap: usize,
    out: &mut Vec<u8>,
) -> Result<(u32, u32), TextureError> {
    let mut reader = reader(bytes, row_cap, true)?;
    let (color, depth) = reader.output_color_type();
    let channels = match color {
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
    let header = reader.info();
    let (w, h) = (header.width as usize, header.height as usize);
    let (fw, fh) = header
        .frame_control()
        .map_or((header.width, header.height), |f| (f.width, f.height));
    whole_frame(fw, fh, header)?;
    let size = reader.output_buffer_size().ok_or_else(|| {
        TextureError::new(
            codes::TOO_LARGE,
            8,
            "the PNG image overflows this machine's memory",
        )
    })?;
    let rgba_len = w * h * 4;
    if depth != BitDepth::Eight || size != w * h * channels || size > rgba_len {
        return Err(TextureError::new(
            codes::TRUNCATED,
            8,
            format!("the PNG rows do not expand to 8-bit channels ({size} bytes for {w} × {h})"),
        ));
    }
    out.clear();
    out.resize(rgba_len, 0);
    reader
        .next_frame(&mut out[..size])
        .map_err(corrupt(bytes))?;
    // Spread in place, last pixel first: pixel i moves from i × channels to
    // i × 4, never over a pixel not yet moved.
    if channels < 4 {
        for i in (0..w * h).rev() {
            let s = i * channels;
            let p = match channels {
                1 => [out[s], out[s], out[s], 255],
                2 => [out[s], out[s], out[s], out[s + 1]],
                _ => [out[s], out[s + 1], out[s + 2], 255],
            };
            out[i * 4..i * 4 + 4].copy_from_slice(&p);
        }
    }
    Ok((w as u32, h as u32))
}
