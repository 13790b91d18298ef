//! `agkit dsftool` and the agkit binary started as `DSFTool`: DSFTool's
//! command line, a pipeline written for DSFTool run unchanged, and one test
//! for each difference from DSFTool that docs/dsf.md lists
//! ("agkit in DSFTool's place").

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_agkit");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `agkit dsftool ARGS` run in `dir`.
fn dsftool(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .arg("dsftool")
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        stdout(o),
        stderr(o)
    );
}

/// A link named `name` to the agkit binary, in `dir/bin`.
fn link_as(dir: &Path, name: &str) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let link = bin.join(name);
    std::os::unix::fs::symlink(BIN, &link).unwrap();
    link
}

/// The bundled example overlay, copied into `dir` as `name`.
fn demo_dsf(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::copy(Path::new(ROOT).join("examples/dsf/autogen_demo.dsf"), &p).unwrap();
    p
}

/// A tile with a road network (a plain and a curved segment), a forest
/// and a raster layer, as text.
const NETWORK_TILE: &str = "I
800 written by a test
DSF2TEXT

PROPERTY sim/west 8
PROPERTY sim/east 9
PROPERTY sim/south 47
PROPERTY sim/north 48
PROPERTY sim/overlay 1
POLYGON_DEF lib/forest.for
NETWORK_DEF lib/roads.net
RASTER_DEF soundscape
RASTER_DATA version=0 bpp=1 flags=0 width=2 height=2 scale=1.000000 offset=0.000000 net.soundscape.raw
BEGIN_POLYGON 0 255 2
BEGIN_WINDING
POLYGON_POINT 8.1 47.1
POLYGON_POINT 8.2 47.1
POLYGON_POINT 8.2 47.2
END_WINDING
END_POLYGON
BEGIN_SEGMENT 0 1 1 8.5 47.5 0
END_SEGMENT 2 8.6 47.5 0
BEGIN_SEGMENT_CURVED 0 2 3 8.5 47.6 0 8.55 47.65 0
END_SEGMENT_CURVED 4 8.6 47.6 0 8.65 47.65 0
";

/// `net.dsf` (the tile above) built in `dir`.
fn network_dsf(dir: &Path) -> PathBuf {
    std::fs::write(dir.join("net.txt"), NETWORK_TILE).unwrap();
    std::fs::write(dir.join("net.soundscape.raw"), b"ABCD").unwrap();
    ok(&dsftool(dir, &["--text2dsf", "net.txt", "net.dsf"]));
    dir.join("net.dsf")
}

#[test]
fn dsf2text_writes_dsftools_text_with_its_trailer_and_progress_lines() {
    let tmp = tempfile::tempdir().unwrap();
    demo_dsf(tmp.path(), "demo.dsf");
    for flag in ["--dsf2text", "-dsf2text"] {
        let out = dsftool(tmp.path(), &[flag, "demo.dsf", "demo.txt"]);
        ok(&out);
        assert_eq!(
            stdout(&out),
            "Converting demo.dsf from DSF to text as demo.txt\n\
             File demo.dsf had 0 ter, 1 obj, 2 pol, 0 net.\n\
             Converted demo.dsf to demo.txt\n"
        );
        let text = std::fs::read_to_string(tmp.path().join("demo.txt")).unwrap();
        assert!(
            text.starts_with(
                "I\n800 written by DSFTool 2.4.0-b1\nDSF2TEXT\n\n# file: demo.dsf\n\n"
            ),
            "{text}"
        );
        assert!(text.ends_with("END_POLYGON\n# Result code: 0\n"), "{text}");
    }
}

#[test]
fn text2dsf_in_both_spellings_builds_what_agkit_dsf_build_builds() {
    let tmp = tempfile::tempdir().unwrap();
    let txt = Path::new(ROOT).join("examples/dsf/autogen_demo.txt");
    let built = tmp.path().join("built.dsf");
    let st = Command::new(BIN)
        .args(["dsf", "build"])
        .arg(&txt)
        .arg("-o")
        .arg(&built)
        .status()
        .unwrap();
    assert!(st.success());
    for flag in ["--text2dsf", "-text2dsf"] {
        let out = tmp.path().join(format!("{flag}.dsf"));
        let o = Command::new(BIN)
            .args(["dsftool", flag])
            .arg(&txt)
            .arg(&out)
            .output()
            .unwrap();
        ok(&o);
        assert!(
            stdout(&o).ends_with(&format!(
                "Converted {} to {}\n",
                txt.display(),
                out.display()
            )),
            "{}",
            stdout(&o)
        );
        assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&built).unwrap());
    }
}

