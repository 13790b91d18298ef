//! Helpers shared by the DSF integration tests (`tests/dsf.rs`,
//! `tests/dsf_build.rs`).

// Each test binary uses only some of them.
#![allow(dead_code)]

use agkit::dsf::{Dsf, Entity, Patch, PrimitiveKind};

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }
}

pub fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// The triangles of a patch, in order, each as its three vertices' values
/// (so that splitting a long primitive does not change them).
pub fn triangles(p: &Patch) -> Vec<Vec<f64>> {
    let mut out = Vec::new();
    for pr in &p.primitives {
        let v: Vec<&[f64]> = pr.vertices.chunks_exact(p.depth).collect();
        let tri = |a: &[f64], b: &[f64], c: &[f64]| [a, b, c].concat();
        match pr.kind {
            PrimitiveKind::Triangles => {
                out.extend(v.chunks_exact(3).map(|t| tri(t[0], t[1], t[2])))
            }
            PrimitiveKind::Strip => {
                for i in 0..v.len().saturating_sub(2) {
                    out.push(if i % 2 == 0 {
                        tri(v[i], v[i + 1], v[i + 2])
                    } else {
                        tri(v[i + 1], v[i], v[i + 2])
                    });
                }
            }
            PrimitiveKind::Fan => {
                for i in 1..v.len().saturating_sub(1) {
                    out.push(tri(v[0], v[i], v[i + 1]));
                }
            }
        }
    }
    out
}

/// Half a step of the coarsest plane `plane` among `pools`' pools of
/// `depth` planes (16-bit, or 32-bit with `wide`; lon and lat over every
/// 16-bit pool): the most a value of that plane may move when quantised.
pub fn half_step(pools: &Dsf, depth: usize, plane: usize, wide: bool) -> f64 {
    let (list, max) = if wide {
        (&pools.pools32, 4_294_967_295.0)
    } else {
        (&pools.pools, 65535.0)
    };
    list.iter()
        .filter(|p| p.depth() == depth || (plane < 2 && !wide && p.depth() >= 2))
        .map(|p| f64::from(p.planes[plane].scale) / max / 2.0)
        .fold(0.0, f64::max)
        * 1.000_001
}

/// Asserts that `b` (a tile read back, or its text read back) holds `a`'s
/// entities in order: lon/lat within `deg` degrees (by default half a
/// step of `pools`), every other value within half a step of `pools`'
/// planes, plus DSF2Text's rounding (headings 3 decimals, object
/// elevations 5, the rest 9; a relative 1e-15 for huge values); patches
/// triangle by triangle.
pub fn assert_same_within(a: &Dsf, b: &Dsf, pools: &Dsf, deg: Option<f64>) {
    let slack = |v: f64, decimals: f64| decimals + v.abs() * 1e-15;
    let check = |u: &[f64], v: &[f64], depth: usize| {
        for (k, (x, y)) in u.iter().zip(v).enumerate() {
            let plane = k % depth;
            let tol = match deg {
                Some(d) if plane < 2 => d,
                _ => half_step(pools, depth, plane, false) + slack(*x, 5e-10),
            };
            assert!(
                close(*x, *y, tol),
                "{x} {y} (plane {plane} of {depth}, tol {tol})"
            );
        }
    };
    assert_eq!(a.entities.len(), b.entities.len());
    for (x, y) in a.entities.iter().zip(&b.entities) {
        match (x, y) {
            (Entity::Filter(p), Entity::Filter(q)) => assert_eq!(p, q),
            (Entity::Object(p), Entity::Object(q)) => {
                assert_eq!((p.def, p.mode), (q.def, q.mode));
                let d = if p.elevation.is_some() { 4 } else { 3 };
                check(&[p.lon, p.lat], &[q.lon, q.lat], d);
                let dh = (p.heading - q.heading).rem_euclid(360.0);
                assert!(
                    dh.min(360.0 - dh) <= 360.0 / 65535.0 / 2.0 + 5e-4,
                    "{p:?} {q:?}"
                );
                if let (Some(e), Some(f)) = (p.elevation, q.elevation) {
                    let tol = half_step(pools, 4, 3, false) + slack(e, 5e-6);
                    assert!(close(e, f, tol), "{p:?} {q:?}");
                }
            }
            (Entity::Polygon(p), Entity::Polygon(q)) => {
                assert_eq!((p.def, p.param, p.depth), (q.def, q.param, q.depth));
                assert_eq!(p.windings.len(), q.windings.len());
                for (w, v) in p.windings.iter().zip(&q.windings) {
                    assert_eq!(w.len(), v.len());
                    check(w, v, p.depth);
                }
            }
            (Entity::Patch(p), Entity::Patch(q)) => {
                assert_eq!((p.def, p.flags, p.depth), (q.def, q.flags, q.depth));
                assert_eq!((p.lod_near, p.lod_far), (q.lod_near, q.lod_far));
                let (s, t) = (triangles(p), triangles(q));
                assert_eq!(s.len(), t.len());
                for (u, v) in s.iter().zip(&t) {
                    check(u, v, p.depth);
                }
            }
            (Entity::Network(p), Entity::Network(q)) => {
                assert_eq!((p.def, p.subtype, p.depth), (q.def, q.subtype, q.depth));
                assert_eq!(p.points.len(), q.points.len());
                for (u, v) in p.points().zip(q.points()) {
                    for k in 0..p.depth {
                        let tol = if k == 3 {
                            0.0
                        } else {
                            half_step(pools, p.depth, k, true) + slack(u[k], 5e-10)
                        };
                        assert!(close(u[k], v[k], tol), "{} {} (plane {k})", u[k], v[k]);
                    }
                }
            }
            _ => panic!("entity kinds differ: {x:?} / {y:?}"),
        }
    }
}

