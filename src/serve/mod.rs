//! `agkit serve`: a live browser previewer of autogen placements, and of
//! whole DSF tiles ([`tile`]).
//!
//! A small synchronous HTTP server ([`http`]) answers a JSON API ([`api`])
//! and serves one embedded page ([`web`]). A watcher thread ([`watch`])
//! waits for the operating system to report a change under the served PATH
//! (or, where it cannot, polls with back-off), rescans the files
//! ([`files`]) and bumps a version counter on every change; the page
//! listens on a Server-Sent Events stream (`/api/events`) and redraws.
//!
//! Security: only files under PATH are read ([`files::Root::resolve`]; a
//! DSF tile's definitions, assets, art and textures through a
//! [`crate::scenery::Scenery::within`] PATH), the
//! server binds to loopback unless told otherwise, and every request whose
//! `Host` or `Origin` is not an address the server answers on is refused
//! with 403 (a guard against DNS rebinding and cross-site requests).
//!
//! Staying alive: each request has a deadline for its head and body and
//! each answer one for being taken in ([`http::Deadline`]); slow or idle
//! connections give way to new ones, a few workers answer at once and event
//! streams are capped apart from the rest ([`slots`]); every placement is
//! held to [`serve_limits`], and an asset `agkit check` finds errors in is
//! refused before any engine sees it.
//!
//! ```no_run
//! let cfg = agkit::serve::Config::new("examples/");
//! let server = agkit::serve::Server::bind(&cfg).unwrap();
//! println!("{}", server.url());
//! server.run().unwrap();
//! ```

pub mod api;
pub mod conflicts;
pub mod files;
pub mod http;
pub mod polygons;
pub mod slots;
pub mod tile;
pub mod watch;
pub mod web;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::limits::Limits;
use files::{Entry, Root};
use http::{Deadline, HttpError, Request, Response};
use slots::{Phase, Slot, Slots, Workers};

/// Default of [`Config::max_connections`].
pub const MAX_CONNECTIONS: usize = 256;
/// Default of [`Config::max_event_streams`].
pub const MAX_EVENT_STREAMS: usize = 16;
/// Default of [`Config::request_timeout`].
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// Default of [`Config::response_timeout`].
pub const RESPONSE_TIMEOUT: Duration = Duration::from_secs(30);
/// How often an idle event stream sends a comment, to notice a departed
/// client.
const EVENT_PING: Duration = Duration::from_secs(15);

/// The limits every placement the server runs is held to: tighter than
/// [`Limits::default`], because one server answers many requests and holds
/// each placement in memory twice (as values and as JSON).
///
/// The server checks the polygon's extent against them before placing (a
/// 400 naming the previewer's limit), and every placement runs with them
/// ([`crate::place::Params::limits`]), so an asset that asks for too much is
/// stopped while placing, never after allocating it.
pub fn serve_limits() -> Limits {
    Limits {
        max_unpacked_bytes: 64 << 20,
        max_unpack_ratio: 100,
        max_placed_items: 200_000,
        max_work: 2_000_000,
        max_extent_m: 5_000.0,
        max_input_bytes: files::MAX_FILE,
        max_output_bytes: 64 << 20,
        max_mesh_elements: 5_000_000,
        max_texture_pixels: 4096 * 4096,
        max_drawn_items: 50_000,
        max_scene_texture_bytes: 64 << 20,
        max_scene_triangles: 2_000_000,
        max_scene_nodes: 200_000,
        max_picture_image_bytes: 8 << 20,
    }
}

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
    /// How long the watcher lets a burst of change notifications settle
    /// before it rescans, and how often it polls where notifications cannot
    /// be had (backing off while nothing changes, see [`watch`]).
    pub poll: Duration,
    /// Watch with operating-system notifications (true by default); false
    /// polls from the start.
    pub notify: bool,
    /// Most files and folders one scan of PATH visits
    /// ([`files::MAX_ENTRIES`] by default); the file listing says when a
    /// scan stopped there.
    pub max_entries: usize,
    /// Most connections held at once (each has a thread). When all are
    /// taken, the oldest connection that is only sending its request or
    /// receiving its answer is closed to make room (see [`slots`]); must
    /// exceed `workers + max_event_streams`.
    pub max_connections: usize,
    /// Most `/api/events` streams held at once; a new one closes the
    /// oldest (the page reconnects by itself).
    pub max_event_streams: usize,
    /// Requests answered at once; others wait for one (up to
    /// `request_timeout`, then 503).
    pub workers: usize,
    /// Time a client has to send its whole request, head and body (408
    /// after it).
    pub request_timeout: Duration,
    /// Time a client has to take in its whole answer, and an event stream
    /// each event.
    pub response_timeout: Duration,
    /// Bounds of each placement.
    pub limits: Limits,
    /// Where a DSF tile's library paths resolve.
    pub libraries: LibrarySource,
}

