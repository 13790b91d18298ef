//! The pipeline's floors, kept by the source itself (issue 47).
//!
//! Reads every file under `src/` and the `crate::` paths its code names
//! (comments, strings and test modules left out), and fails when a module
//! names one on a higher floor, when the modules make a circle, or when the
//! files of one format make a circle. The floors are docs/architecture.md's:
//!
//! 0. **ground** — `ground` (limits, diagnostics, words), `geom`, `fsutil`:
//!    nothing of the pipeline;
//! 1. **formats** — `xptext`, `kinds`, `texture`, `xp`, `obj`, `fac`,
//!    `forest`, `draped`, `dsf`, `agn`, `apt`, `terrain`, `check`: each file
//!    format's types,
//!    reader, writer and checks;
//! 2. **resolver** — `scenery`: packages, libraries, which file wins, the
//!    art found;
//! 3. **placement** — `place`: what the simulator places, never a picture;
//! 4. **scene** — `scene`: each building, object, tree and patch built once;
//! 5. **views** — `out`: pictures, glTF, GIS and tables;
//! 6. **tools** — `overlay`, `convert`, `gen`: library work that composes
//!    the stages;
//! 7. **faces** — `serve` (and the binary's `cli`, the Python crate, which
//!    are outside the library).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each floor and its modules, lowest first.
const FLOORS: &[(&str, &[&str])] = &[
    ("ground", &["ground", "geom", "fsutil", "limits", "diag"]),
    (
        "formats",
        &[
            "xptext", "kinds", "texture", "xp", "obj", "fac", "forest", "draped", "dsf", "agn",
            "apt", "terrain", "check",
        ],
    ),
    ("resolver", &["scenery"]),
    ("placement", &["place"]),
    ("scene", &["scene"]),
    ("views", &["out"]),
    ("tools", &["overlay", "convert", "gen"]),
    ("faces", &["serve", "cli"]),
];

/// The ground's own modules may not name even one another's floor peers
/// outside the ground (checked as any floor is), and `ground/` names
/// nothing of the crate at all.
const GROUND_ALONE: &str = "ground";

fn floor_of(module: &str) -> Option<usize> {
    FLOORS.iter().position(|(_, ms)| ms.contains(&module))
}

/// `text` without comments, string and char literals, and `#[cfg(test)]`
/// items (a test module may reach anywhere).
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if b.get(i + 1) == Some(&b'#') || (b.get(i + 1) == Some(&b'"')) => {
                // A raw string r"…" or r#"…"#, else the identifier's r.
                let mut j = i + 1;
                while b.get(j) == Some(&b'#') {
                    j += 1;
                }
                if b.get(j) == Some(&b'"') && (i == 0 || !is_ident(b[i - 1])) {
                    let hashes = j - i - 1;
                    let mut k = j + 1;
                    loop {
                        if k >= b.len() {
                            break;
                        }
                        if b[k] == b'"' && b[k + 1..].iter().take(hashes).all(|&c| c == b'#') {
                            k += 1 + hashes;
                            break;
                        }
                        k += 1;
                    }
                    out.push_str("\"\"");
                    i = k;
                } else {
                    out.push('r');
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'\'' => {
                // A char literal ('x', '\n', '\u{1F}') or a lifetime.
                let close = (i + 2..(i + 12).min(b.len())).find(|&k| b[k] == b'\'');
                let literal = match close {
                    Some(k) => b[i + 1] == b'\\' || k == i + 2 || !b[i + 1].is_ascii_alphabetic(),
                    None => false,
                };
                if let (true, Some(k)) = (literal, close) {
                    out.push_str("' '");
                    i = k + 1;
                } else {
                    out.push('\'');
                    i += 1;
                }
            }
            _ => {
                // Multi-byte characters are copied whole.
                let len = utf8_len(b[i]);
                out.push_str(&text[i..i + len]);
                i += len;
            }
        }
    }
    without_tests(&out)
}

