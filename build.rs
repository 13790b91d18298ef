//! Sets `AGKIT_VERSION`, what `agkit --version` prints: the crate's version,
//! plus the commit it was built from where the build has one.
//!
//! - A git checkout (`.git` beside Cargo.toml: a folder, or in a worktree or
//!   submodule a file naming the real one) gives `0.1.0 (1a2b3c4d5 2026-11-27)`,
//!   the short hash and commit date of HEAD as git reports them.
//! - A package from `cargo package` or crates.io has no `.git`, but cargo
//!   recorded the commit it was packaged from in `.cargo_vcs_info.json`:
//!   `0.1.0 (1a2b3c4d5)`.
//! - Neither (a tarball, no git installed, git failing): `0.1.0`.
//!
//! Nothing here fails the build. Only a `.git` right beside Cargo.toml
//! counts: a crate unpacked inside some other repository (cargo's registry
//! under a home folder kept in git, `target/package/`) must not print that
//! repository's commit.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=build.rs");
    let commit = if dir.join(".git").exists() {
        from_git(&dir)
    } else {
        from_vcs_info(&dir)
    };
    match commit {
        Some(c) => println!("cargo:rustc-env=AGKIT_VERSION={version} ({c})"),
        None => println!("cargo:rustc-env=AGKIT_VERSION={version}"),
    }
}

/// `git -C dir ARGS`, its trimmed standard output when it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        // The checkout beside Cargo.toml, never one found above it.
        .env("GIT_CEILING_DIRECTORIES", dir.parent().unwrap_or(dir))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?;
    Some(s.trim().to_string())
}

/// HEAD's short hash and commit date, and the files whose change moves
/// HEAD, for cargo to rerun this script when they change.
fn from_git(dir: &Path) -> Option<String> {
    // Rerun when HEAD moves: HEAD itself (another branch checked out), its
    // reflog (every commit, checkout and reset in this worktree), and the
    // branch HEAD names, loose or packed. `--git-path` resolves each
    // through a worktree's `.git` file to where the file really is. Only
    // existing paths: cargo reruns a script on every build for a missing
    // one.
    let mut watch = vec![
        "HEAD".to_string(),
        "logs/HEAD".to_string(),
        "packed-refs".to_string(),
    ];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watch.push(branch);
    }
    for name in &watch {
        // Relative to `dir` (`--path-format=absolute` needs git 2.31).
        if let Some(p) = git(dir, &["rev-parse", "--git-path", name]) {
            let p = dir.join(p);
            if p.is_file() {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
    let line = git(
        dir,
        &["log", "-1", "--format=%h %cd", "--date=short", "--abbrev=9"],
    )?;
    let (hash, date) = line.split_once(' ')?;
    let ok = hash.len() >= 7 && hash.bytes().all(|b| b.is_ascii_hexdigit());
    let date_ok = date.len() == 10 && date.bytes().all(|b| b.is_ascii_digit() || b == b'-');
    (ok && date_ok).then(|| format!("{hash} {date}"))
}

/// The commit cargo recorded when it packaged the crate:
/// `{"git": {"sha1": "…"}, …}` in `.cargo_vcs_info.json`.
fn from_vcs_info(dir: &Path) -> Option<String> {
    let path = dir.join(".cargo_vcs_info.json");
    let text = std::fs::read_to_string(&path).ok()?;
    println!("cargo:rerun-if-changed={}", path.display());
    // A small file cargo writes itself; the hash is the value of the one
    // "sha1" key. No JSON parser for this one string.
    let after = &text[text.find("\"sha1\"")? + 6..];
    let after = after.trim_start().strip_prefix(':')?.trim_start();
    let hash = after.strip_prefix('"')?.split('"').next()?;
    let ok = hash.len() == 40 && hash.bytes().all(|b| b.is_ascii_hexdigit());
    ok.then(|| hash[..9].to_string())
}
