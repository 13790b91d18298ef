//! Temporary files of atomic writes (issue 18, item 5): what a killed write
//! leaves is never taken for an input, `--in-place` writes through symbolic
//! links, and errors name the user's path, never the temporary one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn agkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
}

fn run(args: &[&std::ffi::OsStr]) -> Output {
    agkit().args(args).output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn example(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(rel)
}

/// `agkit check DIR` and `agkit fmt --check DIR`.
fn check_and_fmt_check(dir: &Path) -> (Output, Output) {
    let d = dir.as_os_str();
    (
        run(&["check".as_ref(), d]),
        run(&["fmt".as_ref(), "--check".as_ref(), d]),
    )
}

/// The names in `dir` that are agkit temporary files.
fn temps_in(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| agkit::fsutil::is_temp_name(p.file_name().unwrap()))
        .collect()
}

#[test]
fn leftovers_of_killed_writes_are_not_inputs_to_check_or_fmt() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(example("block/city_block.agb"), d.join("city_block.agb")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    std::fs::copy(example("point/plaza.agp"), d.join("sub/plaza.agp")).unwrap();
    let (check, fmt) = check_and_fmt_check(d);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    assert_eq!(fmt.status.code(), Some(0), "{}", text(&fmt));

    // What `dsf build`, `agn build` and `fmt --in-place` leave when killed
    // half-way: the start of a DSF and the start of an autogen file.
    let half_dsf = b"XPLNEDSF\x01\x00\x00\x00HEAD\xff\xff".to_vec();
    let half_agb = b"A\n1000\nAG_BLOCK\nTEXTURE_SCALE 2048\nTILE 0 0".to_vec();
    std::fs::write(d.join(".agkit-tmp-Ab12Cd"), &half_dsf).unwrap();
    std::fs::write(d.join("sub/.agkit-tmp-Ef34Gh"), &half_agb).unwrap();
    let (check, fmt) = check_and_fmt_check(d);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    assert_eq!(fmt.status.code(), Some(0), "{}", text(&fmt));
    assert!(!text(&check).contains("agkit-tmp") && !text(&fmt).contains("agkit-tmp"));

    // The same bytes under any other name are found, and fail: the skip is
    // what keeps them out.
    std::fs::write(d.join("leftover"), &half_dsf).unwrap();
    std::fs::write(d.join("sub/leftover"), &half_agb).unwrap();
    let (check, fmt) = check_and_fmt_check(d);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    assert_eq!(fmt.status.code(), Some(1), "{}", text(&fmt));
}

/// An AGP of ~9 MB that is valid but not in canonical form (double spaces),
/// so `fmt --in-place` rewrites it.
fn big_uncanonical_agp() -> String {
    let src = std::fs::read_to_string(example("point/plaza.agp")).unwrap();
    let at = src.find("\nOBJ_DRAPED").unwrap() + 1;
    let mut out = String::with_capacity(10 << 20);
    out.push_str(&src[..at]);
    for _ in 0..300_000 {
        out.push_str("OBJ_DRAPED  120   360 90 1 2 5\n");
    }
    out.push_str(&src[at..]);
    out
}

#[cfg(unix)]
#[test]
fn fmt_in_place_killed_mid_write_leaves_nothing_check_trips_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let target = d.join("big.agp");
    let old = big_uncanonical_agp();
    // Kill `fmt --in-place` once its temporary file exists; the window is
    // the write and sync of ~8 MB, so try a few times.
    let mut caught = None;
    for _ in 0..10 {
        std::fs::write(&target, &old).unwrap();
        let mut child = agkit()
            .args(["fmt", "--in-place"])
            .arg(&target)
            .spawn()
            .unwrap();
        loop {
            let temps = temps_in(d);
            if !temps.is_empty() {
                child.kill().unwrap(); // SIGKILL: no destructor runs
                child.wait().unwrap();
                caught = Some(temps);
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        if caught.is_some() {
            break;
        }
    }
    let temps = caught.expect("fmt --in-place was never caught mid-write");
    // The target is whole: the old text or the new, never a mix.
    let now = std::fs::read_to_string(&target).unwrap();
    assert!(
        now == old || !now.contains("  "),
        "the target is half-written"
    );
    // The leftover stays (nothing runs after SIGKILL), but no command reads it.
    assert!(temps.iter().all(|t| t.exists()), "{temps:?}");
    let (check, fmt) = check_and_fmt_check(d);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    assert!(!text(&check).contains("agkit-tmp"), "{}", text(&check));
    let listed = String::from_utf8_lossy(&fmt.stdout).into_owned();
    assert!(
        listed.lines().all(|l| l.contains("big.agp")),
        "fmt --check read the leftover: {listed}"
    );
}

#[cfg(unix)]
#[test]
fn fmt_in_place_on_a_symbolic_link_rewrites_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("real")).unwrap();
    let canonical = std::fs::read_to_string(example("point/plaza.agp")).unwrap();
    let messy = canonical.replacen("OBJ_DRAPED ", "OBJ_DRAPED   ", 1);
    assert_ne!(messy, canonical);
    std::fs::write(d.join("real/plaza.agp"), &messy).unwrap();
    std::os::unix::fs::symlink("real/plaza.agp", d.join("link.agp")).unwrap();
    let out = run(&[
        "fmt".as_ref(),
        "--in-place".as_ref(),
        d.join("link.agp").as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let link = std::fs::symlink_metadata(d.join("link.agp")).unwrap();
    assert!(
        link.file_type().is_symlink(),
        "the link was replaced by a file"
    );
    let fixed = std::fs::read_to_string(d.join("real/plaza.agp")).unwrap();
    assert!(
        !fixed.contains("OBJ_DRAPED   "),
        "the target was not rewritten"
    );
    assert!(temps_in(d).is_empty() && temps_in(&d.join("real")).is_empty());
}

#[test]
fn an_output_that_cannot_be_written_is_named_not_the_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("blocker"), b"").unwrap();
    let mut outputs = vec![dir.path().join("blocker/x.png")];
    if cfg!(target_os = "linux") {
        outputs.push(PathBuf::from("/proc/x.png")); // issue 19
    }
    for o in outputs {
        let out = agkit()
            .arg("place")
            .arg(example("point/plaza.agp"))
            .args(["--at", "47.5,13", "-o"])
            .arg(&o)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        let named = o.display().to_string();
        assert!(err.contains(&named), "{err}");
        // (The test's own folder may be called `.tmpXXXX`, and the message
        // names the file in the way.)
        let rest = err
            .replace(&named, "")
            .replace(&dir.path().display().to_string(), "");
        assert!(
            !rest.contains("agkit-tmp") && !rest.contains(".tmp"),
            "{err}"
        );
    }
}
