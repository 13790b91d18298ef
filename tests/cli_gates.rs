//! The two gates of the command line, over every subcommand:
//!
//! - the input gate: a device or a named pipe given where a command reads a
//!   file is refused by name, at once (before this gate `check /dev/zero`
//!   read until the machine ran out of memory, and `agn dump` of a FIFO
//!   waited for ever);
//! - the output gate: an `-o` (or a path derived from it) that is one of
//!   the command's inputs — by path, through a symbolic or a hard link, as
//!   `./x` for `x`, or a file read along the way such as a resolved asset —
//!   is refused with status 2 and the input is left as it was (before it,
//!   `place A.agb … -o A.agb`, `agn dump X.agn -o X.agn` and `agn build
//!   X.json -o X.json` replaced their input).
//!
//! `every_subcommand_is_in_a_gate_table` keeps the tables complete.

#![cfg(unix)]

mod cli_support;

use cli_support::{copy_dir, mkfifo};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const BIN: &str = env!("CARGO_BIN_EXE_agkit");

const AGB: &str = "examples/block/city_block.agb";
const AGP: &str = "examples/point/plaza.agp";
const AGN: &str = "examples/agn/001332223121112an.agn";
const DSF: &str = "examples/dsf/autogen_demo.dsf";
const DSF_TEXT: &str = "examples/dsf/autogen_demo.txt";
const BLOCK: &str = "examples/polygons/rectangle.geojson";
const FEATURES: &str = "examples/gis/FEATURES.geojson";
const RULES: &str = "examples/gis/RULES.toml";
const XPLANE: &str = "tests/fixtures/xplane";

/// The path of a repository file.
fn repo(p: &str) -> PathBuf {
    Path::new(ROOT).join(p)
}

