//! Texture bombs made here, for `texture_bombs.rs` and
//! `texture_bombs_rss.rs`: PNGs of a few kilobytes declaring hundreds of
//! millions of pixels, and DDS headers promising more than their file holds.
#![allow(dead_code)]

use std::sync::OnceLock;

/// A PNG of `w × h` zero pixels of `color` and `depth`, written row by
/// row (the encoder never holds the image).
pub fn png_of_zeros(w: u32, h: u32, color: png::ColorType, depth: png::BitDepth) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(color);
    enc.set_depth(depth);
    enc.set_compression(png::Compression::Fast);
    let mut writer = enc.write_header().unwrap();
    let bits = color.samples() * depth as usize;
    let row = vec![0u8; (w as usize * bits).div_ceil(8)];
    {
        let mut stream = writer.stream_writer().unwrap();
        for _ in 0..h {
            std::io::Write::write_all(&mut stream, &row).unwrap();
        }
        stream.finish().unwrap();
    }
    drop(writer);
    out
}

/// 16384² RGBA8 (1 GiB decoded), made once.
pub fn rgba_bomb() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| png_of_zeros(16384, 16384, png::ColorType::Rgba, png::BitDepth::Eight))
}

/// A DDS header of a `w × h` DXT1 texture declaring `mips` mipmaps
/// (`caps2` as given), followed by `data` bytes.
pub fn dxt1(w: u32, h: u32, mips: u32, caps2: u32, data: usize) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(b"DDS ");
    let word = |b: &mut Vec<u8>, v: u32| b.extend_from_slice(&v.to_le_bytes());
    word(&mut b, 124);
    // CAPS | HEIGHT | WIDTH | PIXELFORMAT | MIPMAPCOUNT | LINEARSIZE
    word(&mut b, 0x1 | 0x2 | 0x4 | 0x1000 | 0x20000 | 0x80000);
    word(&mut b, h);
    word(&mut b, w);
    word(&mut b, (w.div_ceil(4) * h.div_ceil(4) * 8).max(8));
    word(&mut b, 0);
    word(&mut b, mips);
    for _ in 0..11 {
        word(&mut b, 0);
    }
    // Pixel format: size, FOURCC flag, `DXT1`, then unused masks.
    word(&mut b, 32);
    word(&mut b, 0x4);
    b.extend_from_slice(b"DXT1");
    for _ in 0..5 {
        word(&mut b, 0);
    }
    word(&mut b, 0x1000 | 0x8 | 0x40_0000); // TEXTURE | COMPLEX | MIPMAP
    word(&mut b, caps2);
    for _ in 0..3 {
        word(&mut b, 0);
    }
    assert_eq!(b.len(), 128);
    b.resize(128 + data, 0x55);
    b
}