/// What a plane of an entity holds, as DSFTool's writer reads the layouts
/// (`DSFLibWrite.cpp`: a 4-plane polygon is bezier unless its param is
/// 65535, then it carries s/t; 5 planes are a bezier facade with a wall
/// type, 8 both): the kinds a rebuilt tile's precision is reported by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PlaneKind {
    /// Longitude and latitude (planes 0 and 1 of every entity).
    LonLat,
    /// Object headings (compared round the circle).
    Heading,
    /// Elevations of objects, patch vertices, beaches and networks.
    Elevation,
    /// Patch and beach normals.
    Normal,
    /// Bezier control points of polygons and curved networks (degrees).
    Control,
    /// Texture coordinates of draped polygons and patches.
    Uv,
    /// Wall types, beach types and junction IDs.
    Integer,
    /// Anything else (planes of layouts no tool defines).
    Other,
}

impl PlaneKind {
    /// Every kind, in order.
    pub const ALL: [PlaneKind; 8] = [
        PlaneKind::LonLat,
        PlaneKind::Heading,
        PlaneKind::Elevation,
        PlaneKind::Normal,
        PlaneKind::Control,
        PlaneKind::Uv,
        PlaneKind::Integer,
        PlaneKind::Other,
    ];
}

/// The kind of plane `k` of entity `e`.
pub fn plane_kind(e: &Entity, k: usize) -> PlaneKind {
    use PlaneKind::*;
    if k < 2 {
        return LonLat;
    }
    match e {
        Entity::Filter(_) => Other,
        Entity::Object(_) => [Heading, Elevation][(k - 2).min(1)],
        Entity::Polygon(p) => match (p.depth, k) {
            (3, _) => Integer,
            (4, _) if p.param == 65535 => Uv,
            (4, _) => Control,
            (5, 2) => Integer,
            (5, _) => Control,
            (6, 2) => Elevation,
            (6, 3 | 4) => Normal,
            (6, _) => Integer,
            (8, 2 | 3) => Control,
            (8, _) => Uv,
            _ => Other,
        },
        Entity::Patch(_) => match k {
            2 => Elevation,
            3 | 4 => Normal,
            _ => Uv,
        },
        Entity::Network(_) => match k {
            2 | 6 => Elevation,
            3 => Integer,
            4 | 5 => Control,
            _ => Other,
        },
    }
}

