//! The second hostile round (issue 24): inputs that are not regular files,
//! totals that were not capped, interrupts that left temporary files, and
//! the other cases found by trying agkit as a hostile user would. Each test
//! is named after the bug it keeps fixed.

mod cli_support;
mod hostile_art_support;

#[cfg(unix)]
use cli_support::mkfifo;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn agkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
}

/// Runs `cmd` to its end, failing the test (and killing the process) when
/// it is still running after `secs`: a hang is the bug, not a slow run.
fn run_or_hang(mut cmd: Command, secs: u64) -> Output {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_or_hang(child, secs)
}

fn wait_or_hang(mut child: Child, secs: u64) -> Output {
    let until = Instant::now() + Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running after {secs} s (a hang); stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A DSF model with the bounds `[west, south, east, north]` and `n`
/// objects spread over tile +47+013.
fn tile(bounds: [i32; 4], n: usize) -> agkit::dsf::Dsf {
    let names = ["sim/west", "sim/south", "sim/east", "sim/north"];
    let mut entities = Vec::with_capacity(n);
    for i in 0..n {
        let f = i as f64 / n as f64;
        entities.push(agkit::dsf::Entity::Object(agkit::dsf::Object {
            def: 0,
            lon: 13.0 + f,
            lat: 47.0 + (f * 977.0).fract(),
            heading: (i % 360) as f64,
            elevation: None,
            mode: agkit::dsf::ElevationMode::Draped,
        }));
    }
    agkit::dsf::Dsf {
        properties: names
            .iter()
            .zip(bounds)
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        object_defs: vec!["a.obj".into()],
        entities,
        ..Default::default()
    }
}

/// A small valid DSF (one object).
fn small_dsf() -> Vec<u8> {
    agkit::dsf::build(&tile([13, 47, 14, 48], 1), &Default::default()).unwrap()
}

#[cfg(unix)]
#[test]
fn dsf_totext_of_a_folder_hung_on_a_pipe_named_like_a_tile() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.dsf"), small_dsf()).unwrap();
    mkfifo(&dir.path().join("x.dsf"));
    let mut cmd = agkit();
    cmd.args(["dsf", "totext"]).arg(dir.path());
    let o = run_or_hang(cmd, 60);
    let e = stderr(&o);
    assert!(!o.status.success(), "{e}");
    assert!(
        e.contains("x.dsf") && e.contains("named pipe") && e.contains("a DSF tile"),
        "{e}"
    );
    // The real tile is converted all the same.
    assert!(dir.path().join("a.dsf.txt").is_file(), "{e}");
    assert!(e.contains("1 converted, 1 failed"), "{e}");
}

#[cfg(unix)]
#[test]
fn dsf_build_hung_on_a_raster_file_that_is_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("dem.raw"));
    let text = "I\n800\nDSF2TEXT\n\nPROPERTY sim/west 13\nPROPERTY sim/south 47\n\
                PROPERTY sim/east 14\nPROPERTY sim/north 48\n\
                RASTER_DEF elevation\n\
                RASTER_DATA version=1 bpp=2 flags=5 width=2 height=2 scale=1.0 offset=0.0 dem.raw\n";
    let input = dir.path().join("t.txt");
    std::fs::write(&input, text).unwrap();
    let mut cmd = agkit();
    cmd.args(["dsf", "build"])
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("t.dsf"));
    let o = run_or_hang(cmd, 60);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("t.txt:10") && e.contains("named pipe"), "{e}");
    assert!(!dir.path().join("t.dsf").exists());
}

