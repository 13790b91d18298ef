//! Noticing changes under the served PATH without spending anything while
//! nothing changes.
//!
//! The watcher asks the operating system to report changes (inotify on
//! Linux, FSEvents on macOS, ReadDirectoryChangesW on Windows, through the
//! `notify` crate) and sleeps until one comes; then it lets a burst of
//! events settle for [`Config::poll`](super::Config::poll) and rescans the
//! tree once. Reads (the server's own, an editor's) are not changes.
//!
//! Where notifications cannot be had (a file system without them, the
//! system's limit of watches reached) it falls back to polling: a rescan
//! every `poll`, the wait doubling after each scan that finds nothing new,
//! up to [`MAX_BACKOFF`], and back to `poll` after a change.

use super::Shared;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// The longest wait between two scans when polling.
pub const MAX_BACKOFF: Duration = Duration::from_secs(8);

/// How the watcher ended up watching.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Operating-system notifications.
    Notify,
    /// Polling with back-off.
    Poll,
}

/// Starts watching `shared.root` for changes on a thread of its own;
/// `notify` false polls from the start. Returns how it watches.
pub fn start(shared: Arc<Shared>, poll: Duration, notify: bool) -> std::io::Result<Mode> {
    let watching = if notify { subscribe(&shared) } else { None };
    let mode = if watching.is_some() {
        Mode::Notify
    } else {
        Mode::Poll
    };
    std::thread::Builder::new()
        .name("agkit-serve-watch".into())
        .spawn(move || {
            if let Some((watcher, events)) = watching {
                on_events(&shared, poll, &events);
                // The channel closed: the watcher failed; poll instead.
                drop(watcher);
            }
            polling(&shared, poll);
        })?;
    Ok(mode)
}

type Events = Receiver<notify::Result<notify::Event>>;

/// A watcher of the served tree and the channel its events arrive on.
fn subscribe(shared: &Shared) -> Option<(notify::RecommendedWatcher, Events)> {
    use notify::Watcher;
    let (tx, rx) = std::sync::mpsc::channel();
    let mut w = notify::recommended_watcher(tx).ok()?;
    let mode = if shared.root.is_single_file() {
        notify::RecursiveMode::NonRecursive
    } else {
        notify::RecursiveMode::Recursive
    };
    w.watch(shared.root.dir(), mode).ok()?;
    Some((w, rx))
}

/// Rescans after each burst of events; returns when the channel closes.
fn on_events(shared: &Shared, settle: Duration, events: &Events) {
    loop {
        // Blocks without a timeout: no work at all while nothing changes.
        match events.recv() {
            Ok(Ok(e)) if matches!(e.kind, notify::EventKind::Access(_)) => continue,
            Ok(_) => {}
            Err(_) => return,
        }
        // Let the burst (an editor's save is several events) settle.
        loop {
            match events.recv_timeout(settle) {
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        shared.rescan();
    }
}

/// Rescans every `poll`, backing off to [`MAX_BACKOFF`] while nothing
/// changes.
fn polling(shared: &Shared, poll: Duration) {
    let mut wait = poll;
    loop {
        std::thread::sleep(wait);
        wait = if shared.rescan() {
            poll
        } else {
            (wait * 2).min(MAX_BACKOFF.max(poll))
        };
    }
}
