//! Capacity: which connections the server holds, what each is doing, and
//! who gives way when there is no room.
//!
//! A slow client costs a socket and a sleeping thread, never the room of a
//! real request:
//!
//! - Every connection holds a [`Slot`] in [`Slots`]. When all are taken, a
//!   new connection closes the *oldest* one that is only talking — still
//!   sending its request, waiting for a worker, or receiving its answer —
//!   and takes its place. A trickle of bytes can therefore hold a slot only
//!   until newer connections push it out, and never past the request
//!   deadline (see [`super::http::read_request`]).
//! - Work (answering a request) needs one of a few [`Workers`] permits, so
//!   CPU and memory are spent on a bounded number of requests at once.
//! - Event streams (`/api/events`) live long: at most
//!   [`Config::max_event_streams`](super::Config::max_event_streams) are
//!   held, the oldest closed for a new one (the page reconnects by itself).
//!
//! Working and streaming connections are never closed to make room, so the
//! connection limit must exceed the worker and stream limits together;
//! then a new connection always finds room (see [`Slots::new`]).

use std::collections::BTreeMap;
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// What a connection is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Sending its request, or waiting for a worker: closed to make room.
    Reading,
    /// Being answered (holds a worker permit): never closed to make room.
    Working,
    /// Receiving its answer: closed to make room.
    Writing,
    /// An open `/api/events` stream: closed only for a newer stream.
    Events,
}

impl Phase {
    /// Whether a connection in this phase gives way to a new connection.
    fn yields(self) -> bool {
        matches!(self, Phase::Reading | Phase::Writing)
    }
}

/// One held connection.
#[derive(Debug)]
struct Held {
    phase: Phase,
    /// A handle on the socket, to shut it down when evicted.
    stream: TcpStream,
    /// Set when the connection was closed to make room.
    evicted: Arc<AtomicBool>,
}

/// The connections held.
#[derive(Debug, Default)]
struct Table {
    /// Held connections by id; ids grow, so the first is the oldest.
    held: BTreeMap<u64, Held>,
    /// The last id given.
    last: u64,
}

/// The connections held, and the room for them.
#[derive(Debug)]
pub struct Slots {
    table: Mutex<Table>,
    max: usize,
    max_events: usize,
}

impl Slots {
    /// Room for `max` connections, `max_events` of them event streams.
    /// `max` should exceed `max_events` plus the number of workers, so
    /// that there is always a connection that can give way.
    pub fn new(max: usize, max_events: usize) -> Slots {
        Slots {
            table: Mutex::new(Table::default()),
            max: max.max(1),
            max_events,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many connections are held.
    pub fn len(&self) -> usize {
        self.lock().held.len()
    }

    /// Whether no connection is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many connections are in `phase`.
    pub fn count(&self, phase: Phase) -> usize {
        self.lock()
            .held
            .values()
            .filter(|h| h.phase == phase)
            .count()
    }

    /// Takes a slot for a new connection (in [`Phase::Reading`]). When all
    /// are taken, the oldest connection that yields is closed first. `None`
    /// when none yields, or the socket cannot be shared.
    pub fn admit(self: &Arc<Self>, stream: &TcpStream) -> Option<Slot> {
        let handle = stream.try_clone().ok()?;
        let mut table = self.lock();
        if table.held.len() >= self.max {
            let oldest = table
                .held
                .iter()
                .find(|(_, h)| h.phase.yields())
                .map(|(&id, _)| id)?;
            evict(&mut table.held, oldest);
        }
        table.last += 1;
        let id = table.last;
        let evicted = Arc::new(AtomicBool::new(false));
        table.held.insert(
            id,
            Held {
                phase: Phase::Reading,
                stream: handle,
                evicted: evicted.clone(),
            },
        );
        Some(Slot {
            slots: self.clone(),
            id,
            evicted,
        })
    }
}

/// Closes a held connection and forgets it; its thread notices on its next
/// read or write (or at [`Slot::evicted`]) and ends.
fn evict(held: &mut BTreeMap<u64, Held>, id: u64) {
    if let Some(h) = held.remove(&id) {
        h.evicted.store(true, Ordering::SeqCst);
        let _ = h.stream.shutdown(Shutdown::Both);
    }
}

/// A connection's place in [`Slots`], given back when dropped.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    id: u64,
    evicted: Arc<AtomicBool>,
}

impl Slot {
    /// Moves the connection to `phase`. Entering [`Phase::Events`] when the
    /// streams are at their limit closes the oldest stream; with a limit of
    /// 0 the connection is refused (`false`).
    pub fn set(&self, phase: Phase) -> bool {
        let mut table = self.slots.lock();
        let held = &mut table.held;
        if phase == Phase::Events {
            if self.slots.max_events == 0 {
                return false;
            }
            let streams: Vec<u64> = held
                .iter()
                .filter(|&(&id, h)| h.phase == Phase::Events && id != self.id)
                .map(|(&id, _)| id)
                .collect();
            let over = (streams.len() + 1).saturating_sub(self.slots.max_events);
            for &id in streams.iter().take(over) {
                evict(held, id);
            }
        }
        match held.get_mut(&self.id) {
            Some(h) => {
                h.phase = phase;
                true
            }
            None => false,
        }
    }

