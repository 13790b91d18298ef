//! A deliberately small HTTP/1.1 layer over `std::net`: read one request
//! (bounded head and body, by a deadline), write one response, close the
//! connection.
//!
//! Every limit is checked before memory is allocated for it, and every
//! malformed input becomes an [`HttpError`] with a status code, never a panic.
//! Reads and writes go through [`Deadline`], so a client that sends or
//! receives one byte at a time is cut off when its time is up, however
//! steadily the bytes come.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Instant;

/// Largest request head (request line and headers) accepted.
pub const MAX_HEAD: usize = 16 * 1024;
/// Largest request body accepted.
pub const MAX_BODY: usize = 4 * 1024 * 1024;
/// Most header lines accepted.
const MAX_HEADERS: usize = 100;

/// A parsed request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `POST`, …
    pub method: String,
    /// The percent-decoded path (always starts with `/`).
    pub path: String,
    /// The raw (still encoded) path as sent.
    pub raw_path: String,
    /// Decoded query parameters in order.
    pub query: Vec<(String, String)>,
    /// Headers with lower-case names.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The first header called `name` (lower-case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// How many times the header `name` (lower-case) was sent.
    pub fn header_count(&self, name: &str) -> usize {
        self.headers.iter().filter(|(k, _)| k == name).count()
    }

    /// The first query parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A request that cannot be served, with the status to answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpError {
    /// HTTP status code.
    pub status: u16,
    /// Why, for the client.
    pub message: String,
}

impl HttpError {
    /// An error with a status and message.
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        HttpError {
            status,
            message: message.into(),
        }
    }
}

/// A socket read and written only until an instant: each read or write
/// waits at most for the time left, and none starts after it.
#[derive(Debug, Clone, Copy)]
pub struct Deadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl<'a> Deadline<'a> {
    /// `stream` until `until`.
    pub fn new(stream: &'a TcpStream, until: Instant) -> Self {
        Deadline { stream, until }
    }

    /// The time left, or a `TimedOut` error when there is none.
    fn left(&self) -> io::Result<std::time::Duration> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            Err(io::Error::new(io::ErrorKind::TimedOut, "out of time"))
        } else {
            Ok(left)
        }
    }
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.stream.set_read_timeout(Some(self.left()?))?;
        Read::read(&mut self.stream, buf)
    }
}

impl Write for Deadline<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.set_write_timeout(Some(self.left()?))?;
        Write::write(&mut self.stream, buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Write::flush(&mut self.stream)
    }
}

/// Whether an I/O error means the time was up (a socket timeout reports
/// `WouldBlock` on Unix and `TimedOut` on Windows).
fn timed_out(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    )
}

/// Reads one request from `stream`, head and body, all before `until`
/// (408 after it). `Ok(None)` when the client closed the connection before
/// sending anything.
pub fn read_request(stream: &TcpStream, until: Instant) -> Result<Option<Request>, HttpError> {
    let late = || HttpError::new(408, "the request did not arrive in time");
    let mut reader =
        BufReader::new(Deadline::new(stream, until).take((MAX_HEAD + MAX_BODY + 1) as u64));
    let mut head_len = 0usize;
    let mut lines = Vec::new();
    loop {
        let mut line = Vec::new();
        let n = (&mut reader)
            .take((MAX_HEAD - head_len + 1) as u64)
            .read_until(b'\n', &mut line)
            .map_err(|e| {
                if timed_out(&e) {
                    late()
                } else {
                    HttpError::new(400, format!("reading the request: {e}"))
                }
            })?;
        if n == 0 {
            if lines.is_empty() {
                return Ok(None);
            }
            return Err(HttpError::new(400, "the request ended inside its head"));
        }
        head_len += n;
        if head_len > MAX_HEAD {
            return Err(HttpError::new(431, "request head too large"));
        }
        if !line.ends_with(b"\n") {
            return Err(HttpError::new(400, "the request ended inside its head"));
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        if line.is_empty() {
            if lines.is_empty() {
                continue; // tolerate leading blank lines (RFC 9112 §2.2)
            }
            break;
        }
        if lines.len() > MAX_HEADERS {
            return Err(HttpError::new(431, "too many headers"));
        }
        let text = String::from_utf8(line)
            .map_err(|_| HttpError::new(400, "request head is not UTF-8"))?;
        lines.push(text);
    }
    let mut request = parse_head(&lines)?;
    if request
        .header("transfer-encoding")
        .is_some_and(|v| !v.eq_ignore_ascii_case("identity"))
    {
        return Err(HttpError::new(411, "send a Content-Length, not chunks"));
    }
    let len = match request.header("content-length") {
        None => 0,
        Some(v) => v
            .trim()
            .parse::<usize>()
            .map_err(|_| HttpError::new(400, "bad Content-Length"))?,
    };
    if len > MAX_BODY {
        return Err(HttpError::new(
            413,
            format!("request body over {MAX_BODY} bytes"),
        ));
    }
    let mut body = vec![0; len];
    reader.read_exact(&mut body).map_err(|e| {
        if timed_out(&e) {
            late()
        } else {
            HttpError::new(400, format!("reading the body: {e}"))
        }
    })?;
    request.body = body;
    Ok(Some(request))
}

/// Parses the request line and headers.
pub fn parse_head(lines: &[String]) -> Result<Request, HttpError> {
    let first = lines
        .first()
        .ok_or_else(|| HttpError::new(400, "empty request"))?;
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(HttpError::new(400, "malformed request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(HttpError::new(505, "only HTTP/1.x is spoken here"));
    }
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(HttpError::new(400, "malformed method"));
    }
    if !target.starts_with('/') {
        return Err(HttpError::new(400, "the request target must be a path"));
    }
    let (raw_path, raw_query) = match target.split_once('?') {
        Some((p, q)) => (p, q),
        None => (target, ""),
    };
    let raw_path = raw_path.split('#').next().unwrap_or_default();
    let path = percent_decode(raw_path, false)?;
    let mut query = Vec::new();
    for pair in raw_query.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        query.push((percent_decode(k, true)?, percent_decode(v, true)?));
    }
    let mut headers = Vec::new();
    for line in &lines[1..] {
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| HttpError::new(400, "malformed header line"))?;
        if name.is_empty() || name.bytes().any(|b| b.is_ascii_whitespace()) {
            return Err(HttpError::new(400, "malformed header name"));
        }
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    Ok(Request {
        method: method.to_string(),
        path,
        raw_path: raw_path.to_string(),
        query,
        headers,
        body: Vec::new(),
    })
}