#[cfg(unix)]
#[test]
fn check_of_a_device_read_until_memory_ran_out() {
    for dev in ["/dev/zero", "/dev/urandom"] {
        let mut cmd = agkit();
        cmd.args(["check", dev]);
        let o = run_or_hang(cmd, 60);
        let e = stderr(&o);
        assert!(!o.status.success(), "{dev}: {e}");
        assert!(e.contains(dev) && e.contains("character device"), "{e}");
    }
    // A folder given where a rules file goes is named as what it is.
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = agkit();
    cmd.args(["overlay", "build"])
        .arg(example("examples/gis/FEATURES.geojson"))
        .arg("--rules")
        .arg(dir.path())
        .arg("-o")
        .arg(dir.path().join("out"));
    let o = run_or_hang(cmd, 60);
    let e = stderr(&o);
    assert!(!o.status.success(), "{e}");
    assert!(e.contains("a directory, not a regular file"), "{e}");
}

fn example(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A DSF of `n` objects, whose text is large enough to take a while.
fn big_dsf(n: usize) -> Vec<u8> {
    agkit::dsf::build(&tile([13, 47, 14, 48], n), &Default::default()).unwrap()
}

fn temps_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(agkit::fsutil::TEMP_PREFIX))
        .collect()
}

/// `agkit dsf totext INPUT -o OUT/big.txt`, started and returned once its
/// temporary file is in `out`.
fn totext_until_its_temporary_file(input: &Path, out: &Path) -> Child {
    let child = agkit()
        .args(["dsf", "totext"])
        .arg(input)
        .arg("-o")
        .arg(out.join("big.txt"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(60);
    while temps_in(out).is_empty() {
        assert!(Instant::now() < until, "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(2));
    }
    child
}

#[cfg(unix)]
#[test]
fn an_interrupted_streamed_write_left_its_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.dsf");
    std::fs::write(&input, big_dsf(400_000)).unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    // SIGHUP (a closed terminal, a dropped ssh session) and SIGQUIT left
    // it (issue 46, item 2).
    for (signal, status) in [
        (libc::SIGINT, 130),
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
        (libc::SIGQUIT, 131),
    ] {
        // Interrupted while the temporary file is being written.
        let child = totext_until_its_temporary_file(&input, &out);
        // SAFETY: signalling our own child.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let o = wait_or_hang(child, 60);
        assert_eq!(o.status.code(), Some(status), "{}", stderr(&o));
        assert_eq!(temps_in(&out), Vec::<String>::new(), "signal {signal}");
        assert!(!out.join("big.txt").exists(), "no half output either");
    }
}

fn geojson_polygon(ring: &[[f64; 2]], props: &str) -> String {
    let coords: Vec<String> = ring
        .iter()
        .chain(ring.first())
        .map(|p| format!("[{}, {}]", p[0], p[1]))
        .collect();
    format!(
        r#"{{"type": "FeatureCollection", "features": [{{"type": "Feature",
            "properties": {props}, "geometry": {{"type": "Polygon",
            "coordinates": [[{}]]}}}}]}}"#,
        coords.join(", ")
    )
}

const AGS_RULES: &str = "[[rule]]\nasset = \"lib/edge.ags\"\n";

fn overlay_of(geojson: &str, rules: &str) -> agkit::overlay::Overlay {
    let features = agkit::overlay::read_features(geojson).unwrap();
    let rules = agkit::overlay::Rules::parse(rules).unwrap();
    agkit::overlay::build_overlay(&features, &rules, &Default::default()).unwrap()
}

