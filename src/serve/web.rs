//! The page, embedded in the binary (no CDN, no build step): `web/index.html`,
//! `web/style.css`, the icon, and the page's JavaScript modules (`app.js`
//! imports the others; docs/serve.md, "The page's code").

use super::http::Response;

/// Content-Security-Policy of every page response: only this server's own
/// scripts, styles and endpoints.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// Content type of the page.
pub const HTML: &str = "text/html; charset=utf-8";
/// Content type of the page's modules (browsers refuse a module of another type).
pub const JS: &str = "text/javascript; charset=utf-8";
/// Content type of the style sheet.
pub const CSS: &str = "text/css; charset=utf-8";
/// Content type of the icon.
pub const SVG: &str = "image/svg+xml";

/// Every embedded file: its path on the server, content type and bytes.
/// Each file of `web/` (but `package.json` and the node tests in
/// `web/test/`) must be here, and every module a page file imports
/// (`tests/serve.rs` checks both).
pub const FILES: &[(&str, &str, &[u8])] = &[
    ("/index.html", HTML, include_bytes!("../../web/index.html")),
    ("/style.css", CSS, include_bytes!("../../web/style.css")),
    ("/favicon.svg", SVG, include_bytes!("../../web/favicon.svg")),
    ("/app.js", JS, include_bytes!("../../web/app.js")),
    ("/state.js", JS, include_bytes!("../../web/state.js")),
    ("/api.js", JS, include_bytes!("../../web/api.js")),
    ("/geom.js", JS, include_bytes!("../../web/geom.js")),
    ("/items.js", JS, include_bytes!("../../web/items.js")),
    ("/fit.js", JS, include_bytes!("../../web/fit.js")),
    ("/glb.js", JS, include_bytes!("../../web/glb.js")),
    ("/view2d.js", JS, include_bytes!("../../web/view2d.js")),
    ("/view3d.js", JS, include_bytes!("../../web/view3d.js")),
    ("/panels.js", JS, include_bytes!("../../web/panels.js")),
    ("/dom.js", JS, include_bytes!("../../web/dom.js")),
    (
        "/conflicts.js",
        JS,
        include_bytes!("../../web/conflicts.js"),
    ),
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
