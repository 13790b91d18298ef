//! HTTP tests of `agkit serve`: a real server on port 0 in a thread, raw
//! requests over TCP (so the exact bytes of a hostile request are sent).

use agkit::serve::{Config, LibrarySource, Server, Shared};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

const SECRET: &str = "TOP-SECRET-OUTSIDE-THE-ROOT";

/// A small but complete AGS (our own writing): three tiles, a corner, caps.
const AGS: &str = include_str!("../e2e/fixtures/shore_houses.ags");

struct Fixture {
    _outside: tempfile::TempDir,
    dir: tempfile::TempDir,
    addr: SocketAddr,
}

fn start() -> Fixture {
    start_with(|_| {}).0
}

/// A server over the usual tree, its configuration changed by `tune`.
fn start_with(tune: impl FnOnce(&mut Config)) -> (Fixture, Arc<Shared>) {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.ags"), SECRET).unwrap();
    std::fs::write(outside.path().join("secret.geojson"), SECRET).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("assets");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::create_dir_all(root.join(".hidden")).unwrap();
    std::fs::write(root.join("shore.ags"), AGS).unwrap();
    std::fs::write(
        root.join("sub/broken.agb"),
        "A\n1000\nAG_BLOCK\nNOT_A_DIRECTIVE 1 2\n",
    )
    .unwrap();
    std::fs::write(root.join(".hidden/ghost.agp"), "A\n1000\nAG_POINT\n").unwrap();
    std::fs::write(root.join("notes.txt"), "not served").unwrap();
    std::fs::write(
        root.join("block.geojson"),
        r#"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":
           [[[13.0,47.5],[13.002,47.5],[13.002,47.501],[13.0,47.501],[13.0,47.5]]]}}"#,
    )
    .unwrap();
    // A secret beside the root, reachable by `..` from it.
    std::fs::write(dir.path().join("beside.ags"), SECRET).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.path().join("secret.ags"), root.join("link.ags"))
            .unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("linkdir")).unwrap();
    }
    let mut cfg = Config::new(&root);
    cfg.poll = Duration::from_millis(50);
    tune(&mut cfg);
    let server = Server::bind(&cfg).unwrap();
    let addr = server.local_addr();
    assert!(addr.ip().is_loopback());
    let shared = server.shared();
    std::thread::spawn(move || server.run());
    let f = Fixture {
        _outside: outside,
        dir,
        addr,
    };
    (f, shared)
}

impl Fixture {
    fn root(&self) -> std::path::PathBuf {
        self.dir.path().join("assets")
    }