#[test]
fn overlay_build_wrapped_a_lot_across_the_antimeridian_around_the_globe() {
    // A 44 m × 44 m lot (at the equator, 0.0004°) across longitude 180,
    // given both ways round, and one on the far side only.
    for ring in [
        vec![
            [179.9998, 0.0],
            [-179.9998, 0.0],
            [-179.9998, 0.0004],
            [179.9998, 0.0004],
        ],
        vec![
            [-179.9998, 0.0],
            [-179.9998, 0.0004],
            [179.9998, 0.0004],
            [179.9998, 0.0],
        ],
    ] {
        let o = overlay_of(&geojson_polygon(&ring, "{}"), AGS_RULES);
        let tiles: Vec<String> = o.tiles.keys().map(|t| t.to_string()).collect();
        assert_eq!(tiles, ["+00-180", "+00+179"], "{ring:?}");
        // Each part is the sliver on its own side, not a band.
        for (tile, dsf) in &o.tiles {
            let xs: Vec<f64> = dsf
                .polygons()
                .flat_map(|p| p.points(0).map(|c| c[0]).collect::<Vec<_>>())
                .collect();
            let w = f64::from(tile.west);
            assert!(
                xs.iter().all(|x| (w..=w + 1.0).contains(x)),
                "{tile}: {xs:?}"
            );
            let span = xs.iter().cloned().fold(f64::MIN, f64::max)
                - xs.iter().cloned().fold(f64::MAX, f64::min);
            assert!(span <= 0.0002 + 1e-9, "{tile}: {span}");
        }
    }
    // A ring around the pole has no short way: refused.
    let polar: Vec<[f64; 2]> = (0..8)
        .map(|i| [-180.0 + 45.0 * f64::from(i), 85.0])
        .collect();
    let features = agkit::overlay::read_features(&geojson_polygon(&polar, "{}")).unwrap();
    let rules = agkit::overlay::Rules::parse(AGS_RULES).unwrap();
    let e = agkit::overlay::build_overlay(&features, &rules, &Default::default())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("around the globe"), "{e}");
}

#[test]
fn an_empty_rules_file_built_an_overlay_of_nothing() {
    for text in [
        "",
        "# nothing\n",
        "[settings]\ndefault_height = 8.0\n",
        "[rule]\nasset = \"a.ags\"\n",
    ] {
        assert!(
            agkit::overlay::Rules::parse(text).is_err(),
            "{text:?} was accepted"
        );
    }
    let e = agkit::overlay::Rules::parse("").unwrap_err().to_string();
    assert_eq!(e.split(':').next(), Some("1"), "{e}");
    assert!(e.contains("no `[[rule]]`"), "{e}");
}

#[test]
fn a_second_overlay_build_left_the_first_builds_tiles_beside_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let square = |lon: f64| {
        vec![
            [lon, 47.5],
            [lon + 0.001, 47.5],
            [lon + 0.001, 47.501],
            [lon, 47.501],
        ]
    };
    let mut first = overlay_of(&geojson_polygon(&square(13.5), "{}"), AGS_RULES);
    agkit::overlay::write_overlay(&mut first, dir.path()).unwrap();
    let old = dir.path().join("Earth nav data/+40+010/+47+013.dsf");
    assert!(old.is_file());
    // A tile agkit did not write, elsewhere in the folder: left alone.
    let foreign = dir.path().join("Earth nav data/+40+010/+48+013.dsf");
    std::fs::write(&foreign, small_dsf()).unwrap();
    let mut second = overlay_of(&geojson_polygon(&square(14.5), "{}"), AGS_RULES);
    agkit::overlay::write_overlay(&mut second, dir.path()).unwrap();
    assert!(!old.exists(), "the first build's tile is gone");
    assert!(
        dir.path()
            .join("Earth nav data/+40+010/+47+014.dsf")
            .is_file()
    );
    assert!(foreign.is_file());
    let r = &second.report;
    assert_eq!(r.removed, ["Earth nav data/+40+010/+47+013.dsf"]);
    assert!(
        r.warnings
            .iter()
            .any(|w| w.starts_with("removed Earth nav data/+40+010/+47+013.dsf")),
        "{:?}",
        r.warnings
    );
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("+48+013.dsf: a tile agkit did not write"))
    );
    let json = std::fs::read_to_string(dir.path().join("overlay-report.json")).unwrap();
    assert!(json.contains("\"removed\""), "{json}");
    // A build that would replace a tile agkit did not write is refused,
    // and nothing is written.
    std::fs::write(
        dir.path().join("Earth nav data/+40+010/+47+014.dsf"),
        small_dsf(),
    )
    .unwrap();
    let before = std::fs::read(dir.path().join("overlay-report.json")).unwrap();
    let mut third = overlay_of(&geojson_polygon(&square(14.5), "{}"), AGS_RULES);
    let e = agkit::overlay::write_overlay(&mut third, dir.path())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("+47+014.dsf") && e.contains("replaces only tiles it wrote"),
        "{e}"
    );
    assert_eq!(
        std::fs::read(dir.path().join("overlay-report.json")).unwrap(),
        before
    );
}