/// One entity (a patch: one triangle of it; a chain: one segment between
/// junctions) flattened for matching.
struct Item {
    /// The filter in force and what must be equal between a tile and its
    /// rebuild (kind, definition, param, depth, windings).
    key: String,
    /// Values per point.
    depth: usize,
    values: Vec<f64>,
    kinds: Vec<PlaneKind>,
}

/// The entities of `d` as items. A patch gives one item per triangle, its
/// vertices rotated to start at the least (lon, lat), so that a restripped
/// patch gives the same items.
fn items(d: &Dsf) -> Vec<Item> {
    let mut filter = -1;
    let mut out = Vec::new();
    for e in &d.entities {
        let kinds = |depth: usize| (0..depth).map(|k| plane_kind(e, k)).collect::<Vec<_>>();
        match e {
            Entity::Filter(f) => filter = *f,
            Entity::Object(o) => {
                let mut values = vec![o.lon, o.lat, o.heading];
                values.extend(o.elevation);
                out.push(Item {
                    key: format!("{filter} object {} {:?}", o.def, o.mode),
                    depth: values.len(),
                    kinds: kinds(values.len()),
                    values,
                });
            }
            Entity::Polygon(p) => out.push(Item {
                key: format!(
                    "{filter} polygon {} {} {} {:?}",
                    p.def,
                    p.param,
                    p.depth,
                    p.windings.iter().map(Vec::len).collect::<Vec<_>>()
                ),
                depth: p.depth,
                values: p.windings.concat(),
                kinds: kinds(p.depth),
            }),
            Entity::Patch(p) => {
                let key = format!("{filter} patch {} {} {}", p.def, p.flags, p.depth);
                for t in triangles(p) {
                    let v: Vec<&[f64]> = t.chunks_exact(p.depth).collect();
                    let first = (0..3)
                        .min_by(|&a, &b| {
                            (v[a][0], v[a][1])
                                .partial_cmp(&(v[b][0], v[b][1]))
                                .unwrap_or(std::cmp::Ordering::Equal)
                        })
                        .unwrap_or(0);
                    let values = (0..3).flat_map(|j| v[(first + j) % 3].to_vec()).collect();
                    out.push(Item {
                        key: key.clone(),
                        depth: p.depth,
                        values,
                        kinds: kinds(p.depth),
                    });
                }
            }
            Entity::Network(c) => {
                // One item per junction-to-junction segment: DSFTool writes
                // a chain as one chain per segment.
                let pts: Vec<&[f64]> = c.points().collect();
                let mut start = 0;
                for j in 1..pts.len() {
                    if pts[j].get(3).is_some_and(|&id| id != 0.0) || j + 1 == pts.len() {
                        out.push(Item {
                            key: format!("{filter} chain {} {} {}", c.def, c.subtype, c.depth),
                            depth: c.depth,
                            values: pts[start..=j].concat(),
                            kinds: kinds(c.depth),
                        });
                        start = j;
                    }
                }
            }
        }
    }
    out
}

/// How far apart two values of a plane of `kind` are (headings round the
/// circle).
fn diff(kind: PlaneKind, x: f64, y: f64) -> f64 {
    if kind == PlaneKind::Heading {
        let d = (x - y).rem_euclid(360.0);
        d.min(360.0 - d)
    } else {
        (x - y).abs()
    }
}

/// The largest error of each plane kind between a tile and its rebuild.
#[derive(Debug, Clone, Default)]
pub struct PlaneErrors {
    /// Per kind: the largest difference, and the entity it was seen on.
    pub worst: std::collections::BTreeMap<PlaneKind, (f64, String)>,
}

impl PlaneErrors {
    /// The largest difference of `kind` (0 when the tile has none).
    pub fn of(&self, kind: PlaneKind) -> f64 {
        self.worst.get(&kind).map_or(0.0, |w| w.0)
    }
}

