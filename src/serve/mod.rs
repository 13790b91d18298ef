//! `agkit serve`: a live browser previewer of autogen placements.
//!
//! A small synchronous HTTP server ([`http`]) answers a JSON API ([`api`])
//! and serves one embedded page ([`web`]). A watcher thread polls the
//! modification times of the files under the served PATH ([`files`]) and
//! bumps a version counter on every change; the page listens on a
//! Server-Sent Events stream (`/api/events`) and redraws.
//!
//! Security: only files under PATH are read ([`files::Root::resolve`]), the
//! server binds to loopback unless told otherwise, and every request whose
//! `Host` or `Origin` is not an address the server answers on is refused
//! with 403 (a guard against DNS rebinding and cross-site requests).
//!
//! ```no_run
//! let cfg = agkit::serve::Config::new("examples/");
//! let server = agkit::serve::Server::bind(&cfg).unwrap();
//! println!("{}", server.url());
//! server.run().unwrap();
//! ```

pub mod api;
pub mod files;
pub mod http;
pub mod polygons;
pub mod web;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use files::{Entry, Root};
use http::{HttpError, Request, Response};

/// Most connections handled at once (each has a thread); more get 503.
pub const MAX_CONNECTIONS: usize = 64;

/// How the server is set up.
#[derive(Debug, Clone)]
pub struct Config {
    /// The asset file or folder served.
    pub path: PathBuf,
    /// Address to bind (loopback by default).
    pub bind: IpAddr,
    /// Port (0 = any free port).
    pub port: u16,
    /// Extra `Host` names (`name` or `name:port`) accepted besides the
    /// loopback names and the bind address.
    pub allow_hosts: Vec<String>,
    /// How often the watcher looks at modification times.
    pub poll: Duration,
}

impl Config {
    /// Serve `path` on 127.0.0.1, port 0, polling every 250 ms.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Config {
            path: path.into(),
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            allow_hosts: Vec::new(),
            poll: Duration::from_millis(250),
        }
    }
}

/// What the watcher last saw.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// Bumped on every change of any served file.
    pub version: u64,
    /// The files.
    pub entries: Vec<Entry>,
    /// Paths that changed in the last bump.
    pub changed: Vec<String>,
}

/// State shared by the connection threads and the watcher.
#[derive(Debug)]
pub struct Shared {
    /// The served tree.
    pub root: Root,
    /// Latest snapshot.
    pub snapshot: Mutex<Snapshot>,
    /// Signalled when the version changes.
    pub changed: Condvar,
    /// Accepted `Host` header values (lower-case, with port).
    pub hosts: Vec<String>,
    /// Name shown for the root.
    pub root_label: String,
    connections: AtomicUsize,
}

impl Shared {
    /// The current version and files.
    pub fn current(&self) -> (u64, Vec<Entry>) {
        let s = self.snapshot.lock().unwrap_or_else(|p| p.into_inner());
        (s.version, s.entries.clone())
    }

    /// Rescans the tree; bumps the version when anything changed. Returns
    /// whether it did.
    pub fn rescan(&self) -> bool {
        let entries = self.root.scan();
        let mut s = self.snapshot.lock().unwrap_or_else(|p| p.into_inner());
        if entries == s.entries {
            return false;
        }
        let mut changed: Vec<String> = entries
            .iter()
            .filter(|e| !s.entries.contains(e))
            .chain(s.entries.iter().filter(|e| !entries.contains(e)))
            .map(|e| e.rel.clone())
            .collect();
        changed.sort();
        changed.dedup();
        s.version += 1;
        s.entries = entries;
        s.changed = changed;
        drop(s);
        self.changed.notify_all();
        true
    }

    /// Whether a request's `Host` and `Origin` headers name this server.
    pub fn check_origin(&self, req: &Request) -> Result<(), HttpError> {
        let host = req
            .header("host")
            .ok_or_else(|| HttpError::new(403, "a Host header is required"))?
            .to_ascii_lowercase();
        if !self.hosts.contains(&host) {
            return Err(HttpError::new(
                403,
                format!("Host {host:?} is not this server (DNS rebinding guard)"),
            ));
        }
        if let Some(origin) = req.header("origin") {
            let origin = origin.to_ascii_lowercase();
            let ok = origin
                .strip_prefix("http://")
                .is_some_and(|h| self.hosts.iter().any(|a| a == h));
            if !ok {
                return Err(HttpError::new(
                    403,
                    format!("Origin {origin:?} is not this server"),
                ));
            }
        }
        Ok(())
    }
}

/// A bound server, ready to [`run`](Server::run).
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
    poll: Duration,
}