#[test]
fn dsf_build_accepted_inverted_bounds_and_check_found_nothing() {
    let head = |w: i32, s: i32, e: i32, n: i32| {
        format!(
            "I\n800\nDSF2TEXT\n\nPROPERTY sim/west {w}\nPROPERTY sim/south {s}\n\
             PROPERTY sim/east {e}\nPROPERTY sim/north {n}\n"
        )
    };
    let mut none = |_: &str| -> Result<Vec<u8>, String> { Err("none".into()) };
    for (w, s, e, n, line) in [
        (20, 47, 14, 48, 7),
        (13, 47, 13, 48, 7),
        (13, 48, 14, 47, 8),
    ] {
        let err = agkit::dsf::from_text(&head(w, s, e, n), &mut none).unwrap_err();
        assert_eq!(err.line, line, "{}", err.message);
        assert!(err.message.contains("is not less than"), "{}", err.message);
    }
    assert!(agkit::dsf::from_text(&head(13, 47, 14, 48), &mut none).is_ok());
    // A binary DSF with such bounds (written by another tool) is flagged.
    let d = tile([20, 47, 14, 48], 0);
    let lint = agkit::dsf::lint::lint(&d);
    assert!(
        lint.iter()
            .any(|x| x.code == "DSF026" && x.message.contains("sim/west = 20 is not less than")),
        "{lint:?}"
    );
}

#[test]
fn agn_build_wrote_gigabytes_of_texture_padding_from_a_small_text() {
    // 2,000 texture names padded to 1 MiB each: 42 KB of text, 2.1 GB of
    // AGN. Refused before the padding is allocated.
    let mut text = String::from("AGNX\n");
    for i in 0..2_000 {
        text.push_str(&format!("GBTE \"t{i}\" pad 1048576\n"));
    }
    assert!(text.len() < 64_000);
    let agn = agkit::agn::text::from_text(&text).unwrap();
    let e = agkit::agn::write(&agn).unwrap_err();
    assert!(e.message.contains("the limit for one AGN"), "{}", e.message);
    assert!(e.message.starts_with("chunks["), "{}", e.message);
    assert!(e.offset <= agkit::limits::Limits::default().max_output_bytes);
    // Through the command: exit 1, nothing written.
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.txt");
    std::fs::write(&input, &text).unwrap();
    let mut cmd = agkit();
    cmd.args(["agn", "build"])
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("big.agn"));
    let o = run_or_hang(cmd, 120);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!dir.path().join("big.agn").exists());
    // Under a limit that holds it, the same model writes.
    let roomy = agkit::limits::Limits {
        max_output_bytes: 8 << 20,
        ..Default::default()
    };
    let small = agkit::agn::text::from_text("AGNX\nGBTE \"t\" pad 1048576\n").unwrap();
    assert_eq!(
        agkit::agn::write_with(&small, &roomy).unwrap().len(),
        12 + 8 + 1_048_577
    );
}

