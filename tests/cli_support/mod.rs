//! What the command-line tests (`tests/cli.rs`, `tests/cli_gates.rs`,
//! `tests/hostile.rs`, `tests/place_art.rs`) share: the subcommands
//! `agkit --help` lists, a folder copied, a named pipe made.

// Each test binary uses only some of them.
#![allow(dead_code)]

const BIN: &str = env!("CARGO_BIN_EXE_agkit");

/// The help text of `agkit WORDS… --help`.
pub fn help_of(words: &[&str]) -> String {
    let out = std::process::Command::new(BIN)
        .args(words)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "{words:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommand names listed under "Commands:" in a help text.
pub fn listed_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // Two spaces, then the name; wrapped descriptions are indented more.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&n| n != "help")
        .map(str::to_string)
        .collect()
}

/// Every subcommand `agkit --help` lists, as its words (`["dsf",
/// "totext"]`), in the order listed.
pub fn subcommands() -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for top in listed_commands(&help_of(&[])) {
        let nested = listed_commands(&help_of(&[top.as_str()]));
        if nested.is_empty() {
            found.push(vec![top]);
        } else {
            found.extend(nested.into_iter().map(|n| vec![top.clone(), n]));
        }
    }
    found
}

/// Copies the folder `from` (and every folder in it) to `to`.
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

/// Makes a named pipe (FIFO) at `path`.
#[cfg(unix)]
pub fn mkfifo(path: &std::path::Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "{path:?}");
}
