//! A small raster to draw textures on, and its PNG encoding.
//!
//! Coordinates are texture pixels with y up, as X-Plane reads texture
//! coordinates (t = 0 is the bottom row of the image) and as the autogen
//! assets give their pixels; the PNG's first row is the top (y = h - 1).
//! Shapes are filled where a pixel's centre lies inside them, each pixel
//! coloured by a paint: a function of the pixel centre, so patterns
//! (slabs, bricks, lawn) follow the texture's own coordinates.

/// An RGBA colour.
pub type Rgba = [u8; 4];

/// A point in texture pixels (x right, y up).
pub type Pt = [f64; 2];

/// An opaque colour from its RGB.
pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
    [r, g, b, 255]
}

/// Transparent black.
pub const CLEAR: Rgba = [0, 0, 0, 0];

/// `c` with its RGB scaled by `k` (alpha kept).
pub fn shade(c: Rgba, k: f64) -> Rgba {
    let f = |v: u8| (f64::from(v) * k).round().clamp(0.0, 255.0) as u8;
    [f(c[0]), f(c[1]), f(c[2]), c[3]]
}

/// The colour `t` of the way from `a` to `b` (every channel).
pub fn mix(a: Rgba, b: Rgba, t: f64) -> Rgba {
    let t = t.clamp(0.0, 1.0);
    let f = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

/// A 32-bit hash of two integers and a seed (deterministic on every
/// platform: integer arithmetic only).
pub fn hash(x: i64, y: i64, seed: u32) -> u32 {
    let mut h = (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ u64::from(seed).wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 29;
    (h >> 32) as u32
}

/// `hash` as a number in 0..1.
pub fn unit(x: i64, y: i64, seed: u32) -> f64 {
    f64::from(hash(x, y, seed)) / f64::from(u32::MAX)
}

/// Smooth value noise in 0..1 with features about `cell` pixels across.
pub fn noise(x: f64, y: f64, cell: f64, seed: u32) -> f64 {
    let (fx, fy) = (x / cell, y / cell);
    let (ix, iy) = (fx.floor(), fy.floor());
    let (tx, ty) = (fx - ix, fy - iy);
    let s = |t: f64| t * t * (3.0 - 2.0 * t);
    let (ix, iy) = (ix as i64, iy as i64);
    let a = unit(ix, iy, seed);
    let b = unit(ix + 1, iy, seed);
    let c = unit(ix, iy + 1, seed);
    let d = unit(ix + 1, iy + 1, seed);
    let top = a + (b - a) * s(tx);
    let bottom = c + (d - c) * s(tx);
    top + (bottom - top) * s(ty)
}

/// `v` (0..1) rounded down to one of `levels` steps, as 0..1: few
/// distinct values keep a texture small once compressed.
pub fn steps(v: f64, levels: u32) -> f64 {
    let n = f64::from(levels.max(2));
    ((v.clamp(0.0, 0.999_999) * n).floor()) / (n - 1.0)
}

/// A raster of `w` × `h` RGBA pixels.
pub struct Canvas {
    /// Width in pixels.
    pub w: u32,
    /// Height in pixels.
    pub h: u32,
    px: Vec<Rgba>,
}

impl Canvas {
    /// A canvas filled with `c`.
    pub fn new(w: u32, h: u32, c: Rgba) -> Canvas {
        Canvas {
            w,
            h,
            px: vec![c; w as usize * h as usize],
        }
    }

    fn index(&self, x: i64, y: i64) -> Option<usize> {
        let inside = (0..i64::from(self.w)).contains(&x) && (0..i64::from(self.h)).contains(&y);
        // Row 0 of the image is the top: y = h - 1.
        inside.then(|| (i64::from(self.h) - 1 - y) as usize * self.w as usize + x as usize)
    }

    /// Sets the pixel at `(x, y)`, blending `c` over it by `c`'s alpha.
    pub fn put(&mut self, x: i64, y: i64, c: Rgba) {
        if let Some(i) = self.index(x, y) {
            self.px[i] = over(c, self.px[i]);
        }
    }

    /// Paints every pixel whose centre passes `inside`, within the box
    /// `[x0, y0, x1, y1]`, with `paint` at that centre.
    pub fn fill_where(
        &mut self,
        bounds: [f64; 4],
        inside: impl Fn(Pt) -> bool,
        paint: impl Fn(Pt) -> Rgba,
    ) {
        let [x0, y0, x1, y1] = bounds;
        let cols = (x0.floor().max(0.0) as i64)..(x1.ceil().min(f64::from(self.w)) as i64);
        let rows = (y0.floor().max(0.0) as i64)..(y1.ceil().min(f64::from(self.h)) as i64);
        for y in rows {
            for x in cols.clone() {
                let p = [x as f64 + 0.5, y as f64 + 0.5];
                if inside(p) {
                    self.put(x, y, paint(p));
                }
            }
        }
    }

    /// Fills the rectangle `[x0, y0, x1, y1]`.
    pub fn rect(&mut self, r: [f64; 4], paint: impl Fn(Pt) -> Rgba) {
        self.fill_where(r, |_| true, paint);
    }

    /// Fills the disc of radius `r` around `c`.
    pub fn disc(&mut self, c: Pt, r: f64, paint: impl Fn(Pt) -> Rgba) {
        self.ring(c, 0.0, r, paint);
    }

    /// Fills the ring between radii `r0` and `r1` around `c`.
    pub fn ring(&mut self, c: Pt, r0: f64, r1: f64, paint: impl Fn(Pt) -> Rgba) {
        let inside = |p: Pt| {
            let d = (p[0] - c[0]).hypot(p[1] - c[1]);
            d >= r0 && d < r1
        };
        self.fill_where([c[0] - r1, c[1] - r1, c[0] + r1, c[1] + r1], inside, paint);
    }

    /// Fills the polygon `pts` (even-odd, any winding).
    pub fn poly(&mut self, pts: &[Pt], paint: impl Fn(Pt) -> Rgba) {
        let b = pts
            .iter()
            .fold([f64::MAX, f64::MAX, f64::MIN, f64::MIN], |b, p| {
                [
                    b[0].min(p[0]),
                    b[1].min(p[1]),
                    b[2].max(p[0]),
                    b[3].max(p[1]),
                ]
            });
        self.fill_where(b, |p| inside_poly(pts, p), paint);
    }

    /// Paints a band `width` pixels wide along the segment `a`–`b`.
    pub fn line(&mut self, a: Pt, b: Pt, width: f64, paint: impl Fn(Pt) -> Rgba) {
        let r = width / 2.0;
        let bounds = [
            a[0].min(b[0]) - r,
            a[1].min(b[1]) - r,
            a[0].max(b[0]) + r,
            a[1].max(b[1]) + r,
        ];
        self.fill_where(bounds, |p| seg_dist(a, b, p) < r, paint);
    }

    /// Paints each pixel of the box `r` with `f(p, current colour)`.
    pub fn tint(&mut self, r: [f64; 4], f: impl Fn(Pt, Rgba) -> Rgba) {
        let [x0, y0, x1, y1] = r;
        for y in (y0.max(0.0) as i64)..(y1.min(f64::from(self.h)) as i64) {
            for x in (x0.max(0.0) as i64)..(x1.min(f64::from(self.w)) as i64) {
                if let Some(i) = self.index(x, y) {
                    self.px[i] = f([x as f64 + 0.5, y as f64 + 0.5], self.px[i]);
                }
            }
        }
    }

    /// The image as PNG bytes: RGBA when `alpha`, else RGB; deterministic
    /// (no time or text chunks).
    pub fn png(&self, alpha: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, self.w, self.h);
        enc.set_color(if alpha {
            png::ColorType::Rgba
        } else {
            png::ColorType::Rgb
        });
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::High);
        let data: Vec<u8> = if alpha {
            self.px.iter().flatten().copied().collect()
        } else {
            self.px.iter().flat_map(|p| [p[0], p[1], p[2]]).collect()
        };
        let mut w = enc.write_header().expect("PNG header into memory");
        w.write_image_data(&data).expect("PNG data into memory");
        w.finish().expect("PNG end into memory");
        out
    }
}

/// `top` over `bottom` by `top`'s alpha.
fn over(top: Rgba, bottom: Rgba) -> Rgba {
    match top[3] {
        255 => top,
        0 => bottom,
        a => {
            let t = f64::from(a) / 255.0;
            let mut c = mix(bottom, top, t);
            c[3] = (f64::from(bottom[3]) + (255.0 - f64::from(bottom[3])) * t).round() as u8;
            c
        }
    }
}

/// True when `p` is inside the polygon `pts` (even-odd).
pub fn inside_poly(pts: &[Pt], p: Pt) -> bool {
    let mut inside = false;
    let mut j = pts.len().wrapping_sub(1);
    for (i, a) in pts.iter().enumerate() {
        let b = pts[j];
        if (a[1] > p[1]) != (b[1] > p[1])
            && p[0] < (b[0] - a[0]) * (p[1] - a[1]) / (b[1] - a[1]) + a[0]
        {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// Distance from `p` to the segment `a`–`b`.
pub fn seg_dist(a: Pt, b: Pt, p: Pt) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p[0] - a[0] - t * dx).hypot(p[1] - a[1] - t * dy)
}