#[test]
fn agn_json_errors_named_no_record() {
    // The writer's message for a JSON document of `chunks`, which must
    // start with `want`.
    let refused = |chunks: &str, want: &str| {
        let doc = format!(r#"{{"format": "agkit-agn", "version": 1, "chunks": [{chunks}]}}"#);
        let agn = agkit::agn::json::from_json(&doc).unwrap();
        let e = agkit::agn::write(&agn).unwrap_err();
        assert!(e.message.starts_with(want), "{}", e.message);
    };
    // A float past f32's range becomes infinity when read: the writer names
    // where it is, as a JSON path.
    refused(
        r#"{"chunk": "VERS", "version": 1},
           {"chunk": "VGRO", "rects": [{"x": 0, "y": 0, "dx": 1, "dy": 1},
                                       {"x": 0, "y": 1e39, "dx": 1, "dy": 1}]}"#,
        "chunks[1].rects[1].y: float is inf",
    );
    // A container inside a container.
    refused(
        r#"{"chunk": "GBLD", "children": [{"chunk": "VGRO", "rects": []},
                        {"chunk": "PREG", "children": []}]}"#,
        "chunks[0].children[1]: PREG container inside GBLD",
    );
    // Padding past the plausible.
    refused(
        r#"{"chunk": "GBTE", "name": "x", "padding": 4000000000}"#,
        "chunks[0]: texture padding",
    );
    // A polygon vertex deep inside PBDE.
    refused(
        r#"{"chunk": "PBDE", "building": "default", "buildings": [{"kind": 1, "width": 2,
            "footprint": [[0, 0], [1, 0], [1, -3.5e38]]}]}"#,
        "chunks[0].buildings[0].footprint[2][1]: float is -inf",
    );
}

#[test]
fn a_nul_in_a_dsf2text_definition_had_no_line() {
    let text = "I\n800\nDSF2TEXT\n\nPROPERTY sim/west 13\nPROPERTY sim/south 47\n\
                PROPERTY sim/east 14\nPROPERTY sim/north 48\nOBJECT_DEF a\0b.obj\n";
    let mut none = |_: &str| -> Result<Vec<u8>, String> { Err("none".into()) };
    let e = agkit::dsf::from_text(text, &mut none).unwrap_err();
    assert_eq!(e.line, 9, "{}", e.message);
    assert!(e.message.contains("NUL"), "{}", e.message);
    let e = agkit::dsf::from_text(
        &text.replace("OBJECT_DEF a\0b.obj", "PROPERTY x a\0b"),
        &mut none,
    )
    .unwrap_err();
    assert_eq!(e.line, 9, "{}", e.message);
}

/// Art an asset names that is a FIFO was reported "not found"; it is
/// found and refused as "not a regular file" (issue 31), and `check`
/// never opens it (it would block).
#[cfg(unix)]
#[test]
fn a_fifo_named_as_art_was_reported_not_found() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("point");
    cli_support::copy_dir(std::path::Path::new("examples/point"), &dir);
    std::fs::remove_file(dir.join("kiosk.obj")).unwrap();
    mkfifo(&dir.join("kiosk.obj"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .arg("check")
        .arg(dir.join("plaza.agp"))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("kiosk.obj"), "{text}");
    assert!(text.contains("not a regular file"), "{text}");
    assert!(!text.contains("kiosk.obj: not found"), "{text}");
}

/// `info` of an object with errors printed "problems 1 errors" without
/// the file or the problem; it names both (issue 31).
#[test]
fn info_of_art_with_errors_named_neither_file_nor_problem() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("broken.obj");
    std::fs::write(
        &f,
        "I\n800\nOBJ\n\nPOINT_COUNTS 1 0 0 3\nVT 0 0 0 0 1 0 0 0\nIDX 0\nIDX 0\nIDX 7\nTRIS 0 3\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .arg("info")
        .arg(&f)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("broken.obj"), "{err}");
    assert!(err.contains("OBJ0007"), "{err}");
}

/// SIGPIPE is ignored, as Rust programs start: sent midway, it neither
/// ends the write nor leaves its temporary file (issue 46, item 2).
#[cfg(unix)]
#[test]
fn a_sigpipe_midway_neither_ends_the_write_nor_leaves_its_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.dsf");
    std::fs::write(&input, big_dsf(400_000)).unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let child = totext_until_its_temporary_file(&input, &out);
    // SAFETY: signalling our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGPIPE) }, 0);
    let o = wait_or_hang(child, 60);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(temps_in(&out), Vec::<String>::new());
    let text = std::fs::read_to_string(out.join("big.txt")).unwrap();
    assert_eq!(text.matches("OBJECT ").count(), 400_000, "the whole text");
}

