//! What one placement may still spend: the items and the work of
//! [`Limits`], counted as an engine goes.
//!
//! Engines charge through a shared reference (the counters are cells), so
//! the checks sit in the loops that spend without a `&mut` threaded through
//! every step. The first excess is kept; the engine stops at its next loop
//! head ([`Budget::spent`]) and [`Budget::finish`] turns the excess into the
//! placement's error. Nothing is placed past a limit: [`Budget::items`]
//! refuses before the push.

use crate::limits::{LimitExceeded, Limits};
use std::cell::{Cell, RefCell};

/// What is being counted, as the error names it.
const ITEMS: &str = "tiles, objects, facades and trees placed";
/// See [`ITEMS`].
const WORK: &str = "work (candidate positions tried and polygon segments visited)";

/// The running count of one placement against its limits.
#[derive(Debug)]
pub struct Budget {
    max_items: usize,
    max_work: u64,
    items: Cell<usize>,
    work: Cell<u64>,
    over: RefCell<Option<LimitExceeded>>,
}

impl Budget {
    /// A budget of `limits`' items and work.
    pub fn new(limits: &Limits) -> Budget {
        let Limits {
            max_placed_items,
            max_work,
            ..
        } = *limits;
        Budget {
            max_items: max_placed_items,
            max_work,
            items: Cell::new(0),
            work: Cell::new(0),
            over: RefCell::new(None),
        }
    }

    /// Charges `n` units of work; false once the budget is spent (by this
    /// charge or an earlier one).
    pub fn work(&self, n: u64) -> bool {
        let w = self.work.get().saturating_add(n);
        self.work.set(w);
        if w > self.max_work {
            self.exceed(WORK, w, self.max_work);
        }
        !self.spent()
    }

    /// Counts `n` items about to be placed; false, counting nothing, when
    /// they would pass the limit (or the budget is spent): the caller then
    /// places nothing.
    pub fn items(&self, n: usize) -> bool {
        if self.spent() {
            return false;
        }
        let total = self.items.get().saturating_add(n);
        if total > self.max_items {
            self.exceed(ITEMS, total as u64, self.max_items as u64);
            return false;
        }
        self.items.set(total);
        true
    }

    /// Whether a limit was passed: the engine should stop.
    pub fn spent(&self) -> bool {
        self.over.borrow().is_some()
    }

    /// The first limit passed, if any.
    pub fn finish(self) -> Result<(), LimitExceeded> {
        match self.over.into_inner() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn exceed(&self, what: &str, needed: u64, limit: u64) {
        let mut over = self.over.borrow_mut();
        if over.is_none() {
            *over = Some(LimitExceeded {
                what: what.to_string(),
                needed,
                limit,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_excess_is_kept_and_nothing_is_counted_past_it() {
        let b = Budget::new(&Limits {
            max_placed_items: 10,
            max_work: 100,
            ..Limits::default()
        });
        assert!(b.items(10));
        assert!(b.work(100));
        assert!(!b.items(1));
        assert!(b.spent());
        assert!(!b.work(1));
        let e = b.finish().unwrap_err();
        assert_eq!((e.what.as_str(), e.needed, e.limit), (ITEMS, 11, 10));
    }

    #[test]
    fn work_past_the_limit_spends_the_budget() {
        let b = Budget::new(&Limits {
            max_work: 5,
            ..Limits::default()
        });
        assert!(b.work(5));
        assert!(!b.work(1));
        assert!(!b.items(1));
        assert_eq!(b.finish().unwrap_err().what, WORK);
    }
}
