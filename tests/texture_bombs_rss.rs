//! `agkit check` of a folder of texture bombs stays far under the 1 GiB
//! budget whatever the number of threads (issue 31), measured as the
//! child's peak resident memory.
//!
//! This test has a binary of its own. Linux carries a process's peak
//! resident size across `exec`, and a child spawned from this test starts
//! as a copy of it (`vfork` or `fork`), so the child's `ru_maxrss` is at
//! least this binary's own peak when it spawned. In `texture_bombs.rs`
//! other tests decode images of hundreds of megabytes on parallel threads,
//! and CI once measured 278 MB here for a `check` that itself used 32 MB.
//! Alone, this binary holds only the bombs it writes.

#![cfg(target_os = "linux")]

mod bomb_support;

use bomb_support::{dxt1, png_of_zeros, rgba_bomb};

/// This process's own peak resident size in bytes (`VmHWM`), which a
/// child's `ru_maxrss` cannot be below.
fn own_peak() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

/// Runs `agkit` with `args` (and `RAYON_NUM_THREADS=threads`), returning
/// its exit code and peak resident memory in bytes (its own `wait4`
/// rusage, so no other child of this test binary counts).
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

#[test]
fn check_of_a_folder_of_bombs_stays_small_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..4 {
        std::fs::write(dir.path().join(format!("bomb{i}.png")), rgba_bomb()).unwrap();
    }
    let one_bit = png_of_zeros(16384, 16384, png::ColorType::Grayscale, png::BitDepth::One);
    std::fs::write(dir.path().join("one_bit.png"), one_bit).unwrap();
    std::fs::write(dir.path().join("lie.dds"), dxt1(16, 16, 20, 0, 128)).unwrap();
    let dir_arg = dir.path().as_os_str().to_owned();
    for threads in [1, 8] {
        let before = own_peak();
        let (code, rss) = peak_rss(&["check".as_ref(), dir_arg.as_os_str()], threads);
        // The DDS lie is an error; the PNG bombs are well-formed.
        assert_eq!(code, 1, "threads {threads}");
        // Before issue 31 three such bombs took 4.2 GB on 2 cores.
        assert!(rss < 1_200_000_000, "{threads} threads: {rss} bytes");
        assert!(
            rss < 200_000_000,
            "{threads} threads: {rss} bytes, no image decoded \
             (this test's own peak before the spawn: {before} bytes)"
        );
    }
}
