//! Texture bombs, generated here: PNGs of a few kilobytes declaring
//! hundreds of millions of pixels, DDS headers promising more than their
//! file holds. `check` reads them without decoding an image, `decode`
//! keeps one image-sized buffer, the process-wide budget of decoded pixels
//! holds parallel decoders under 1 GiB together, and `agkit check` of a
//! folder of bombs stays far under it whatever the number of threads
//! (issue 31).

mod heap_support;

use agkit::limits::{Limits, decoded};
use agkit::texture;
use std::path::Path;
use std::sync::OnceLock;

/// A PNG of `w × h` zero pixels of `color` and `depth`, written row by
/// row (the encoder never holds the image).
fn png_of_zeros(w: u32, h: u32, color: png::ColorType, depth: png::BitDepth) -> Vec<u8> {
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
fn rgba_bomb() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| png_of_zeros(16384, 16384, png::ColorType::Rgba, png::BitDepth::Eight))
}

/// A DDS header of a `w × h` DXT1 texture declaring `mips` mipmaps
/// (`caps2` as given), followed by `data` bytes.
fn dxt1(w: u32, h: u32, mips: u32, caps2: u32, data: usize) -> Vec<u8> {
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

/// Runs `agkit` with `args` (and `RAYON_NUM_THREADS=threads`), returning
/// its exit code and peak resident memory in bytes (its own `wait4`
/// rusage, so no other child of this test binary counts).
#[cfg(target_os = "linux")]
// The child is reaped by `wait4` below (for its rusage), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn peak_rss(args: &[&std::ffi::OsStr], threads: usize) -> (i32, u64) {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value to be filled in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet waited for; the pointers are to
    // live locals.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (code, usage.ru_maxrss as u64 * 1024)
}

#[cfg(target_os = "linux")]
#[test]
fn check_of_a_folder_of_bombs_stays_small_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..4 {
        std::fs::write(dir.path().join(format!("bomb{i}.png")), rgba_bomb()).unwrap();
    }
    let one_bit = png_of_zeros(16384, 16384, png::ColorType::Grayscale, png::BitDepth::One);
    std::fs::write(dir.path().join("one_bit.png"), one_bit).unwrap();
    std::fs::write(dir.path().join("lie.dds"), dxt1(16, 16, 20, 0, 128)).unwrap();
    let arg = |p: &Path| p.as_os_str().to_owned();
    let dir_arg = arg(dir.path());
    for threads in [1, 8] {
        let (code, rss) = peak_rss(&["check".as_ref(), dir_arg.as_os_str()], threads);
        // The DDS lie is an error; the PNG bombs are well-formed.
        assert_eq!(code, 1, "threads {threads}");
        // Before issue 31 three such bombs took 4.2 GB on 2 cores.
        assert!(rss < 1_200_000_000, "{threads} threads: {rss} bytes");
        assert!(
            rss < 200_000_000,
            "{threads} threads: {rss} bytes, no image decoded"
        );
    }
}
