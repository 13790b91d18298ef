//! Texture bombs, generated here: PNGs of a few kilobytes declaring
//! hundreds of millions of pixels, DDS headers promising more than their
//! file holds. `check` reads them without decoding an image, `decode`
//! keeps one image-sized buffer, and the process-wide budget of decoded
//! pixels holds parallel decoders under 1 GiB together (issue 31). The
//! `agkit check` of a folder of bombs is measured in its own binary,
//! `texture_bombs_rss.rs`.

mod bomb_support;
mod heap_support;

use bomb_support::{dxt1, png_of_zeros, rgba_bomb};

use agkit::limits::{Limits, decoded};
use agkit::texture;

/// CRC-32 (ISO-HDLC), as PNG chunks carry it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

fn codes(d: &[agkit::diag::Diagnostic]) -> Vec<&str> {
    d.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn check_reads_a_png_bomb_without_decoding_its_image() {
    let bomb = rgba_bomb();
    assert!(bomb.len() < 8 << 20, "{} bytes", bomb.len());
    let ((info, diags), peak) = heap_support::peak_of(|| texture::check(bomb, &Limits::default()));
    assert_eq!(info.map(|i| (i.width, i.height)), Some((16384, 16384)));
    assert!(diags.is_empty(), "{diags:?}");
    // Rows read one at a time: a few rows and the zlib window, never the
    // gigabyte image (before issue 31: 2 GiB, the image decoded twice).
    assert!(peak < 16 << 20, "check took {peak} bytes");
}

#[test]
fn check_still_finds_a_png_cut_short() {
    let mut bomb = png_of_zeros(2048, 2048, png::ColorType::Rgba, png::BitDepth::Eight);
    bomb.truncate(bomb.len() / 2);
    let (_, diags) = texture::check(&bomb, &Limits::default());
    assert_eq!(codes(&diags), ["TEX0005"], "{diags:?}");
}

#[test]
fn decode_keeps_one_image_sized_buffer() {
    // A 1-bit grey PNG: the decoder's rows are expanded to RGBA in the one
    // buffer returned (before issue 31 a grey image was decoded into its
    // own buffer, then copied: 1.3 GB for 16384²).
    let side = 4096u32;
    let one_bit = png_of_zeros(side, side, png::ColorType::Grayscale, png::BitDepth::One);
    let (img, peak) =
        heap_support::peak_of(|| texture::decode(&one_bit, &Limits::default()).unwrap());
    let image = side as usize * side as usize * 4;
    assert_eq!(img.rgba.len(), image);
    assert!(img.rgba.chunks_exact(4).all(|p| p == [0, 0, 0, 255]));
    assert!(
        peak < image + (4 << 20),
        "decode took {peak} bytes for {image}"
    );
    assert_eq!(img.reserved(), image as u64);
    // Grey with alpha, RGB: spread in place the same way.
    for (color, want) in [
        (png::ColorType::GrayscaleAlpha, [0, 0, 0, 0]),
        (png::ColorType::Rgb, [0, 0, 0, 255]),
        (png::ColorType::Rgba, [0, 0, 0, 0]),
    ] {
        let b = png_of_zeros(33, 7, color, png::BitDepth::Eight);
        let img = texture::decode(&b, &Limits::default()).unwrap();
        assert_eq!((img.width, img.height, img.rgba.len()), (33, 7, 33 * 7 * 4));
        assert!(img.rgba.chunks_exact(4).all(|p| p == want), "{color:?}");
    }
}

#[test]
fn past_the_process_budget_is_refused_before_decoding() {
    // Limits that allow 2 GiB for one image: the process-wide budget
    // (1 GiB) still refuses it, before a pixel is allocated.
    let wide = Limits {
        max_unpacked_bytes: 4 << 30,
        max_texture_pixels: u64::MAX,
        ..Limits::default()
    };
    let mut bomb = rgba_bomb().to_vec();
    // IHDR width (bytes 16..20) doubled: 32768 × 16384, its CRC redone.
    bomb[16..20].copy_from_slice(&32768u32.to_be_bytes());
    let crc = crc32(&bomb[12..29]);
    bomb[29..33].copy_from_slice(&crc.to_be_bytes());
    let (r, peak) = heap_support::peak_of(|| texture::decode(&bomb, &wide));
    let e = r.unwrap_err();
    assert_eq!(e.code, "TEX0004", "{e}");
    assert!(e.message.contains("decoded textures held at once"), "{e}");
    assert!(peak < 1 << 20, "{peak}");
}

#[test]
fn parallel_decoders_share_the_budget_and_all_finish() {
    // Three 512 MiB images asked for at once: at most two are held together
    // (the budget is 1 GiB), the third waits, and all three decode.
    let half = png_of_zeros(8192, 16384, png::ColorType::Rgba, png::BitDepth::Eight);
    let cap = decoded().cap();
    let done = std::sync::atomic::AtomicBool::new(false);
    let most = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                most.fetch_max(decoded().in_use(), std::sync::atomic::Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        });
        let workers: Vec<_> = (0..3)
            .map(|_| {
                s.spawn(|| {
                    let img = texture::decode(&half, &Limits::default()).unwrap();
                    assert_eq!(img.reserved(), 512 << 20);
                    // Hold it a moment, as a writer would.
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    img.rgba.len()
                })
            })
            .collect();
        for w in workers {
            assert_eq!(w.join().unwrap(), 512 << 20);
        }
        done.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let most = most.into_inner();
    assert!(most <= cap, "{most} bytes held at once");
}