/// Where the previewer resolves a DSF tile's library paths (`lib/…`), as
/// `agkit place --dsf` does with `--xplane` or `--library`. Reading is
/// widened to these folders, which the user named; nothing else outside
/// the served PATH is read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum LibrarySource {
    /// None: library paths resolve nowhere and their items are drawn
    /// without art.
    #[default]
    None,
    /// An X-Plane installation (or its Custom Scenery folder): every
    /// library in the simulator's order.
    Installation(PathBuf),
    /// Library packages (or Custom Scenery folders) in order.
    Packages(Vec<PathBuf>),
}

impl LibrarySource {
    /// The folders it names.
    pub fn dirs(&self) -> &[PathBuf] {
        match self {
            LibrarySource::None => &[],
            LibrarySource::Installation(d) => std::slice::from_ref(d),
            LibrarySource::Packages(v) => v,
        }
    }

    /// The scenery a tile is placed through: these libraries, no package
    /// set (the tile's own is given per request).
    pub fn scenery(&self) -> Result<crate::scenery::Scenery, crate::scenery::SceneryError> {
        use crate::scenery::{Scenery, resolve::Conditions};
        match self {
            LibrarySource::None => Scenery::packages(None, &[], Conditions::default()),
            LibrarySource::Installation(d) => Scenery::installation(d, Conditions::default()),
            LibrarySource::Packages(v) => Scenery::packages(None, v, Conditions::default()),
        }
    }
}

impl Config {
    /// Serve `path` on 127.0.0.1, port 0, polling every 250 ms, with the
    /// default capacity: [`MAX_CONNECTIONS`], [`MAX_EVENT_STREAMS`], one
    /// worker per core (2 to 8), [`REQUEST_TIMEOUT`], [`RESPONSE_TIMEOUT`]
    /// and [`serve_limits`].
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Config {
            path: path.into(),
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            allow_hosts: Vec::new(),
            poll: Duration::from_millis(250),
            notify: true,
            max_entries: files::MAX_ENTRIES,
            max_connections: MAX_CONNECTIONS,
            max_event_streams: MAX_EVENT_STREAMS,
            workers: std::thread::available_parallelism()
                .map_or(2, std::num::NonZero::get)
                .clamp(2, 8),
            request_timeout: REQUEST_TIMEOUT,
            response_timeout: RESPONSE_TIMEOUT,
            limits: serve_limits(),
            libraries: LibrarySource::None,
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
    /// Why the listing is incomplete, when it is (too many files).
    pub note: Option<String>,
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
    /// Bounds of each placement.
    pub limits: Limits,
    /// Where a DSF tile's library paths resolve.
    pub libraries: LibrarySource,
    scans: AtomicU64,
    slots: Arc<Slots>,
    workers: Workers,
    request_timeout: Duration,
    response_timeout: Duration,
}

impl Shared {
    /// The current version and files.
    pub fn current(&self) -> (u64, Vec<Entry>) {
        let s = self.snapshot.lock().unwrap_or_else(|p| p.into_inner());
        (s.version, s.entries.clone())
    }

    /// How many connections are held, and how many of them are event
    /// streams.
    pub fn connections(&self) -> (usize, usize) {
        (self.slots.len(), self.slots.count(Phase::Events))
    }

    /// How many times the tree was scanned (the watcher's cost).
    pub fn scans(&self) -> u64 {
        self.scans.load(Ordering::Relaxed)
    }

    /// Why the file listing is incomplete, when it is.
    pub fn note(&self) -> Option<String> {
        let s = self.snapshot.lock().unwrap_or_else(|p| p.into_inner());
        s.note.clone()
    }

