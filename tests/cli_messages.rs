//! What the command line says in the first hour: errors that name the
//! path, its role and a next step; a line after every write; `check`'s
//! cap per code; one `--format text|json`; help that tells the truth.
//! Messages are snapshots (insta), with the scratch folder written `TMP`.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const BIN: &str = env!("CARGO_BIN_EXE_agkit");

const AGP: &str = "examples/point/plaza.agp";

/// What a run printed, with its status.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs agkit from the repository root with the words of `cmd` (`{tmp}`
/// → `tmp`); `TMP` stands for `tmp` in what it printed.
fn run(cmd: &str, tmp: &Path) -> Run {
    run_argv(&cmd.split_whitespace().collect::<Vec<_>>(), tmp)
}

/// [`run`] with the arguments as given.
fn run_argv(args: &[&str], tmp: &Path) -> Run {
    let t = tmp.display().to_string();
    let args: Vec<String> = args.iter().map(|a| a.replace("{tmp}", &t)).collect();
    let out = std::process::Command::new(BIN)
        .current_dir(ROOT)
        .args(&args)
        .output()
        .unwrap();
    let clean = |b: &[u8]| String::from_utf8_lossy(b).replace(&t, "TMP");
    Run {
        code: out.status.code(),
        stdout: clean(&out.stdout),
        stderr: clean(&out.stderr),
    }
}

/// A copy of the plaza with `n` misspelt directives and `n` unknown ones:
/// 2n warnings of one code (and, as its art is not copied beside it, one
/// AG0085 per art file it names).
fn noisy(dir: &Path, n: usize) -> PathBuf {
    let mut text = std::fs::read_to_string(Path::new(ROOT).join(AGP)).unwrap();
    for i in 0..n {
        text.push_str(&format!("OBJ_DRAPPED 1 2 3 4\nFOO {i}\n"));
    }
    let p = dir.join("noisy.agp");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn check_shows_at_most_twenty_of_a_code_then_counts() {
    let tmp = tempfile::tempdir().unwrap();
    noisy(tmp.path(), 15);
    let r = run("check {tmp}/noisy.agp", tmp.path());
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.matches("warning[AG0009]").count(), 20);
    let tail: String = r
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with('…'))
        .map(|l| format!("{l}\n"))
        .collect();
    insta::assert_snapshot!("check_cap_tail", tail);
    assert_eq!(r.stderr, "checked 1 file: 0 errors, 40 warnings\n");

    // Another cap, every one, none.
    let r = run("check --max-per-code 3 {tmp}/noisy.agp", tmp.path());
    assert_eq!(r.stdout.matches("warning[AG0009]").count(), 3);
    assert!(r.stdout.contains("… and 27 more AG0009"), "{}", r.stdout);
    let r = run("check --max-per-code all {tmp}/noisy.agp", tmp.path());
    assert_eq!(r.stdout.matches("warning[AG0009]").count(), 30);
    assert!(!r.stdout.contains("more AG0009"), "{}", r.stdout);
    let q = run("check -q {tmp}/noisy.agp", tmp.path());
    assert_eq!(q.code, Some(0));
    insta::assert_snapshot!("check_quiet", q.stdout);
    // JSON lists every one: it is for programs.
    let j = run("check --format json {tmp}/noisy.agp", tmp.path());
    let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 40);
}

#[test]
fn check_caps_across_files_and_keeps_their_errors() {
    let tmp = tempfile::tempdir().unwrap();
    for d in ["a", "b", "c"] {
        std::fs::create_dir(tmp.path().join(d)).unwrap();
        noisy(&tmp.path().join(d), 4);
    }
    // And one with an error, past the cap of the warnings.
    std::fs::write(
        tmp.path().join("c/bad.agp"),
        "A\n1000\nAG_POINT\nTILE 0 0 10\n",
    )
    .unwrap();
    let r = run("check {tmp}", tmp.path());
    assert_eq!(r.code, Some(1));
    assert_eq!(r.stdout.matches("warning[AG0009]").count(), 20);
    assert!(
        r.stdout.contains("TMP/c/noisy.agp"),
        "the third file is shown too"
    );
    assert!(
        r.stdout.contains("error["),
        "the error is shown: {}",
        r.stdout
    );
    assert!(r.stdout.contains("… and 4 more AG0009"), "{}", r.stdout);
}

