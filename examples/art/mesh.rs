//! Triangle meshes written as OBJ8 objects.
//!
//! Faces are given counter-clockwise as seen from their front; each gets
//! its own vertices with its flat normal, and is written clockwise, as
//! X-Plane's OBJ8 files wind their front faces (the geometric normal of a
//! triangle as written points away from its vertex normals; every
//! exporter's objects in the real-file corpus do so). Coordinates are the
//! OBJ8 frame: metres, x right (east), y up, z toward the viewer (south);
//! texture coordinates are fractions of the atlas, t = 0 at its bottom.

/// A point in the object's frame, metres.
pub type P3 = [f64; 3];

/// The side of the objects' texture atlas in pixels.
pub const ATLAS: f64 = 512.0;

/// A rectangle of the atlas in pixels: `[x0, y0, x1, y1]`, y up.
pub type Region = [f64; 4];

/// A prism standing on the ground plane: see [`Mesh::prism`].
pub struct Prism {
    /// The axis, `[x, z]`.
    pub c: [f64; 2],
    /// Axis to corner, metres.
    pub r: f64,
    /// Bottom and top.
    pub y: [f64; 2],
    /// Number of sides.
    pub n: usize,
    /// Sides face the axis.
    pub inward: bool,
}

/// Vertices (position, normal, s, t) and triangle indices.
#[derive(Default)]
pub struct Mesh {
    verts: Vec<[f64; 8]>,
    idx: Vec<usize>,
}

fn sub(a: P3, b: P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: P3, b: P3) -> P3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn unit(v: P3) -> P3 {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if l > 0.0 {
        [v[0] / l, v[1] / l, v[2] / l]
    } else {
        [0.0, 1.0, 0.0]
    }
}

impl Mesh {
    /// A convex face, its points counter-clockwise seen from the front,
    /// with a texture coordinate per point.
    pub fn face(&mut self, pts: &[P3], st: &[[f64; 2]]) {
        assert!(pts.len() >= 3 && pts.len() == st.len());
        let n = unit(cross(sub(pts[1], pts[0]), sub(pts[2], pts[0])));
        let base = self.verts.len();
        for (p, t) in pts.iter().zip(st) {
            self.verts
                .push([p[0], p[1], p[2], n[0], n[1], n[2], t[0], t[1]]);
        }
        // A fan, written clockwise: 0, k + 1, k.
        for k in 1..pts.len() - 1 {
            self.idx.extend([base, base + k + 1, base + k]);
        }
    }

    /// A quad (bottom-left, bottom-right, top-right, top-left seen from the
    /// front) covering the atlas rectangle `r`.
    pub fn quad(&mut self, p: [P3; 4], r: Region) {
        let [s0, t0, s1, t1] = r.map(|v| v / ATLAS);
        self.face(&p, &[[s0, t0], [s1, t0], [s1, t1], [s0, t1]]);
    }

    /// A triangle (bottom-left, bottom-right, apex seen from the front)
    /// covering the atlas rectangle `r`, its apex at the middle of the top.
    pub fn gable(&mut self, p: [P3; 3], r: Region) {
        let [s0, t0, s1, t1] = r.map(|v| v / ATLAS);
        self.face(&p, &[[s0, t0], [s1, t0], [(s0 + s1) / 2.0, t1]]);
    }

    /// An upright box `[x0, x1] × [y0, y1] × [z0, z1]`: its four sides
    /// (front +z, right +x, back -z, left -x) each cover `sides`, its top
    /// covers `top`.
    pub fn boxed(&mut self, x: [f64; 2], y: [f64; 2], z: [f64; 2], sides: Region, top: Region) {
        let [x0, x1] = x;
        let [y0, y1] = y;
        let [z0, z1] = z;
        self.quad(
            [[x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]],
            sides,
        );
        self.quad(
            [[x1, y0, z1], [x1, y0, z0], [x1, y1, z0], [x1, y1, z1]],
            sides,
        );
        self.quad(
            [[x1, y0, z0], [x0, y0, z0], [x0, y1, z0], [x1, y1, z0]],
            sides,
        );
        self.quad(
            [[x0, y0, z0], [x0, y0, z1], [x0, y1, z1], [x0, y1, z0]],
            sides,
        );
        self.quad(
            [[x0, y1, z1], [x1, y1, z1], [x1, y1, z0], [x0, y1, z0]],
            top,
        );
    }