/// `place -o NODE` renamed its temporary file over a named pipe: the
/// reader never got a byte and the pipe became a regular file (issue 46,
/// item 1). A pipe is written into, as DSFTool writes into it.
#[cfg(unix)]
#[test]
fn an_output_that_is_a_named_pipe_was_replaced_by_a_regular_file() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.json");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let mut cmd = agkit();
    cmd.args(["place", "--dsf"])
        .arg(example("examples/dsf/autogen_demo.dsf"))
        .arg("--scenery")
        .arg(example("examples"))
        .arg("-o")
        .arg(&fifo);
    let o = run_or_hang(cmd, 60);
    assert!(o.status.success(), "{}", stderr(&o));
    let got = reader.join().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&got).unwrap();
    assert!(
        json.as_array().is_some_and(|a| !a.is_empty()) || json.is_object(),
        "the reader got the whole placement"
    );
    let ft = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(ft.is_fifo(), "still a pipe");
    assert_eq!(temps_in(dir.path()), Vec::<String>::new());
}

/// Makes a character device node with the numbers of `/dev/null` (1, 3)
/// or `/dev/full` (1, 7) in a temporary folder; `false` when not root.
#[cfg(target_os = "linux")]
fn mknod_char(path: &Path, minor: u32) -> bool {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    let r = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, minor)) };
    // SAFETY: no arguments.
    let root = unsafe { libc::geteuid() } == 0;
    assert!(r == 0 || !root, "root may make device nodes");
    r == 0
}

/// The DSFTool drop-in, run under DSFTool's own name from `dir`.
fn dsftool_in(dir: &Path) -> Command {
    let link = dir.join("DSFTool");
    if !link.exists() {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_agkit"), &link).unwrap();
    }
    Command::new(link)
}

/// `DSFTool --dsf2text x.dsf /dev/null`, a pipeline idiom, turned a
/// character device into a 36 KB regular file (issue 46, item 1); a
/// device that fails its writes (`/dev/full`) must fail the command.
#[cfg(target_os = "linux")]
#[test]
fn dsftool_dsf2text_into_a_device_node_replaced_the_node() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let (null, full) = (dir.path().join("null"), dir.path().join("full"));
    if !mknod_char(&null, 3) || !mknod_char(&full, 7) {
        eprintln!("not root: device nodes cannot be made here; run as root to test this");
        return;
    }
    let tile = example("examples/dsf/autogen_demo.dsf");
    for (node, ok) in [(&null, true), (&full, false)] {
        let mut cmd = dsftool_in(dir.path());
        cmd.arg("--dsf2text").arg(&tile).arg(node);
        let o = run_or_hang(cmd, 60);
        assert_eq!(o.status.success(), ok, "{node:?}: {}", stderr(&o));
        let ft = std::fs::symlink_metadata(node).unwrap().file_type();
        assert!(ft.is_char_device(), "{node:?} is still the device");
        let mut cmd = agkit();
        cmd.args(["place", "--format", "png", "--dsf"])
            .arg(&tile)
            .arg("--scenery")
            .arg(example("examples"))
            .arg("-o")
            .arg(node);
        let o = run_or_hang(cmd, 60);
        assert_eq!(o.status.success(), ok, "{node:?}: {}", stderr(&o));
        if !ok {
            assert!(
                stderr(&o).contains("No space left on device"),
                "{}",
                stderr(&o)
            );
        }
        assert!(
            std::fs::symlink_metadata(node)
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
    assert_eq!(temps_in(dir.path()), Vec::<String>::new());
}

/// `DSFTool --dsf2text x.dsf /dev/stdout` failed with "No such file or
/// directory": following `/proc/self/fd/1` by hand ends at `pipe:[…]`
/// (issue 46, item 1). The text goes to standard output, as DSFTool's does.
#[cfg(target_os = "linux")]
#[test]
fn dsftool_dsf2text_to_dev_stdout_found_no_such_file() {
    let dir = tempfile::tempdir().unwrap();
    let tile = example("examples/dsf/autogen_demo.dsf");
    let mut cmd = dsftool_in(dir.path());
    cmd.arg("--dsf2text").arg(&tile).arg("/dev/stdout");
    let o = run_or_hang(cmd, 60);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("PROPERTY sim/west"), "{text}");
    // Into a file standard output is redirected to, at its offset.
    let file = dir.path().join("redirected.txt");
    std::fs::write(&file, "kept\n").unwrap();
    let out = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    let o = dsftool_in(dir.path())
        .arg("--dsf2text")
        .arg(&tile)
        .arg("/dev/stdout")
        .stdout(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("kept\n") && text.contains("PROPERTY sim/west"),
        "{text}"
    );
    assert_eq!(temps_in(dir.path()), Vec::<String>::new());
}