fn utf8_len(first: u8) -> usize {
    match first {
        0..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `code` without the items marked `#[cfg(test)]` (the braces of the item
/// after the attribute matched).
fn without_tests(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let (Some(open), semi) = (after.find('{'), after.find(';')) else {
            rest = "";
            break;
        };
        if semi.is_some_and(|s| s < open) {
            rest = &after[semi.unwrap_or(0) + 1..];
            continue;
        }
        let mut depth = 0;
        let mut end = after.len();
        for (k, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The `crate::NAME` paths `code` names (the first segment after
/// `crate::`, `r#` taken off), and the files of the module that name
/// `crate::MODULE::FILE` or `super::FILE`.
fn names(code: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].bytes().last();
        rest = &rest[at + 7..];
        if before.is_some_and(|c| is_ident(c) || c == b'$') {
            // `$crate::` in a macro, or part of a longer name.
            if before == Some(b'$') {
                continue;
            }
            continue;
        }
        let name: String = rest
            .trim_start_matches("r#")
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            v.push(name);
        }
    }
    v
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file under `src/` belongs to (`None` for
/// `lib.rs` and `main.rs`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let m = first.trim_end_matches(".rs").to_string();
    (m != "lib" && m != "main").then_some(m)
}

/// The references between the library's top-level modules: (from, to) →
/// the files that make it.
fn module_edges(src: &Path) -> BTreeMap<(String, String), BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let Some(from) = module_of(src, &f) else {
            continue;
        };
        let code = code_of(&std::fs::read_to_string(&f).unwrap());
        for to in names(&code) {
            let to = match to.as_str() {
                "limits" | "diag" => "ground".to_string(),
                _ => to,
            };
            if to != from && floor_of(&to).is_some() {
                let rel = f.strip_prefix(src).unwrap().display().to_string();
                edges.entry((from.clone(), to)).or_default().insert(rel);
            }
        }
    }
    edges
}

/// The circles of a graph, each as the nodes of one strongly connected
/// component of more than one node.
fn circles(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for (a, b) in edges {
                if *a == n && seen.insert(b.clone()) {
                    stack.push(b.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in &nodes {
        if done.contains(*n) || !reaches[n].contains(*n) {
            continue;
        }
        let comp: Vec<String> = nodes
            .iter()
            .filter(|m| reaches[n].contains(**m) && reaches[*m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        done.extend(comp.iter().cloned());
        out.push(comp);
    }
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_names_one_on_a_higher_floor() {
    let src = src();
    let mut wrong = Vec::new();
    for ((from, to), files) in module_edges(&src) {
        let (Some(a), Some(b)) = (floor_of(&from), floor_of(&to)) else {
            continue;
        };
        let up = b > a;
        let ground_reaches_out = from == GROUND_ALONE;
        if up || ground_reaches_out {
            wrong.push(format!(
                "{from} ({}) names {to} ({}) in {}",
                FLOORS[a].0,
                FLOORS[b].0,
                files.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_module_has_a_floor() {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(&src, f)).collect();
    let none: Vec<&String> = modules.iter().filter(|m| floor_of(m).is_none()).collect();
    assert!(none.is_empty(), "modules without a floor: {none:?}");
}

#[test]
fn the_modules_make_no_circle() {
    let edges: BTreeSet<(String, String)> = module_edges(&src()).into_keys().collect();
    let found = circles(&edges);
    assert!(found.is_empty(), "circles: {found:?}");
}

/// The files of one format module (its `mod.rs` or root file is the
/// module itself, `(root)`), and which of them each names.
fn file_edges(src: &Path, module: &str) -> BTreeSet<(String, String)> {
    let dir = src.join(module);
    let mut files = Vec::new();
    if dir.is_dir() {
        rust_files(&dir, &mut files);
    }
    let name = |f: &Path| -> String {
        let rel = f.strip_prefix(&dir).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        match first.trim_end_matches(".rs") {
            "mod" => "(root)".to_string(),
            n => n.to_string(),
        }
    };
    let known: BTreeSet<String> = files.iter().map(|f| name(f)).collect();
    let mut edges = BTreeSet::new();
    for f in &files {
        let from = name(f);
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        let top_level = f.strip_prefix(&dir).unwrap().components().count() == 1;
        let prefix = format!("crate::{module}::");
        let mut targets: Vec<String> = Vec::new();
        let mut rest = code.as_str();
        while let Some(at) = rest.find(&prefix) {
            rest = &rest[at + prefix.len()..];
            targets.push(
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect(),
            );
        }
        if top_level {
            let mut rest = code.as_str();
            while let Some(at) = rest.find("super::") {
                rest = &rest[at + 7..];
                if !rest.starts_with("super::") {
                    targets.push(
                        rest.chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect(),
                    );
                }
            }
        }
        for t in targets {
            if t != from && known.contains(&t) && from != "(root)" && t != "(root)" {
                edges.insert((from.clone(), t));
            }
        }
    }
    edges
}

/// Circles of files inside a format still to be broken, exactly as the
/// test reports them: one entry per circle, removed when it is broken (the
/// test fails on a circle not listed and on an entry no longer found).
/// None is left: the last, `dsf: cmd ↔ flat ↔ read ↔ text ↔ write`, was
/// broken by moving the cursor, atoms and read errors to `dsf/cursor.rs`
/// and the overlay test to `Dsf::is_overlay`.
const STILL_CIRCULAR: &[&str] = &[];

#[test]
fn no_format_is_a_circle_of_its_files() {
    let src = src();
    let formats = FLOORS[1].1;
    let mut found = Vec::new();
    for m in formats {
        for c in circles(&file_edges(&src, m)) {
            found.push(format!("{m}: {}", c.join(" ↔ ")));
        }
    }
    let new: Vec<&String> = found
        .iter()
        .filter(|c| !STILL_CIRCULAR.contains(&c.as_str()))
        .collect();
    let gone: Vec<&&str> = STILL_CIRCULAR
        .iter()
        .filter(|c| !found.iter().any(|f| f == *c))
        .collect();
    assert!(new.is_empty(), "circles of files: {new:?}");
    assert!(
        gone.is_empty(),
        "broken, so remove from STILL_CIRCULAR: {gone:?}"
    );
}

/// The test reads what the code names, not what its comments and strings
/// say: a check of the reader itself.
#[test]
fn comments_strings_and_tests_are_not_read_as_code() {
    let text = "use crate::a; // crate::b\n/* crate::c */ let s = \"crate::d\";\n\
                let c = '\"'; let l: &'static str = r#\"crate::e\"#; crate::f::x();\n\
                #[cfg(test)]\nmod tests { use crate::g; }\nfn h() { crate::h::y() }";
    assert_eq!(names(&code_of(text)), ["a", "f", "h"]);
}

/// Files whose diagnostic codes are still spelled where they are reported
/// (issue 47 item 4). None is left since the DSF reader's, linter's and
/// builder's codes moved into `dsf/rules.rs`. An entry is removed when its
/// file is clean (the test fails on a stale one).
const CODES_STILL_SPELLED: &[&str] = &[];

/// A string literal that is a diagnostic code (`"AGN004"`, `"LIB010"`), on
/// a line of code: the text between its quotes.
fn spelled_code(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if t.starts_with("//") {
        return None;
    }
    let mut rest = line;
    while let Some(i) = rest.find('"') {
        let after = &rest[i + 1..];
        let Some(j) = after.find('"') else { break };
        let s = &after[..j];
        let letters = s.bytes().take_while(u8::is_ascii_uppercase).count();
        let digits = s.len() - letters;
        if (2..=4).contains(&letters)
            && (3..=4).contains(&digits)
            && s.bytes().skip(letters).all(|b| b.is_ascii_digit())
        {
            return Some(s);
        }
        rest = &after[j + 1..];
    }
    None
}

/// Every diagnostic code is a constant of a `rules!` table, never a
/// string spelled where it is reported: the codes, severities and
/// summaries live in one table per format, which docs/diagnostics.md (and
/// scenery.md, agn.md) mirror.
#[test]
fn diagnostic_codes_are_spelled_only_in_their_rules_tables() {
    let src = src();
    let mut spelled: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    {
        for p in files {
            let rel = p
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&p).unwrap();
            // Test modules close each file by convention; tests may spell
            // the codes they expect.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for (n, line) in code.lines().enumerate() {
                // A rules! row: `NAME = "CODE", Severity, "summary";`.
                if line.contains("\", Error,")
                    || line.contains("\", Warning,")
                    || line.contains("\", Note,")
                {
                    continue;
                }
                if let Some(c) = spelled_code(line) {
                    spelled
                        .entry(rel.clone())
                        .or_default()
                        .push(format!("{}: {c}", n + 1));
                }
            }
        }
    }
    let new: Vec<String> = spelled
        .iter()
        .filter(|(f, _)| !CODES_STILL_SPELLED.contains(&f.as_str()))
        .map(|(f, v)| format!("{f}:{}", v.join(", ")))
        .collect();
    let stale: Vec<&&str> = CODES_STILL_SPELLED
        .iter()
        .filter(|f| !spelled.contains_key(**f))
        .collect();
    assert!(new.is_empty(), "codes spelled where reported: {new:#?}");
    assert!(
        stale.is_empty(),
        "clean now, so remove from CODES_STILL_SPELLED: {stale:?}"
    );
}

#[test]
fn a_spelled_code_is_found_and_a_table_row_or_word_is_not() {
    assert_eq!(spelled_code("  err(0, \"AGN002\", x)"), Some("AGN002"));
    assert_eq!(spelled_code("x(\"a\", \"POL0009\")"), Some("POL0009"));
    assert_eq!(spelled_code("// \"AGN002\""), None);
    assert_eq!(spelled_code("\"RIFF\" \"AGNX\""), None);
    assert_eq!(spelled_code("\"A2GE\""), None);
}