    /// A prism of `n` sides around the vertical axis at `(x, z)` = `c`,
    /// `r` from the axis to its corners, from `y[0]` to `y[1]`: sides
    /// covering `sides` when given (facing in when `inward`, as a basin's
    /// inner wall), a top covering `top` when given.
    pub fn prism(&mut self, p: Prism, sides: Option<Region>, top: Option<Region>) {
        let Prism { c, r, y, n, inward } = p;
        let angle = |k: usize| std::f64::consts::TAU * (k as f64 + 0.5) / n as f64;
        // Corners run counter-clockwise seen from above (x east, -z north),
        // so each side's first corner is its left seen from outside.
        let corner = |k: usize| [c[0] + r * angle(k).cos(), c[1] - r * angle(k).sin()];
        for k in (0..n).filter(|_| sides.is_some()) {
            let (a, b) = if inward {
                (corner(k + 1), corner(k))
            } else {
                (corner(k), corner(k + 1))
            };
            self.quad(
                [
                    [a[0], y[0], a[1]],
                    [b[0], y[0], b[1]],
                    [b[0], y[1], b[1]],
                    [a[0], y[1], a[1]],
                ],
                sides.unwrap_or_default(),
            );
        }
        if let Some(t) = top {
            let [s0, t0, s1, t1] = t.map(|v| v / ATLAS);
            let pts: Vec<P3> = (0..n).map(|k| [corner(k)[0], y[1], corner(k)[1]]).collect();
            let st: Vec<[f64; 2]> = (0..n)
                .map(|k| {
                    [
                        s0 + (s1 - s0) * (0.5 + 0.5 * angle(k).cos()),
                        t0 + (t1 - t0) * (0.5 + 0.5 * angle(k).sin()),
                    ]
                })
                .collect();
            self.face(&pts, &st);
        }
    }

    /// The mesh moved by the affine map `f` of positions (a turn, a shift);
    /// normals follow its linear part.
    pub fn map(mut self, f: impl Fn(P3) -> P3) -> Mesh {
        let o = f([0.0; 3]);
        for v in &mut self.verts {
            let p = f([v[0], v[1], v[2]]);
            let n = sub(f([v[3], v[4], v[5]]), o);
            v[..6].copy_from_slice(&[p[0], p[1], p[2], n[0], n[1], n[2]]);
        }
        self
    }

    /// Appends `other`.
    pub fn extend(&mut self, other: Mesh) {
        let base = self.verts.len();
        self.verts.extend(other.verts);
        self.idx.extend(other.idx.into_iter().map(|i| i + base));
    }

    /// The OBJ8 text: header, `comment` lines, the texture, the tables and
    /// one `TRIS` command.
    pub fn obj(&self, comment: &str, texture: &str) -> String {
        let mut s = String::from("I\n800\nOBJ\n\n");
        for line in comment.lines() {
            s.push_str(&format!("# {line}\n").replace("# \n", "#\n"));
        }
        s.push_str(&format!("\nTEXTURE {texture}\n"));
        s.push_str(&format!(
            "POINT_COUNTS {} 0 0 {}\n\n",
            self.verts.len(),
            self.idx.len()
        ));
        for v in &self.verts {
            let n: Vec<String> = v.iter().map(|&x| num(x)).collect();
            s.push_str(&format!(
                "VT {} {} {}  {} {} {}  {} {}\n",
                n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]
            ));
        }
        s.push('\n');
        let mut chunks = self.idx.chunks_exact(10);
        for c in chunks.by_ref() {
            let w: Vec<String> = c.iter().map(usize::to_string).collect();
            s.push_str(&format!("IDX10 {}\n", w.join(" ")));
        }
        for i in chunks.remainder() {
            s.push_str(&format!("IDX {i}\n"));
        }
        s.push_str(&format!("\nTRIS 0 {}\n", self.idx.len()));
        s
    }
}

/// `x` with at most four decimals and no trailing zeros (`-0` as `0`).
pub fn num(x: f64) -> String {
    let s = format!("{:.4}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}
