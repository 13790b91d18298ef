//! Contours → closed rings.
//!
//! The AGS spec treats the contours of a DSF polygon as independent
//! poly-lines where "every winding is fully closed (two adjacent windings
//! share and duplicate a vertex)". Both forms are accepted:
//!
//! * a contour whose end vertex is (within [`JOIN_EPS`]) the start vertex of
//!   another contour is *chained* to it; a chain whose last end is its first
//!   start is one closed ring (the shared vertices are kept once). The
//!   successor of contour `i` is contour `i + 1` when it fits, otherwise the
//!   first contour in DSF order that starts there and has no predecessor
//!   yet (a tile cut writes all non-spawning contours last, so the pieces of
//!   one ring need not be adjacent). A chain that does not close is an
//!   error naming its contours.
//! * a contour chained to no other is a closed ring on its own (the usual
//!   DSF form, closing vertex implied; a contour whose first and last
//!   vertices coincide is always such a ring).
//!
//! Every segment of a ring remembers the contour it comes from, so the
//! engine can spawn tiles only along the tile-spawning contours.

use super::sides::{Ring, dist};
use crate::geom::Xy;
use crate::place::PlaceError;
use std::collections::{BTreeSet, HashMap};

/// Two contour ends closer than this (metres) are the same vertex.
pub const JOIN_EPS: f64 = 1e-6;

/// One closed ring assembled from one or more contours.
#[derive(Debug, Clone)]
pub struct Assembled {
    /// The ring (distinct consecutive vertices, implicitly closed).
    pub ring: Ring,
    /// Per segment `i` (vertex `i` → `i + 1`): the contour (0-based, DSF
    /// order) it comes from.
    pub owner: Vec<usize>,
    /// The contours of the ring in ring order (0-based).
    pub contours: Vec<usize>,
}

impl Assembled {
    /// How messages name the ring: `winding 3` for a ring of one contour,
    /// `the ring of contours 1, 4` for a chain.
    pub fn label(&self) -> String {
        match self.contours.as_slice() {
            [c] => format!("winding {}", c + 1),
            cs => format!("the ring of contours {}", list(cs)),
        }
    }
}