/// Pairs the entities of `a` with those of `b` (in any order: a rebuilt
/// tile may be grouped and restripped) and gives the largest difference of
/// each plane kind. Entities pair up when their filter, kind, definition,
/// param, depth and winding sizes are equal; among those, each entity of
/// `a` takes the unused one of `b` nearest to it (largest difference of any
/// value), looked up by its first longitude. Fails when the entities do
/// not pair up.
pub fn plane_errors(a: &Dsf, b: &Dsf) -> Result<PlaneErrors, String> {
    use std::collections::BTreeMap;
    let (ia, ib) = (items(a), items(b));
    let mut groups: BTreeMap<&str, (Vec<usize>, Vec<usize>)> = BTreeMap::new();
    for (k, it) in ia.iter().enumerate() {
        groups.entry(&it.key).or_default().0.push(k);
    }
    for (k, it) in ib.iter().enumerate() {
        groups.entry(&it.key).or_default().1.push(k);
    }
    let first = |it: &Item| it.values.first().copied().unwrap_or(0.0);
    let mut out = PlaneErrors::default();
    for (key, (xa, mut xb)) in groups {
        if xa.len() != xb.len() {
            return Err(format!(
                "{key}: {} entities, {} rebuilt",
                xa.len(),
                xb.len()
            ));
        }
        xb.sort_by(|&p, &q| first(&ib[p]).total_cmp(&first(&ib[q])));
        let firsts: Vec<f64> = xb.iter().map(|&k| first(&ib[k])).collect();
        let mut used = vec![false; xb.len()];
        for &i in &xa {
            let it = &ia[i];
            let f = first(it);
            let lo = firsts.partition_point(|&x| x < f - 1e-4);
            // Nearest in lon/lat first (any two within a micro-degree
            // alike), then in the other planes.
            let mut best: Option<(usize, (f64, f64))> = None;
            for j in lo..xb.len() {
                if firsts[j] > f + 1e-4 {
                    break;
                }
                let other = &ib[xb[j]];
                if used[j] || other.values.len() != it.values.len() {
                    continue;
                }
                let mut d = (1e-6f64, 0f64);
                for (k, (x, y)) in it.values.iter().zip(&other.values).enumerate() {
                    let kind = it.kinds[k % it.depth];
                    let e = diff(kind, *x, *y);
                    if kind == PlaneKind::LonLat {
                        d.0 = d.0.max(e);
                    } else {
                        d.1 = d.1.max(e);
                    }
                }
                if best.is_none_or(|b| d < b.1) {
                    best = Some((j, d));
                }
            }
            let (j, _) = best.ok_or_else(|| format!("{key}: no rebuilt entity near {f}"))?;
            used[j] = true;
            let other = &ib[xb[j]];
            for (k, (x, y)) in it.values.iter().zip(&other.values).enumerate() {
                let kind = it.kinds[k % it.depth];
                let d = diff(kind, *x, *y);
                let w = out.worst.entry(kind).or_insert((0.0, String::new()));
                if d > w.0 || w.1.is_empty() {
                    *w = (d.max(w.0), format!("{key}: {x} / {y}"));
                }
            }
        }
    }
    Ok(out)
}