/// Decodes `%XX` escapes (and `+` as space in query strings). Refuses bad
/// escapes, NUL and text that is not UTF-8 once decoded.
pub fn percent_decode(s: &str, plus_is_space: bool) -> Result<String, HttpError> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| HttpError::new(400, "bad percent escape"))?;
                out.push(hex);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    if out.contains(&0) {
        return Err(HttpError::new(400, "NUL in the request"));
    }
    String::from_utf8(out).map_err(|_| HttpError::new(400, "the request is not UTF-8"))
}

/// One response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// Extra headers.
    pub headers: Vec<(&'static str, String)>,
    /// Body.
    pub body: Vec<u8>,
}

impl Response {
    /// A response with a body.
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Self {
        Response {
            status,
            content_type,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    /// A JSON response.
    pub fn json(status: u16, value: &serde_json::Value) -> Self {
        Response::new(status, "application/json; charset=utf-8", value.to_string())
    }

    /// A JSON response serialized straight from `value`, without building
    /// a `serde_json::Value` of it first (500 if it cannot be serialized).
    pub fn json_of(status: u16, value: &impl serde::Serialize) -> Self {
        match serde_json::to_vec(value) {
            Ok(body) => Response::new(status, "application/json; charset=utf-8", body),
            Err(e) => Response::error(500, &format!("cannot serialize the answer: {e}")),
        }
    }

    /// A JSON error `{"error": message}`.
    pub fn error(status: u16, message: &str) -> Self {
        Response::json(status, &serde_json::json!({ "error": message }))
    }

    /// Writes the response and flushes.
    pub fn write_to(&self, mut w: impl Write, head_only: bool) -> io::Result<()> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
             Referrer-Policy: no-referrer\r\nCross-Origin-Resource-Policy: same-origin\r\n\
             Connection: close\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        for (k, v) in &self.headers {
            head.push_str(k);
            head.push_str(": ");
            head.push_str(v);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        w.write_all(head.as_bytes())?;
        if !head_only {
            w.write_all(&self.body)?;
        }
        w.flush()
    }
}

/// The reason phrase of a status code.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(lines: &[&str]) -> Result<Request, HttpError> {
        parse_head(&lines.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn parses_path_query_and_headers() {
        let r = head(&[
            "GET /api/asset?path=a%20b%2Fc.ags&seed=3 HTTP/1.1",
            "Host: 127.0.0.1:80",
        ])
        .unwrap();
        assert_eq!(r.path, "/api/asset");
        assert_eq!(r.param("path"), Some("a b/c.ags"));
        assert_eq!(r.param("seed"), Some("3"));
        assert_eq!(r.header("host"), Some("127.0.0.1:80"));
    }

    #[test]
    fn refuses_malformed_requests() {
        assert_eq!(head(&["GET"]).unwrap_err().status, 400);
        assert_eq!(head(&["GET http://x/ HTTP/1.1"]).unwrap_err().status, 400);
        assert_eq!(head(&["GET / HTTP/2"]).unwrap_err().status, 505);
        assert_eq!(head(&["GET /%zz HTTP/1.1"]).unwrap_err().status, 400);
        assert_eq!(head(&["GET /%00 HTTP/1.1"]).unwrap_err().status, 400);
        assert_eq!(head(&["GET /%ff HTTP/1.1"]).unwrap_err().status, 400);
        assert_eq!(
            head(&["GET / HTTP/1.1", "no colon"]).unwrap_err().status,
            400
        );
    }

    #[test]
    fn the_deadline_stops_a_slow_request_and_a_stalled_answer() {
        use std::net::TcpListener;
        use std::time::Duration;
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (server, _) = l.accept().unwrap();
        client.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").unwrap();
        let e = read_request(&server, Instant::now() + Duration::from_millis(200)).unwrap_err();
        assert_eq!(e.status, 408, "{e:?}");
        // A client that reads nothing: once the socket buffers are full the
        // answer stops at the deadline.
        let mut w = Deadline::new(&server, Instant::now() + Duration::from_millis(300));
        let chunk = vec![0u8; 1 << 16];
        let e = loop {
            if let Err(e) = w.write_all(&chunk) {
                break e;
            }
        };
        assert!(timed_out(&e), "{e}");
    }

    #[test]
    fn decodes_dot_escapes() {
        assert_eq!(percent_decode("%2e%2E/x", false).unwrap(), "../x");
        assert_eq!(percent_decode("a+b", true).unwrap(), "a b");
        assert_eq!(percent_decode("a+b", false).unwrap(), "a+b");
        assert!(percent_decode("%2", false).is_err());
    }
}