#[test]
fn text_is_the_format_word_everywhere_and_human_still_works() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [
        "check examples/point/plaza.agp",
        "info examples/block/city_block.agb",
        "dsf autogen examples/dsf/autogen_demo.dsf",
        "scenery check --xplane tests/fixtures/xplane",
        "agn locate 001332223121112an.agn",
    ] {
        let plain = run(args, tmp.path());
        let mut with: Vec<&str> = args.split_whitespace().collect();
        with.extend(["--format", "text"]);
        let text = run_argv(&with, tmp.path());
        assert_eq!(text.code, plain.code, "{with:?}: {}", text.stderr);
        assert_eq!(text.stdout, plain.stdout, "{with:?}");
        if !args.starts_with("scenery") && !args.starts_with("agn") {
            with.pop();
            with.push("human");
            let human = run_argv(&with, tmp.path());
            assert_eq!(human.stdout, plain.stdout, "{with:?}");
        }
    }
    // The help offers `text`.
    for words in ["check", "info", "dsf autogen"] {
        let help = run(&format!("{words} --help"), tmp.path()).stdout;
        assert!(help.contains("- text:"), "{words:?}: {help}");
        assert!(!help.contains("- human:"), "{words:?}: {help}");
    }
}

#[test]
fn place_without_arguments_shows_every_form() {
    let tmp = tempfile::tempdir().unwrap();
    let r = run("place", tmp.path());
    assert_eq!(r.code, Some(2));
    insta::assert_snapshot!("place_no_arguments", r.stderr);
    let help = run("place --help", tmp.path()).stdout;
    for form in [
        "--at LAT,LON",
        "--polygon FILE.geojson",
        "--dsf TILE.dsf",
        "--xplane DIR",
    ] {
        assert!(help.contains(form), "{form}: {help}");
    }
}

#[test]
fn scenery_resolve_help_describes_the_json_it_prints() {
    let tmp = tempfile::tempdir().unwrap();
    let help = run("scenery resolve --help", tmp.path()).stdout;
    assert!(!help.contains("findings"), "{help}");
    let json = run(
        "scenery resolve lib/fixture/tower.obj --tile 47.5,13.5 --xplane tests/fixtures/xplane --format json",
        tmp.path(),
    );
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    for key in v.as_object().unwrap().keys() {
        assert!(
            help.contains(&format!("\"{key}\"")),
            "{key} is not in the help: {help}"
        );
    }
}

/// Outputs that cannot be written: each message names the path, says it
/// is the output (file or folder) and what to do.
#[test]
fn an_output_that_cannot_be_written_says_why_and_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("file"), b"x").unwrap();
    std::fs::create_dir(tmp.path().join("folder")).unwrap();
    let cases = [
        "place --dsf examples/dsf/autogen_demo.dsf --scenery examples -o {tmp}/nodir/x.png",
        "place examples/point/plaza.agp --at 47.5,13 -o {tmp}/folder --format svg",
        "place examples/point/plaza.agp --at 47.5,13 -o {tmp}/file/x.svg",
        "dsf build examples/dsf/autogen_demo.txt -o {tmp}/folder",
        "agn dump examples/agn/001332223121112an.agn -o {tmp}/nodir/x.txt",
        "overlay build examples/gis/FEATURES.geojson --rules examples/gis/RULES.toml -o {tmp}/file",
        "convert agn examples/agn -o {tmp}/file",
        "gen -o {tmp}/file",
    ];
    let mut said = String::new();
    for args in cases {
        let r = run(args, tmp.path());
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        let words: Vec<&str> = args.split_whitespace().take(2).collect();
        said.push_str(&format!("$ {}\n{}", words.join(" "), r.stderr));
    }
    insta::assert_snapshot!("output_errors", said);
    // Nothing was made.
    let mut left: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["file", "folder"]);
}

#[test]
fn a_missing_input_is_named_with_its_role_and_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let mut said = String::new();
    for args in [
        "place nope.agb --polygon examples/polygons/rectangle.geojson",
        "place examples/block/city_block.agb --polygon nope.geojson",
        "dsf autogen nope.dsf",
        "info nope.agp",
    ] {
        let r = run(args, tmp.path());
        assert_eq!(r.code, Some(2), "{args:?}");
        said.push_str(&r.stderr);
    }
    insta::assert_snapshot!("missing_inputs", said);
}

#[test]
fn a_busy_port_gets_another_port_as_the_next_step() {
    let tmp = tempfile::tempdir().unwrap();
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    let r = run_argv(&["serve", "examples", "--port", &port], tmp.path());
    assert_eq!(r.code, Some(2));
    let msg = r.stderr.replace(&port, "PORT");
    assert!(msg.contains("127.0.0.1:PORT"), "{msg}");
    assert!(msg.contains("--port 0"), "{msg}");
}