/// 1-based, comma-separated contour numbers.
fn list(cs: &[usize]) -> String {
    cs.iter()
        .map(|c| (c + 1).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn near(a: Xy, b: Xy) -> bool {
    dist(a, b) <= JOIN_EPS
}

/// The starts of the open contours that have no predecessor yet, by
/// [`JOIN_EPS`]-sized cell, so that finding the contour that starts where
/// another ends looks at a few cells, not at every contour.
struct Starts {
    cells: HashMap<(i64, i64), BTreeSet<usize>>,
}

impl Starts {
    fn cell(p: Xy) -> (i64, i64) {
        // `as` saturates: far or non-finite points share the edge cells,
        // where `near` still decides.
        (
            (p[0] / JOIN_EPS).floor() as i64,
            (p[1] / JOIN_EPS).floor() as i64,
        )
    }

    fn insert(&mut self, p: Xy, i: usize) {
        self.cells.entry(Self::cell(p)).or_default().insert(i);
    }

    fn remove(&mut self, p: Xy, i: usize) {
        if let Some(set) = self.cells.get_mut(&Self::cell(p)) {
            set.remove(&i);
        }
    }

    /// The lowest contour other than `not` whose start (`start(j)`) is
    /// [`near`] `p`: a point near `p` lies in `p`'s cell or a neighbour.
    fn first_near(&self, p: Xy, not: usize, start: impl Fn(usize) -> Xy) -> Option<usize> {
        let (cx, cy) = Self::cell(p);
        let mut best: Option<usize> = None;
        for dx in -1..=1 {
            for dy in -1..=1 {
                let key = (cx.saturating_add(dx), cy.saturating_add(dy));
                let Some(set) = self.cells.get(&key) else {
                    continue;
                };
                let hit = set
                    .iter()
                    .take_while(|&&j| best.is_none_or(|b| j < b))
                    .find(|&&j| j != not && near(start(j), p));
                if let Some(&j) = hit {
                    best = Some(j);
                }
            }
        }
        best
    }
}

/// The successor of each open contour (see the module docs): contour
/// `i + 1` when it starts where `i` ends, else the first contour in DSF
/// order that does and has no predecessor yet.
fn successors(windings: &[Vec<Xy>], open: &[bool]) -> Vec<Option<usize>> {
    let n = windings.len();
    let start = |j: usize| windings[j][0];
    let mut starts = Starts {
        cells: HashMap::new(),
    };
    for j in (0..n).filter(|&j| open[j]) {
        starts.insert(start(j), j);
    }
    let mut succ: Vec<Option<usize>> = vec![None; n];
    let mut has_pred = vec![false; n];
    for i in (0..n).filter(|&i| open[i]) {
        let end = windings[i][windings[i].len() - 1];
        let j = if i + 1 < n && open[i + 1] && !has_pred[i + 1] && near(start(i + 1), end) {
            Some(i + 1)
        } else {
            starts.first_near(end, i, start)
        };
        if let Some(j) = j {
            succ[i] = Some(j);
            has_pred[j] = true;
            starts.remove(start(j), j);
        }
    }
    succ
}

/// Assembles `windings` (contours in DSF order, finite vertices) into
/// closed rings, ordered by their lowest contour. Rings are not checked
/// for orientation here; a ring of fewer than three distinct vertices and a
/// chain that does not close are `PlaceError::Polygon`.
///
/// Near-linear in the number of contours: the successor of a contour is
/// looked up among the starts near its end (an index of starts by cell).
pub fn assemble(windings: &[Vec<Xy>]) -> Result<Vec<Assembled>, PlaceError> {
    let n = windings.len();
    let open: Vec<bool> = windings
        .iter()
        .map(|w| w.len() >= 2 && !near(w[0], w[w.len() - 1]))
        .collect();
    let succ = successors(windings, &open);
    let mut pred: Vec<Option<usize>> = vec![None; n];
    for (i, s) in succ.iter().enumerate() {
        if let Some(j) = *s {
            pred[j] = Some(i);
        }
    }
    let mut seen = vec![false; n];
    let mut rings = Vec::new();
    for i in 0..n {
        if seen[i] {
            continue;
        }
        if succ[i].is_none() && pred[i].is_none() {
            seen[i] = true;
            let ring = Ring::new(&windings[i]).ok_or_else(|| {
                let hint = if open[i] && windings[i].len() < 3 {
                    "; an open contour must end where another contour starts"
                } else {
                    ""
                };
                PlaceError::Polygon(format!(
                    "winding {} has fewer than 3 distinct vertices{hint}",
                    i + 1
                ))
            })?;
            let owner = vec![i; ring.len()];
            rings.push(Assembled {
                ring,
                owner,
                contours: vec![i],
            });
            continue;
        }
        // Components are paths or cycles (one successor and one predecessor
        // at most); `i` is the lowest contour of its component.
        let mut chain = vec![i];
        let mut cur = i;
        let closed = loop {
            match succ[cur] {
                Some(j) if j == i => break true,
                Some(j) if !seen[j] && chain.len() <= n => {
                    chain.push(j);
                    cur = j;
                }
                _ => break false,
            }
        };
        for &c in &chain {
            seen[c] = true;
        }
        if !closed {
            let mut head = Vec::new();
            let mut p = pred[i];
            while let Some(q) = p {
                if seen[q] || head.len() > n {
                    break;
                }
                seen[q] = true;
                head.push(q);
                p = pred[q];
            }
            head.reverse();
            head.extend(chain);
            let last = head[head.len() - 1];
            let first = head[0];
            let e = windings[last][windings[last].len() - 1];
            let s = windings[first][0];
            return Err(PlaceError::Polygon(format!(
                "contours {} are chained end to start but do not close into a ring: \
                 contour {} ends at ({:.2}, {:.2}), where no contour starts, and contour {} \
                 starts at ({:.2}, {:.2})",
                list(&head),
                last + 1,
                e[0],
                e[1],
                first + 1,
                s[0],
                s[1]
            )));
        }
        let mut pts: Vec<Xy> = Vec::new();
        let mut owner: Vec<usize> = Vec::new();
        for &c in &chain {
            let w = &windings[c];
            for &p in &w[..w.len() - 1] {
                if pts.last() == Some(&p) {
                    // A zero-length segment: the next one takes its place.
                    *owner.last_mut().expect("pts and owner grow together") = c;
                } else {
                    pts.push(p);
                    owner.push(c);
                }
            }
        }
        while pts.len() > 1 && pts.first() == pts.last() {
            pts.pop();
            owner.pop();
        }
        let ring = Ring::new(&pts)
            .filter(|r| r.len() == pts.len())
            .ok_or_else(|| {
                PlaceError::Polygon(format!(
                    "the ring of contours {} has fewer than 3 distinct vertices",
                    list(&chain)
                ))
            })?;
        rings.push(Assembled {
            ring,
            owner,
            contours: chain,
        });
    }
    Ok(rings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_close_in_any_order_and_keep_owners() {
        // A square as three contours, the piece of the south side last (as
        // a tile cut writes it).
        let ws = vec![
            vec![[10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
            vec![[20.0, 20.0], [30.0, 20.0], [30.0, 30.0]],
            vec![[0.0, 10.0], [0.0, 0.0]],
            vec![[0.0, 0.0], [10.0, 0.0]],
        ];
        let r = assemble(&ws).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].contours, vec![0, 2, 3]);
        assert_eq!(
            r[0].ring.pts,
            vec![[10.0, 0.0], [10.0, 10.0], [0.0, 10.0], [0.0, 0.0]]
        );
        assert_eq!(r[0].owner, vec![0, 0, 2, 3]);
        assert_eq!(r[0].label(), "the ring of contours 1, 3, 4");
        assert_eq!(r[1].contours, vec![1]);
        assert_eq!(r[1].label(), "winding 2");
    }

    /// The successor rule as first written (a scan of every contour per
    /// contour), for the indexed version to agree with.
    fn successors_by_scan(windings: &[Vec<Xy>]) -> Vec<Option<usize>> {
        let n = windings.len();
        let open: Vec<bool> = windings
            .iter()
            .map(|w| w.len() >= 2 && !near(w[0], w[w.len() - 1]))
            .collect();
        let (mut succ, mut pred) = (vec![None; n], vec![None; n]);
        for i in (0..n).filter(|&i| open[i]) {
            let end = windings[i][windings[i].len() - 1];
            let fits =
                |j: usize| j != i && open[j] && pred[j].is_none() && near(windings[j][0], end);
            let j = if i + 1 < n && fits(i + 1) {
                Some(i + 1)
            } else {
                (0..n).find(|&j| fits(j))
            };
            if let Some(j) = j {
                succ[i] = Some(j);
                pred[j] = Some(i);
            }
        }
        succ
    }

    proptest::proptest! {
        /// Rings assembled through the index of starts are those the scan
        /// gives: contours between a few shared points (ends within a hair
        /// of each other, on both sides of a cell edge), shuffled.
        #[test]
        fn the_index_finds_the_successor_the_scan_finds(
            pieces in proptest::collection::vec((0usize..6, 0usize..6, 0usize..3), 1..40),
        ) {
            // Six junctions; each sits on a cell edge, and ends land on
            // either side of it.
            let junction = |k: usize, jitter: usize| {
                let base = [k as f64 * 10.0 + 1e-6 * 1e3, 5.0];
                [base[0] + (jitter as f64 - 1.0) * 0.4 * JOIN_EPS, base[1]]
            };
            let windings: Vec<Vec<Xy>> = pieces
                .iter()
                .map(|&(a, b, j)| {
                    let mid = [a as f64 * 3.0 + b as f64, 20.0 + (a * 7 + b) as f64];
                    vec![junction(a, j), mid, junction(b, 2 - j)]
                })
                .collect();
            let open: Vec<bool> = windings
                .iter()
                .map(|w| w.len() >= 2 && !near(w[0], w[w.len() - 1]))
                .collect();
            proptest::prop_assert_eq!(successors(&windings, &open), successors_by_scan(&windings));
        }
    }

    #[test]
    fn fifty_thousand_chained_pieces_assemble() {
        // One ring cut into 50,000 pieces given in reverse order: every
        // successor is found through the index, not the next contour.
        let n = 50_000;
        let p = |k: usize| {
            let a = k as f64 / n as f64 * std::f64::consts::TAU;
            [1000.0 * a.cos(), 1000.0 * a.sin()]
        };
        let windings: Vec<Vec<Xy>> = (0..n).rev().map(|k| vec![p(k), p((k + 1) % n)]).collect();
        let rings = assemble(&windings).unwrap();
        assert_eq!(rings.len(), 1);
        assert_eq!(rings[0].ring.len(), n);
        assert_eq!(rings[0].contours.len(), n);
    }

    #[test]
    fn an_open_chain_names_its_contours() {
        let ws = vec![
            vec![[0.0, 0.0], [10.0, 0.0]],
            vec![[10.0, 0.0], [10.0, 10.0]],
            vec![[10.0, 10.0], [0.0, 10.0]],
        ];
        let e = assemble(&ws).unwrap_err().to_string();
        assert!(e.contains("contours 1, 2, 3 are chained"), "{e}");
        assert!(e.contains("contour 3 ends at (0.00, 10.00)"), "{e}");
    }
}
