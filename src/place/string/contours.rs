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

/// Assembles `windings` (contours in DSF order, finite vertices) into
/// closed rings, ordered by their lowest contour. Rings are not checked
/// for orientation here; a ring of fewer than three distinct vertices and a
/// chain that does not close are `PlaceError::Polygon`.
pub fn assemble(windings: &[Vec<Xy>]) -> Result<Vec<Assembled>, PlaceError> {
    let n = windings.len();
    let open: Vec<bool> = windings
        .iter()
        .map(|w| w.len() >= 2 && !near(w[0], w[w.len() - 1]))
        .collect();
    let mut succ: Vec<Option<usize>> = vec![None; n];
    let mut pred: Vec<Option<usize>> = vec![None; n];
    for i in 0..n {
        if !open[i] {
            continue;
        }
        let end = windings[i][windings[i].len() - 1];
        let fits = |j: usize| j != i && open[j] && pred[j].is_none() && near(windings[j][0], end);
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