/// One line on stderr after a successful write into a file.
#[test]
fn every_write_into_a_file_ends_with_one_line_saying_so() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "place --dsf examples/dsf/autogen_demo.dsf --scenery examples -o {tmp}/demo.png",
            "wrote TMP/demo.png (3 uses, ",
        ),
        (
            "place examples/block/city_block.agb --polygon examples/polygons/rectangle.geojson --height 12 -o {tmp}/b.json",
            "wrote TMP/b.json (1 use, ",
        ),
        (
            "place --dsf examples/dsf --scenery examples -o {tmp}/all.geojson",
            "wrote TMP/all.geojson (3 uses, ",
        ),
        (
            "dsf build examples/dsf/autogen_demo.txt -o {tmp}/t.dsf",
            "wrote TMP/t.dsf (",
        ),
        (
            "dsf totext examples/dsf/autogen_demo.dsf -o {tmp}/t.txt",
            "wrote TMP/t.txt",
        ),
        (
            "agn dump examples/agn/001332223121112an.agn -o {tmp}/a.txt",
            "wrote TMP/a.txt (",
        ),
        (
            "scenery at 47.5,13.5 --xplane tests/fixtures/xplane -o {tmp}/at.svg",
            "wrote TMP/at.svg (",
        ),
    ];
    for (args, says) in cases {
        let r = run(args, tmp.path());
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
        let last = r.stderr.lines().last().unwrap_or("");
        assert!(last.starts_with(says), "{args:?}: {}", r.stderr);
    }
    // Into standard output there is no such line.
    let r = run("place examples/point/plaza.agp --at 47.5,13", tmp.path());
    assert!(!r.stderr.contains("wrote"), "{}", r.stderr);
}

#[test]
fn a_folder_with_no_tile_is_an_error_not_an_empty_result() {
    let tmp = tempfile::tempdir().unwrap();
    let r = run(
        "place --dsf {tmp} --scenery examples -o {tmp}/x.json",
        tmp.path(),
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    insta::assert_snapshot!("place_dsf_empty_folder", r.stderr);
    assert!(!tmp.path().join("x.json").exists());
}

/// A flag the asset's kind does not read is refused (exit 2), not
/// silently ignored; so is a polygon parameter with `--dsf`, whose uses
/// carry their own.
#[test]
fn a_flag_that_does_not_apply_to_the_asset_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let mut said = String::new();
    for args in [
        "place examples/block/city_block.agb --polygon examples/polygons/rectangle.geojson --spawning 2",
        "place examples/string/town_edge.ags --polygon examples/polygons/lake.geojson --spelling-set 1",
        "place examples/point/plaza.agp --at 47.5,13 --height 10",
        "place examples/point/plaza.agp --at 47.5,13 --param 300",
        "place examples/point/plaza.agp --at 47.5,13 --spawning 1",
    ] {
        let r = run(&format!("{args} -o {{tmp}}/x.json"), tmp.path());
        assert_eq!(r.code, Some(2), "{args}: {}", r.stderr);
        said.push_str(&r.stderr);
    }
    insta::assert_snapshot!("flags_that_do_not_apply", said);
    for flag in [
        "--height 3",
        "--spawning 1",
        "--spelling-set 1",
        "--param 3",
    ] {
        let r = run(
            &format!("place --dsf examples/dsf --scenery examples {flag}"),
            tmp.path(),
        );
        assert_eq!(r.code, Some(2), "{flag}: {}", r.stderr);
        assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
    }
    assert!(!tmp.path().join("x.json").exists());
}

/// A spelling set or a spawning count that matches nothing is a warning,
/// on stderr and in the JSON's `warnings`.
#[test]
fn a_parameter_that_matches_nothing_is_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "place examples/block/city_block.agb --polygon examples/polygons/rectangle.geojson --height 12 --spelling-set 9",
            "no SPELLING_SET is numbered 9 (the DSF parameter's low byte); the asset's are 0, 1: the first set, at line 89, is used",
        ),
        (
            "place examples/block/city_block.agb --polygon examples/polygons/rectangle.geojson --height 1000",
            "no SPELLING_SET 0 admits a block 1000.00 m high",
        ),
        (
            "place examples/string/town_edge.ags --polygon examples/polygons/lake.geojson --height 10 --spawning 9",
            "9 tile-spawning contours asked (the DSF parameter's low byte) but the polygon has 2: all of them spawn",
        ),
    ];
    for (args, says) in cases {
        let r = run(&format!("{args} -o {{tmp}}/x.json"), tmp.path());
        assert_eq!(r.code, Some(0), "{args}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args}: {}", r.stderr);
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(tmp.path().join("x.json")).unwrap()).unwrap();
        let warnings = json["warnings"].as_array().unwrap();
        assert!(
            warnings.iter().any(|w| w.as_str().unwrap().contains(says)),
            "{args}: {warnings:?}"
        );
    }
    // A set that matches says nothing of the kind.
    let r = run(
        "place examples/block/city_block.agb --polygon examples/polygons/rectangle.geojson --height 12 --spelling-set 1",
        tmp.path(),
    );
    assert!(!r.stderr.contains("SPELLING_SET"), "{}", r.stderr);
}

