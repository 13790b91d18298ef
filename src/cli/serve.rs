//! `agkit serve PATH [--port N] [--bind ADDR]`: the live browser previewer.

use agkit::serve::{Config, Server};
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;

/// Arguments of `agkit serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// An asset file, or a folder searched recursively for .agp .agb .ags
    /// (and .geojson polygons).
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
}

/// Runs `agkit serve` until interrupted.
pub fn run(args: Args) -> u8 {
    if args.path.is_file() {
        let name = args.path.display().to_string();
        match std::fs::read(&args.path) {
            Ok(bytes) => {
                if let Some(refused) = super::output::not_autogen_text(&name, &bytes) {
                    eprintln!("{refused}");
                    return super::output::EXIT_INPUT;
                }
            }
            Err(e) => return super::output::fail(format!("{name}: {e}")),
        }
    }
    let mut cfg = Config::new(&args.path);
    cfg.port = args.port;
    cfg.bind = args.bind;
    cfg.allow_hosts = args.allow_hosts;
    let server = match Server::bind(&cfg) {
        Ok(s) => s,
        Err(e) => return super::output::fail(format!("agkit serve: {e}")),
    };
    if !args.bind.is_loopback() {
        eprintln!(
            "warning: listening on {} — anyone who can reach this address can read the assets under {}",
            args.bind,
            args.path.display()
        );
    }
    let (_, files) = server.shared().current();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "agkit serve: {}", server.url());
    let _ = writeln!(
        out,
        "serving {} file(s) under {} — edit and save, the page redraws; Ctrl-C stops",
        files.len(),
        server.shared().root.dir().display()
    );
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
