//! Turning loose triangles into triangle strips, as DSFTool does before it
//! writes a patch (a strip names about one vertex per triangle where loose
//! triangles name three).
//!
//! [`stripify`] works on triangles of vertex ids. Starting from the
//! triangles with the fewest neighbours, it walks each unused triangle's
//! neighbours across the strip's last edge, greedily, trying the
//! triangle's three rotations and keeping the longest strip; a triangle
//! whose strip stays alone (or that repeats a vertex) is left loose. Every
//! triangle comes out exactly once, with its orientation: a strip's
//! triangle `i` is `(v[i], v[i+1], v[i+2])` for even `i` and
//! `(v[i+1], v[i], v[i+2])` for odd `i`, as in OpenGL.

use std::collections::HashMap;

/// Strips of at most this many vertices (one indexed command).
pub const MAX_STRIP: usize = 255;

/// The strips (each at least 4 vertices) and the loose triangles that
/// cover `tris` exactly once, orientation kept.
pub fn stripify(tris: &[[u32; 3]]) -> (Vec<Vec<u32>>, Vec<[u32; 3]>) {
    // Directed edge -> the triangle that has it.
    let mut edge: HashMap<(u32, u32), usize> = HashMap::with_capacity(tris.len() * 3);
    for (t, &[a, b, c]) in tris.iter().enumerate() {
        if a == b || b == c || a == c {
            continue;
        }
        for e in [(a, b), (b, c), (c, a)] {
            edge.entry(e).or_insert(t);
        }
    }
    // Strips start from the triangles with the fewest neighbours (the
    // mesh's borders and corners first), which leaves fewer loose ones.
    let neighbours = |t: usize| {
        let [a, b, c] = tris[t];
        [(b, a), (c, b), (a, c)]
            .iter()
            .filter(|e| edge.contains_key(e))
            .count()
    };
    let mut order: Vec<usize> = (0..tris.len()).collect();
    order.sort_by_key(|&t| neighbours(t));
    let mut used = vec![false; tris.len()];
    let mut strips = Vec::new();
    let mut loose = Vec::new();
    for t in order {
        if used[t] {
            continue;
        }
        let [a, b, c] = tris[t];
        if a == b || b == c || a == c {
            used[t] = true;
            loose.push(tris[t]);
            continue;
        }
        let mut best: (Vec<u32>, Vec<usize>) = (Vec::new(), Vec::new());
        for start in [[a, b, c], [b, c, a], [c, a, b]] {
            let s = grow(start, t, &edge, tris, &used);
            if s.0.len() > best.0.len() {
                best = s;
            }
        }
        let (best, taken) = best;
        for u in taken {
            used[u] = true;
        }
        if best.len() > 3 {
            strips.push(best);
        } else {
            loose.push(tris[t]);
        }
    }
    (strips, loose)
}

/// The strip that starts with triangle `t` as `start` and extends across
/// its last edge while an unused triangle is there, with the triangles it
/// takes.
fn grow(
    start: [u32; 3],
    t: usize,
    edge: &HashMap<(u32, u32), usize>,
    tris: &[[u32; 3]],
    used: &[bool],
) -> (Vec<u32>, Vec<usize>) {
    let mut s = start.to_vec();
    let mut taken = vec![t];
    while s.len() < MAX_STRIP {
        let n = s.len();
        // The next triangle is (v[n-2], v[n-1], w) when n - 2 is even,
        // (v[n-1], v[n-2], w) when odd: it holds that directed edge.
        let i = n - 2;
        let e = if i.is_multiple_of(2) {
            (s[n - 2], s[n - 1])
        } else {
            (s[n - 1], s[n - 2])
        };
        // The next triangle holds that edge in its own winding (the one
        // before holds it reversed).
        let Some(&u) = edge.get(&e) else {
            break;
        };
        if used[u] || taken.contains(&u) {
            break;
        }
        let w = third(tris[u], e.0, e.1);
        s.push(w);
        taken.push(u);
    }
    (s, taken)
}

/// The vertex of `t` that follows the directed edge `(x, y)`.
fn third(t: [u32; 3], x: u32, y: u32) -> u32 {
    let [a, b, c] = t;
    match (x, y) {
        _ if (a, b) == (x, y) => c,
        _ if (b, c) == (x, y) => a,
        _ => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A triangle as its vertices rotated to start with the smallest.
    fn canon(t: [u32; 3]) -> [u32; 3] {
        let k = (0..3).min_by_key(|&k| t[k]).unwrap_or(0);
        [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
    }

    fn expand(strips: &[Vec<u32>], loose: &[[u32; 3]]) -> Vec<[u32; 3]> {
        let mut out: Vec<[u32; 3]> = loose.iter().map(|&t| canon(t)).collect();
        for s in strips {
            for i in 0..s.len() - 2 {
                let t = if i % 2 == 0 {
                    [s[i], s[i + 1], s[i + 2]]
                } else {
                    [s[i + 1], s[i], s[i + 2]]
                };
                out.push(canon(t));
            }
        }
        out.sort();
        out
    }

    /// Two counter-clockwise triangles per cell of a `w × h` grid, in an
    /// order scrambled by `seed`, some dropped.
    fn grid(w: u32, h: u32, seed: u64) -> Vec<[u32; 3]> {
        let mut v = Vec::new();
        let id = |i: u32, j: u32| j * (w + 1) + i;
        for j in 0..h {
            for i in 0..w {
                v.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                v.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        let mut x = seed | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for k in (1..v.len()).rev() {
            v.swap(k, (next() % (k as u64 + 1)) as usize);
        }
        v.retain(|_| next() % 10 != 0);
        v
    }

    #[test]
    fn every_triangle_comes_out_once_with_its_orientation() {
        for seed in 0..40 {
            let tris = grid(1 + (seed % 9) as u32, 1 + (seed % 7) as u32 * 3, seed);
            let (strips, loose) = stripify(&tris);
            assert!(strips.iter().all(|s| s.len() > 3 && s.len() <= MAX_STRIP));
            let mut want: Vec<[u32; 3]> = tris.iter().map(|&t| canon(t)).collect();
            want.sort();
            assert_eq!(expand(&strips, &loose), want, "seed {seed}");
        }
    }

    #[test]
    fn a_grid_becomes_long_strips() {
        let tris = grid(40, 40, 0);
        let (strips, loose) = stripify(&tris);
        let indices: usize = strips.iter().map(Vec::len).sum::<usize>() + 3 * loose.len();
        // Loose, 3 indices a triangle; stripped, well under 2.
        assert!(indices * 2 < tris.len() * 3, "{indices} for {}", tris.len());
    }

    #[test]
    fn degenerate_and_duplicate_triangles_stay() {
        let tris = [[1, 1, 2], [0, 1, 2], [0, 1, 2], [2, 1, 3]];
        let (strips, loose) = stripify(&tris);
        let mut want: Vec<[u32; 3]> = tris.iter().map(|&t| canon(t)).collect();
        want.sort();
        assert_eq!(expand(&strips, &loose), want);
    }
}
