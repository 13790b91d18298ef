//! `agkit serve PATH [--port N] [--bind ADDR] [--library DIR]... [--xplane DIR]`:
//! the live browser previewer.

use agkit::serve::{Config, LibrarySource, Server};
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;

/// Arguments of `agkit serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// An asset file, a folder searched recursively for .agp .agb .ags
    /// (and .geojson polygons and .dsf tiles, which the page opens whole),
    /// or a DSF tile: its scenery package's folder is served and the page
    /// opens the tile.
    path: PathBuf,
    /// Port to listen on; 0 picks a free one (the URL printed tells which).
    #[arg(long, default_value_t = 8787)]
    port: u16,
    /// Address to listen on. The default serves this machine only; any
    /// other address exposes your files to the network.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Also accept requests addressed to this host name (repeatable), e.g.
    /// when reached through a tunnel or with --bind 0.0.0.0.
    #[arg(long = "allow-host", value_name = "HOST[:PORT]")]
    allow_hosts: Vec<String>,
    /// A library package or Custom Scenery folder in which a DSF tile's
    /// library paths (`lib/…`) resolve (repeatable; searched in order).
    /// The previewer then reads these folders too.
    #[arg(long = "library", value_name = "DIR")]
    library: Vec<PathBuf>,
    /// Resolve a DSF tile's library paths across this X-Plane
    /// installation (the X-Plane folder or its Custom Scenery folder), as
    /// the simulator does. The previewer then reads that folder too.
    #[arg(long, value_name = "DIR", conflicts_with = "library")]
    xplane: Option<PathBuf>,
}

/// Why the previewer could not start, with what to do: a port in use or
/// not allowed gets `--port`, an address not of this machine `--bind`.
fn bind_error(e: &std::io::Error, args: &Args) -> String {
    use std::io::ErrorKind;
    let hint = match e.kind() {
        ErrorKind::AddrInUse => {
            "; another program (perhaps another `agkit serve`) listens there: give --port N, \
             or --port 0 for any free port"
        }
        ErrorKind::PermissionDenied if args.port < 1024 => {
            "; ports below 1024 need privileges: give --port 8787, or --port 0 for any free port"
        }
        ErrorKind::AddrNotAvailable => {
            "; the address is not one of this machine's: give --bind 127.0.0.1 (the default)"
        }
        _ => "",
    };
    format!("agkit serve: {e}{hint}")
}

/// Runs `agkit serve` until interrupted.
pub fn run(args: Args) -> u8 {
    // A folder is served as it is; a DSF tile from its package's folder,
    // where its paths resolve, with the page opening it; anything else
    // must be an asset file.
    let mut root = args.path.clone();
    let mut open_tile = None;
    if !args.path.is_dir() {
        let name = args.path.display().to_string();
        let bytes =
            match super::output::read_file(&args.path, "an autogen asset or DSF tile to preview") {
                Ok(b) => b,
                Err(code) => return code,
            };
        if bytes.starts_with(b"XPLNEDSF") || bytes.starts_with(b"7z\xBC\xAF\x27\x1C") {
            match agkit::serve::tile_root(&args.path) {
                Ok((dir, rel)) => {
                    root = dir;
                    open_tile = Some(rel);
                }
                Err(e) => return super::output::fail(format!("agkit serve: {name}: {e}")),
            }
        } else if let Some(refused) = super::output::not_autogen_text(&name, &bytes) {
            eprintln!("{refused}");
            return super::output::EXIT_INPUT;
        }
    }
    let mut cfg = Config::new(&root);
    cfg.port = args.port;
    cfg.bind = args.bind;
    cfg.allow_hosts = args.allow_hosts.clone();
    cfg.libraries = match (&args.xplane, args.library.is_empty()) {
        (Some(dir), _) => LibrarySource::Installation(dir.clone()),
        (None, false) => LibrarySource::Packages(args.library.clone()),
        (None, true) => LibrarySource::None,
    };
    let server = match Server::bind(&cfg) {
        Ok(s) => s,
        Err(e) => return super::output::fail(bind_error(&e, &args)),
    };
    if !args.bind.is_loopback() {
        eprintln!(
            "warning: listening on {} — anyone who can reach this address can read the assets under {}",
            args.bind,
            root.display()
        );
    }
    let (_, files) = server.shared().current();
    let mut out = std::io::stdout().lock();
    let url = match &open_tile {
        Some(rel) => agkit::serve::tile_url(&server.url(), rel),
        None => server.url(),
    };
    let _ = writeln!(out, "agkit serve: {url}");
    let _ = writeln!(
        out,
        "serving {} file(s) under {} — edit and save, the page redraws; Ctrl-C stops",
        files.len(),
        server.shared().root.dir().display()
    );
    for dir in server.shared().libraries.dirs() {
        let _ = writeln!(
            out,
            "a DSF tile's library paths resolve in {}",
            dir.display()
        );
    }
    let _ = out.flush();
    drop(out);
    if let Some(note) = server.shared().note() {
        eprintln!("warning: {note}");
    }
    match server.run() {
        Ok(()) => super::output::EXIT_OK,
        Err(e) => super::output::fail(format!("agkit serve: {e}")),
    }
}