/// A folder with nothing to read is an error naming it (exit 1), for every
/// command that walks folders: a run on nothing never passes as clean.
#[test]
fn a_folder_with_nothing_to_read_is_an_error_for_every_command() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("empty")).unwrap();
    std::fs::write(tmp.path().join("empty/notes.md"), "# not an asset\n").unwrap();
    let mut said = String::new();
    for args in [
        "check {tmp}/empty",
        "check --format json {tmp}/empty",
        "fmt {tmp}/empty",
        "fmt --check {tmp}/empty",
        "agn dump {tmp}/empty --format geojson -o {tmp}/all.geojson",
        "place --dsf {tmp}/empty --scenery examples",
        "convert agn {tmp}/empty -o {tmp}/out",
    ] {
        let r = run(args, tmp.path());
        assert_eq!(r.code, Some(1), "{args}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args}: {}", r.stdout);
        said.push_str(&format!("$ {args}\n{}", r.stderr));
    }
    insta::assert_snapshot!("nothing_to_read", said);
    // A missing one is a usage error.
    let r = run("check {tmp}/nope", tmp.path());
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("TMP/nope: no such file or folder"),
        "{}",
        r.stderr
    );
    let mut left: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["empty"]);
}

/// `examples/polygons/NAME.geojson` with every ring reversed (`flip`)
/// and/or every position written lat,lon (`swap`), into `dir`.
fn rewritten(dir: &Path, name: &str, flip: bool, swap: bool) -> PathBuf {
    let path = Path::new(ROOT).join(format!("examples/polygons/{name}.geojson"));
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for ring in v["features"][0]["geometry"]["coordinates"]
        .as_array_mut()
        .unwrap()
    {
        let ring = ring.as_array_mut().unwrap();
        if flip {
            ring.reverse();
        }
        if swap {
            for p in ring.iter_mut() {
                p.as_array_mut().unwrap().swap(0, 1);
            }
        }
    }
    let out = dir.join(format!("{name}_{flip}_{swap}.geojson"));
    std::fs::write(&out, v.to_string()).unwrap();
    out
}

/// GIS rings in either orientation: a clockwise outer ring and
/// counter-clockwise hole place as the counter-clockwise ones do, with a
/// note on stderr, in `--explain` and in the JSON's `notes`.
#[test]
fn either_ring_orientation_places_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    let flipped = rewritten(tmp.path(), "lake", true, false);
    let place = |poly: &str, extra: &str| {
        run(
            &format!(
                "place examples/string/town_edge.ags --polygon {poly} --height 10 -o {{tmp}}/x.json {extra}"
            ),
            tmp.path(),
        )
    };
    let json = || -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(tmp.path().join("x.json")).unwrap()).unwrap()
    };
    let plain = place("examples/polygons/lake.geojson", "");
    assert_eq!(plain.code, Some(0), "{}", plain.stderr);
    let want = json();
    assert!(
        want.get("notes").is_none(),
        "no note when wound as X-Plane winds"
    );
    let r = place(flipped.to_str().unwrap(), "");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let got = json();
    let notes: Vec<&str> = got["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    insta::assert_snapshot!("reversed_rings_notes", notes.join("\n"));
    for n in &notes {
        assert!(
            r.stderr
                .contains(&format!("note: examples/string/town_edge.ags: {n}")),
            "{}",
            r.stderr
        );
    }
    // The same tiles as the polygon wound as X-Plane winds it.
    for key in ["tiles", "objects", "facades", "trees"] {
        assert_eq!(
            got[key].as_array().unwrap().len(),
            want[key].as_array().unwrap().len(),
            "{key}"
        );
    }
    let r = place(flipped.to_str().unwrap(), "--explain");
    let explain = got["notes"][0].as_str().unwrap();
    assert!(
        r.stderr.contains(&format!(
            "explain: examples/string/town_edge.ags: {explain}"
        )),
        "{}",
        r.stderr
    );
    assert!(
        !r.stderr.contains("note:"),
        "the notes open the explanation instead"
    );
    // A block drawn clockwise places too (its first side kept).
    let block = rewritten(tmp.path(), "rectangle", true, false);
    let r = run(
        &format!(
            "place examples/block/city_block.agb --polygon {} --height 12",
            block.display()
        ),
        tmp.path(),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("note: examples/block/city_block.agb: the outer ring runs clockwise"),
        "{}",
        r.stderr
    );
}