    /// The art the asset `name` of the served folder names, as the
    /// previewer reads it: beside the asset, inside the folder.
    fn art(
        &self,
        name: &str,
        asset: &agkit::xp::model::Asset,
    ) -> Option<std::sync::Arc<agkit::place::art::Art>> {
        let root = self.root().canonicalize().unwrap();
        Some(
            agkit::scenery::art::ArtStore::default()
                .within(&root)
                .art_for(&root.join(name), asset, None),
        )
    }

    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.addr.port())
    }

    /// Sends raw bytes; returns (status, headers, body).
    fn raw(&self, bytes: &[u8]) -> (u16, String, Vec<u8>) {
        let mut s = TcpStream::connect(self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s.write_all(bytes).unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        let (head, _) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body_at = out
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map_or(out.len(), |i| i + 4);
        (status, head.to_string(), out[body_at..].to_vec())
    }

    fn get_with(&self, target: &str, host: &str, extra: &str) -> (u16, String, Vec<u8>) {
        self.raw(format!("GET {target} HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n").as_bytes())
    }

    fn get(&self, target: &str) -> (u16, Value) {
        let (status, _, body) = self.get_with(target, &self.host(), "");
        (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }

    fn post(&self, target: &str, body: &str) -> (u16, Value) {
        let req = format!(
            "POST {target} HTTP/1.1\r\nHost: {}\r\nOrigin: http://{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.host(),
            self.host(),
            body.len()
        );
        let (status, _, body) = self.raw(req.as_bytes());
        (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }
}

/// What `agkit check --format json REL` prints, run in `dir`.
fn cli_check_json(dir: &std::path::Path, rel: &str) -> Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["check", "--format", "json", rel])
        .current_dir(dir)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "agkit check printed no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

fn error_of(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}

#[test]
fn serves_the_page_with_a_strict_policy() {
    let f = start();
    let (status, head, body) = f.get_with("/", &f.host(), "");
    assert_eq!(status, 200);
    let html = String::from_utf8(body).unwrap();
    assert!(html.contains("<title>agkit serve</title>"));
    assert!(html.contains(r#"<script type="module" src="/app.js">"#));
    assert!(head.contains("Content-Security-Policy: default-src 'none'"));
    assert!(head.contains("text/html"));
    // The page's modules: each served as JavaScript (browsers refuse a
    // module of another type), under the same policy.
    for m in [
        "app", "state", "api", "geom", "items", "glb", "view2d", "view3d", "panels", "dom",
    ] {
        let (status, head, js) = f.get_with(&format!("/{m}.js"), &f.host(), "");
        assert_eq!(status, 200, "/{m}.js");
        assert!(
            head.contains("Content-Type: text/javascript"),
            "/{m}.js: {head}"
        );
        assert!(head.contains("Content-Security-Policy: default-src 'none'"));
        let js = String::from_utf8(js).unwrap();
        if m == "api" {
            assert!(js.contains("/api/place"));
        }
        if m == "app" {
            assert!(js.contains("from './state.js'"));
        }
    }
    let (status, head, _) = f.raw(
        format!(
            "POST /state.js HTTP/1.1\r\nHost: {h}\r\nOrigin: http://{h}\r\nContent-Length: 0\r\n\r\n",
            h = f.host()
        )
        .as_bytes(),
    );
    assert_eq!(status, 405);
    assert!(head.contains("Allow: GET, HEAD"));
    assert_eq!(f.get("/test/state.test.mjs").0, 404);
    assert_eq!(f.get("/package.json").0, 404);
    let (status, _, css) = f.get_with("/style.css", &f.host(), "");
    assert_eq!(status, 200);
    assert!(!css.is_empty());
    // HEAD: headers only.
    let (status, head, body) =
        f.raw(format!("HEAD / HTTP/1.1\r\nHost: {}\r\n\r\n", f.host()).as_bytes());
    assert_eq!(status, 200);
    assert!(head.contains("Content-Length: "));
    assert!(body.is_empty());
    assert_eq!(f.get("/nope").0, 404);
}

/// The module paths the `import … from './x.js'` lines of `js` name.
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
fn every_file_of_web_is_embedded_with_its_type() {
    use agkit::serve::web::{self, FILES};
    use std::collections::BTreeSet;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
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
        assert_eq!(std::fs::read(dir.join(&p[1..])).unwrap(), *body, "{p}");
        if p.ends_with(".js") {
            assert_eq!(*ct, web::JS, "{p}");
        }
    }
    assert_eq!(web::asset("/").unwrap().0, web::HTML);
    assert_eq!(web::asset("/favicon.ico").unwrap().0, web::SVG);
    assert!(web::asset("/package.json").is_none());
    assert!(web::asset("/test/state.test.mjs").is_none());
}

#[test]
fn every_module_the_page_imports_is_embedded() {
    use agkit::serve::web::{self, FILES};
    let mut seen = 0;
    for (p, _, body) in FILES.iter().filter(|(p, _, _)| p.ends_with(".js")) {
        let js = std::str::from_utf8(body).unwrap();
        for m in imports(js) {
            let rel = m
                .strip_prefix("./")
                .unwrap_or_else(|| panic!("{p} imports {m}, not ./…"));
            let (ct, _) = web::asset(&format!("/{rel}"))
                .unwrap_or_else(|| panic!("{p} imports {m}, which is not embedded"));
            assert_eq!(ct, web::JS);
            seen += 1;
        }
    }
    assert!(seen >= 10, "only {seen} imports found");
    let html = std::str::from_utf8(web::asset("/").unwrap().1).unwrap();
    assert!(html.contains(r#"<script type="module" src="/app.js">"#));
}

#[test]
fn lists_assets_and_polygon_files_only_inside_the_root() {
    let f = start();
    let (status, v) = f.get("/api/files");
    assert_eq!(status, 200);
    let assets: Vec<&str> = v["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["path"].as_str().unwrap())
        .collect();
    // Hidden folders, other extensions and symlinks out of the root are not listed.
    assert_eq!(assets, ["shore.ags", "sub/broken.agb"]);
    assert_eq!(v["assets"][0]["kind"], "ags");
    assert_eq!(v["polygon_files"], serde_json::json!(["block.geojson"]));
    assert!(v["version"].as_u64().unwrap() >= 1);
}

#[test]
fn asset_source_and_diagnostics() {
    let f = start();
    let (status, v) = f.get("/api/asset?path=shore.ags");
    assert_eq!(status, 200);
    assert_eq!(v["source"], AGS);
    assert!(v["diagnostics"].is_array());
    assert_eq!(v["path"], "shore.ags");
    // The diagnostics are exactly what `agkit check --format json` prints
    // for the same file (run from the root, so the file names match).
    let expected = cli_check_json(&f.root(), "sub/broken.agb");
    let (status, v) = f.get("/api/asset?path=sub%2Fbroken.agb");
    assert_eq!(status, 200);
    assert_eq!(v["diagnostics"], expected);
    let diags = v["diagnostics"].as_array().unwrap();
    assert!(
        !diags.is_empty(),
        "a block without grid or texture has errors"
    );
    for d in diags {
        for key in ["file", "line", "column", "severity", "code", "message"] {
            assert!(d.get(key).is_some(), "{key} missing in {d}");
        }
        assert_eq!(d["file"], "sub/broken.agb");
    }
    // The unknown directive is reported on its own line.
    assert!(
        diags
            .iter()
            .any(|d| d["line"] == 4 && d["severity"] == "warning"),
        "{diags:?}"
    );
    assert!(v["errors"].as_u64().unwrap() >= 1);
    // Placing it is refused at the check stage, with the same diagnostics.
    let (status, p) = f.post(
        "/api/place",
        r#"{"asset":"sub/broken.agb","polygon":{"name":"square"}}"#,
    );
    assert_eq!(status, 422, "{p}");
    assert_eq!(p["stage"], "check");
    assert!(error_of(&p).contains("error(s)"), "{p}");
    assert_eq!(p["diagnostics"], expected);
    assert_eq!(f.get("/api/asset").0, 400);
    assert_eq!(f.get("/api/asset?path=missing.ags").0, 404);
    assert_eq!(f.get("/api/asset?path=notes.txt").0, 404);
}

#[test]
fn diagnostics_equal_agkit_check_for_clean_bad_and_binary_files() {
    let f = start();
    // Invalid UTF-8 (AG0077 from the byte checker), a clean asset, and an
    // asset file that holds AGN bytes: the panel shows what the CLI prints.
    std::fs::write(
        f.root().join("latin1.agp"),
        b"A\n1000\nAG_POINT\n# caf\xe9\nTEXTURE_SCALE 256 256\n",
    )
    .unwrap();
    std::fs::write(f.root().join("riff.ags"), b"RIFF\x04\0\0\0AGN ").unwrap();
    for rel in ["shore.ags", "latin1.agp", "riff.ags", "sub/broken.agb"] {
        let expected = cli_check_json(&f.root(), rel);
        let (status, v) = f.get(&format!("/api/asset?path={rel}"));
        assert_eq!(status, 200, "{rel}: {v}");
        assert_eq!(v["diagnostics"], expected, "{rel}");
        let n = expected.as_array().unwrap().len() as u64;
        assert_eq!(
            v["errors"].as_u64().unwrap() + v["warnings"].as_u64().unwrap(),
            n
        );
    }
    let (_, v) = f.get("/api/asset?path=latin1.agp");
    assert!(
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "AG0077" && d["line"] == 4),
        "{v}"
    );
    assert!(v["source"].as_str().unwrap().contains("caf\u{fffd}"));
}

#[test]
fn path_traversal_is_refused_in_every_spelling() {
    let f = start();
    let abs = f._outside.path().join("secret.ags");
    let abs = abs.to_str().unwrap().replace('/', "%2F");
    let attempts = [
        "/api/asset?path=../beside.ags".to_string(),
        "/api/asset?path=..%2Fbeside.ags".into(),
        "/api/asset?path=%2e%2e%2fbeside.ags".into(),
        "/api/asset?path=%2E%2E/beside.ags".into(),
        "/api/asset?path=sub/../../beside.ags".into(),
        "/api/asset?path=sub%2F..%2F..%2Fbeside.ags".into(),
        "/api/asset?path=..%5Cbeside.ags".into(),
        "/api/asset?path=%252e%252e%252fbeside.ags".into(),
        format!("/api/asset?path={abs}"),
        "/api/asset?path=link.ags".into(),
        "/api/asset?path=linkdir/secret.ags".into(),
        "/api/polygon?path=../../outside/secret.geojson".into(),
        "/api/polygon?path=linkdir/secret.geojson".into(),
        "/../beside.ags".into(),
        "/%2e%2e/beside.ags".into(),
        "/%2e%2e%2f%2e%2e%2fetc%2fpasswd".into(),
        "/..%2f..%2fetc%2fpasswd".into(),
        "/api/place?asset=../beside.ags&polygon=square".into(),
        "/api/place?asset=link.ags&polygon=square".into(),
        "/api/place?asset=shore.ags&polygon=../../outside/secret.geojson".into(),
    ];
    for target in &attempts {
        let (status, _, body) = f.get_with(target, &f.host(), "");
        let body = String::from_utf8_lossy(&body);
        assert!(
            matches!(status, 400 | 403 | 404),
            "{target}: status {status}"
        );
        assert!(!body.contains(SECRET), "{target} leaked the secret");
    }
    // The plain forms are refused as forbidden, not merely missing.
    for target in [
        "/api/asset?path=../beside.ags",
        "/api/asset?path=%2e%2e%2fbeside.ags",
        "/api/asset?path=link.ags",
    ] {
        assert_eq!(f.get(target).0, 403, "{target}");
    }
    assert_eq!(f.get(&format!("/api/asset?path={abs}")).0, 403);
    let (status, v) = f.post(
        "/api/place",
        r#"{"asset":"../beside.ags","polygon":{"name":"square"}}"#,
    );
    assert_eq!(status, 403, "{v}");
}

#[test]
fn requests_for_other_hosts_or_origins_are_refused() {
    let f = start();
    let port = f.addr.port();
    for host in [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        "127.0.0.1".into(),
        format!("127.0.0.1.evil.example:{port}"),
        format!("localhost.:{port}"),
    ] {
        let (status, _, body) = f.get_with("/api/files", &host, "");
        assert_eq!(status, 403, "Host {host}");
        assert!(String::from_utf8_lossy(&body).contains("not this server"));
    }
    // No Host at all.
    let (status, _, _) = f.raw(b"GET /api/files HTTP/1.1\r\n\r\n");
    assert_eq!(status, 403);
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(f.get_with("/api/files", &host, "").0, 200, "Host {host}");
    }
    // A cross-site Origin is refused even with a good Host.
    let good = f.host();
    for origin in [
        "http://evil.example".to_string(),
        format!("http://evil.example:{port}"),
        "null".into(),
        format!("https://127.0.0.1:{port}"),
    ] {
        let (status, _, _) = f.get_with("/api/files", &good, &format!("Origin: {origin}\r\n"));
        assert_eq!(status, 403, "Origin {origin}");
    }
    let (status, _, _) = f.get_with(
        "/api/files",
        &good,
        &format!("Origin: http://localhost:{port}\r\n"),
    );
    assert_eq!(status, 200);
}

/// Issue 24 item 10: a request with two `Host` (or two `Origin`) headers,
/// the allowed one first, was answered 200; RFC 9112 §3.2 wants 400, and
/// only the first was checked, so the second could name anything.
#[test]
fn two_host_or_origin_headers_were_answered() {
    let f = start();
    let port = f.addr.port();
    let good = f.host();
    for (host2, extra) in [
        (Some("evil.example".to_string()), String::new()),
        (Some(good.clone()), String::new()),
        (
            None,
            format!("Origin: http://{good}\r\nOrigin: http://evil.example:{port}\r\n"),
        ),
        (
            None,
            format!("Origin: http://{good}\r\nOrigin: http://{good}\r\n"),
        ),
    ] {
        let extra = match host2 {
            Some(h) => format!("Host: {h}\r\n{extra}"),
            None => extra,
        };
        let (status, _, body) = f.get_with("/api/files", &good, &extra);
        assert_eq!(status, 400, "{extra}");
        assert!(
            String::from_utf8_lossy(&body).contains("a request has at most one"),
            "{extra}"
        );
    }
    assert_eq!(f.get_with("/api/files", &good, "").0, 200);
}

#[test]
fn bad_requests_get_a_status_and_a_message_never_a_crash() {
    let f = start();
    let (status, v) = f.post("/api/place", "{nope");
    assert_eq!(status, 400);
    assert!(error_of(&v).starts_with("bad JSON"), "{v}");
    let (status, v) = f.post("/api/place", r#"{"polygon":{"name":"lake"}}"#);
    assert_eq!(status, 400);
    assert!(error_of(&v).contains("asset"), "{v}");
    let (status, v) = f.post("/api/place", r#"{"asset":"shore.ags","density":9}"#);
    assert_eq!((status, error_of(&v)), (400, "density must be 1..6"));
    let (status, v) = f.post("/api/place", r#"{"asset":"shore.ags","low":300}"#);
    assert_eq!(status, 400, "{v}");
    let (status, v) = f.post("/api/place", r#"{"asset":"shore.ags","height":-4}"#);
    assert_eq!(status, 400, "{v}");
    let (status, v) = f.post(
        "/api/place",
        r#"{"asset":"shore.ags","polygon":{"local":[[[0,0],[1e9,0],[0,5]]]}}"#,
    );
    assert_eq!(status, 400, "{v}");
    let (status, v) = f.post(
        "/api/place",
        r#"{"asset":"shore.ags","polygon":{"local":[[[0,0],[1,0]]]}}"#,
    );
    assert_eq!(status, 400, "{v}");
    let (status, v) = f.post(
        "/api/place",
        r#"{"asset":"shore.ags","polygon":{"name":"lake","file":"block.geojson"}}"#,
    );
    assert_eq!(status, 400, "{v}");
    let (status, v) = f.post(
        "/api/place",
        r#"{"asset":"shore.ags","polygon":{"name":"moon"}}"#,
    );
    assert_eq!(status, 400, "{v}");
    assert_eq!(f.get("/api/place?asset=shore.ags&seed=x").0, 400);
    assert_eq!(f.get("/api/place?polygon=lake").0, 400);
    // Malformed HTTP.
    assert_eq!(f.raw(b"NONSENSE\r\n\r\n").0, 400);
    assert_eq!(f.raw(b"GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n").0, 400);
    let huge = format!(
        "POST /api/place HTTP/1.1\r\nHost: {}\r\nContent-Length: 999999999\r\n\r\n",
        f.host()
    );
    assert_eq!(f.raw(huge.as_bytes()).0, 413);
    let long = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(40_000));
    assert_eq!(f.raw(long.as_bytes()).0, 431);
    let (status, _, _) =
        f.raw(format!("DELETE /api/place HTTP/1.1\r\nHost: {}\r\n\r\n", f.host()).as_bytes());
    assert_eq!(status, 405);
    // Still serving after all that.
    assert_eq!(f.get("/api/version").0, 200);
}

/// The polygon called `name` of an `/api/polygons` answer.
fn polygon_named<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["polygons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap()
}

#[test]
fn bundled_and_file_polygons() {
    let f = start();
    let (status, v) = f.get("/api/polygons");
    assert_eq!(status, 200);
    let names: Vec<&str> = v["polygons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for n in [
        "square",
        "trapezoid",
        "l-shape",
        "lake",
        "shoreline",
        "reflex",
    ] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    let lake = polygon_named(&v, "lake");
    assert_eq!(
        lake["windings"].as_array().unwrap().len(),
        2,
        "lake has a hole"
    );
    assert_eq!(v["origin"], serde_json::json!([13.0, 47.5]));
    let (status, v) = f.get("/api/polygon?path=block.geojson");
    assert_eq!(status, 200);
    let w = v["windings"][0].as_array().unwrap();
    assert_eq!(w.len(), 4, "closing vertex dropped");
    let east = w[1][0].as_f64().unwrap();
    assert!(
        (east - 150.6).abs() < 1.0,
        "0.002° of longitude at 47.5° ≈ 150 m, got {east}"
    );
}

/// Regression (issue 46): an AGB picked while the lake was the polygon
/// was refused by the engine ("an AGB needs one winding of 4 points; got
/// 2 windings") and the page had no way to know which polygon would do.
/// `/api/polygons` now says which asset kinds each polygon takes, by the
/// engines' own checks: every polygon it says takes a kind places an asset
/// of that kind, every other one is refused by the engine for its polygon.
#[test]
fn an_agb_on_the_lake_was_refused_and_no_polygon_said_it_takes_one() {
    let f = start();
    let block = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/block/city_block.agb"
    ))
    .unwrap();
    std::fs::write(f.root().join("city.agb"), block).unwrap();
    let (status, v) = f.get("/api/polygons");
    assert_eq!(status, 200);
    for kind in ["agp", "agb", "ags"] {
        assert!(
            v["needs"][kind].as_str().is_some_and(|s| !s.is_empty()),
            "{kind}: {v}"
        );
    }
    assert_eq!(
        polygon_named(&v, "lake")["takes"],
        serde_json::json!(["agp", "ags"])
    );
    for p in v["polygons"].as_array().unwrap() {
        let takes = p["takes"].as_array().unwrap();
        for (kind, asset) in [("agb", "city.agb"), ("ags", "shore.ags")] {
            let body = format!(
                r#"{{"asset":"{asset}","polygon":{{"name":{}}}}}"#,
                p["name"]
            );
            let (status, answer) = f.post("/api/place", &body);
            if takes.contains(&Value::from(kind)) {
                assert_eq!(status, 200, "{} takes {kind}: {answer}", p["name"]);
            } else {
                assert_eq!(
                    (status, answer["stage"].as_str()),
                    (422, Some("place")),
                    "{}: {answer}",
                    p["name"]
                );
            }
        }
    }
    // A polygon file says what it takes too.
    let (status, v) = f.get("/api/polygon?path=block.geojson");
    assert_eq!(status, 200);
    assert_eq!(v["takes"], serde_json::json!(["agp", "agb", "ags"]));
}

/// Placement of an AGS on the lake (both windings spawn tiles): exactly
/// what the library's engine places for the same asset, polygon and seed.
#[test]
fn placement_of_an_ags_on_the_lake() {
    let f = start();
    let body = r#"{"asset":"shore.ags","polygon":{"name":"lake"},"seed":7,"low":2,"explain":true}"#;
    let (status, v) = f.post("/api/place", body);
    assert_eq!(status, 200, "{v}");
    let asset = agkit::xp::parse(AGS).expect("the fixture parses");
    let lake = agkit::serve::polygons::by_name("lake").unwrap();
    let frame = agkit::geom::LocalFrame::new(lake.origin);
    let windings = lake
        .windings
        .iter()
        .map(|w| w.iter().map(|&p| frame.to_lonlat(p)).collect())
        .collect();
    let params = agkit::place::Params {
        seed: 7,
        low: 2,
        explain: true,
        art: f.art("shore.ags", &asset),
        ..Default::default()
    };
    let direct = agkit::place::place(
        &asset,
        "shore.ags",
        &agkit::place::Use::Polygon { windings },
        &params,
    )
    .expect("the fixture places on the lake");
    assert!(!direct.tiles.is_empty() && !direct.corners.is_empty());
    assert_json_close(
        &v["placement"],
        &serde_json::to_value(&direct).unwrap(),
        "ags",
    );
    assert_eq!(v["placement"]["kind"], "ags");
    assert_eq!(v["placement"]["seed"], 7);
    assert!(!v["placement"]["explain"].as_array().unwrap().is_empty());
    assert_eq!(v["offset"], serde_json::json!(v["polygon"][0][0]));
    assert_eq!(v["polygon"].as_array().unwrap().len(), 2);
    // Tiles along the island's shore too: some tile vertex lies on the hole.
    let hole = &lake.windings[1];
    let o = lake.windings[0][0];
    let on_hole = |p: &[f64; 2]| {
        let q = [p[0] + o[0], p[1] + o[1]];
        (0..hole.len()).any(|i| {
            let (a, b) = (hole[i], hole[(i + 1) % hole.len()]);
            let d = [b[0] - a[0], b[1] - a[1]];
            let t = (((q[0] - a[0]) * d[0] + (q[1] - a[1]) * d[1]) / (d[0] * d[0] + d[1] * d[1]))
                .clamp(0.0, 1.0);
            (q[0] - a[0] - t * d[0]).hypot(q[1] - a[1] - t * d[1]) < 0.01
        })
    };
    assert!(
        direct.tiles.iter().any(|t| t.polygon.iter().any(on_hole)),
        "no tile along the island"
    );
    // Same request, same answer; another seed is still a valid placement.
    let (_, again) = f.post("/api/place", body);
    assert_eq!(again["placement"], v["placement"]);
    let (status, other) = f.post("/api/place", &body.replace("\"seed\":7", "\"seed\":8"));
    assert_eq!(status, 200);
    assert_eq!(other["placement"]["seed"], 8);
}

/// JSON equality with numbers compared to 1e-9 (relative): serde_json's
/// default float parser may be one ulp off after a text round trip.
fn assert_json_close(a: &Value, b: &Value, at: &str) {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!(
                (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
                "{at}: {x} != {y}"
            );
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{at}: lengths differ");
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                assert_json_close(p, q, &format!("{at}[{i}]"));
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            let kx: Vec<_> = x.keys().collect();
            let ky: Vec<_> = y.keys().collect();
            assert_eq!(kx, ky, "{at}: keys differ");
            for (k, p) in x {
                assert_json_close(p, &y[k], &format!("{at}.{k}"));
            }
        }
        _ => assert_eq!(a, b, "{at}"),
    }
}

fn example(rel: &str) -> String {
    std::fs::read_to_string(format!("{}/examples/{rel}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The server's placement is exactly the library's for the same inputs.
#[test]
fn placement_of_an_agp_and_an_agb_matches_the_library() {
    let f = start();
    let agp = example("point/plaza.agp");
    let agb = example("block/city_block.agb");
    std::fs::write(f.root().join("plaza.agp"), &agp).unwrap();
    std::fs::write(f.root().join("city.agb"), &agb).unwrap();

    // AGP at a point with a heading.
    let (status, v) = f.post(
        "/api/place",
        r#"{"asset":"plaza.agp","at":[13.01,47.51],"heading":30,"seed":5,"explain":true}"#,
    );
    assert_eq!(status, 200, "{v}");
    let plaza = |frame| {
        let asset = agkit::xp::parse(&agp).unwrap();
        let params = agkit::place::Params {
            seed: 5,
            explain: true,
            frame,
            art: f.art("plaza.agp", &asset),
            ..Default::default()
        };
        let at = agkit::place::Use::Point {
            at: [13.01, 47.51],
            heading: 30.0,
        };
        agkit::place::place(&asset, "plaza.agp", &at, &params).unwrap()
    };
    let direct = plaza(agkit::place::FrameConvention::default());
    assert!(!direct.tiles.is_empty());
    assert_json_close(
        &v["placement"],
        &serde_json::to_value(&direct).unwrap(),
        "agp",
    );
    assert_eq!(v["offset"], serde_json::json!([0.0, 0.0]));
    // The same through GET.
    let (status, g) =
        f.get("/api/place?asset=plaza.agp&lon=13.01&lat=47.51&heading=30&seed=5&explain=1");
    assert_eq!(status, 200);
    assert_eq!(g["placement"], v["placement"]);
    // The spec frame on request, by body or query; a bad name is a 400.
    let spec = plaza(agkit::place::FrameConvention::Spec);
    assert_ne!(
        spec, direct,
        "plaza's tiles have ROTATION 0: the frames differ by 180°"
    );
    let (status, s) = f.post(
        "/api/place",
        r#"{"asset":"plaza.agp","at":[13.01,47.51],"heading":30,"seed":5,"explain":true,"frame":"spec"}"#,
    );
    assert_eq!(status, 200, "{s}");
    assert_json_close(
        &s["placement"],
        &serde_json::to_value(&spec).unwrap(),
        "spec",
    );
    let (status, g) = f.get(
        "/api/place?asset=plaza.agp&lon=13.01&lat=47.51&heading=30&seed=5&explain=1&frame=spec",
    );
    assert_eq!(status, 200);
    assert_eq!(g["placement"], s["placement"]);
    let (status, e) = f.get("/api/place?asset=plaza.agp&frame=north");
    assert_eq!(status, 400);
    assert!(error_of(&e).contains("frame"), "{e}");

    // AGB on a polygon given in local metres around an origin.
    let body = r#"{"asset":"city.agb","polygon":{"origin":[13.0,47.5],"local":[[[0,0],[110,0],[110,80],[0,80]]]},"seed":9,"height":16,"low":0,"density":4}"#;
    let (status, v) = f.post("/api/place", body);
    assert_eq!(status, 200, "{v}");
    let frame = agkit::geom::LocalFrame::new([13.0, 47.5]);
    let windings = vec![
        [[0.0, 0.0], [110.0, 0.0], [110.0, 80.0], [0.0, 80.0]]
            .iter()
            .map(|&p| frame.to_lonlat(p))
            .collect(),
    ];
    let city = agkit::xp::parse(&agb).unwrap();
    let params = agkit::place::Params {
        seed: 9,
        height: 16.0,
        density: 4,
        art: f.art("city.agb", &city),
        ..Default::default()
    };
    let direct = agkit::place::place(
        &city,
        "city.agb",
        &agkit::place::Use::Polygon { windings },
        &params,
    )
    .unwrap();
    assert!(!direct.tiles.is_empty());
    assert_json_close(
        &v["placement"],
        &serde_json::to_value(&direct).unwrap(),
        "agb",
    );
    assert_eq!(v["offset"], serde_json::json!([0.0, 0.0]));
    assert_eq!(v["frame_origin"], serde_json::json!([13.0, 47.5]));
    // The same request, the same answer.
    let (_, again) = f.post("/api/place", body);
    assert_eq!(again["placement"], v["placement"]);
    // An AGB on the L-shape (six corners) is refused by the engine: 422
    // with the engine's words, not a crash.
    let (status, e) = f.post(
        "/api/place",
        r#"{"asset":"city.agb","polygon":{"name":"l-shape"}}"#,
    );
    assert_eq!(status, 422, "{e}");
    assert_eq!(e["stage"], "place");
    assert!(error_of(&e).contains("4 points"), "{e}");
    assert_eq!(e["polygon"][0].as_array().unwrap().len(), 6);
}

#[test]
fn saving_a_file_bumps_the_version_and_the_event_stream_says_so() {
    let f = start();
    let (_, v) = f.get("/api/version");
    let before = v["version"].as_u64().unwrap();
    // Subscribe first.
    let (mut reader, seen) = subscribe(&f);
    assert!(seen.contains(&format!("\"version\":{before}")), "{seen}");
    assert!(seen.contains("text/event-stream"), "{seen}");
    let mut line = String::new();
    // Save a change (how fast the page redraws is measured by the e2e test).
    let path = f.root().join("shore.ags");
    agkit::fsutil::write_atomic(&path, format!("{AGS}\n# edited\n").as_bytes()).unwrap();
    let mut event = String::new();
    while !event.contains("shore.ags") {
        line.clear();
        reader.read_line(&mut line).unwrap();
        event.push_str(&line);
    }
    assert!(event.contains("event: version"), "{event}");
    let (_, v) = f.get("/api/version");
    assert!(v["version"].as_u64().unwrap() > before);
    let (_, v) = f.get("/api/asset?path=shore.ags");
    assert!(v["source"].as_str().unwrap().ends_with("# edited\n"));
}

#[test]
fn a_single_file_root_serves_only_that_asset() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("one.ags"), AGS).unwrap();
    std::fs::write(dir.path().join("two.ags"), SECRET).unwrap();
    let server = Server::bind(&Config::new(dir.path().join("one.ags"))).unwrap();
    let addr = server.local_addr();
    std::thread::spawn(move || server.run());
    let f = Fixture {
        _outside: tempfile::tempdir().unwrap(),
        dir,
        addr,
    };
    let (_, v) = f.get("/api/files");
    assert_eq!(v["assets"].as_array().unwrap().len(), 1);
    assert_eq!(v["assets"][0]["path"], "one.ags");
    assert_eq!(f.get("/api/asset?path=one.ags").0, 200);
    let (status, _, body) = f.get_with("/api/asset?path=two.ags", &f.host(), "");
    assert_eq!(status, 403);
    assert!(!String::from_utf8_lossy(&body).contains(SECRET));
}

/// Runs `agkit serve DIR --port 0`; returns the process and the port of
/// the URL it prints first.
fn serve_cli(dir: &std::path::Path) -> (std::process::Child, u16) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["serve", dir.to_str().unwrap(), "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let port = line
        .trim()
        .strip_prefix("agkit serve: http://127.0.0.1:")
        .and_then(|r| r.strip_suffix('/'))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    (child, port)
}

#[test]
fn cli_prints_the_url_and_serves() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.ags"), AGS).unwrap();
    let (mut child, port) = serve_cli(dir.path());
    assert_ne!(port, 0);
    let f = Fixture {
        _outside: tempfile::tempdir().unwrap(),
        dir: tempfile::tempdir().unwrap(),
        addr: SocketAddr::from(([127, 0, 0, 1], port)),
    };
    let (status, v) = f.get("/api/files");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(status, 200);
    assert_eq!(v["assets"][0]["path"], "a.ags");
    // A missing path is a usage error, not a crash.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["serve", "/definitely/not/here", "--port", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/definitely/not/here"));
}

/// Opens `n` connections that each send the start of a request and then
/// nothing (half-open), and a thread that sends each one more byte of an
/// endless header every `every` while the connection lasts.
fn slow_clients(f: &Fixture, n: usize, every: Duration) -> Vec<TcpStream> {
    let conns: Vec<TcpStream> = (0..n)
        .map(|_| {
            let mut s = TcpStream::connect(f.addr).unwrap();
            write!(
                s,
                "GET /api/version HTTP/1.1\r\nHost: {}\r\nX-Slow: ",
                f.host()
            )
            .unwrap();
            s
        })
        .collect();
    let handles: Vec<TcpStream> = conns.iter().map(|s| s.try_clone().unwrap()).collect();
    std::thread::spawn(move || {
        let mut live = handles;
        while !live.is_empty() {
            std::thread::sleep(every);
            live.retain_mut(|s| s.write_all(b"a").is_ok());
        }
    });
    conns
}

/// Whether the server closed the connection (a read ends, within 10 s).
fn closed_by_server(s: &TcpStream) -> bool {
    let mut s = s.try_clone().unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut sink = Vec::new();
    match s.read_to_end(&mut sink) {
        Ok(_) => true,
        Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
    }
}

#[test]
fn two_hundred_trickling_connections_do_not_keep_real_requests_out() {
    // The issue's flood: 200 half-open connections, one byte every 3 s.
    let f = start();
    let slow = slow_clients(&f, 200, Duration::from_secs(3));
    for _ in 0..3 {
        assert_answered(&f);
    }
    drop(slow);
}

/// A plain request and a placement both get 200 (within the 20 s a raw
/// request waits).
fn assert_answered(f: &Fixture) {
    let (status, v) = f.get("/api/version");
    assert_eq!(status, 200, "{v}");
    let (status, v) = f.post(
        "/api/place",
        r#"{"asset":"shore.ags","polygon":{"name":"lake"}}"#,
    );
    assert_eq!(status, 200, "{v}");
}

#[test]
fn when_every_slot_is_taken_the_oldest_slow_connection_gives_way() {
    let (f, shared) = start_with(|c| {
        c.max_connections = 12;
        c.workers = 2;
        c.max_event_streams = 2;
    });
    let slow = slow_clients(&f, 40, Duration::from_secs(1));
    assert_answered(&f);
    assert!(shared.connections().0 <= 12, "{:?}", shared.connections());
    // The first to come were closed to make room for the later ones.
    for s in &slow[..20] {
        assert!(closed_by_server(s));
    }
}

#[test]
fn a_request_trickled_or_never_sent_is_cut_off_at_its_deadline() {
    let (f, _) = start_with(|c| c.request_timeout = Duration::from_millis(500));
    // Ten bytes a second, without end: the deadline holds, not a per-read
    // timeout.
    let slow = slow_clients(&f, 1, Duration::from_millis(100));
    let idle = TcpStream::connect(f.addr).unwrap();
    for s in [&slow[0], &idle] {
        let mut s = s.try_clone().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    }
}

/// Opens `/api/events`; returns the stream and what it sent up to the
/// first event's data (the head included).
fn subscribe(f: &Fixture) -> (BufReader<TcpStream>, String) {
    let mut s = TcpStream::connect(f.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(s, "GET /api/events HTTP/1.1\r\nHost: {}\r\n\r\n", f.host()).unwrap();
    let mut reader = BufReader::new(s);
    let mut seen = String::new();
    let mut line = String::new();
    while !line.starts_with("data:") {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "{seen}");
        seen.push_str(&line);
    }
    assert!(seen.starts_with("HTTP/1.1 200"), "{seen}");
    (reader, seen)
}

#[test]
fn event_streams_are_capped_apart_from_requests() {
    let (f, shared) = start_with(|c| {
        c.max_connections = 16;
        c.workers = 2;
        c.max_event_streams = 3;
    });
    // Thirty streams, far more than the connection limit: the newest three
    // stay, the older are closed, and requests are answered throughout.
    let mut streams: Vec<BufReader<TcpStream>> = (0..30).map(|_| subscribe(&f).0).collect();
    assert_eq!(shared.connections().1, 3);
    assert_answered(&f);
    for s in &streams[..27] {
        assert!(closed_by_server(s.get_ref()));
    }
    // The three left still hear of a change.
    std::fs::write(f.root().join("new.agp"), "A\n1000\nAG_POINT\n").unwrap();
    for s in &mut streams[27..] {
        let mut line = String::new();
        while !line.contains("new.agp") {
            line.clear();
            assert!(s.read_line(&mut line).unwrap() > 0, "stream ended");
        }
    }
}

#[test]
fn a_limit_of_zero_event_streams_refuses_them_and_serves_the_rest() {
    let (f, _) = start_with(|c| c.max_event_streams = 0);
    let (status, _, body) = f.get_with("/api/events", &f.host(), "");
    assert_eq!(status, 503, "{}", String::from_utf8_lossy(&body));
    assert_eq!(f.get("/api/version").0, 200);
}

#[test]
fn placements_are_held_to_the_servers_limits() {
    let (f, _) = start_with(|c| {
        c.limits.max_placed_items = 3;
        c.limits.max_extent_m = 1_000.0;
    });
    let (status, v) = f.post(
        "/api/place",
        r#"{"asset":"shore.ags","polygon":{"name":"lake"}}"#,
    );
    assert_eq!(status, 422, "{v}");
    assert_eq!(v["stage"], "place");
    assert!(error_of(&v).contains("exceeds the limit of 3"), "{v}");
    // A polygon 1.5 km across is refused before any engine runs.
    let (status, v) = f.post(
        "/api/place",
        r#"{"asset":"shore.ags","polygon":{"local":[[[0,0],[1500,0],[1500,10]]]}}"#,
    );
    assert_eq!(status, 400, "{v}");
    assert!(error_of(&v).contains("1500 m"), "{v}");
}

#[test]
fn a_bad_config_is_refused_at_bind() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = Config::new(dir.path());
    cfg.max_connections = 4;
    cfg.workers = 2;
    cfg.max_event_streams = 2;
    let e = Server::bind(&cfg).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
}

/// An asset that asked for 40 GB in one allocation (issue 18): a Rust
/// abort, which no `catch_unwind` stops. Run against the real binary so
/// the test survives if the server does not.
#[test]
fn posting_an_asset_that_once_aborted_the_server_leaves_it_answering() {
    let dir = tempfile::tempdir().unwrap();
    let town = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/string/town_edge.ags"
    ))
    .unwrap();
    let hostile: String = town
        .lines()
        .map(|l| {
            if l.starts_with("TEXTURE_SCALE") {
                "TEXTURE_SCALE 0.0001 1024".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(
        hostile.trim_end(),
        town.trim_end(),
        "TEXTURE_SCALE replaced"
    );
    std::fs::write(dir.path().join("hostile.ags"), hostile).unwrap();
    let (mut child, port) = serve_cli(dir.path());
    let f = Fixture {
        _outside: tempfile::tempdir().unwrap(),
        dir,
        addr: SocketAddr::from(([127, 0, 0, 1], port)),
    };
    let (status, v) = f.post(
        "/api/place",
        r#"{"asset":"hostile.ags","polygon":{"name":"square"}}"#,
    );
    let (after, _) = f.get("/api/version");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(status, 422, "{v}");
    assert_eq!(after, 200, "the server still answers");
}

/// Adds an asset under the fixture's root and waits (30 s at most) for the
/// server's version to move.
fn noticed(f: &Fixture, shared: &Shared) {
    let (v0, _) = shared.current();
    std::fs::write(f.root().join("new.agp"), "A\n1000\nAG_POINT\n").unwrap();
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while shared.current().0 == v0 {
        assert!(
            std::time::Instant::now() < until,
            "the change was not noticed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue 24 item 10: `serve` on a folder of 100k files burnt 65 % of a core
/// while idle (a tree walk every 250 ms). Now it waits for the operating
/// system's notifications; where it polls, it backs off; and a scan visits
/// a bounded number of entries, saying so in the listing.
#[test]
fn an_idle_server_walked_its_tree_four_times_a_second() {
    // Notifications: no scan while idle, one after a change.
    let (f, shared) = start_with(|c| c.poll = Duration::from_millis(50));
    std::thread::sleep(Duration::from_millis(300));
    let idle = shared.scans();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(shared.scans(), idle, "no scan while nothing changes");
    noticed(&f, &shared);
    // Polling (as where notifications cannot be had) backs off: 2 s at
    // 20 ms would be 100 scans without it.
    let (f, shared) = start_with(|c| {
        c.notify = false;
        c.poll = Duration::from_millis(20);
    });
    std::thread::sleep(Duration::from_millis(2000));
    let n = shared.scans();
    assert!(n <= 12, "{n} scans in 2 s");
    noticed(&f, &shared);
    // A scan stops after the cap of entries, and the listing says so.
    let (f, shared) = start_with(|c| c.max_entries = 3);
    let (status, v) = f.get("/api/files");
    assert_eq!(status, 200);
    let note = v["note"].as_str().unwrap_or_default().to_string();
    assert!(note.contains("more than 3 files and folders"), "{v}");
    assert_eq!(shared.note().as_deref(), Some(note.as_str()));
    let (_, v) = start().get("/api/files");
    assert!(v.get("note").is_none(), "{v}");
}

#[test]
fn placement_as_a_glb_download() {
    let f = start();
    let (status, head, body) = f.get_with(
        "/api/place.glb?asset=shore.ags&polygon=lake&seed=7",
        &f.host(),
        "",
    );
    assert_eq!(status, 200, "{head}");
    assert!(head.contains("Content-Type: model/gltf-binary"), "{head}");
    assert!(
        head.contains("Content-Disposition: attachment; filename=\"shore.glb\""),
        "{head}"
    );
    assert_eq!(&body[..4], b"glTF");
    let json_len = u32::from_le_bytes(body[12..16].try_into().unwrap()) as usize;
    let doc: Value = serde_json::from_slice(&body[20..20 + json_len]).unwrap();
    // The placement /api/place gives, with its origin in the scene's extras.
    let (_, v) = f.get("/api/place?asset=shore.ags&polygon=lake&seed=7");
    assert_eq!(
        doc["scenes"][0]["extras"]["origin"]["lon"],
        v["placement"]["origin"][0]
    );
    assert_eq!(
        doc["nodes"].as_array().unwrap().len(),
        // The placement's node, its ground, and each object; facades and
        // trees (one node each) when there are any.
        2 + v["placement"]["objects"].as_array().unwrap().len()
            + usize::from(!v["placement"]["facades"].as_array().unwrap().is_empty())
            + usize::from(!v["placement"]["trees"].as_array().unwrap().is_empty())
    );
    // The same refusals as /api/place.
    let (status, v) = f.get("/api/place.glb?asset=../beside.ags&polygon=square");
    assert!(status >= 400, "{v}");
}

/// A served folder whose assets' objects name textures outside it, and a
/// folder beside it holding them (issue 31): `../secret/s.png`,
/// `..\secret\s.png`, a symlinked folder and a symlinked file leading out,
/// and one texture inside as the control.
struct Gated {
    top: tempfile::TempDir,
    addr: SocketAddr,
}

/// An AGP placing one object, `obj`, whose texture is `texture`.
fn gated_asset(root: &std::path::Path, name: &str, texture: &str) {
    let obj = format!("{name}.obj");
    std::fs::write(
        root.join(format!("{name}.agp")),
        format!(
            "A\n1000\nAG_POINT\n\nTEXTURE ground.png\nTEXTURE_SCALE 64 64\nTEXTURE_WIDTH 16\n\
             OBJECT {obj}\nTILE 0 0 64 64\nOBJ_GRADED 32 32 0 0\n"
        ),
    )
    .unwrap();
    let house = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/placeart/house.obj"
    ))
    .unwrap()
    .replace("TEXTURE ../art/rgba8.png", &format!("TEXTURE {texture}"));
    std::fs::write(root.join(obj), house).unwrap();
}

fn a_png(rgba: [u8; 4]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, 4, 4);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().unwrap();
    w.write_image_data(&rgba.repeat(16)).unwrap();
    w.finish().unwrap();
    out
}

fn start_gated() -> Gated {
    let top = tempfile::tempdir().unwrap();
    let root = top.path().join("root");
    let secret = top.path().join("secret");
    std::fs::create_dir_all(root.join("tex")).unwrap();
    std::fs::create_dir_all(&secret).unwrap();
    std::fs::write(secret.join("s.png"), a_png([1, 2, 3, 255])).unwrap();
    std::fs::write(root.join("tex/in.png"), a_png([9, 9, 9, 255])).unwrap();
    std::fs::write(root.join("ground.png"), a_png([5, 5, 5, 255])).unwrap();
    gated_asset(&root, "inside", "tex/in.png");
    gated_asset(&root, "dotdot", "../secret/s.png");
    gated_asset(&root, "backslash", "..\\secret\\s.png");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&secret, root.join("linkdir")).unwrap();
        std::os::unix::fs::symlink(secret.join("s.png"), root.join("tex/linked.png")).unwrap();
        gated_asset(&root, "linkdir", "linkdir/s.png");
        gated_asset(&root, "linkfile", "tex/linked.png");
    }
    let mut cfg = Config::new(&root);
    cfg.poll = Duration::from_millis(50);
    let server = Server::bind(&cfg).unwrap();
    let addr = server.local_addr();
    std::thread::spawn(move || server.run());
    Gated { top, addr }
}

impl Gated {
    fn fixture(&self) -> Fixture {
        // Only `addr` and `host` are used; the temp folders stay with self.
        Fixture {
            _outside: tempfile::tempdir().unwrap(),
            dir: tempfile::tempdir().unwrap(),
            addr: self.addr,
        }
    }

    /// The images the GLB of `asset` embeds, by name.
    fn glb_images(&self, asset: &str) -> Vec<String> {
        let f = self.fixture();
        let (status, head, body) =
            f.get_with(&format!("/api/place.glb?asset={asset}"), &f.host(), "");
        assert_eq!(status, 200, "{asset}: {head}");
        let json_len = u32::from_le_bytes(body[12..16].try_into().unwrap()) as usize;
        let doc: Value = serde_json::from_slice(&body[20..20 + json_len]).unwrap();
        doc["images"]
            .as_array()
            .map(|v| {
                v.iter()
                    .map(|i| i["name"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn outside_assets() -> Vec<&'static str> {
    let mut v = vec!["dotdot.agp", "backslash.agp"];
    if cfg!(unix) {
        v.extend(["linkdir.agp", "linkfile.agp"]);
    }
    v
}

#[test]
fn the_glb_embeds_no_texture_from_outside_the_served_folder() {
    let g = start_gated();
    // The control: a texture inside is embedded.
    let inside = g.glb_images("inside.agp");
    assert!(inside.contains(&"in.png".to_string()), "{inside:?}");
    for asset in outside_assets() {
        let images = g.glb_images(asset);
        assert!(
            !images
                .iter()
                .any(|n| n.contains("s.png") || n.contains("linked")),
            "{asset} embeds {images:?}"
        );
        // Only the ground texture, which is inside.
        assert_eq!(images, ["ground.png"], "{asset}");
    }
    // /api/texture refuses the same paths.
    let f = g.fixture();
    for p in ["../secret/s.png", "linkdir/s.png", "tex/linked.png"] {
        let (status, _, _) = f.get_with(&format!("/api/texture?path={p}"), &f.host(), "");
        assert_eq!(status, 403, "{p}");
    }
}

#[test]
fn answers_do_not_tell_whether_an_outside_file_exists() {
    let g = start_gated();
    let f = g.fixture();
    let answers = |f: &Fixture| -> Vec<String> {
        let mut v = Vec::new();
        for asset in outside_assets() {
            let (status, a) = f.get(&format!("/api/asset?path={asset}"));
            assert_eq!(status, 200, "{a}");
            v.push(a["diagnostics"].to_string());
            let (status, p) = f.get(&format!("/api/place?asset={asset}"));
            assert_eq!(status, 200, "{p}");
            v.push(p["diagnostics"].to_string());
            v.push(p["placement"]["objects"].to_string());
        }
        v
    };
    let with = answers(&f);
    let secret = g.top.path().join("secret");
    let secret = secret.to_str().unwrap();
    for a in &with {
        assert!(
            !a.contains(secret),
            "an absolute path outside is shown: {a}"
        );
        assert!(!a.contains("outside"), "{a}");
    }
    // The object names its texture as missing, in the words of a file
    // that is not there at all.
    assert!(with[0].contains("not found"), "{}", with[0]);
    std::fs::remove_file(g.top.path().join("secret/s.png")).unwrap();
    assert_eq!(
        answers(&f),
        with,
        "the answers changed with the outside file"
    );
}

// ----------------------------------------------------------- DSF tiles --

/// A server over `root` (any folder), and a fixture to ask it.
fn serve_folder(root: &std::path::Path, tune: impl FnOnce(&mut Config)) -> Fixture {
    let mut cfg = Config::new(root);
    cfg.poll = Duration::from_millis(50);
    tune(&mut cfg);
    let server = Server::bind(&cfg).unwrap();
    let addr = server.local_addr();
    std::thread::spawn(move || server.run());
    Fixture {
        _outside: tempfile::tempdir().unwrap(),
        dir: tempfile::tempdir().unwrap(),
        addr,
    }
}

/// A DSF built from DSF2Text `text`.
fn dsf_of(text: &str) -> Vec<u8> {
    let (dsf, opts) = agkit::dsf::from_text(text, &mut |_| Err("no rasters".into())).unwrap();
    agkit::dsf::build(&dsf, &opts).unwrap()
}

/// A copy of examples/ with `tests/fixtures/whole_demo` (a tile placing
/// one of every kind, its paths relative to examples/) in its `dsf/`.
fn examples_with_whole_demo() -> (tempfile::TempDir, std::path::PathBuf) {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let examples = tmp.path().join("examples");
    for e in walkdir::WalkDir::new(repo.join("examples")) {
        let e = e.unwrap();
        let to = examples.join(e.path().strip_prefix(repo.join("examples")).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(e.path(), &to).unwrap();
        }
    }
    for name in [
        "whole_demo.dsf",
        "whole_demo.txt",
        "apron.pol",
        "stripe.lin",
    ] {
        std::fs::copy(
            repo.join("tests/fixtures/whole_demo").join(name),
            examples.join("dsf").join(name),
        )
        .unwrap();
    }
    (tmp, examples)
}

/// `dsf/whole_demo.dsf` of `examples` placed whole by the library, as
/// `agkit place --dsf dsf/whole_demo.dsf --all --scenery .` in it.
fn whole_demo_by_the_library(examples: &std::path::Path) -> agkit::place::TilePlacement {
    let scenery = agkit::scenery::Scenery::packages(
        Some(examples),
        &[],
        agkit::scenery::resolve::Conditions::default(),
    )
    .unwrap();
    let params = agkit::place::Params {
        whole_tile: true,
        seed: 3,
        ..agkit::place::Params::default()
    };
    scenery
        .place_tile(&examples.join("dsf/whole_demo.dsf"), &params)
        .unwrap()
}

#[test]
fn the_whole_demo_dsf_holds_what_its_text_says() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/whole_demo");
    let text = std::fs::read_to_string(dir.join("whole_demo.txt")).unwrap();
    let (want, _) = agkit::dsf::from_text(&text, &mut |_| Err("no rasters".into())).unwrap();
    let got = agkit::dsf::read(&std::fs::read(dir.join("whole_demo.dsf")).unwrap()).unwrap();
    let msg = "rebuild it: agkit dsf build whole_demo.txt -o whole_demo.dsf";
    assert_eq!(got.object_defs, want.object_defs, "{msg}");
    assert_eq!(got.polygon_defs, want.polygon_defs, "{msg}");
    assert_eq!(got.network_defs, want.network_defs, "{msg}");
    assert_eq!(got.entities.len(), want.entities.len(), "{msg}");
}

#[test]
fn a_dsf_tile_is_listed_and_placed_whole_as_the_library_places_it() {
    let (_tmp, examples) = examples_with_whole_demo();
    let f = serve_folder(&examples, |_| {});
    let (status, v) = f.get("/api/files");
    assert_eq!(status, 200, "{v}");
    let tiles: Vec<&str> = v["dsf_files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["path"].as_str().unwrap())
        .collect();
    assert_eq!(tiles, ["dsf/autogen_demo.dsf", "dsf/whole_demo.dsf"]);
    assert!(
        v["assets"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["kind"] != "dsf"),
        "{v}"
    );

    let (status, v) = f.get("/api/tile?path=dsf/whole_demo.dsf&seed=3");
    assert_eq!(status, 200, "{v}");
    let lib = whole_demo_by_the_library(&examples);
    let whole = lib.whole.as_ref().unwrap();
    // The counts `agkit place --all` prints, kind by kind.
    assert_eq!(v["whole"], serde_json::to_value(whole).unwrap());
    assert_eq!(v["whole"]["counts"]["obj"]["placed"], 3);
    assert_eq!(v["whole"]["counts"]["net"]["not_drawn"], 1);
    assert_eq!(v["whole"]["counts"]["bch"]["not_drawn"], 1);
    assert_eq!(v["uses"], 3);
    // Every placement, in order, item for item.
    let parts = v["placements"].as_array().unwrap();
    assert_eq!(parts.len(), lib.placements.len());
    assert_eq!(parts.len(), 9, "3 autogen uses and 6 definitions");
    for (i, (part, p)) in parts.iter().zip(&lib.placements).enumerate() {
        let want = serde_json::to_value(p).unwrap();
        assert_json_close(&part["placement"], &want, &format!("placement {i}"));
    }
    // Offsets put each placement's origin in the first one's frame.
    assert_json_close(
        &v["origin"],
        &serde_json::json!(lib.placements[0].origin),
        "origin",
    );
    assert_eq!(parts[0]["offset"], serde_json::json!([0.0, 0.0]));
    let frame = agkit::geom::LocalFrame::new(lib.placements[0].origin);
    for (part, p) in parts.iter().zip(&lib.placements) {
        let want = frame.to_local(p.origin);
        let got = [
            part["offset"][0].as_f64().unwrap(),
            part["offset"][1].as_f64().unwrap(),
        ];
        assert!((got[0] - want[0]).abs() < 1e-6 && (got[1] - want[1]).abs() < 1e-6);
    }
    // The art was found inside the served folder: no placement warns.
    for part in parts {
        assert_eq!(
            part["placement"]["warnings"],
            serde_json::json!([]),
            "{part}"
        );
    }
    // The autogen placements carry their tiles' texture for the 2-D view.
    assert_eq!(parts[1]["texture"]["path"], "block/city_block.png");

    // The bundled autogen demo: its three uses, from the served folder.
    let (status, a) = f.get("/api/tile?path=dsf/autogen_demo.dsf");
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["placements"].as_array().unwrap().len(), 3, "{a}");

    // The same tile as a 3-D scene: one node per placement.
    let (status, head, body) = f.get_with(
        "/api/tile.glb?path=dsf/whole_demo.dsf&seed=3",
        &f.host(),
        "",
    );
    assert_eq!(status, 200, "{head}");
    assert!(head.contains("filename=\"whole_demo.glb\""), "{head}");
    let json_len = u32::from_le_bytes(body[12..16].try_into().unwrap()) as usize;
    let doc: Value = serde_json::from_slice(&body[20..20 + json_len]).unwrap();
    let placement_nodes = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["extras"]["item"] == "placement")
        .count();
    assert_eq!(placement_nodes, lib.placements.len());
    assert_eq!(
        doc["scenes"][0]["extras"]["placements"]
            .as_array()
            .unwrap()
            .len(),
        9
    );
}

#[test]
fn tile_requests_are_checked() {
    let (_tmp, examples) = examples_with_whole_demo();
    let f = serve_folder(&examples, |_| {});
    for (target, status) in [
        ("/api/tile", 400),
        ("/api/tile?path=dsf/whole_demo.dsf&density=9", 400),
        ("/api/tile?path=dsf/whole_demo.dsf&seed=x", 400),
        ("/api/tile?path=point/plaza.agp", 404),
        ("/api/tile?path=dsf/missing.dsf", 404),
        ("/api/tile?path=../examples/dsf/whole_demo.dsf", 403),
        ("/api/tile.glb?path=../x.dsf", 403),
    ] {
        let (got, v) = f.get(target);
        assert_eq!(got, status, "{target}: {v}");
        assert!(v["error"].is_string(), "{target}: {v}");
    }
    let (status, v) = f.post("/api/tile", "{}");
    assert_eq!(status, 405, "{v}");
}

/// A served folder holding DSFs that reach out of it: one naming an
/// object beside the folder by `..`, one through a symlinked folder;
/// the object found inside is the control. Returns (top, root).
fn gated_tiles() -> (tempfile::TempDir, std::path::PathBuf) {
    let top = tempfile::tempdir().unwrap();
    let root = top.path().join("root");
    let secret = top.path().join("secret");
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    std::fs::create_dir_all(root.join("Earth nav data/+40+010")).unwrap();
    std::fs::create_dir_all(&secret).unwrap();
    // The object, and a texture, inside and outside.
    let kiosk = std::fs::read_to_string(examples.join("point/kiosk.obj")).unwrap();
    let kiosk = kiosk
        .lines()
        .map(|l| {
            if l.starts_with("TEXTURE") {
                "TEXTURE kiosk.png"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    for d in [&root, &secret] {
        std::fs::write(d.join("kiosk.obj"), &kiosk).unwrap();
        std::fs::write(d.join("kiosk.png"), a_png([7, 7, 7, 255])).unwrap();
    }
    std::fs::write(
        secret.join("outside.dsf"),
        dsf_of(&tile_naming("kiosk.obj")),
    )
    .unwrap();
    let tiles = root.join("Earth nav data/+40+010");
    std::fs::write(tiles.join("+47+013.dsf"), dsf_of(&tile_naming("kiosk.obj"))).unwrap();
    std::fs::write(
        tiles.join("+47+014.dsf"),
        dsf_of(&tile_naming("../secret/kiosk.obj")),
    )
    .unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&secret, root.join("linkdir")).unwrap();
        std::fs::write(
            tiles.join("+47+015.dsf"),
            dsf_of(&tile_naming("linkdir/kiosk.obj")),
        )
        .unwrap();
        std::os::unix::fs::symlink(secret.join("outside.dsf"), tiles.join("+47+016.dsf")).unwrap();
    }
    (top, root)
}

/// DSF2Text of a tile placing `obj` twice.
fn tile_naming(obj: &str) -> String {
    format!(
        "I\n800 written by agkit\nDSF2TEXT\n\nPROPERTY sim/west 13\nPROPERTY sim/south 47\n\
         PROPERTY sim/east 14\nPROPERTY sim/north 48\nPROPERTY sim/overlay 1\n\
         OBJECT_DEF {obj}\nOBJECT 0 13.5 47.5 0\nOBJECT 0 13.5001 47.5 90\n"
    )
}

#[test]
fn a_tile_reads_nothing_outside_the_served_folder() {
    let (top, root) = gated_tiles();
    // Served: the package's `Earth nav data`, so the package folder itself
    // (where `kiosk.obj` is) is outside too.
    let inner = serve_folder(&root.join("Earth nav data"), |_| {});
    let (status, v) = inner.get("/api/tile?path=%2B40%2B010/%2B47%2B013.dsf");
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["placements"][0]["placement"]["objects"][0]["art"], "missing",
        "{v}"
    );

    let f = serve_folder(&root, |_| {});
    let tile = |name: &str| {
        let (status, v) = f.get(&format!(
            "/api/tile?path=Earth%20nav%20data/%2B40%2B010/{name}"
        ));
        assert_eq!(status, 200, "{name}: {v}");
        v
    };
    // The control: the object beside the package is read, with its texture.
    let v = tile("%2B47%2B013.dsf");
    assert_eq!(
        v["placements"][0]["placement"]["objects"][0]["art"], "found",
        "{v}"
    );
    let mut outside = vec!["%2B47%2B014.dsf"];
    if cfg!(unix) {
        outside.push("%2B47%2B015.dsf");
    }
    let secret = top.path().join("secret");
    let answers = || -> Vec<String> {
        outside
            .iter()
            .map(|name| {
                let v = tile(name);
                let p = &v["placements"][0]["placement"];
                assert_eq!(p["objects"].as_array().unwrap().len(), 2, "{v}");
                assert_eq!(p["objects"][0]["art"], "missing", "{name}: {v}");
                let text = v.to_string();
                assert!(!text.contains(secret.to_str().unwrap()), "{text}");
                // Nothing outside is embedded in the scene either.
                let (status, _, body) = f.get_with(
                    &format!("/api/tile.glb?path=Earth%20nav%20data/%2B40%2B010/{name}"),
                    &f.host(),
                    "",
                );
                assert_eq!(status, 200);
                let json_len = u32::from_le_bytes(body[12..16].try_into().unwrap()) as usize;
                let doc: Value = serde_json::from_slice(&body[20..20 + json_len]).unwrap();
                assert!(doc["images"].as_array().is_none_or(Vec::is_empty), "{doc}");
                v["placements"].to_string()
            })
            .collect()
    };
    let with = answers();
    // The answers do not tell whether the outside file exists.
    std::fs::remove_file(secret.join("kiosk.obj")).unwrap();
    assert_eq!(answers(), with);
    // A DSF reached through a symlink leading out is refused.
    #[cfg(unix)]
    {
        let (status, v) = f.get("/api/tile?path=Earth%20nav%20data/%2B40%2B010/%2B47%2B016.dsf");
        assert_eq!(status, 403, "{v}");
        let (_, files) = f.get("/api/files");
        assert!(!files.to_string().contains("+47+016"), "{files}");
    }
}

/// A tile's library paths resolve in the libraries the server was given
/// (`--library`, `--xplane`), whose folders it then reads; without them
/// they resolve nowhere, and other folders stay unread either way.
#[test]
fn a_tiles_library_paths_resolve_in_the_libraries_the_server_was_given() {
    let (top, root) = gated_tiles();
    // A library package beside the served folder exporting the kiosk
    // (with its texture), and a tile naming it by its library path.
    let lib = top.path().join("Lib");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::copy(root.join("kiosk.obj"), lib.join("kiosk.obj")).unwrap();
    std::fs::copy(root.join("kiosk.png"), lib.join("kiosk.png")).unwrap();
    std::fs::write(
        lib.join("library.txt"),
        "A\n800\nLIBRARY\n\nEXPORT lib/test/kiosk.obj kiosk.obj\n",
    )
    .unwrap();
    let tiles = root.join("Earth nav data/+40+010");
    std::fs::write(
        tiles.join("+47+017.dsf"),
        dsf_of(&tile_naming("lib/test/kiosk.obj")),
    )
    .unwrap();
    let path = "/api/tile?path=Earth%20nav%20data/%2B40%2B010/%2B47%2B017.dsf";
    let glb_images = |f: &Fixture| -> usize {
        let (status, _, body) =
            f.get_with(&path.replace("/api/tile?", "/api/tile.glb?"), &f.host(), "");
        assert_eq!(status, 200);
        let json_len = u32::from_le_bytes(body[12..16].try_into().unwrap()) as usize;
        let doc: Value = serde_json::from_slice(&body[20..20 + json_len]).unwrap();
        doc["images"].as_array().map_or(0, Vec::len)
    };

    // Without libraries: resolves nowhere, drawn without art.
    let bare = serve_folder(&root, |_| {});
    let (status, v) = bare.get(path);
    assert_eq!(status, 200, "{v}");
    assert_ne!(
        v["placements"][0]["placement"]["objects"][0]["art"], "found",
        "{v}"
    );
    assert_eq!(glb_images(&bare), 0);

    // With the library: the object is read, its texture embedded in 3-D.
    let with = serve_folder(&root, |c| {
        c.libraries = LibrarySource::Packages(vec![lib.clone()])
    });
    let (status, v) = with.get(path);
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["placements"][0]["placement"]["objects"][0]["art"], "found",
        "{v}"
    );
    assert_eq!(glb_images(&with), 1);
    // …and the folders outside both are still not read.
    let (status, v) = with.get("/api/tile?path=Earth%20nav%20data/%2B40%2B010/%2B47%2B014.dsf");
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["placements"][0]["placement"]["objects"][0]["art"], "missing",
        "{v}"
    );

    // A library folder that is not one stops the server at bind.
    let mut cfg = Config::new(&root);
    cfg.libraries = LibrarySource::Packages(vec![top.path().join("secret")]);
    let Err(e) = Server::bind(&cfg) else {
        panic!("a folder with no library was taken")
    };
    assert!(e.to_string().starts_with("--library "), "{e}");
    assert!(e.to_string().contains("secret"), "{e}");
}

#[test]
fn a_bad_or_huge_dsf_is_a_json_error_naming_the_file_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    let good = dsf_of(&tile_naming("kiosk.obj"));
    std::fs::write(dir.path().join("garbage.dsf"), b"this is not a DSF at all").unwrap();
    std::fs::write(dir.path().join("cut.dsf"), &good[..good.len() / 2]).unwrap();
    std::fs::write(dir.path().join("big.dsf"), vec![0u8; 5000]).unwrap();
    std::fs::write(dir.path().join("good.dsf"), &good).unwrap();
    let f = serve_folder(dir.path(), |c| c.limits.max_input_bytes = 4096);
    for name in ["garbage.dsf", "cut.dsf"] {
        for route in ["tile", "tile.glb"] {
            let (status, v) = f.get(&format!("/api/{route}?path={name}"));
            assert_eq!(status, 422, "{name}: {v}");
            assert_eq!(v["stage"], "dsf", "{v}");
            assert_eq!(v["path"], name, "{v}");
            assert!(v["offset"].is_u64(), "{v}");
            let e = error_of(&v);
            assert!(e.starts_with(&format!("{name}: ")), "{e}");
            assert!(e.contains("byte"), "{e}");
        }
    }
    let (status, v) = f.get("/api/tile?path=big.dsf");
    assert_eq!(status, 413, "{v}");
    assert!(error_of(&v).contains("big.dsf"), "{v}");
    assert!(error_of(&v).contains("4096"), "{v}");
    // The server is still answering.
    let (status, v) = f.get("/api/tile?path=good.dsf");
    assert_eq!(status, 200, "{v}");
}

#[test]
fn a_tile_past_the_item_limit_or_the_json_cap_is_refused_with_a_reason() {
    let (_tmp, examples) = examples_with_whole_demo();
    let f = serve_folder(&examples, |c| c.limits.max_placed_items = 40);
    let (status, v) = f.get("/api/tile?path=dsf/whole_demo.dsf");
    assert_eq!(status, 200, "{v}");
    let text = v["whole"]["not_drawn"].to_string();
    assert!(text.contains("limit of 40 placed items"), "{text}");

    let f = serve_folder(&examples, |c| c.limits.max_output_bytes = 10_000);
    let (status, v) = f.get("/api/tile?path=dsf/whole_demo.dsf");
    assert_eq!(status, 413, "{v}");
    assert_eq!(v["stage"], "json");
    assert!(error_of(&v).contains("dsf/whole_demo.dsf"), "{v}");
}

#[test]
fn a_single_dsf_root_serves_only_that_tile() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("one.dsf"),
        dsf_of(&tile_naming("kiosk.obj")),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("two.dsf"),
        dsf_of(&tile_naming("kiosk.obj")),
    )
    .unwrap();
    let f = serve_folder(&dir.path().join("one.dsf"), |_| {});
    let (_, v) = f.get("/api/files");
    assert_eq!(
        v["dsf_files"],
        serde_json::json!([{"path": "one.dsf", "size": dir.path().join("one.dsf").metadata().unwrap().len()}])
    );
    let (status, v) = f.get("/api/tile?path=one.dsf");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["whole"]["counts"]["obj"]["placed"], 2, "{v}");
    let (status, v) = f.get("/api/tile?path=two.dsf");
    assert_eq!(status, 403, "{v}");
}