/// The cracks of a rebuilt mesh: of the distinct vertex positions (lon,
/// lat, elevation, bit for bit) of `a`'s patches, those that come back in
/// `b`'s patches at more than one position (issue 51: a vertex shared by
/// triangles in two pools must be written once). Each of `b`'s vertices
/// is paired with the nearest of `a`'s within `tol` degrees. Returns
/// (cracked, distinct vertices of `a`, vertices of `b` paired with none).
pub fn cracks(a: &Dsf, b: &Dsf, tol: f64) -> (usize, usize, usize) {
    use std::collections::{HashMap, HashSet};
    type Pos = (u64, u64, u64);
    let key = |v: &[f64]| (v[0].to_bits(), v[1].to_bits(), v[2].to_bits());
    let cell = |lon: f64, lat: f64| ((lon / tol).floor() as i64, (lat / tol).floor() as i64);
    let mut grid: HashMap<(i64, i64), Vec<[f64; 3]>> = HashMap::new();
    let mut seen: HashSet<Pos> = HashSet::new();
    for p in a.patches() {
        for v in p
            .primitives
            .iter()
            .flat_map(|pr| pr.vertices.chunks_exact(p.depth))
        {
            if seen.insert(key(v)) {
                grid.entry(cell(v[0], v[1]))
                    .or_default()
                    .push([v[0], v[1], v[2]]);
            }
        }
    }
    let mut back: HashMap<Pos, HashSet<Pos>> = HashMap::new();
    let mut unpaired = 0;
    for p in b.patches() {
        for v in p
            .primitives
            .iter()
            .flat_map(|pr| pr.vertices.chunks_exact(p.depth))
        {
            let (cx, cy) = cell(v[0], v[1]);
            let mut best: Option<([f64; 3], f64)> = None;
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for s in grid.get(&(cx + dx, cy + dy)).into_iter().flatten() {
                        let d = (s[0] - v[0]).hypot(s[1] - v[1]);
                        if d <= tol && best.is_none_or(|(_, bd)| d < bd) {
                            best = Some((*s, d));
                        }
                    }
                }
            }
            match best {
                Some((s, _)) => {
                    back.entry(key(&s)).or_default().insert(key(v));
                }
                None => unpaired += 1,
            }
        }
    }
    let cracked = back.values().filter(|s| s.len() > 1).count();
    (cracked, seen.len(), unpaired)
}

/// An Ortho4XP-shaped base mesh as DSF2Text: a `size × size` grid of
/// vertices over the tile (+13+47), jittered inside (edge vertices on
/// the edges), two triangles per square, each triangle in one of four
/// terrain patches (so neighbours sit in different patches and pools),
/// depth 5 (lon, lat, elevation, normal), `DIVISIONS divisions`.
pub fn ortho_mesh_text(size: usize, divisions: u32, seed: u64) -> String {
    let mut r = Rng(seed | 1);
    let n = size - 1;
    let mut pts = vec![[0.0f64; 5]; size * size];
    for j in 0..size {
        for i in 0..size {
            let jit = |r: &mut Rng, k: usize| {
                if k == 0 || k == n {
                    0.0
                } else {
                    r.range(-0.3, 0.3) / n as f64
                }
            };
            let lon = 13.0 + i as f64 / n as f64 + jit(&mut r, i);
            let lat = 47.0 + j as f64 / n as f64 + jit(&mut r, j);
            pts[j * size + i] = [
                lon,
                lat,
                r.range(200.0, 2900.0),
                r.range(-0.3, 0.3),
                r.range(-0.3, 0.3),
            ];
        }
    }
    let mut patches: [Vec<[usize; 3]>; 4] = Default::default();
    for j in 0..n {
        for i in 0..n {
            let a = j * size + i;
            let (b, c, d) = (a + 1, a + size, a + size + 1);
            for t in [[a, b, d], [a, d, c]] {
                patches[r.below(4) as usize].push(t);
            }
        }
    }
    let mut s = format!(
        "I\n800 written by DSFTool 2.4.0-b1\nDSF2TEXT\n\nDIVISIONS {divisions}\nHEIGHTS 1.0 -500.0\n\
         PROPERTY sim/west 13\nPROPERTY sim/east 14\nPROPERTY sim/north 48\nPROPERTY sim/south 47\n"
    );
    for k in 0..4 {
        s += &format!("TERRAIN_DEF terrain/t{k}.ter\n");
    }
    for (k, tris) in patches.iter().enumerate() {
        s += &format!("BEGIN_PATCH {k} 0.000000 -1.000000 1 5\nBEGIN_PRIMITIVE 0\n");
        for (m, t) in tris.iter().enumerate() {
            if m > 0 && m % 85 == 0 {
                s += "END_PRIMITIVE\nBEGIN_PRIMITIVE 0\n";
            }
            for &v in t {
                let p = pts[v];
                s += &format!(
                    "PATCH_VERTEX {:.9} {:.9} {:.9} {:.9} {:.9}\n",
                    p[0], p[1], p[2], p[3], p[4]
                );
            }
        }
        s += "END_PRIMITIVE\nEND_PATCH\n";
    }
    s
}
