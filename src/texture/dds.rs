//! DDS: the header through `ddsfile`, DXT blocks through `texpresso`,
//! uncompressed pixels by their channel masks.

use super::{Container, Info, TextureError, codes};
use ddsfile::{Caps2, FourCC, Header, PixelFormatFlags};

/// The first four bytes of a DDS file.
pub(super) const MAGIC: &[u8] = b"DDS ";

/// Where the header starts and where pixel data starts without and with
/// the DX10 extension header.
const HEADER_AT: usize = 4;
const DATA_AT: usize = 128;
const DX10_DATA_AT: usize = 148;

/// How the top image is stored.
#[derive(Debug, Clone, Copy)]
pub(super) enum Pixels {
    /// DXT blocks of 4 × 4 pixels.
    Blocks(texpresso::Format),
    /// Uncompressed: bytes a pixel and the masks of R, G, B, A.
    Masked { bytes: usize, masks: [u32; 4] },
    /// A format agkit does not decode.
    Other,
}

fn fourcc_name(code: u32) -> String {
    let b = code.to_le_bytes();
    if b.iter().all(|c| c.is_ascii_graphic() || *c == b' ') {
        String::from_utf8_lossy(&b).trim_end().to_string()
    } else {
        format!("0x{code:08x}")
    }
}

/// The header's information and how the top image is stored.
pub(super) fn probe(bytes: &[u8]) -> Result<(Info, Pixels), TextureError> {
    let header = Header::read(bytes.get(HEADER_AT..).unwrap_or_default()).map_err(|e| {
        TextureError::new(
            codes::BAD_HEADER,
            HEADER_AT as u64,
            format!("the DDS header (124 bytes after `DDS `) is malformed: {e}"),
        )
    })?;
    let spf = &header.spf;
    let (format, pixels) = if spf.flags.contains(PixelFormatFlags::FOURCC) {
        let code = spf.fourcc.as_ref().map_or(0, |f| f.0);
        let pixels = match code {
            FourCC::DXT1 => Pixels::Blocks(texpresso::Format::Bc1),
            FourCC::DXT3 => Pixels::Blocks(texpresso::Format::Bc2),
            FourCC::DXT5 => Pixels::Blocks(texpresso::Format::Bc3),
            _ => Pixels::Other,
        };
        (fourcc_name(code), pixels)
    } else if spf.flags.contains(PixelFormatFlags::RGB) {
        let bits = spf.rgb_bit_count.unwrap_or(0);
        let masks = [
            spf.r_bit_mask.unwrap_or(0),
            spf.g_bit_mask.unwrap_or(0),
            spf.b_bit_mask.unwrap_or(0),
            spf.a_bit_mask.unwrap_or(0),
        ];
        let name = masked_name(bits, masks);
        let usable = matches!(bits, 24 | 32)
            && masks[..3].iter().all(|m| byte_shift(*m).is_some())
            && (masks[3] == 0 || byte_shift(masks[3]).is_some());
        let pixels = if usable {
            Pixels::Masked {
                bytes: bits as usize / 8,
                masks,
            }
        } else {
            Pixels::Other
        };
        (name, pixels)
    } else if spf.flags.contains(PixelFormatFlags::LUMINANCE) {
        ("luminance".to_string(), Pixels::Other)
    } else {
        ("unknown".to_string(), Pixels::Other)
    };
    let info = Info {
        container: Container::Dds,
        width: header.width,
        height: header.height,
        format,
        mipmaps: header.mip_map_count.unwrap_or(1).max(1),
        decodable: !matches!(pixels, Pixels::Other),
    };
    Ok((info, pixels))
}

/// The shift of a mask covering exactly one whole byte, else `None`.
fn byte_shift(mask: u32) -> Option<u32> {
    let shift = mask.trailing_zeros();
    (shift.is_multiple_of(8) && shift < 32 && mask >> shift == 0xff).then_some(shift)
}