/// Issue 46: one GET of `/api/tile.glb` of a tile whose scene is too large
/// went past 3 GB. The scene is counted before it is built, and the
/// previewer refuses it with the library's own refusal (the words
/// `agkit place -o x.glb` prints), naming the file.
#[test]
fn an_oversized_tile_scene_is_refused_as_the_command_line_refuses_it() {
    let (_tmp, examples) = examples_with_whole_demo();
    let f = serve_folder(&examples, |c| c.limits.max_scene_nodes = 5);
    let (status, v) = f.get("/api/tile.glb?path=dsf/whole_demo.dsf&seed=3");
    assert_eq!(status, 422, "{v}");
    assert_eq!(v["stage"], "gltf", "{v}");
    let e = error_of(&v);
    let tile = whole_demo_by_the_library(&examples);
    let limits = agkit::limits::Limits {
        max_scene_nodes: 5,
        ..agkit::serve::serve_limits()
    };
    let opts = agkit::out::RenderOptions {
        limits,
        grouping: agkit::out::Grouping::Combined,
        ..agkit::out::RenderOptions::new(agkit::out::Format::Glb)
    };
    let Err(want) = agkit::out::render(&tile.placements, &opts) else {
        panic!("the library built a scene of more than 5 nodes")
    };
    assert_eq!(e, format!("dsf/whole_demo.dsf: {want}"));
    assert!(e.contains("exceeds the limit of 5"), "{e}");
}