/// An output that names, through a descriptor, the very file the run
/// reads is refused, as the same file named by its path is.
#[cfg(target_os = "linux")]
#[test]
fn an_input_named_through_a_descriptor_is_not_written_over() {
    let dir = tempfile::tempdir().unwrap();
    let agp = dir.path().join("a.dsf");
    std::fs::copy(example("examples/dsf/autogen_demo.dsf"), &agp).unwrap();
    let before = std::fs::read(&agp).unwrap();
    let f = std::fs::File::open(&agp).unwrap();
    // The child gets the input as its descriptor 3, and names it.
    let mut cmd = agkit();
    cmd.args(["dsf", "totext"])
        .arg(&agp)
        .args(["-o", "/dev/fd/3"]);
    let fd = std::os::fd::AsRawFd::as_raw_fd(&f);
    // SAFETY: `dup2` and `fcntl` between fork and exec, async-signal-safe.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut cmd, move || {
            // Onto itself, `dup2` keeps close-on-exec: clear it.
            let r = if fd == 3 {
                libc::fcntl(3, libc::F_SETFD, 0)
            } else {
                libc::dup2(fd, 3)
            };
            if r < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let o = run_or_hang(cmd, 60);
    assert!(!o.status.success(), "refused");
    assert!(stderr(&o).contains("this run reads"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&agp).unwrap(), before);
}

/// A package of one tile placing `forest.for` at full density over a
/// square `side` metres wide, in `dir`; the tile's path.
fn forest_package(dir: &Path, forest: &str, side: f64) -> PathBuf {
    std::fs::write(dir.join("forest.for"), forest).unwrap();
    let (lon, lat) = (13.5, 47.5);
    let (dx, dy) = (side / 2.0 / 75_200.0, side / 2.0 / 111_320.0);
    let ring = vec![
        lon - dx,
        lat - dy,
        lon + dx,
        lat - dy,
        lon + dx,
        lat + dy,
        lon - dx,
        lat + dy,
    ];
    let dsf = agkit::dsf::Dsf {
        polygon_defs: vec!["forest.for".into()],
        entities: vec![agkit::dsf::Entity::Polygon(agkit::dsf::Polygon {
            def: 0,
            param: 255,
            depth: 2,
            windings: vec![ring],
        })],
        ..agkit::dsf::Dsf::overlay(13, 47)
    };
    let path = dir.join("Earth nav data/+40+010/+47+013.dsf");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, agkit::dsf::build(&dsf, &Default::default()).unwrap()).unwrap();
    path
}

/// Runs `cmd` with its address space capped at `bytes` (Linux), so that
/// memory out of proportion fails the run instead of the machine.
#[cfg(target_os = "linux")]
fn capped(mut cmd: Command, bytes: u64) -> Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe; called between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

