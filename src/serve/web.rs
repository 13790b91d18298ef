//! The page, embedded in the binary (no CDN, no build step): `web/index.html`,
//! `web/style.css`, the icon, and the page's JavaScript modules (`app.js`
//! imports the others; docs/serve.md, "The page's code").

use super::http::Response;

/// Content-Security-Policy of every page response: only this server's own
/// scripts, styles and endpoints.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// Every embedded file: its path on the server, content type and bytes.
/// A module a page file imports must be here (a test checks it), and is
/// served as `text/javascript` (browsers refuse modules of other types).
pub const FILES: &[(&str, &str, &[u8])] = &[
    ("/index.html", HTML, include_bytes!("../../web/index.html")),
    ("/style.css", CSS, include_bytes!("../../web/style.css")),
    ("/favicon.svg", SVG, include_bytes!("../../web/favicon.svg")),
    ("/app.js", JS, include_bytes!("../../web/app.js")),
    ("/state.js", JS, include_bytes!("../../web/state.js")),
    ("/api.js", JS, include_bytes!("../../web/api.js")),
    ("/geom.js", JS, include_bytes!("../../web/geom.js")),
    ("/items.js", JS, include_bytes!("../../web/items.js")),
    ("/glb.js", JS, include_bytes!("../../web/glb.js")),
    ("/view2d.js", JS, include_bytes!("../../web/view2d.js")),
    ("/view3d.js", JS, include_bytes!("../../web/view3d.js")),
    ("/panels.js", JS, include_bytes!("../../web/panels.js")),
];

/// The embedded file served at `path`, with its content type.
pub fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    let path = match path {
        "/" => "/index.html",
        "/favicon.ico" => "/favicon.svg",
        p => p,
    };
    FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, ct, body)| (ct, body))
}

/// The response for an embedded file (404 when there is none).
pub fn response(path: &str) -> Response {
    match asset(path) {
        Some((ct, body)) => {
            let mut r = Response::new(200, ct, body);
            r.headers.push(("Content-Security-Policy", CSP.into()));
            r.headers.push(("X-Frame-Options", "DENY".into()));
            r
        }
        None => Response::error(404, "no such page"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The module paths `import … from './x.js'` lines of `js` name.
    fn imports(js: &str) -> Vec<String> {
        js.lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with("import ") || l.starts_with("} from "))
            .filter_map(|l| {
                let at = l.find(" from '")? + 7;
                let end = l[at..].find('\'')?;
                Some(l[at..at + end].to_string())
            })
            .collect()
    }

    #[test]
    fn every_file_of_web_is_served_with_its_type() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().unwrap().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != "package.json")
            .collect();
        let served: BTreeSet<String> = FILES.iter().map(|(p, _, _)| p[1..].to_string()).collect();
        assert_eq!(on_disk, served, "web/ and the embedded files differ");
        for (p, ct, body) in FILES {
            assert_eq!(
                std::fs::read(dir.join(&p[1..])).unwrap(),
                *body,
                "{p} is stale"
            );
            if p.ends_with(".js") {
                assert!(ct.starts_with("text/javascript"), "{p} is served as {ct}");
            }
        }
        assert_eq!(asset("/").unwrap().0, HTML);
        assert_eq!(asset("/favicon.ico").unwrap().0, SVG);
        assert!(asset("/package.json").is_none());
        assert!(asset("/test/state.test.mjs").is_none());
    }

    #[test]
    fn every_module_the_page_imports_is_served() {
        let mut seen = 0;
        for (p, _, body) in FILES.iter().filter(|(p, _, _)| p.ends_with(".js")) {
            let js = std::str::from_utf8(body).unwrap();
            for m in imports(js) {
                let path = m.strip_prefix("./").unwrap_or_else(|| panic!("{p} imports {m}, not ./…"));
                let (ct, _) = asset(&format!("/{path}")).unwrap_or_else(|| panic!("{p} imports {m}, not served"));
                assert_eq!(ct, JS);
                seen += 1;
            }
        }
        assert!(seen >= 7, "only {seen} imports found");
        let html = std::str::from_utf8(asset("/").unwrap().1).unwrap();
        assert!(html.contains(r#"<script type="module" src="/app.js">"#));
    }
}