/// A name such as `BGRA8` for the byte order the masks give (lowest byte
/// first), or `RGB 16-bit` when they are not whole bytes.
fn masked_name(bits: u32, masks: [u32; 4]) -> String {
    let mut order: Vec<(u32, char)> = masks
        .iter()
        .zip(['R', 'G', 'B', 'A'])
        .filter(|(m, _)| **m != 0)
        .filter_map(|(m, c)| byte_shift(*m).map(|s| (s, c)))
        .collect();
    if order.len() < 3 || !matches!(bits, 24 | 32) {
        return format!("RGB {bits}-bit");
    }
    order.sort_unstable();
    let mut name: String = order.iter().map(|(_, c)| *c).collect();
    if bits == 32 && order.len() == 3 {
        name.push('X');
    }
    name + "8"
}

/// The most images a mipmap chain of a `w × h` (× `d` deep) texture can
/// hold: down to 1 × 1.
fn max_levels(w: u32, h: u32, d: u32) -> u32 {
    32 - w.max(h).max(d).max(1).leading_zeros()
}

/// Bytes of one `w × h` image stored as `pixels`, `None` for a format
/// agkit does not know the size of.
fn image_bytes(pixels: Pixels, w: u64, h: u64) -> Option<u64> {
    match pixels {
        Pixels::Blocks(f) => {
            let block = match f {
                texpresso::Format::Bc1 | texpresso::Format::Bc4 => 8,
                _ => 16,
            };
            Some(w.div_ceil(4).max(1) * h.div_ceil(4).max(1) * block)
        }
        Pixels::Masked { bytes, .. } => Some(w * h * bytes as u64),
        Pixels::Other => None,
    }
}

/// Where the pixel data starts.
fn data_at(bytes: &[u8]) -> usize {
    if bytes.get(84..88) == Some(&FourCC::DX10.to_le_bytes()) {
        DX10_DATA_AT
    } else {
        DATA_AT
    }
}

