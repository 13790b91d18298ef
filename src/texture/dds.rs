//! DDS: the header through `ddsfile`, DXT blocks through `texpresso`,
//! uncompressed pixels by their channel masks.

use super::{Container, Image, Info, TextureError, codes};
use ddsfile::{FourCC, Header, PixelFormatFlags};

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

pub(super) fn decode(bytes: &[u8]) -> Result<Image, TextureError> {
    let (info, pixels) = probe(bytes)?;
    let data_at = if bytes.get(84..88) == Some(&FourCC::DX10.to_le_bytes()) {
        DX10_DATA_AT
    } else {
        DATA_AT
    };
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
    let mut rgba = vec![0u8; pixel_count.checked_mul(4).ok_or_else(too_large)?];
    match pixels {
        Pixels::Blocks(f) => f.decompress(&data[..needed], w, h, &mut rgba),
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
    Ok(Image {
        width: info.width,
        height: info.height,
        rgba,
    })
}