    /// Rescans the tree; bumps the version when anything changed. Returns
    /// whether it did.
    pub fn rescan(&self) -> bool {
        self.scans.fetch_add(1, Ordering::Relaxed);
        let (entries, note) = self.root.scan_noting();
        let mut s = self.snapshot.lock().unwrap_or_else(|p| p.into_inner());
        s.note = note;
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
        // RFC 9112 §3.2: a request with more than one Host is answered 400;
        // two Origins are as ambiguous (RFC 6454 allows one), and checking
        // only the first would let the second through.
        for name in ["host", "origin"] {
            let n = req.header_count(name);
            if n > 1 {
                return Err(HttpError::new(
                    400,
                    format!("{n} {name} headers; a request has at most one"),
                ));
            }
        }
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
    notify: bool,
}

impl Server {
    /// Checks PATH, binds the address and takes a first snapshot of the
    /// files.
    pub fn bind(cfg: &Config) -> std::io::Result<Server> {
        if cfg.max_connections <= cfg.workers + cfg.max_event_streams {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "max_connections must exceed workers + max_event_streams",
            ));
        }
        let root = Root::new(&cfg.path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", cfg.path.display())))?
            .with_max_entries(cfg.max_entries);
        // The libraries are opened once here so that a wrong folder stops
        // the server at once, not its first tile.
        if let Err(e) = cfg.libraries.scenery() {
            let flag = match cfg.libraries {
                LibrarySource::Installation(_) => "--xplane ",
                _ => "--library ",
            };
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{flag}{e}"),
            ));
        }
        let addr = SocketAddr::new(cfg.bind, cfg.port);
        let listener = TcpListener::bind(addr).map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot listen on {addr} (the port): {e}"))
        })?;
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
            limits: cfg.limits,
            libraries: cfg.libraries.clone(),
            scans: AtomicU64::new(0),
            slots: Arc::new(Slots::new(cfg.max_connections, cfg.max_event_streams)),
            workers: Workers::new(cfg.workers),
            request_timeout: cfg.request_timeout,
            response_timeout: cfg.response_timeout,
        });
        shared.rescan();
        Ok(Server {
            listener,
            shared,
            poll: cfg.poll,
            notify: cfg.notify,
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

    /// Serves until the process ends: starts the watcher ([`watch`]), then
    /// accepts connections, one thread each.
    pub fn run(self) -> std::io::Result<()> {
        watch::start(self.shared.clone(), self.poll, self.notify)?;
        for stream in self.listener.incoming() {
            let stream = match stream {
                Ok(s) => s,
                Err(_) => {
                    // Out of file descriptors, say: let connections end
                    // rather than spin on the error.
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
            };
            let Some(slot) = self.shared.slots.admit(&stream) else {
                // Never waits on this client: the accept loop must go on.
                let _ = stream.set_nonblocking(true);
                let _ = Response::error(503, "too many connections").write_to(&stream, false);
                continue;
            };
            let shared = self.shared.clone();
            // When no thread can be made the closure is dropped, and with it
            // the connection and its slot.
            let _ = std::thread::Builder::new()
                .name("agkit-serve-conn".into())
                .spawn(move || handle_connection(&shared, &stream, &slot));
        }
        Ok(())
    }
}

impl Shared {
    /// Writes a response, allowing the client [`Config::response_timeout`]
    /// to take it in; a client that does not is cut off.
    fn reply(&self, stream: &TcpStream, response: &Response, head_only: bool) {
        let until = Instant::now() + self.response_timeout;
        let _ = response.write_to(Deadline::new(stream, until), head_only);
    }
}

/// What `agkit serve TILE.dsf` serves and opens: the tile's scenery
/// package (the folder holding `Earth nav data`, where the tile's paths
/// resolve), else the tile's own folder; and the tile's path in it,
/// `/`-separated, for [`tile_url`]. The DSF is made absolute first, so a
/// bare file name has a folder.
pub fn tile_root(dsf: &std::path::Path) -> std::io::Result<(PathBuf, String)> {
    let dsf = std::fs::canonicalize(dsf)?;
    let root = crate::scenery::context::default_package(&dsf);
    let rel = dsf.strip_prefix(&root).unwrap_or(&dsf);
    let rel: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Ok((root, rel.join("/")))
}

/// The page at `base` (a [`Server::url`]) opening the tile `rel` of its
/// list: `#tile=` and the path percent-encoded, `+` and spaces included
/// (a hash is read as a query, where `+` would be a space).
///
/// ```
/// let u = agkit::serve::tile_url("http://127.0.0.1:8787/", "Earth nav data/+40+010/+47+013.dsf");
/// assert_eq!(u, "http://127.0.0.1:8787/#tile=Earth%20nav%20data/%2B40%2B010/%2B47%2B013.dsf");
/// ```
pub fn tile_url(base: &str, rel: &str) -> String {
    let mut u = format!("{base}#tile=");
    for b in rel.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~/".contains(&b) {
            u.push(b as char);
        } else {
            u.push_str(&format!("%{b:02X}"));
        }
    }
    u
}

