//! `agkit serve` on real packages: every corpus tile opened in the
//! previewer (`/api/tile`) holds what the library places for it, kind by
//! kind and placement by placement, with every read confined to the served
//! package folder.

use super::support;
use agkit::place::Params;
use agkit::scenery::Scenery;
use agkit::scenery::resolve::Conditions;
use agkit::serve::{Config, Server};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A server over `dir` on port 0, with the previewer's limits.
fn serve(dir: &Path) -> SocketAddr {
    let server = Server::bind(&Config::new(dir)).unwrap();
    let addr = server.local_addr();
    std::thread::spawn(move || server.run());
    addr
}

/// `GET target` → (status, JSON body).
fn get(addr: SocketAddr, target: &str) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        addr.port()
    )
    .unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let at = out.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let status = String::from_utf8_lossy(&out[9..12]).parse().unwrap();
    (
        status,
        serde_json::from_slice(&out[at..]).unwrap_or(Value::Null),
    )
}

/// A path for a query string: `/` kept, anything but letters, digits and
/// `-_.` escaped.
fn escape(rel: &str) -> String {
    rel.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn every_corpus_tile_opens_in_the_previewer_as_the_library_places_it() {
    let rows = support::nonempty(support::rows_of(&["dsf"]), "dsf");
    // One server per package folder (the folder above `Earth nav data`).
    let mut servers: BTreeMap<PathBuf, SocketAddr> = BTreeMap::new();
    let mut opened = 0;
    for r in rows {
        let package = agkit::scenery::context::default_package(&r.path);
        let addr = *servers
            .entry(package.clone())
            .or_insert_with(|| serve(&package));
        let rel = r.path.strip_prefix(&package).unwrap();
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let (status, v) = get(addr, &format!("/api/tile?path={}", escape(&rel)));
        // The library, unconfined, with the previewer's limits.
        let scenery = Scenery::packages(None, &[], Conditions::default()).unwrap();
        let params = Params {
            whole_tile: true,
            limits: agkit::serve::serve_limits(),
            ..Params::default()
        };
        let lib = match scenery.place_tile(&r.path, &params) {
            Ok(t) => t,
            Err(e) => {
                // A tile the library cannot read is a JSON error naming it.
                assert!(status == 422 || status == 413, "{}: {status} {v}", r.rel);
                assert_eq!(v["path"], rel.as_str(), "{}: {v}", r.rel);
                eprintln!("{}: refused as the library refuses it: {e}", r.rel);
                continue;
            }
        };
        assert_eq!(status, 200, "{}: {v}", r.rel);
        let whole = serde_json::to_value(lib.whole.as_ref().unwrap()).unwrap();
        assert_eq!(v["whole"]["counts"], whole["counts"], "{}", r.rel);
        let parts = v["placements"].as_array().unwrap();
        assert_eq!(parts.len(), lib.placements.len(), "{}", r.rel);
        for (part, p) in parts.iter().zip(&lib.placements) {
            assert_eq!(part["placement"]["asset"], p.asset.as_str(), "{}", r.rel);
            for (list, n) in [
                ("objects", p.objects.len()),
                ("facades", p.facades.len()),
                ("trees", p.trees.len()),
                ("draped", p.draped.len()),
                ("lines", p.lines.len()),
                ("tiles", p.tiles.len()),
            ] {
                let got = part["placement"][list].as_array().map_or(0, Vec::len);
                assert_eq!(got, n, "{}: {} {list}", r.rel, p.asset);
            }
        }
        opened += 1;
    }
    assert!(opened >= 20, "only {opened} corpus tiles opened");
}