/// A 305-byte DSF of a forest of 20,000-triangle 3-D trees at full
/// density: each tree's mesh was copied before the scene's triangles were
/// counted, so `-o x.glb` was refused only after 11 s at 5.35 GB and
/// `-o x.png` died of SIGABRT under a 2.5 GB cap (issue 46, item 3). One
/// mesh is now shared by every tree: both are written, in little memory.
#[cfg(target_os = "linux")]
#[test]
fn three_d_trees_were_copied_before_the_scene_was_counted() {
    let dir = tempfile::tempdir().unwrap();
    let forest = hostile_art_support::cone_forest(20_000);
    let tile = forest_package(dir.path(), &forest, 150.0);
    for out in ["x.glb", "x.png"] {
        let mut cmd = agkit();
        cmd.args(["place", "--all", "--dsf"])
            .arg(&tile)
            .arg("--scenery")
            .arg(dir.path())
            .arg("-o")
            .arg(dir.path().join(out));
        let o = run_or_hang(capped(cmd, 2_500 << 20), 120);
        assert!(o.status.success(), "{out}: {}", stderr(&o));
        let len = std::fs::metadata(dir.path().join(out)).unwrap().len();
        assert!(len < 20 << 20, "{out}: {len} bytes");
    }
    // The glb holds one mesh of the tree and a node per tree.
    let glb = std::fs::read(dir.path().join("x.glb")).unwrap();
    let n = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + n]).unwrap();
    let nodes = doc["nodes"].as_array().unwrap();
    let trees = nodes
        .iter()
        .filter(|n| n["extras"]["item"] == "tree")
        .count();
    assert!(trees > 1000, "{trees} trees");
    let meshes: std::collections::HashSet<u64> = nodes
        .iter()
        .filter(|n| n["extras"]["item"] == "tree")
        .filter_map(|n| n["mesh"].as_u64())
        .collect();
    assert_eq!(meshes.len(), 1, "one mesh for every tree");
}

/// A GeoPackage is built in SQLite's database before it is copied to the
/// output: that database, in the system's temporary folder, was left
/// behind by an interrupted write. It goes now on the signal too.
#[cfg(unix)]
#[test]
fn an_interrupted_geopackage_left_its_database_in_the_temporary_folder() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let tile = dir.path().join("big.dsf");
    std::fs::write(&tile, big_dsf(200_000)).unwrap();
    let child = agkit()
        .env("TMPDIR", &tmp)
        .args(["place", "--all", "--format", "gpkg", "--dsf"])
        .arg(&tile)
        .arg("-o")
        .arg(dir.path().join("out.gpkg"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(120);
    while temps_in(&tmp).is_empty() {
        assert!(Instant::now() < until, "no scratch folder appeared");
        std::thread::sleep(Duration::from_millis(2));
    }
    // SAFETY: signalling our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let o = wait_or_hang(child, 60);
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
    assert_eq!(temps_in(&tmp), Vec::<String>::new());
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0, "nothing left");
}

/// A definition name holding `\x1b[2J` (clear the screen) reached the
/// terminal raw in `place --dsf`'s warnings (issue 46): every control
/// character but newline and tab is now written as an escape.
#[test]
fn control_characters_of_a_definition_name_reached_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let tile = dir.path().join("t.dsf");
    let names = ["obj\u{1b}[2J\u{7}.obj".to_string()];
    let blocks = ["b\u{1b}]0;title\u{7}.agb".to_string()];
    std::fs::write(&tile, agkit::r#gen::named_tile(&names, &blocks).unwrap()).unwrap();
    let mut cmd = agkit();
    cmd.args(["place", "--all", "--dsf"])
        .arg(&tile)
        .arg("-o")
        .arg(dir.path().join("t.json"));
    let o = run_or_hang(cmd, 60);
    let err = stderr(&o);
    assert!(err.contains("b\\u{1b}]0;title\\u{7}.agb"), "{err}");
    assert!(!o.stderr.iter().any(|&b| b == 0x1b || b == 0x07), "{err:?}");
}
