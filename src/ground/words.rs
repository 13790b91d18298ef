//! Words for people: counts with their noun (`3 tiles`), whole numbers
//! with their thousands separated (`114,000`), and the error of a name
//! that is not one of those read. Every stage's messages use them.

/// `n` and a regular noun, plural unless `n` is 1, for messages and
/// picture labels people read: `count(1, "tile")` is `1 tile`,
/// `count(0, "tile")` is `0 tiles`, thousands separated as by
/// [`thousands`].
///
/// ```
/// assert_eq!(agkit::ground::words::count(1, "facade"), "1 facade");
/// assert_eq!(agkit::ground::words::count(2, "DSF tile"), "2 DSF tiles");
/// assert_eq!(agkit::ground::words::count(114_000, "use"), "114,000 uses");
/// ```
pub fn count(n: usize, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {noun}{s}", thousands(n))
}

/// A whole number with its thousands separated by commas: `114,000`.
///
/// ```
/// assert_eq!(agkit::ground::words::thousands(999), "999");
/// assert_eq!(agkit::ground::words::thousands(1_234_567), "1,234,567");
/// ```
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut s = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            s.push(',');
        }
        s.push(c);
    }
    s
}

/// A name that is not one of those a [`std::str::FromStr`] reads (an
/// output format, a picture style, a placement kind).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} {name:?} is not {expected}")]
pub struct UnknownName {
    /// What was named: `format`, `style`.
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names read.
    pub expected: &'static str,
}
