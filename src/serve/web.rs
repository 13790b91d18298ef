//! The page, embedded in the binary (no CDN, no build step): `web/index.html`,
//! `web/app.js`, `web/style.css`.

use super::http::Response;

/// Content-Security-Policy of every page response: only this server's own
/// scripts, styles and endpoints.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// The embedded file served at `path`, with its content type.
pub fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    match path {
        "/" | "/index.html" => Some((
            "text/html; charset=utf-8",
            include_bytes!("../../web/index.html"),
        )),
        "/app.js" => Some((
            "text/javascript; charset=utf-8",
            include_bytes!("../../web/app.js"),
        )),
        "/style.css" => Some((
            "text/css; charset=utf-8",
            include_bytes!("../../web/style.css"),
        )),
        "/favicon.svg" | "/favicon.ico" => {
            Some(("image/svg+xml", include_bytes!("../../web/favicon.svg")))
        }
        _ => None,
    }
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
