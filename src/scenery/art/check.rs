//! The art checks: every art file a path leads to that cannot be found or
//! read ([`ArtStore::problems`], [`ArtStore::asset_problems`]), as
//! diagnostics at the line naming it ([`file_diagnostics`]).

use super::locate::Libraries;
use super::store::ArtStore;
use crate::diag::{Diagnostic, Location, Severity};
use crate::scenery::art::{ArtKind, ArtState, codes};
use crate::xp::model::Asset;
use std::path::{Path, PathBuf};

/// One art file that could not be found or read, and the chain of files
/// that named it.
#[derive(Debug, Clone, PartialEq)]
pub struct ArtProblem {
    /// The paths from the asset's directive down to this one (the first
    /// is what the asset names; the last is this file).
    pub chain: Vec<String>,
    /// What the last path names.
    pub kind: ArtKind,
    /// Missing, not looked up, or unreadable.
    pub state: ArtState,
    /// Why it was not found, or why it does not read.
    pub how: String,
    /// The path tried beside the file naming it.
    pub tried: Option<PathBuf>,
}

impl ArtProblem {
    /// One line: `fountain.obj names texture fountain.dds: not found
    /// (…; tried …)`.
    pub fn message(&self) -> String {
        self.message_within(None)
    }

    /// [`ArtProblem::message`] with the path tried shown relative to
    /// `root` when inside it (an installation's reports).
    pub fn message_within(&self, root: Option<&Path>) -> String {
        let mut s = String::new();
        for (i, p) in self.chain.iter().enumerate() {
            if i + 1 == self.chain.len() {
                if i == 0 {
                    s.push_str(&format!("{} {p}", self.kind.noun()));
                } else {
                    s.push_str(&format!("names {} {p}", self.kind.noun()));
                }
            } else {
                s.push_str(&format!("{p} "));
            }
        }
        match &self.tried {
            Some(t) => format!(
                "{s}: {} ({}; tried {})",
                self.state.describe(),
                self.how,
                root.and_then(|r| t.strip_prefix(r).ok())
                    .unwrap_or(t)
                    .display()
            ),
            None => format!("{s}: {} ({})", self.state.describe(), self.how),
        }
    }

    /// The diagnostic for it at `location`, paths tried shown relative
    /// to `root` when given.
    pub fn diagnostic(&self, location: Location, root: Option<&Path>) -> Diagnostic {
        let (sev, code) = match self.state {
            ArtState::Unchecked => (Severity::Note, codes::ART_UNCHECKED),
            ArtState::Invalid => (Severity::Warning, codes::ART_INVALID),
            _ => (Severity::Warning, codes::ART_MISSING),
        };
        Diagnostic::new(sev, code, self.message_within(root), location)
    }
}

/// How deep [`ArtStore::problems`] follows names (asset → facade → its
/// object → its texture).
pub const MAX_DEPTH: usize = 4;

impl ArtStore {
    /// Every art file `path` (named by `naming`) leads to that cannot be
    /// found or read: the file itself, else what it names, and so on down
    /// to [`MAX_DEPTH`] files.
    pub fn problems(
        &self,
        naming: &Path,
        path: &str,
        kind: ArtKind,
        libs: Option<&Libraries>,
    ) -> Vec<ArtProblem> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        self.walk(
            naming,
            path,
            kind,
            libs,
            &mut Vec::new(),
            &mut seen,
            &mut out,
        );
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        naming: &Path,
        path: &str,
        kind: ArtKind,
        libs: Option<&Libraries>,
        chain: &mut Vec<String>,
        seen: &mut std::collections::HashSet<PathBuf>,
        out: &mut Vec<ArtProblem>,
    ) {
        chain.push(path.to_string());
        let (at, read) = self.open(naming, path, kind, libs);
        if at.state != ArtState::Found {
            out.push(ArtProblem {
                chain: chain.clone(),
                kind,
                state: at.state,
                how: at.how,
                tried: at.tried,
            });
        } else if let (Some(file), Some(read)) = (&at.file, read)
            && chain.len() < MAX_DEPTH
            && seen.insert(file.clone())
        {
            for (p, k) in read.names() {
                self.walk(file, &p, k, libs, chain, seen, out);
            }
        }
        chain.pop();
    }

    /// Every art `asset` (read from `file`) names, directly or through
    /// what it names, that cannot be found or read, with the line of the
    /// asset's directive: `OBJECT`, `FACADE`, `VEGETATION`, `TEXTURE`,
    /// `TEXTURE_LIT`, `TEXTURE_NORMAL`.
    pub fn asset_problems(
        &self,
        file: &Path,
        asset: &Asset,
        libs: Option<&Libraries>,
    ) -> Vec<(usize, ArtProblem)> {
        let c = &asset.common;
        let mut named: Vec<(usize, &str, ArtKind)> = Vec::new();
        for t in [&c.texture, &c.texture_lit].into_iter().flatten() {
            named.push((t.line, &t.value, ArtKind::Texture));
        }
        if let Some(n) = &c.texture_normal {
            named.push((n.line, &n.value.path, ArtKind::Texture));
        }
        named.extend(
            c.objects
                .iter()
                .map(|o| (o.line, o.value.as_str(), ArtKind::Object)),
        );
        named.extend(
            c.facades
                .iter()
                .map(|f| (f.line, f.value.as_str(), ArtKind::Facade)),
        );
        named.extend(
            c.vegetation
                .iter()
                .map(|v| (v.line, v.value.as_str(), ArtKind::Forest)),
        );
        let mut out = Vec::new();
        for (line, path, kind) in named {
            if path.trim().is_empty() {
                continue;
            }
            for p in self.problems(file, path, kind, libs) {
                out.push((line, p));
            }
        }
        out
    }
}