/// Runs agkit in `dir` with `args`, killing it after `secs` (a run that
/// needs longer is a hang: the test fails).
fn run_in(dir: &Path, args: &[String], secs: u64) -> std::process::Output {
    let mut child = std::process::Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{args:?} still ran after {secs} s: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The words of `template` (`~` stands for a space inside a word), with
/// `{tmp}` → the scratch folder and `{root}` → the repository.
fn expand(template: &str, tmp: &Path) -> Vec<String> {
    template
        .split_whitespace()
        .map(|a| {
            let a = a.replace('~', " ");
            a.replace("{tmp}", &tmp.display().to_string())
                .replace("{root}", ROOT)
        })
        .collect()
}

/// Every place a command reads a file: the arguments with `{in}` for the
/// file, and the name the file gets (some commands go by the name).
const READERS: &[(&str, &str)] = &[
    ("check {in}", "x.agp"),
    ("fmt {in}", "x.agp"),
    ("fmt --check {in}", "x.ags"),
    ("info {in}", "x.agb"),
    ("place {in} --at 47.5,13", "x.agp"),
    (
        "place {root}/examples/block/city_block.agb --polygon {in}",
        "x.geojson",
    ),
    ("place --dsf {in} --scenery {root}/examples", "x.dsf"),
    ("serve {in} --port 0", "x.agp"),
    ("agn dump {in}", "001332223121112an.agn"),
    ("agn build {in} -o {tmp}/out.agn", "x.json"),
    ("dsf totext {in}", "x.dsf"),
    ("dsf build {in} -o {tmp}/out.dsf", "x.txt"),
    ("dsf autogen {in}", "x.dsf"),
    ("dsftool --dsf2text {in} {tmp}/out.txt", "x.dsf"),
    ("dsftool --text2dsf {in} {tmp}/out.dsf", "x.txt"),
    (
        "overlay build {in} --rules {root}/examples/gis/RULES.toml -o {tmp}/o",
        "x.geojson",
    ),
    (
        "overlay build {root}/examples/gis/FEATURES.geojson --rules {in} -o {tmp}/o",
        "x.toml",
    ),
    ("convert agn {in} -o {tmp}/c", "001332223121112an.agn"),
    (
        "convert agn {root}/examples/agn --map {in} -o {tmp}/c",
        "x.toml",
    ),
    ("dsf extract-overlay {in} -o {tmp}/o.dsf", "x.dsf"),
    ("dsf rasters {in} --drop spr1 -o {tmp}/o.dsf", "x.dsf"),
    (
        "dsf rasters {root}/examples/dsf/autogen_demo.dsf --from {in} -o {tmp}/o.dsf",
        "x.dsf",
    ),
    ("dsf filter {in} --drop object -o {tmp}/o.dsf", "x.dsf"),
    (
        "dsf filter {root}/examples/dsf/autogen_demo.dsf --polygon {in} -o {tmp}/o.dsf",
        "x.geojson",
    ),
    ("dsf merge {in} -o {tmp}/o.dsf", "x.dsf"),
    ("dsf props {in} --set a=b -o {tmp}/o.dsf", "x.dsf"),
    ("apt export {in}", "apt.dat"),
];

/// Commands that read no file of their own: what they read is an
/// installation (tested below with a pipe inside it) or nothing at all.
const NO_FILE: &[&str] = &[
    "agn name",
    "agn locate",
    // An airport ID looked up in an installation or a package folder.
    "apt find",
    "gen",
    "scenery at",
    "scenery check",
    "scenery conflicts",
    "scenery resolve",
];

#[test]
fn every_reader_refuses_a_device_or_a_pipe_by_name_at_once() {
    for (template, name) in READERS {
        for (what, make) in [("a character device", 0), ("a named pipe (FIFO)", 1)] {
            let tmp = tempfile::tempdir().unwrap();
            let input = tmp.path().join(name);
            if make == 0 {
                std::os::unix::fs::symlink("/dev/zero", &input).unwrap();
            } else {
                mkfifo(&input);
            }
            let mut args = expand(template, tmp.path());
            for a in &mut args {
                *a = a.replace("{in}", &input.display().to_string());
            }
            let out = run_in(Path::new(ROOT), &args, 20);
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
            assert!(
                said.contains(&format!("{what}, not a regular file")) && said.contains(*name),
                "{args:?} should name {name} as {what}:\n{said}"
            );
        }
    }
}

/// A copy of the fixture installation in `dir`, with `file` (below
/// `Custom Scenery`) replaced by a named pipe.
fn installation_with_a_pipe(dir: &Path, file: &str) -> PathBuf {
    let to = dir.join("xplane");
    copy_dir(&repo(XPLANE), &to);
    let pipe = to.join("Custom Scenery").join(file);
    std::fs::remove_file(&pipe).unwrap();
    mkfifo(&pipe);
    to
}

#[test]
fn a_pipe_inside_an_installation_is_named_not_waited_on() {
    for file in ["scenery_packs.ini", "Library/library.txt"] {
        let tmp = tempfile::tempdir().unwrap();
        let xp = installation_with_a_pipe(tmp.path(), file);
        let xp = xp.display().to_string();
        for args in [
            vec!["scenery", "check", "--xplane", &xp],
            vec!["scenery", "at", "47.5,13.5", "--xplane", &xp],
            vec![
                "scenery",
                "resolve",
                "lib/fixture/tower.obj",
                "--tile",
                "47.5,13.5",
                "--xplane",
                &xp,
            ],
        ] {
            let args: Vec<String> = args.into_iter().map(String::from).collect();
            let out = run_in(Path::new(ROOT), &args, 20);
            let said = String::from_utf8_lossy(&out.stderr).to_string()
                + &String::from_utf8_lossy(&out.stdout);
            assert!(said.contains("named pipe"), "{args:?}: {said}");
        }
    }
}

/// Every command that writes: a case per way an output can be an input.
/// `{tmp}` holds copies of the examples (`a.agb`, `t.dsf`, `t.txt`,
/// `c.json`, the AGN, `scenery/` and `xplane/`), and links to them; the
/// file named last must be left exactly as it was.
const OVERWRITES: &[(&str, &str)] = &[
    (
        "place a.agb --polygon {root}/examples/polygons/rectangle.geojson -o a.agb --format json",
        "a.agb",
    ),
    (
        "place a.agb --polygon {root}/examples/polygons/rectangle.geojson -o ./a.agb --format svg",
        "a.agb",
    ),
    (
        "place a.agb --polygon {root}/examples/polygons/rectangle.geojson -o hard.agb --format json",
        "a.agb",
    ),
    (
        "place a.agb --polygon {root}/examples/polygons/rectangle.geojson -o sym.agb --format json",
        "a.agb",
    ),
    (
        "place {root}/examples/block/city_block.agb --polygon p.geojson -o p.geojson",
        "p.geojson",
    ),
    (
        "place --dsf t.dsf --scenery scenery -o t.dsf --format json",
        "t.dsf",
    ),
    (
        "place --dsf tiles --scenery scenery -o tiles/t.dsf --format geojson",
        "tiles/t.dsf",
    ),
    (
        "place --dsf t.dsf --scenery scenery -o scenery/block/city_block.agb --format json",
        "scenery/block/city_block.agb",
    ),
    (
        "scenery at 47.5,13.5 --xplane xplane -o xplane/Custom~Scenery/scenery_packs.ini --format text",
        "xplane/Custom Scenery/scenery_packs.ini",
    ),
    (
        "agn dump 001332223121112an.agn -o 001332223121112an.agn",
        "001332223121112an.agn",
    ),
    (
        "agn dump 001332223121112an.agn --format json -o ./001332223121112an.agn",
        "001332223121112an.agn",
    ),
    (
        "agn dump agn --format geojson -o agn/001332223121112an.agn",
        "agn/001332223121112an.agn",
    ),
    ("agn build c.json -o c.json", "c.json"),
    ("dsf totext t.dsf -o t.dsf", "t.dsf"),
    ("dsf totext t.dsf t.dsf.txt -o .", "t.dsf.txt"),
    ("dsf build t.txt -o t.txt", "t.txt"),
    ("dsf build t.txt -o sym.txt", "t.txt"),
    ("dsftool --dsf2text t.dsf t.dsf", "t.dsf"),
    ("dsftool -dsf2text tiles/t.dsf t.dsf ./t.dsf", "t.dsf"),
    ("dsftool --text2dsf t.txt sym.txt", "t.txt"),
    ("overlay build f.geojson --rules r.toml -o r.toml", "r.toml"),
    (
        "convert agn 001332223121112an.agn -o 001332223121112an.agn",
        "001332223121112an.agn",
    ),
    ("gen -o a.agb", "a.agb"),
    ("dsf extract-overlay t.dsf -o t.dsf", "t.dsf"),
    ("dsf rasters t.dsf --drop spr1 -o ./t.dsf", "t.dsf"),
    ("dsf filter t.dsf --drop object -o t.dsf", "t.dsf"),
    ("dsf merge t.dsf tiles/t.dsf -o tiles/t.dsf", "tiles/t.dsf"),
    ("dsf props t.dsf --set a=b -o t.dsf", "t.dsf"),
    ("apt export apt.dat -o apt.dat", "apt.dat"),
    (
        "scenery conflicts --xplane xplane --fix xplane/Custom~Scenery/Airport",
        "xplane/Custom Scenery/Airport/Earth nav data/+40+010/+47+013.dsf",
    ),
];

/// The scratch folder the [`OVERWRITES`] cases run in.
fn scratch() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let copy = |from: &str, to: &str| {
        let to = t.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(repo(from), to).unwrap();
    };
    copy(AGB, "a.agb");
    std::fs::hard_link(t.join("a.agb"), t.join("hard.agb")).unwrap();
    std::os::unix::fs::symlink("a.agb", t.join("sym.agb")).unwrap();
    copy(BLOCK, "p.geojson");
    copy(DSF, "t.dsf");
    copy(DSF, "t.dsf.txt");
    copy(DSF, "tiles/t.dsf");
    copy(DSF_TEXT, "t.txt");
    std::os::unix::fs::symlink("t.txt", t.join("sym.txt")).unwrap();
    copy(AGN, "001332223121112an.agn");
    copy(AGN, "agn/001332223121112an.agn");
    copy(FEATURES, "f.geojson");
    copy(RULES, "r.toml");
    copy("tests/fixtures/apt/small.dat", "apt.dat");
    copy_dir(&repo("examples"), &t.join("scenery"));
    copy_dir(&repo(XPLANE), &t.join("xplane"));
    let json = run_in(
        t,
        &expand("agn dump 001332223121112an.agn --format json -o c.json", t),
        20,
    );
    assert!(json.status.success());
    tmp
}