/// Latitude and longitude the wrong way round are read the other way in
/// the message: on the command line (`LAT,LON`), in GeoJSON (`lon,lat`),
/// and when `scenery at` finds nothing where the swapped point has items.
#[test]
fn swapped_coordinates_are_named_with_the_other_reading() {
    let tmp = tempfile::tempdir().unwrap();
    let mut said = String::new();
    for args in [
        "place examples/point/plaza.agp --at 147.5,13",
        "scenery at 113.5,47.5 --xplane tests/fixtures/xplane",
        "scenery resolve lib/fixture/tower.obj --tile 95,13.5 --xplane tests/fixtures/xplane",
        "agn name 147.8,13.04",
    ] {
        let r = run(args, tmp.path());
        assert_eq!(r.code, Some(2), "{args}: {}", r.stderr);
        said.push_str(&r.stderr);
    }
    // GeoJSON written lat,lon beyond 90°: the feature says how it reads.
    std::fs::write(
        tmp.path().join("latlon.geojson"),
        r#"{"type": "Polygon", "coordinates": [[[-33.9, 151.2], [-33.9, 151.3], [-33.8, 151.3], [-33.9, 151.2]]]}"#,
    )
    .unwrap();
    let r = run(
        "place examples/string/town_edge.ags --polygon {tmp}/latlon.geojson",
        tmp.path(),
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    said.push_str(&r.stderr);
    // A swapped point with scenery around the other reading: a warning
    // (and in the JSON), the answer still given.
    let r = run(
        "scenery at 13.5,47.5 --xplane tests/fixtures/xplane --format json",
        tmp.path(),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    said.push_str(&r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        v["warnings"][0]
            .as_str()
            .unwrap()
            .contains("lat 47.5, lon 13.5"),
        "{v}"
    );
    insta::assert_snapshot!("swapped_coordinates", said);
    // Where the other reading holds nothing either, nothing is said.
    let r = run(
        "scenery at 10.5,20.5 --xplane tests/fixtures/xplane",
        tmp.path(),
    );
    assert!(!r.stderr.contains("other way"), "{}", r.stderr);
    // A polygon written lat,lon within range is mirrored, so its outer
    // ring runs clockwise: the note says where it would lie read lon,lat.
    let swapped = rewritten(tmp.path(), "lake", false, true);
    let r = run(
        &format!(
            "place examples/string/town_edge.ags --polygon {} --height 10 -o {{tmp}}/x.json",
            swapped.display()
        ),
        tmp.path(),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("were its numbers lat,lon it would lie at lat 47.5"),
        "{}",
        r.stderr
    );
}

/// `agn name` takes `LAT,LON` like every command; `--lat`/`--lon` still work.
#[test]
fn agn_name_takes_lat_lon_and_the_old_flags() {
    let tmp = tempfile::tempdir().unwrap();
    let a = run("agn name 47.8,13.04", tmp.path());
    let b = run("agn name --lat 47.8 --lon 13.04", tmp.path());
    assert_eq!(a.code, Some(0), "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(a.stdout, "011223301111012an.agn\n");
    let c = run("agn name --lat 47.8", tmp.path());
    assert_eq!(c.code, Some(2));
}

/// Human text labels coordinates: `lat …, lon …`.
#[test]
fn human_text_labels_latitude_and_longitude() {
    let tmp = tempfile::tempdir().unwrap();
    let r = run(
        "scenery at 47.5,13.5 --xplane tests/fixtures/xplane",
        tmp.path(),
    );
    assert!(
        r.stdout
            .starts_with("4 items within 200 m of lat 47.500000, lon 13.500000\n"),
        "{}",
        r.stdout
    );
    // Every place given as coordinates is labelled; `stands at 0.00 m`
    // (an item's height on the ground) is not a place.
    for line in r
        .stdout
        .lines()
        .filter(|l| l.contains(" at ") && !l.trim_start().starts_with("stands at "))
    {
        assert!(line.contains(" at lat "), "{line}");
    }
}