/// The art diagnostics of a file `agkit check` reads: for an autogen
/// asset, every art it names that cannot be found or read, at its
/// directive's line; for an object, facade or forest, every texture (and a
/// facade's objects) it names, at the first line that names it; for a
/// `.pol`, `.lin`, `.ter` or `.net`, every texture it names, and for a
/// `.str` every object, at the line naming it. Paths tried are shown
/// relative to `root` when given.
pub fn file_diagnostics(
    store: &ArtStore,
    file: &Path,
    text: &str,
    libs: Option<&Libraries>,
    root: Option<&Path>,
) -> Vec<Diagnostic> {
    // One index of the text's lines for every diagnostic.
    let lines = crate::diag::LineIndex::new(text);
    let line_span = |line: usize| lines.span(text, line);
    match crate::check::classify(file, text.as_bytes()) {
        crate::check::FileKind::Text => match crate::xp::parse_lenient(text) {
            (Some(asset), _) => asset_diagnostics(store, file, text, &asset, libs, root),
            _ => Vec::new(),
        },
        crate::check::FileKind::Draped(k) => {
            let c = crate::draped::check(k, text.as_bytes(), &crate::limits::Limits::default());
            let mut out = Vec::new();
            for n in c.value.map(|v| v.named()).unwrap_or_default() {
                if n.path.trim().is_empty() {
                    continue;
                }
                let at = Location::Span(line_span(lines.line(n.span.start)));
                for p in store.problems(file, &n.path, n.kind, libs) {
                    out.push(p.diagnostic(at.clone(), root));
                }
            }
            out
        }
        crate::check::FileKind::Art(k) => {
            if k == ArtKind::Texture {
                return Vec::new();
            }
            let read = store.read(file, k);
            let mut out = Vec::new();
            for (path, k) in read.names() {
                let at = text
                    .find(path.as_str())
                    .map_or(Location::File, |i| Location::Span(line_span(lines.line(i))));
                for p in store.problems(file, &path, k, libs) {
                    out.push(p.diagnostic(at.clone(), root));
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The art diagnostics of the autogen `asset` read from `file` (whose text
/// is `text`): every art it names that cannot be found or read, at its
/// directive's line ([`file_diagnostics`] of an asset already parsed).
pub fn asset_diagnostics(
    store: &ArtStore,
    file: &Path,
    text: &str,
    asset: &Asset,
    libs: Option<&Libraries>,
    root: Option<&Path>,
) -> Vec<Diagnostic> {
    let problems = store.asset_problems(file, asset, libs);
    if problems.is_empty() {
        return Vec::new();
    }
    let lines = crate::diag::LineIndex::new(text);
    problems
        .into_iter()
        .map(|(line, p)| p.diagnostic(Location::Span(lines.span(text, line)), root))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_texture_is_found_at_its_line_when_lines_end_in_a_lone_cr() {
        let d = tempfile::tempdir().unwrap();
        let obj = d.path().join("a.obj");
        let text = "I\r800\rOBJ\rTEXTURE missing.png\rPOINT_COUNTS 0 0 0 0\r";
        std::fs::write(&obj, text).unwrap();
        let store = super::ArtStore::default();
        let diags = super::file_diagnostics(&store, &obj, text, None, None);
        assert_eq!(diags.len(), 1, "{diags:?}");
        let crate::diag::Location::Span(span) = &diags[0].location else {
            panic!("{diags:?}");
        };
        assert_eq!(&text[span.clone()], "TEXTURE missing.png");
    }

    #[test]
    fn spans_of_lines_end_at_any_break() {
        let t = "A\r\n1000\rAG_POINT\nOBJECT x.obj\n";
        let lines = crate::diag::LineIndex::new(t);
        let line_span = |n| lines.span(t, n);
        assert_eq!(&t[line_span(1)], "A");
        assert_eq!(&t[line_span(2)], "1000");
        assert_eq!(&t[line_span(4)], "OBJECT x.obj");
        assert_eq!(line_span(9), t.len()..t.len());
    }
}
