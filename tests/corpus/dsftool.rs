//! Every real DSF tile through agkit in DSFTool's place (`agkit dsftool
//! --dsf2text`, `--text2dsf`, `--dsf2text` again), against what Laminar's
//! DSFTool did with the same tiles: `tests/fixtures/dsftool/corpus.tsv`
//! records the MD5 of its text of each tile and whether that text survives
//! its own build unchanged (CI has no DSFTool to ask).

use super::support;
use md5::{Digest, Md5};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// One row of the fixture.
#[derive(Debug)]
struct Recorded {
    md5: String,
    result_code: u32,
    round_trips: bool,
}

/// The fixture's rows by tile (its path in the corpus).
fn recorded() -> BTreeMap<String, Recorded> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dsftool/corpus.tsv");
    let text = std::fs::read_to_string(&p).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 6, "{}: {l}", p.display());
            (
                f[0].to_string(),
                Recorded {
                    md5: f[1].to_string(),
                    result_code: f[3].parse().unwrap(),
                    round_trips: f[5] == "yes",
                },
            )
        })
        .collect()
}

/// Every `*.dsf` (any case) below the corpus, relative to it, sorted.
fn tiles(root: &Path) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_type().is_file()
                && e.path()
                    .extension()
                    .is_some_and(|x| x.eq_ignore_ascii_case("dsf"))
        })
        .map(|e| {
            e.path()
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    out.sort();
    out
}

fn dsftool(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
        .current_dir(dir)
        .arg("dsftool")
        .args(args)
        .output()
        .unwrap()
}

fn said(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn hex_md5(bytes: &[u8]) -> String {
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The text without its `# file:` line.
fn without_file_line(t: &str) -> String {
    t.lines()
        .filter(|l| !l.starts_with("# file: "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How many lines of the text start with each keyword (its shape, which a
/// rebuild keeps while its coordinates move by a quantum). `FILTER` lines
/// are left out: the builder groups entities by filter, so a tile that
/// switches filters back and forth comes back with fewer of them.
fn shape(t: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for l in t
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("FILTER"))
    {
        let k = l.split_whitespace().next().unwrap_or("").to_string();
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

#[test]
fn every_corpus_tile_reads_builds_and_reads_again_as_dsftool_does() {
    let root = support::root();
    let rec = recorded();
    let found = tiles(&root);
    assert!(found.len() >= 20, "only {} DSF tiles found", found.len());
    let tmp = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&root, tmp.path().join("corpus")).unwrap();
    let dir = tmp.path();
    let (mut same, mut compared, mut round_trips) = (0, 0, 0);
    let mut problems = Vec::new();
    for rel in &found {
        for f in ["out.txt", "rt.dsf", "rt.txt"] {
            let _ = std::fs::remove_file(dir.join(f));
        }
        let input = format!("corpus/{rel}");
        let first = dsftool(dir, &["--dsf2text", &input, "out.txt"]);
        let r = rec.get(rel.as_str());
        if r.is_some_and(|r| r.result_code != 0) {
            // DSFTool wrote part of the text and exited 0; agkit refuses.
            if first.status.code() != Some(1) || dir.join("out.txt").exists() {
                problems.push(format!(
                    "{rel}: DSFTool could not read it; agkit should fail with status 1 \
                     and no text, got {:?}: {}",
                    first.status,
                    said(&first)
                ));
            }
            continue;
        }
        if !first.status.success() {
            problems.push(format!("{rel}: --dsf2text failed: {}", said(&first)));
            continue;
        }
        let text = std::fs::read(dir.join("out.txt")).unwrap();
        if let Some(r) = r {
            compared += 1;
            if hex_md5(&text) == r.md5 {
                same += 1;
            } else {
                problems.push(format!(
                    "{rel}: agkit's text (MD5 {}) is not DSFTool's (MD5 {})",
                    hex_md5(&text),
                    r.md5
                ));
            }
        }
        let built = dsftool(dir, &["--text2dsf", "out.txt", "rt.dsf"]);
        if !built.status.success() {
            problems.push(format!("{rel}: --text2dsf failed: {}", said(&built)));
            continue;
        }
        let again = dsftool(dir, &["--dsf2text", "rt.dsf", "rt.txt"]);
        if !again.status.success() {
            problems.push(format!(
                "{rel}: --dsf2text of the rebuild failed: {}",
                said(&again)
            ));
            continue;
        }
        let text = String::from_utf8(text).unwrap();
        let back = std::fs::read_to_string(dir.join("rt.txt")).unwrap();
        if shape(&back) != shape(&text) {
            problems.push(format!("{rel}: the rebuild's text lost or gained lines"));
        }
        if r.is_some_and(|r| r.round_trips) {
            // Where DSFTool's text survives DSFTool's build, it survives
            // agkit's.
            round_trips += 1;
            if without_file_line(&back) != without_file_line(&text) {
                problems.push(format!(
                    "{rel}: DSFTool's text survives its build unchanged; agkit's does not"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(compared >= 20 && same == compared, "{same} of {compared}");
    assert!(round_trips >= 3, "{round_trips} round-tripping tiles");
    // Every recorded tile is still in the corpus (a renamed tile would
    // silently drop out of the comparison).
    let missing: Vec<&String> = rec.keys().filter(|k| !found.contains(k)).collect();
    assert!(missing.is_empty(), "recorded but not found: {missing:?}");
}

/// A real tile twice in one text (as DSFTool merges a base mesh and an
/// overlay of one tile): one header, one part and one `# Result code: 0`
/// per input, the second part the tile's own text with its definitions
/// numbered on past the first's; the text builds.
#[test]
fn a_corpus_tile_merges_with_itself_into_one_text_that_builds() {
    let root = support::root();
    let tmp = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&root, tmp.path().join("corpus")).unwrap();
    let a = "corpus/Brick85__x-plane_airport_degumnieki/Earth nav data/+50+020/+56+026.dsf";
    let dir = tmp.path();
    let merged = dsftool(dir, &["--dsf2text", a, a, "m.txt"]);
    assert!(merged.status.success(), "{}", said(&merged));
    let text = std::fs::read_to_string(dir.join("m.txt")).unwrap();
    assert_eq!(text.matches("# Result code: 0\n").count(), 2);
    let single = dsftool(dir, &["--dsf2text", a, "-"]);
    assert!(single.status.success(), "{}", said(&single));
    let single = String::from_utf8(single.stdout).unwrap();
    let count = |t: &str, k: &str| t.lines().filter(|l| l.starts_with(k)).count();
    for k in ["OBJECT_DEF ", "POLYGON_DEF ", "OBJECT ", "BEGIN_POLYGON "] {
        assert!(count(&single, k) > 0, "{k}");
        assert_eq!(count(&text, k), 2 * count(&single, k), "{k}");
    }
    let objs = count(&single, "OBJECT_DEF ") as u64;
    let pols = count(&single, "POLYGON_DEF ") as u64;
    let moved = |l: &str| -> String {
        let mut w: Vec<String> = l.split(' ').map(str::to_string).collect();
        let by = match w[0].as_str() {
            "OBJECT" | "OBJECT_MSL" | "OBJECT_AGL" => objs,
            "BEGIN_POLYGON" => pols,
            _ => 0,
        };
        if by > 0 {
            w[1] = (w[1].parse::<u64>().unwrap() + by).to_string();
        }
        w.join(" ")
    };
    let file_line = format!("# file: {a}\n");
    let parts: Vec<&str> = text.split(&file_line).collect();
    assert_eq!(parts.len(), 3);
    let body = single.split(&file_line).nth(1).unwrap();
    assert_eq!(parts[1], body, "the first part is the tile's own text");
    let expect: Vec<String> = body.lines().map(moved).collect();
    assert_eq!(parts[2].lines().collect::<Vec<_>>(), expect);
    let built = dsftool(dir, &["--text2dsf", "m.txt", "m.dsf"]);
    assert!(built.status.success(), "{}", said(&built));
}