// ---------------------------------------------------------- conflicts --

/// The repository's fixture installation with the conflicts apt.dat
/// (`tests/conflicts.rs`'s: a runway under the Town pack's shed).
fn conflicts_installation() -> tempfile::TempDir {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let t = tempfile::tempdir().unwrap();
    let from = repo.join("tests/fixtures/xplane");
    for e in walkdir::WalkDir::new(&from) {
        let e = e.unwrap();
        let to = t.path().join(e.path().strip_prefix(&from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(e.path(), &to).unwrap();
        }
    }
    std::fs::copy(
        repo.join("tests/fixtures/apt/conflicts_xtst.dat"),
        t.path()
            .join("Custom Scenery/Airport/Earth nav data/apt.dat"),
    )
    .unwrap();
    t
}

/// Issue 50 item 3: `agkit serve PKG --xplane DIR` answers
/// `/api/conflicts?path=TILE` with what `agkit scenery conflicts --tile`
/// finds on that tile's airports, the same report; a server without an
/// installation, a name that gives no tile and a path outside PATH are
/// refused, each saying why.
#[test]
fn conflicts_of_the_open_tile_are_what_the_cli_finds() {
    let t = conflicts_installation();
    let town = t.path().join("Custom Scenery/Town");
    let f = serve_folder(&town, |c| {
        c.libraries = LibrarySource::Installation(t.path().to_path_buf());
    });
    let tile = "Earth%20nav%20data/%2B40%2B010/%2B47%2B013.dsf";
    assert_eq!(f.get("/api/files").1["installation"], true);
    let (status, v) = f.get(&format!("/api/conflicts?path={tile}"));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["tile"], serde_json::json!({"west": 13, "south": 47}));
    assert_eq!(v["path"], "Earth nav data/+40+010/+47+013.dsf");
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{v:#}");
    assert_eq!(findings[0]["code"], "CNF001");
    assert_eq!(findings[0]["package"], "Town");
    assert_eq!(findings[0]["airport"], "XTST");

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["scenery", "conflicts", "--xplane"])
        .arg(t.path())
        .args(["--tile", "47.5,13.5", "--format", "json"])
        .output()
        .unwrap();
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut served = v.clone();
    let o = served.as_object_mut().unwrap();
    o.remove("path");
    o.remove("tile");
    assert_eq!(served, cli, "the served report is the CLI's");

    // Not a tile's name; outside PATH; not a DSF; no parameter.
    std::fs::copy(
        town.join("Earth nav data/+40+010/+47+013.dsf"),
        town.join("town.dsf"),
    )
    .unwrap();
    let (status, v) = f.get("/api/conflicts?path=town.dsf");
    assert_eq!(status, 422, "{v}");
    assert_eq!(v["stage"], "tile");
    assert!(error_of(&v).contains("+47+013.dsf"), "{v}");
    let (status, _) = f.get(
        "/api/conflicts?path=..%2FAirport%2FEarth%20nav%20data%2F%2B40%2B010%2F%2B47%2B013.dsf",
    );
    assert_eq!(status, 403);
    assert_eq!(f.get("/api/conflicts?path=a.agp").0, 404);
    assert_eq!(f.get("/api/conflicts").0, 400);

    // Without an installation: 409, naming the flag.
    let bare = serve_folder(&town, |_| {});
    assert_eq!(bare.get("/api/files").1["installation"], false);
    let (status, v) = bare.get(&format!("/api/conflicts?path={tile}"));
    assert_eq!(status, 409, "{v}");
    assert!(error_of(&v).contains("--xplane"), "{v}");
}