#[test]
fn no_command_replaces_its_input() {
    let _ = AGP;
    for (template, kept) in OVERWRITES {
        let tmp = scratch();
        let file = tmp.path().join(kept);
        let before = std::fs::read(&file).unwrap();
        let args = expand(template, tmp.path());
        let out = run_in(tmp.path(), &args, 60);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("name another output") || stderr.contains("name a folder"),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            std::fs::read(&file).unwrap(),
            before,
            "{args:?} changed {kept}"
        );
        // No temporary file is left beside it.
        let left: Vec<_> = std::fs::read_dir(file.parent().unwrap())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with(".agkit-tmp-"))
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
}

/// `fmt --in-place` is the one command that rewrites its input, on
/// purpose.
#[test]
fn fmt_in_place_still_rewrites_its_input() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("a.agp");
    let text = std::fs::read_to_string(repo(AGP)).unwrap();
    std::fs::write(&f, text.replace('\n', "\r\n")).unwrap();
    let out = run_in(
        tmp.path(),
        &["fmt".into(), "--in-place".into(), "a.agp".into()],
        20,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&f).unwrap(), text);
}

#[test]
fn every_subcommand_is_in_a_gate_table() {
    let starts = |template: &str, words: &[String]| {
        let t: Vec<&str> = template.split_whitespace().collect();
        t.len() >= words.len() && words.iter().zip(&t).all(|(w, t)| w == t)
    };
    for words in cli_support::subcommands() {
        let reads = READERS.iter().any(|(t, _)| starts(t, &words))
            || NO_FILE.iter().any(|t| starts(t, &words));
        assert!(reads, "{words:?} is in neither READERS nor NO_FILE");
        // Every command with an -o is in OVERWRITES.
        let words_ref: Vec<&str> = words.iter().map(String::as_str).collect();
        if cli_support::help_of(&words_ref).contains("--output") {
            assert!(
                OVERWRITES.iter().any(|(t, _)| starts(t, &words)),
                "{words:?} writes an -o but has no case in OVERWRITES"
            );
        }
    }
}