fn handle_connection(shared: &Shared, stream: &TcpStream, slot: &Slot) {
    let until = Instant::now() + shared.request_timeout;
    let req = match http::read_request(stream, until) {
        Ok(Some(r)) => r,
        Ok(None) => return,
        Err(e) => {
            shared.reply(stream, &Response::error(e.status, &e.message), false);
            return;
        }
    };
    if let Err(e) = shared.check_origin(&req) {
        shared.reply(stream, &Response::error(e.status, &e.message), false);
        return;
    }
    let head_only = req.method == "HEAD";
    if req.path == "/api/events" && matches!(req.method.as_str(), "GET") {
        serve_events(shared, stream, slot);
        return;
    }
    let Some(permit) = shared.workers.acquire(shared.request_timeout) else {
        let busy = Response::error(503, "the server is busy answering other requests");
        shared.reply(stream, &busy, false);
        return;
    };
    if !slot.set(Phase::Working) {
        return; // closed to make room while it waited
    }
    let response =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| api::route(shared, &req)))
            .unwrap_or_else(|p| {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown".into());
                Response::error(500, &format!("internal error (a panic): {msg}"))
            });
    drop(permit);
    slot.set(Phase::Writing);
    shared.reply(stream, &response, head_only);
}

/// The Server-Sent Events stream: one `version` event at once, then one per
/// change, and a comment every [`EVENT_PING`] to notice departed clients.
/// Ends when the client goes, takes longer than
/// [`Config::response_timeout`] over one event, or the stream is closed to
/// make room for a newer one.
fn serve_events(shared: &Shared, stream: &TcpStream, slot: &Slot) {
    if !slot.set(Phase::Events) {
        if !slot.evicted() {
            let off = Response::error(503, "event streams are turned off; poll /api/version");
            shared.reply(stream, &off, false);
        }
        return;
    }
    let send = |text: &str| {
        let mut w = Deadline::new(stream, Instant::now() + shared.response_timeout);
        w.write_all(text.as_bytes())
            .and_then(|()| w.flush())
            .is_ok()
    };
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
                Connection: close\r\n\r\n";
    let (mut seen, _) = shared.current();
    let first = format!(
        "retry: 1000\nevent: version\ndata: {}\n\n",
        serde_json::json!({ "version": seen, "changed": [] })
    );
    if !send(head) || !send(&first) {
        return;
    }
    let mut quiet_since = Instant::now();
    loop {
        // Wakes every second to see whether the stream was closed to make
        // room (the socket is shut already; the thread ends here).
        let guard = shared.snapshot.lock().unwrap_or_else(|p| p.into_inner());
        let (guard, _) = shared
            .changed
            .wait_timeout_while(guard, Duration::from_secs(1), |s| s.version == seen)
            .unwrap_or_else(|p| p.into_inner());
        if slot.evicted() {
            return;
        }
        let msg = if guard.version != seen {
            seen = guard.version;
            format!(
                "event: version\ndata: {}\n\n",
                serde_json::json!({ "version": seen, "changed": guard.changed })
            )
        } else if quiet_since.elapsed() >= EVENT_PING {
            ": ping\n\n".to_string()
        } else {
            continue;
        };
        drop(guard);
        if !send(&msg) {
            return;
        }
        quiet_since = Instant::now();
    }
}