#[test]
fn dash_is_standard_output_for_the_text_and_standard_input_for_text2dsf() {
    let tmp = tempfile::tempdir().unwrap();
    demo_dsf(tmp.path(), "demo.dsf");
    ok(&dsftool(
        tmp.path(),
        &["--dsf2text", "demo.dsf", "demo.txt"],
    ));
    let file = std::fs::read_to_string(tmp.path().join("demo.txt")).unwrap();
    // To standard output: the text alone, the progress lines on stderr.
    let piped = dsftool(tmp.path(), &["--dsf2text", "demo.dsf", "-"]);
    ok(&piped);
    assert_eq!(stdout(&piped), file);
    assert!(stderr(&piped).contains("Converted demo.dsf to -"));
    // From standard input: the same DSF as from the file.
    ok(&dsftool(tmp.path(), &["--text2dsf", "demo.txt", "a.dsf"]));
    let mut child = Command::new(BIN)
        .current_dir(tmp.path())
        .args(["dsftool", "--text2dsf", "-", "b.dsf"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(file.as_bytes())
        .unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
    assert_eq!(
        std::fs::read(tmp.path().join("a.dsf")).unwrap(),
        std::fs::read(tmp.path().join("b.dsf")).unwrap()
    );
}

#[test]
fn several_dsfs_make_one_text_with_definitions_numbered_on() {
    let tmp = tempfile::tempdir().unwrap();
    demo_dsf(tmp.path(), "demo.dsf");
    network_dsf(tmp.path());
    let out = dsftool(
        tmp.path(),
        &["--dsf2text", "demo.dsf", "net.dsf", "both.txt"],
    );
    ok(&out);
    let text = std::fs::read_to_string(tmp.path().join("both.txt")).unwrap();
    assert_eq!(text.matches("I\n800 written by").count(), 1);
    assert_eq!(text.matches("# Result code: 0\n").count(), 2);
    let second = text.split("# file: net.dsf").nth(1).unwrap();
    // demo.dsf has 2 polygon definitions: net.dsf's forest is the third.
    assert!(second.contains("\nBEGIN_POLYGON 2 255 2\n"), "{second}");
    assert!(second.contains("\nBEGIN_SEGMENT 0 1 1 "), "{second}");
    // The merged text builds: its tables are both tiles' tables.
    ok(&dsftool(
        tmp.path(),
        &["--text2dsf", "both.txt", "both.dsf"],
    ));
    let back = dsftool(tmp.path(), &["--dsf2text", "both.dsf", "-"]);
    ok(&back);
    assert_eq!(stdout(&back).matches("\nPOLYGON_DEF ").count(), 3);
}

/// Difference: DSFTool counts raster definitions with the networks when it
/// numbers a later tile's roads, and does not number curved segments on at
/// all; agkit numbers each table by its own size.
#[test]
fn merged_roads_are_numbered_by_the_network_table_alone_curved_ones_too() {
    let tmp = tempfile::tempdir().unwrap();
    network_dsf(tmp.path());
    std::fs::copy(tmp.path().join("net.dsf"), tmp.path().join("net2.dsf")).unwrap();
    // Sidecars of the same layer would clash: the second tile's goes to
    // standard output's text, which has none.
    let out = dsftool(tmp.path(), &["--dsf2text", "net.dsf", "net2.dsf", "-"]);
    ok(&out);
    let text = stdout(&out);
    let second = text.split("# file: net2.dsf").nth(1).unwrap();
    // DSFTool would print 2 (1 network + 1 raster definition) and, for the
    // curved segment, 0.
    assert!(second.contains("\nBEGIN_SEGMENT 1 1 1 "), "{second}");
    assert!(second.contains("\nBEGIN_SEGMENT_CURVED 1 2 3 "), "{second}");
}

/// Difference: DSFTool writes the raster of a second tile over the sidecar
/// of the first when their layers share a name; agkit refuses.
#[test]
fn two_rasters_for_one_sidecar_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    network_dsf(tmp.path());
    std::fs::copy(tmp.path().join("net.dsf"), tmp.path().join("net2.dsf")).unwrap();
    let out = dsftool(
        tmp.path(),
        &["--dsf2text", "net.dsf", "net2.dsf", "both.txt"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("net2.dsf: its raster `soundscape` would replace the sidecar"),
        "{}",
        stderr(&out)
    );
    assert!(!tmp.path().join("both.txt").exists());
}

#[test]
fn raster_sidecars_are_named_after_the_text_and_read_from_the_working_folder() {
    let tmp = tempfile::tempdir().unwrap();
    network_dsf(tmp.path());
    std::fs::create_dir(tmp.path().join("out")).unwrap();
    ok(&dsftool(
        tmp.path(),
        &["--dsf2text", "net.dsf", "out/net.txt"],
    ));
    let side = tmp.path().join("out/net.txt.soundscape.raw");
    assert_eq!(std::fs::read(&side).unwrap(), b"ABCD");
    let text = std::fs::read_to_string(tmp.path().join("out/net.txt")).unwrap();
    assert!(
        text.contains("offset=0.000000 out/net.txt.soundscape.raw\n"),
        "{text}"
    );
    // Built again from the working folder, as DSFTool resolves the name.
    ok(&dsftool(
        tmp.path(),
        &["--text2dsf", "out/net.txt", "again.dsf"],
    ));
    let back = dsftool(tmp.path(), &["--dsf2text", "again.dsf", "again.txt"]);
    ok(&back);
    assert_eq!(
        std::fs::read(tmp.path().join("again.txt.soundscape.raw")).unwrap(),
        b"ABCD"
    );
}

/// Difference: with `-` for the text DSFTool writes no sidecar and leaves
/// the `RASTER_DATA` line without a file and without its line end (the
/// next line is glued on); agkit ends the line.
#[test]
fn a_raster_on_standard_output_has_a_whole_line_without_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    network_dsf(tmp.path());
    let out = dsftool(tmp.path(), &["--dsf2text", "net.dsf", "-"]);
    ok(&out);
    assert!(
        stdout(&out).contains(" scale=1.000000 offset=0.000000\nBEGIN_POLYGON"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn version_and_auto_config() {
    let tmp = tempfile::tempdir().unwrap();
    let out = dsftool(tmp.path(), &["--version"]);
    ok(&out);
    assert!(
        stdout(&out).starts_with("DSFTool 2.4.0-b1 "),
        "{}",
        stdout(&out)
    );
    let link = link_as(tmp.path(), "DSFTool");
    let out = Command::new(&link).arg("--auto_config").output().unwrap();
    ok(&out);
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("CMD .txt .dsf \"")
            && lines[0].ends_with("\" -text2dsf \"INFILE\" \"OUTFILE\"")
    );
    assert!(
        lines[1].starts_with("CMD .dsf .txt \"")
            && lines[1].ends_with("\" -dsf2text \"INFILE\" \"OUTFILE\"")
    );
}

/// Difference: DSFTool exits 1 after its usage for `-h`; agkit prints the
/// usage on standard output and exits 0 (as for `--help`). No arguments
/// at all is a usage error for both.
#[test]
fn help_exits_0_and_no_arguments_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    for flag in ["-h", "--help"] {
        let out = dsftool(tmp.path(), &[flag]);
        ok(&out);
        assert!(stdout(&out).contains("Usage: agkit dsftool --dsf2text"));
    }
    let out = dsftool(tmp.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--text2dsf TEXT_FILE DSF_FILE"));
}

#[test]
fn started_as_dsftool_under_any_case_it_is_dsftool() {
    let tmp = tempfile::tempdir().unwrap();
    demo_dsf(tmp.path(), "demo.dsf");
    for name in ["DSFTool", "dsftool", "DSFTOOL.exe", "DSFTool.EXE"] {
        let link = link_as(tmp.path(), name);
        let out = Command::new(&link)
            .current_dir(tmp.path())
            .args(["-dsf2text", "demo.dsf", "-"])
            .output()
            .unwrap();
        ok(&out);
        assert!(stdout(&out).ends_with("# Result code: 0\n"), "{name}");
        std::fs::remove_file(link).unwrap();
    }
    // Any other name is agkit.
    let link = link_as(tmp.path(), "DSFTool2");
    let out = Command::new(&link).arg("--version").output().unwrap();
    ok(&out);
    assert!(stdout(&out).starts_with("agkit "), "{}", stdout(&out));
}

/// A pipeline script written for DSFTool (it passes with Laminar's
/// DSFTool too) runs unchanged with a link named DSFTool to agkit first
/// on its PATH.
#[test]
fn a_pipeline_written_for_dsftool_runs_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let link = link_as(tmp.path(), "DSFTool");
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let path = format!(
        "{}:{}",
        link.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg(Path::new(ROOT).join("tests/fixtures/dsftool/pipeline.sh"))
        .arg(&work)
        .env("PATH", path)
        .output()
        .unwrap();
    ok(&out);
    assert_eq!(stdout(&out), "pipeline ok\n");
    assert!(work.join("both.txt").is_file());
}

/// Difference: DSFTool "converts" a missing DSF into a text ending in
/// `# Result code: 1` and exits 0; agkit exits 2 naming the file, and
/// writes no text.
#[test]
fn a_missing_dsf_fails_instead_of_becoming_an_empty_text() {
    let tmp = tempfile::tempdir().unwrap();
    let out = dsftool(tmp.path(), &["--dsf2text", "missing.dsf", "out.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing.dsf"), "{}", stderr(&out));
    assert!(!tmp.path().join("out.txt").exists());
}

/// Difference: DSFTool writes what it read of a damaged DSF, then
/// `# Result code: N`, and exits 0; agkit exits 1 with the byte offset
/// and writes no text.
#[test]
fn a_damaged_dsf_fails_with_its_offset_and_leaves_no_text() {
    let tmp = tempfile::tempdir().unwrap();
    let dsf = demo_dsf(tmp.path(), "demo.dsf");
    let bytes = std::fs::read(&dsf).unwrap();
    std::fs::write(&dsf, &bytes[..bytes.len() / 2]).unwrap();
    let out = dsftool(tmp.path(), &["--dsf2text", "demo.dsf", "out.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("demo.dsf @ byte "),
        "{}",
        stderr(&out)
    );
    assert!(!tmp.path().join("out.txt").exists());
}

/// Difference: DSFTool silently drops a line it cannot read (here an
/// object without its heading, and one naming a definition that does not
/// exist) and exits 0; agkit exits 1 naming the file and line.
#[test]
fn a_line_dsftool_would_drop_is_an_error_with_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let head = "PROPERTY sim/west 8\nPROPERTY sim/east 9\nPROPERTY sim/south 47\n\
                PROPERTY sim/north 48\nOBJECT_DEF a.obj\n";
    for (body, line, what) in [
        ("OBJECT 0 8.5 47.5\n", 6, "takes 4 values"),
        (
            "OBJECT 3 8.5 47.5 0\n",
            6,
            "definition 3 is not in the OBJECT_DEF table",
        ),
    ] {
        std::fs::write(tmp.path().join("t.txt"), format!("{head}{body}")).unwrap();
        let out = dsftool(tmp.path(), &["--text2dsf", "t.txt", "t.dsf"]);
        assert_eq!(out.status.code(), Some(1), "{body}");
        let err = stderr(&out);
        assert!(
            err.contains("t.txt:") && err.contains(&format!(":{line}:")),
            "{err}"
        );
        assert!(err.contains(what), "{err}");
        assert!(!tmp.path().join("t.dsf").exists());
    }
}

/// Difference: DSFTool ignores an argument it does not know (and exits 0
/// having done nothing); agkit refuses it.
#[test]
fn an_unknown_argument_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = dsftool(tmp.path(), &["--dsf2txt", "a.dsf", "a.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown argument `--dsf2txt`"),
        "{}",
        stderr(&out)
    );
}

/// Difference: `DSFTool --dsf2text X.dsf` (no text named) writes a text
/// of no tile over X.dsf; agkit refuses and leaves X.dsf alone. Naming the
/// input as the output is refused too.
#[test]
fn no_command_writes_over_its_input() {
    let tmp = tempfile::tempdir().unwrap();
    let dsf = demo_dsf(tmp.path(), "demo.dsf");
    let before = std::fs::read(&dsf).unwrap();
    for args in [
        &["--dsf2text", "demo.dsf"][..],
        &["--dsf2text", "demo.dsf", "demo.dsf"],
        &["--text2dsf", "demo.dsf", "demo.dsf"],
    ] {
        let out = dsftool(tmp.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(std::fs::read(&dsf).unwrap(), before, "{args:?}");
    }
}

/// Difference: `DSFTool --text2dsf IN -` writes a DSF file named `-`;
/// agkit refuses (a DSF is not written to standard output).
#[test]
fn dash_as_the_dsf_to_write_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        Path::new(ROOT).join("examples/dsf/autogen_demo.txt"),
        tmp.path().join("t.txt"),
    )
    .unwrap();
    let out = dsftool(tmp.path(), &["--text2dsf", "t.txt", "-"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!tmp.path().join("-").exists());
    assert!(out.stdout.is_empty() || !stdout(&out).contains("XPLNEDSF"));
}

/// Difference: DSFTool reads a text in pieces of 511 bytes, so a longer
/// line (a long property value or path) is cut and its rest read as a
/// line of its own; agkit reads whole lines.
#[test]
fn a_line_longer_than_511_bytes_is_read_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let long = "x".repeat(600);
    let text = format!(
        "PROPERTY sim/west 8\nPROPERTY sim/east 9\nPROPERTY sim/south 47\n\
         PROPERTY sim/north 48\nPROPERTY agkit/long {long}\n"
    );
    std::fs::write(tmp.path().join("t.txt"), text).unwrap();
    ok(&dsftool(tmp.path(), &["--text2dsf", "t.txt", "t.dsf"]));
    let out = dsftool(tmp.path(), &["--dsf2text", "t.dsf", "-"]);
    ok(&out);
    assert!(stdout(&out).contains(&format!("\nPROPERTY agkit/long {long}\n")));
}