impl Server {
    /// Checks PATH, binds the address and takes a first snapshot of the
    /// files.
    pub fn bind(cfg: &Config) -> std::io::Result<Server> {
        let root = Root::new(&cfg.path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", cfg.path.display())))?;
        let listener = TcpListener::bind(SocketAddr::new(cfg.bind, cfg.port))?;
        let port = listener.local_addr()?.port();
        let mut hosts = vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ];
        let bind_host = match cfg.bind {
            IpAddr::V4(a) => format!("{a}:{port}"),
            IpAddr::V6(a) => format!("[{a}]:{port}"),
        };
        if !cfg.bind.is_unspecified() && !hosts.contains(&bind_host) {
            hosts.push(bind_host);
        }
        for h in &cfg.allow_hosts {
            let h = h.to_ascii_lowercase();
            if h.rsplit_once(':')
                .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
            {
                hosts.push(h);
            } else {
                hosts.push(format!("{h}:{port}"));
            }
        }
        let root_label = cfg.path.display().to_string();
        let shared = Arc::new(Shared {
            root,
            snapshot: Mutex::new(Snapshot::default()),
            changed: Condvar::new(),
            hosts,
            root_label,
            connections: AtomicUsize::new(0),
        });
        shared.rescan();
        Ok(Server {
            listener,
            shared,
            poll: cfg.poll,
        })
    }

    /// The address actually bound (the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0))
    }

    /// The URL to open in a browser.
    pub fn url(&self) -> String {
        let addr = self.local_addr();
        match addr.ip() {
            IpAddr::V4(a) if a.is_unspecified() => format!("http://127.0.0.1:{}/", addr.port()),
            IpAddr::V6(a) if a.is_unspecified() => format!("http://[::1]:{}/", addr.port()),
            _ => format!("http://{addr}/"),
        }
    }

    /// The state the handlers share (for tests and embedding).
    pub fn shared(&self) -> Arc<Shared> {
        self.shared.clone()
    }

    /// Serves until the process ends: starts the watcher, then accepts
    /// connections, one thread each.
    pub fn run(self) -> std::io::Result<()> {
        let watcher = self.shared.clone();
        let poll = self.poll;
        std::thread::Builder::new()
            .name("agkit-serve-watch".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(poll);
                    watcher.rescan();
                }
            })?;
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else { continue };
            let shared = self.shared.clone();
            if shared.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                shared.connections.fetch_sub(1, Ordering::SeqCst);
                let _ = Response::error(503, "too many connections").write_to(&stream, false);
                continue;
            }
            let spawned = std::thread::Builder::new()
                .name("agkit-serve-conn".into())
                .spawn(move || {
                    handle_connection(&shared, stream);
                    shared.connections.fetch_sub(1, Ordering::SeqCst);
                });
            if spawned.is_err() {
                self.shared.connections.fetch_sub(1, Ordering::SeqCst);
            }
        }
        Ok(())
    }
}

fn handle_connection(shared: &Arc<Shared>, stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let req = match http::read_request(&stream) {
        Ok(Some(r)) => r,
        Ok(None) => return,
        Err(e) => {
            let _ = Response::error(e.status, &e.message).write_to(&stream, false);
            return;
        }
    };
    if let Err(e) = shared.check_origin(&req) {
        let _ = Response::error(e.status, &e.message).write_to(&stream, false);
        return;
    }
    let head_only = req.method == "HEAD";
    if req.path == "/api/events" && matches!(req.method.as_str(), "GET") {
        serve_events(shared, stream);
        return;
    }
    let shared2 = shared.clone();
    let response = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        api::route(&shared2, &req)
    }))
    .unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown".into());
        Response::error(500, &format!("internal error (a panic): {msg}"))
    });
    let _ = response.write_to(&stream, head_only);
}

/// The Server-Sent Events stream: one `version` event at once, then one per
/// change, and a comment every 15 s to notice departed clients.
fn serve_events(shared: &Shared, mut stream: TcpStream) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
                Connection: close\r\n\r\n";
    let (mut seen, _) = shared.current();
    let first = format!(
        "retry: 1000\nevent: version\ndata: {}\n\n",
        serde_json::json!({ "version": seen, "changed": [] })
    );
    if stream.write_all(head.as_bytes()).is_err()
        || stream.write_all(first.as_bytes()).is_err()
        || stream.flush().is_err()
    {
        return;
    }
    loop {
        let guard = shared.snapshot.lock().unwrap_or_else(|p| p.into_inner());
        let (guard, _) = shared
            .changed
            .wait_timeout_while(guard, Duration::from_secs(15), |s| s.version == seen)
            .unwrap_or_else(|p| p.into_inner());
        let msg = if guard.version != seen {
            seen = guard.version;
            format!(
                "event: version\ndata: {}\n\n",
                serde_json::json!({ "version": seen, "changed": guard.changed })
            )
        } else {
            ": ping\n\n".to_string()
        };
        drop(guard);
        if stream.write_all(msg.as_bytes()).is_err() || stream.flush().is_err() {
            return;
        }
    }
}
