//! Repeated diagnostics counted instead of printed: at most a number of
//! each code are shown, the rest counted, and a table per code closes the
//! report (`agkit check --max-per-code N`, `-q`).
//!
//! A generated scenery set can hold tens of thousands of one warning; the
//! first few show what it is and where, the count says how often.

use super::{Diagnostic, Severity};
use std::collections::BTreeMap;

/// How many diagnostics of one code were met, how many shown, and the
/// first one's severity and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeCount {
    /// How serious the first one was.
    pub severity: Severity,
    /// Met.
    pub total: usize,
    /// Shown.
    pub shown: usize,
    /// The first one's message.
    pub first: String,
}

/// Counts diagnostics per code, admitting at most `max` of each to be
/// shown.
///
/// ```
/// use agkit::diag::{Diagnostic, cap::PerCode};
/// let mut cap = PerCode::new(1);
/// let d = Diagnostic::warning("AG0046", "unused", 0..1);
/// assert!(cap.admit(&d));
/// assert!(!cap.admit(&d));
/// assert_eq!(cap.hidden(), 1);
/// assert_eq!(cap.more(), "… and 1 more AG0046 (warning: unused)\n");
/// assert!(cap.table().contains("2  AG0046  warning  unused"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct PerCode {
    max: usize,
    codes: BTreeMap<crate::diag::Code, CodeCount>,
}

impl PerCode {
    /// At most `max` diagnostics of each code shown (`usize::MAX` for all,
    /// 0 for none).
    pub fn new(max: usize) -> PerCode {
        PerCode {
            max,
            codes: BTreeMap::new(),
        }
    }

    /// Counts `d`; true when it is to be shown.
    pub fn admit(&mut self, d: &Diagnostic) -> bool {
        let c = self.codes.entry(d.code).or_insert_with(|| CodeCount {
            severity: d.severity,
            total: 0,
            shown: 0,
            first: d.message.clone(),
        });
        c.total += 1;
        let show = c.shown < self.max;
        c.shown += usize::from(show);
        show
    }

    /// The diagnostics of `diags` to show, each counted.
    pub fn filter(&mut self, diags: &[Diagnostic]) -> Vec<Diagnostic> {
        diags.iter().filter(|d| self.admit(d)).cloned().collect()
    }

    /// Diagnostics counted and not shown.
    pub fn hidden(&self) -> usize {
        self.codes.values().map(|c| c.total - c.shown).sum()
    }

    /// The counts, by code.
    pub fn counts(&self) -> &BTreeMap<crate::diag::Code, CodeCount> {
        &self.codes
    }

    /// One line per code with some not shown: `… and 4,321 more AG0046
    /// (warning: …)`, the first one's message.
    pub fn more(&self) -> String {
        let mut out = String::new();
        for (code, c) in &self.codes {
            if c.total > c.shown {
                out.push_str(&format!(
                    "… and {} more {code} ({}: {})\n",
                    crate::ground::words::thousands(c.total - c.shown),
                    c.severity.as_str(),
                    c.first
                ));
            }
        }
        out
    }

    /// A table of every code met, most frequent first: count, code,
    /// severity and the first one's message. Empty when nothing was met.
    pub fn table(&self) -> String {
        use crate::ground::words::thousands;
        let mut out = String::new();
        if self.codes.is_empty() {
            return out;
        }
        let mut rows: Vec<(&crate::diag::Code, &CodeCount)> = self.codes.iter().collect();
        rows.sort_by(|a, b| b.1.total.cmp(&a.1.total).then(a.0.cmp(b.0)));
        let width = rows
            .iter()
            .map(|(_, c)| thousands(c.total).len())
            .max()
            .unwrap_or(0)
            .max("count".len());
        let code_width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(4).max(4);
        out.push_str(&format!(
            "{:>width$}  {:code_width$}  {:8} first message\n",
            "count", "code", "severity"
        ));
        for (code, c) in rows {
            out.push_str(&format!(
                "{:>width$}  {code:code_width$}  {:8} {}\n",
                thousands(c.total),
                c.severity.as_str(),
                c.first
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_code_and_shows_at_most_the_cap() {
        let mut cap = PerCode::new(2);
        let w = |code: &'static str, msg: &str| Diagnostic::warning(code, msg, 0..1);
        let e = Diagnostic::error("AG0001", "bad header", 0..1);
        let shown: usize = (0..5)
            .map(|i| usize::from(cap.admit(&w("AG0046", &format!("unused {i}")))))
            .sum();
        assert_eq!(shown, 2);
        assert!(cap.admit(&e));
        assert_eq!(cap.hidden(), 3);
        assert_eq!(cap.more(), "… and 3 more AG0046 (warning: unused 0)\n");
        assert_eq!(
            cap.table(),
            "count  code    severity first message\n    \
             5  AG0046  warning  unused 0\n    \
             1  AG0001  error    bad header\n"
        );
        // None shown: everything is counted.
        let mut quiet = PerCode::new(0);
        assert!(quiet.filter(&[e.clone(), e]).is_empty());
        assert_eq!(quiet.hidden(), 2);
        assert_eq!(PerCode::new(3).table(), "");
    }
}