/// `/api/conflicts?…&origin=LON,LAT`: each finding also in metres of that
/// frame, as the library's frame puts it; an origin that is no point is
/// refused.
#[test]
fn conflicts_in_the_frame_of_the_tile_view() {
    let t = conflicts_installation();
    let town = t.path().join("Custom Scenery/Town");
    let f = serve_folder(&town, |c| {
        c.libraries = LibrarySource::Installation(t.path().to_path_buf());
    });
    let tile = "Earth%20nav%20data/%2B40%2B010/%2B47%2B013.dsf";
    let origin = [13.4985, 47.4990];
    let (status, v) = f.get(&format!(
        "/api/conflicts?path={tile}&origin={},{}",
        origin[0], origin[1]
    ));
    assert_eq!(status, 200, "{v}");
    let at = &v["findings"][0]["at"];
    let at = [at[0].as_f64().unwrap(), at[1].as_f64().unwrap()];
    let want = agkit::geom::LocalFrame::new(origin).to_local(at);
    let got = &v["at_local"][0];
    assert!(
        (got[0].as_f64().unwrap() - want[0]).abs() < 1e-9
            && (got[1].as_f64().unwrap() - want[1]).abs() < 1e-9,
        "{got} vs {want:?}"
    );
    // The shed (13.499, 47.4995) lies some 38 m east and 56 m north.
    assert!(want[0] > 10.0 && want[1] > 10.0, "{want:?}");
    for bad in ["13.5", "x,47", "13.5,95", "NaN,47", "inf,1"] {
        let (status, v) = f.get(&format!("/api/conflicts?path={tile}&origin={bad}"));
        assert_eq!(status, 400, "{bad}: {v}");
    }
}