#[test]
fn a_dds_promising_more_mipmaps_than_its_size_allows_is_refused() {
    // 16 × 16 has at most 5 images (16, 8, 4, 2, 1); 20 is a lie.
    let lie = dxt1(16, 16, 20, 0, 128);
    let (_, diags) = texture::check(&lie, &Limits::default());
    assert_eq!(codes(&diags), ["TEX0008"], "{diags:?}");
    assert!(diags[0].message.contains("20 mipmaps"), "{diags:?}");
    // 4 × 4 declaring 4,294,967,295.
    let huge = dxt1(4, 4, u32::MAX, 0, 8);
    let (_, diags) = texture::check(&huge, &Limits::default());
    assert_eq!(codes(&diags), ["TEX0008"], "{diags:?}");
    assert!(texture::decode(&huge, &Limits::default()).is_err());
}

#[test]
fn a_dds_chain_faces_and_layers_are_counted_against_the_file() {
    let l = Limits::default();
    // 16 × 16 DXT1: 128 + 32 + 8 + 8 + 8 = 184 bytes for 5 mipmaps.
    let (_, d) = texture::check(&dxt1(16, 16, 5, 0, 184), &l);
    assert!(d.is_empty(), "{d:?}");
    let (_, d) = texture::check(&dxt1(16, 16, 5, 0, 128), &l);
    assert_eq!(codes(&d), ["TEX0005"], "{d:?}");
    assert!(d[0].message.contains("184 bytes"), "{d:?}");
    assert!(texture::decode(&dxt1(16, 16, 5, 0, 128), &l).is_err());
    // A cube map of six faces holding one.
    let cube = 0x200 | 0xfc00;
    let (_, d) = texture::check(&dxt1(4, 4, 1, cube, 8), &l);
    assert_eq!(codes(&d), ["TEX0005"], "{d:?}");
    let (_, d) = texture::check(&dxt1(4, 4, 1, cube, 48), &l);
    assert!(d.is_empty(), "{d:?}");
    // A DX10 array of four BC1 images holding one.
    let mut dx10 = dxt1(4, 4, 1, 0, 0);
    dx10[84..88].copy_from_slice(b"DX10");
    for v in [71u32, 3, 0, 4, 0] {
        dx10.extend_from_slice(&v.to_le_bytes());
    }
    dx10.extend_from_slice(&[0; 8]);
    let (_, d) = texture::check(&dx10, &l);
    assert_eq!(codes(&d), ["TEX0005"], "{d:?}");
    dx10.extend_from_slice(&[0; 24]);
    let (_, d) = texture::check(&dx10, &l);
    assert_eq!(codes(&d), ["TEX0003"], "{d:?}");
}

#[test]
fn info_of_a_lying_dds_names_the_problem_not_the_header_count() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("lie.dds");
    std::fs::write(&f, dxt1(16, 16, 20, 0, 128)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .arg("info")
        .arg(&f)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(!out.status.success());
    assert!(!stdout.contains("mipmaps"), "{stdout}");
    assert!(
        stderr.contains("lie.dds") && stderr.contains("TEX0008"),
        "{stderr}"
    );
}