    /// Whether the connection was closed to make room for another.
    pub fn evicted(&self) -> bool {
        self.evicted.load(Ordering::SeqCst)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.lock().held.remove(&self.id);
    }
}

/// Permits to work: at most `max` requests are answered at once.
#[derive(Debug)]
pub struct Workers {
    busy: Mutex<usize>,
    freed: Condvar,
    max: usize,
}

impl Workers {
    /// `max` permits (at least one).
    pub fn new(max: usize) -> Workers {
        Workers {
            busy: Mutex::new(0),
            freed: Condvar::new(),
            max: max.max(1),
        }
    }

    /// Waits up to `wait` for a permit.
    pub fn acquire(&self, wait: Duration) -> Option<Permit<'_>> {
        let busy = self.busy.lock().unwrap_or_else(|p| p.into_inner());
        let (mut busy, _) = self
            .freed
            .wait_timeout_while(busy, wait, |b| *b >= self.max)
            .unwrap_or_else(|p| p.into_inner());
        if *busy >= self.max {
            return None;
        }
        *busy += 1;
        Some(Permit { workers: self })
    }
}

/// A permit of [`Workers`], given back when dropped.
#[derive(Debug)]
pub struct Permit<'a> {
    workers: &'a Workers,
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut busy = self.workers.busy.lock().unwrap_or_else(|p| p.into_inner());
        *busy -= 1;
        drop(busy);
        self.workers.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::TcpListener;

    /// A connected pair: (client end, server end).
    fn pair(l: &TcpListener) -> (TcpStream, TcpStream) {
        let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        (c, s)
    }

    fn closed(mut client: &TcpStream) -> bool {
        client
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut b = [0u8; 1];
        matches!(client.read(&mut b), Ok(0) | Err(_))
    }

    #[test]
    fn the_oldest_talking_connection_gives_way_never_a_working_one() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let slots = Arc::new(Slots::new(3, 1));
        let (c1, s1) = pair(&l);
        let (c2, s2) = pair(&l);
        let (_c3, s3) = pair(&l);
        let a = slots.admit(&s1).unwrap();
        let b = slots.admit(&s2).unwrap();
        let c = slots.admit(&s3).unwrap();
        assert!(a.set(Phase::Working));
        // Full: the fourth closes the oldest that yields, `b`, not `a`.
        let (_c4, s4) = pair(&l);
        let d = slots.admit(&s4).unwrap();
        assert!(b.evicted() && !a.evicted() && !c.evicted());
        assert!(closed(&c2), "the evicted connection is shut down");
        assert!(open(&c1), "the working one is not");
        assert_eq!(slots.len(), 3);
        // Dropping an evicted slot does not free anyone else's.
        drop(b);
        assert_eq!(slots.len(), 3);
        // Nothing yields when every connection works or streams.
        assert!(c.set(Phase::Working) && d.set(Phase::Events));
        let (_c5, s5) = pair(&l);
        assert!(slots.admit(&s5).is_none());
        drop(a);
        assert!(slots.admit(&s5).is_some());
    }

    /// Whether the connection is still open (a read would wait).
    fn open(c: &TcpStream) -> bool {
        c.set_nonblocking(true).unwrap();
        let mut b = [0u8; 1];
        let r = matches!((&*c).read(&mut b), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
        c.set_nonblocking(false).unwrap();
        r
    }

    #[test]
    fn event_streams_past_the_limit_close_the_oldest() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let slots = Arc::new(Slots::new(10, 2));
        let streams: Vec<_> = (0..3)
            .map(|_| {
                let (c, s) = pair(&l);
                let slot = slots.admit(&s).unwrap();
                assert!(slot.set(Phase::Events));
                (c, s, slot)
            })
            .collect();
        assert!(streams[0].2.evicted());
        assert!(!streams[1].2.evicted() && !streams[2].2.evicted());
        assert_eq!(slots.count(Phase::Events), 2);
        // A limit of 0 refuses streams.
        let none = Arc::new(Slots::new(10, 0));
        let (_c, s) = pair(&l);
        assert!(!none.admit(&s).unwrap().set(Phase::Events));
    }

    #[test]
    fn workers_hand_out_at_most_max_permits() {
        let w = Workers::new(2);
        let a = w.acquire(Duration::ZERO).unwrap();
        let _b = w.acquire(Duration::ZERO).unwrap();
        assert!(w.acquire(Duration::from_millis(10)).is_none());
        drop(a);
        assert!(w.acquire(Duration::ZERO).is_some());
    }
}