/// Checks what the header promises against the file: the mipmap count
/// against what the size allows, and the bytes of every image of the
/// chain, of every cube face and of every array layer (DX10), against the
/// file's length.
pub(super) fn check_layout(bytes: &[u8]) -> Result<(), TextureError> {
    let (info, pixels) = probe(bytes)?;
    let header = Header::read(bytes.get(HEADER_AT..).unwrap_or_default())
        .map_err(|e| TextureError::new(codes::BAD_HEADER, HEADER_AT as u64, e.to_string()))?;
    let volume = header.caps2.contains(Caps2::VOLUME);
    let depth = if volume {
        header.depth.unwrap_or(1).max(1)
    } else {
        1
    };
    let most = max_levels(info.width, info.height, depth);
    if info.mipmaps > most {
        return Err(TextureError::new(
            codes::BAD_LAYOUT,
            28,
            format!(
                "the header declares {} mipmaps but a {} × {} image has at most {most}",
                info.mipmaps, info.width, info.height
            ),
        ));
    }
    let at = data_at(bytes);
    // A DX10 file says cube and array in its own header (below).
    let faces: u64 = if at != DX10_DATA_AT && header.caps2.contains(Caps2::CUBEMAP) {
        let all = [
            Caps2::CUBEMAP_POSITIVEX,
            Caps2::CUBEMAP_NEGATIVEX,
            Caps2::CUBEMAP_POSITIVEY,
            Caps2::CUBEMAP_NEGATIVEY,
            Caps2::CUBEMAP_POSITIVEZ,
            Caps2::CUBEMAP_NEGATIVEZ,
        ];
        all.iter().filter(|f| header.caps2.contains(**f)).count() as u64
    } else {
        1
    };
    let mut layers: u64 = 1;
    let mut pixels = pixels;
    if at == DX10_DATA_AT {
        let word = |o: usize| {
            bytes
                .get(o..o + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let (Some(misc), Some(array)) = (word(136), word(140)) else {
            return Err(TextureError::new(
                codes::BAD_HEADER,
                128,
                "the DX10 header (20 bytes after the DDS header) is cut short",
            ));
        };
        if array == 0 {
            return Err(TextureError::new(
                codes::BAD_LAYOUT,
                140,
                "the DX10 header declares an array of 0 textures",
            ));
        }
        layers = u64::from(array) * if misc & 4 != 0 { 6 } else { 1 };
        // The sizes of the DXGI formats of the same kinds agkit decodes
        // (it does not decode them from a DX10 file, but can count them).
        pixels = match word(128).unwrap_or(0) {
            70..=72 => Pixels::Blocks(texpresso::Format::Bc1),
            73..=75 => Pixels::Blocks(texpresso::Format::Bc2),
            76..=78 => Pixels::Blocks(texpresso::Format::Bc3),
            27..=32 | 87 | 88 | 90..=93 => Pixels::Masked {
                bytes: 4,
                masks: [0xff, 0xff00, 0xff_0000, 0xff00_0000],
            },
            _ => pixels,
        };
    }
    let data = bytes.len().saturating_sub(at) as u64;
    let mut needed: u64 = 0;
    let (mut w, mut h, mut d) = (
        u64::from(info.width),
        u64::from(info.height),
        u64::from(depth),
    );
    for _ in 0..info.mipmaps {
        let Some(one) = image_bytes(pixels, w, h) else {
            // A format whose sizes agkit does not know: only the count is
            // checked.
            return Ok(());
        };
        needed = needed.saturating_add(one.saturating_mul(d));
        (w, h, d) = ((w / 2).max(1), (h / 2).max(1), (d / 2).max(1));
    }
    let needed = needed.saturating_mul(faces).saturating_mul(layers);
    if data < needed {
        let what = match (info.mipmaps, faces * layers) {
            (1, 1) => "the top image".to_string(),
            (m, 1) => format!("a chain of {m} mipmaps"),
            (m, n) => format!(
                "{n} faces or layers of {}",
                crate::ground::words::count(m as usize, "mipmap")
            ),
        };
        return Err(TextureError::new(
            codes::TRUNCATED,
            bytes.len() as u64,
            format!(
                "{what} of {} × {} {} needs {needed} bytes of data but the file has {data}",
                info.width, info.height, info.format
            ),
        ));
    }
    Ok(())
}

/// Decodes the top image into `rgba` (cleared first, then sized for it),
/// after checking that the file holds its data; its width and height.
/// The caller checked the layout ([`check_layout`]).
pub(super) fn decode_into(bytes: &[u8], rgba: &mut Vec<u8>) -> Result<(u32, u32), TextureError> {
    let (info, pixels) = probe(bytes)?;
    let data_at = data_at(bytes);
    let (w, h) = (info.width as usize, info.height as usize);
    let data = bytes.get(data_at..).unwrap_or_default();
    let too_large = || {
        TextureError::new(
            codes::TOO_LARGE,
            0,
            format!("{w} × {h} pixels overflow this machine's memory"),
        )
    };
    let pixel_count = w.checked_mul(h).ok_or_else(too_large)?;
    let needed = match pixels {
        Pixels::Blocks(f) => f.compressed_size(w, h),
        Pixels::Masked { bytes, .. } => pixel_count.checked_mul(bytes).ok_or_else(too_large)?,
        Pixels::Other => {
            return Err(TextureError::new(
                codes::UNSUPPORTED,
                84,
                format!(
                    "DDS pixel format `{}` is not decoded: agkit reads DXT1, DXT3, DXT5 and 24- or 32-bit RGB(A)",
                    info.format
                ),
            ));
        }
    };
    if data.len() < needed {
        return Err(TextureError::new(
            codes::TRUNCATED,
            (data_at + data.len()) as u64,
            format!(
                "the top image of {w} × {h} {} needs {needed} bytes of data but the file has {}",
                info.format,
                data.len()
            ),
        ));
    }
    rgba.clear();
    rgba.resize(pixel_count.checked_mul(4).ok_or_else(too_large)?, 0);
    match pixels {
        Pixels::Blocks(f) => f.decompress(&data[..needed], w, h, rgba),
        Pixels::Masked { bytes, masks } => {
            let shifts = masks.map(|m| byte_shift(m).map(|s| s / 8));
            for (src, dst) in data[..needed]
                .chunks_exact(bytes)
                .zip(rgba.chunks_exact_mut(4))
            {
                for c in 0..4 {
                    dst[c] = match shifts[c] {
                        Some(s) if masks[c] != 0 => src.get(s as usize).copied().unwrap_or(0),
                        _ if c == 3 => 255,
                        _ => 0,
                    };
                }
            }
        }
        Pixels::Other => {}
    }
    Ok((info.width, info.height))
}
