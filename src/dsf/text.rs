//! DSF2Text, the DSFTool text form: a writer using DSFTool's printf formats
//! and a reader that accepts what DSFTool's text2dsf accepts (plus errors
//! with line numbers where DSFTool would silently drop a line).
//!
//! Decisions (see docs/dsf.md): `OBJECT_MSL`/`OBJECT_AGL` print the elevation
//! before the heading (as DSFTool's code and sample files do); `DIVISIONS 8`
//! is always printed; `HEIGHTS` is derived from the elevations present;
//! raster sidecar paths are resolved by the caller.

use super::write::BuildOptions;
use super::{
    Dsf, ElevationMode, Entity, NetworkChain, Object, Patch, Polygon, Primitive, PrimitiveKind,
    Raster,
};
use std::fmt::{self, Write as _};

/// Options of [`to_text`].
#[derive(Debug, Clone, Default)]
pub struct TextOptions {
    /// Printed as `# file: <name>` in the header.
    pub source_name: Option<String>,
    /// Raster `k` is named `<raster_base>.<DEMN name>.raw` on its
    /// `RASTER_DATA` line (DSFTool uses the output text path); without it,
    /// `<DEMN name>.raw`.
    pub raster_base: Option<String>,
}

/// The sidecar file name of a raster for [`to_text`].
pub fn raster_file_name(opts: &TextOptions, k: usize, r: &Raster) -> String {
    let name = if r.name.is_empty() {
        format!("raster{k}")
    } else {
        r.name.clone()
    };
    match &opts.raster_base {
        Some(b) => format!("{b}.{name}.raw"),
        None => format!("{name}.raw"),
    }
}

/// Writes `dsf` as DSF2Text.
pub fn to_text(dsf: &Dsf, opts: &TextOptions) -> String {
    let mut s = String::new();
    s.push_str("I\n800 written by agkit\nDSF2TEXT\n\n");
    if let Some(n) = &opts.source_name {
        let _ = writeln!(s, "# file: {n}\n");
    }
    s.push_str("DIVISIONS 8\n");
    if let Some((res, min)) = heights(dsf) {
        let _ = writeln!(s, "HEIGHTS {res:.5} {min:.1}");
    }
    for (n, v) in &dsf.properties {
        let _ = writeln!(s, "PROPERTY {n} {v}");
    }
    for (kw, table) in [
        ("TERRAIN_DEF", &dsf.terrain_defs),
        ("OBJECT_DEF", &dsf.object_defs),
        ("POLYGON_DEF", &dsf.polygon_defs),
        ("NETWORK_DEF", &dsf.network_defs),
        ("RASTER_DEF", &dsf.raster_defs),
    ] {
        for d in table {
            let _ = writeln!(s, "{kw} {d}");
        }
    }
    for (k, r) in dsf.rasters.iter().enumerate() {
        let _ = writeln!(
            s,
            "RASTER_DATA version={} bpp={} flags={} width={} height={} scale={:.6} offset={:.6} {}",
            r.version,
            r.bpp,
            r.flags,
            r.width,
            r.height,
            r.scale,
            r.offset,
            raster_file_name(opts, k, r)
        );
    }
    for e in &dsf.entities {
        match e {
            Entity::Filter(f) => {
                let _ = writeln!(s, "FILTER {f}");
            }
            Entity::Object(o) => object(&mut s, o),
            Entity::Polygon(p) => polygon(&mut s, p),
            Entity::Patch(p) => patch(&mut s, p),
            Entity::Network(n) => chain(&mut s, n),
        }
    }
    s
}

/// `HEIGHTS` from the elevations of 4-plane objects and patch vertices.
fn heights(dsf: &Dsf) -> Option<(f64, f64)> {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for e in &dsf.entities {
        match e {
            Entity::Object(o) => {
                if let Some(z) = o.elevation {
                    lo = lo.min(z);
                    hi = hi.max(z);
                }
            }
            Entity::Patch(p) if p.depth >= 3 => {
                for pr in &p.primitives {
                    for v in pr.vertices.chunks_exact(p.depth) {
                        lo = lo.min(v[2]);
                        hi = hi.max(v[2]);
                    }
                }
            }
            _ => {}
        }
    }
    if !lo.is_finite() {
        return None;
    }
    let min = lo.floor();
    let range = (hi.ceil() - min).max(1.0);
    let res = (range / 65535.0 * 1e5).ceil() / 1e5;
    Some((res, min))
}

fn object(s: &mut String, o: &Object) {
    let _ = match (o.mode, o.elevation) {
        (ElevationMode::Draped, _) | (_, None) => writeln!(
            s,
            "OBJECT {} {:.9} {:.9} {:.3}",
            o.def, o.lon, o.lat, o.heading
        ),
        (m, Some(z)) => writeln!(
            s,
            "{} {} {:.9} {:.9} {:.5} {:.3}",
            if m == ElevationMode::Agl {
                "OBJECT_AGL"
            } else {
                "OBJECT_MSL"
            },
            o.def,
            o.lon,
            o.lat,
            z,
            o.heading
        ),
    };
}

fn values(s: &mut String, kw: &str, v: &[f64]) {
    s.push_str(kw);
    for x in v {
        let _ = write!(s, " {x:.9}");
    }
    s.push('\n');
}

fn polygon(s: &mut String, p: &Polygon) {
    let _ = writeln!(s, "BEGIN_POLYGON {} {} {}", p.def, p.param, p.depth);
    for k in 0..p.windings.len() {
        s.push_str("BEGIN_WINDING\n");
        for pt in p.points(k) {
            values(s, "POLYGON_POINT", pt);
        }
        s.push_str("END_WINDING\n");
    }
    s.push_str("END_POLYGON\n");
}

fn patch(s: &mut String, p: &Patch) {
    let _ = writeln!(
        s,
        "BEGIN_PATCH {} {:.6} {:.6} {} {}",
        p.def, p.lod_near, p.lod_far, p.flags, p.depth
    );
    for pr in &p.primitives {
        let _ = writeln!(s, "BEGIN_PRIMITIVE {}", pr.kind.code());
        for v in pr.vertices.chunks_exact(p.depth.max(1)) {
            values(s, "PATCH_VERTEX", v);
        }
        s.push_str("END_PRIMITIVE\n");
    }
    s.push_str("END_PATCH\n");
}

fn chain(s: &mut String, n: &NetworkChain) {
    let pts: Vec<&[f64]> = n.points().collect();
    if pts.is_empty() {
        return;
    }
    let curved = n.depth >= 7;
    let geo = |p: &[f64]| -> String {
        let take = if curved {
            [0, 1, 2, 4, 5, 6].as_slice()
        } else {
            &[0, 1, 2]
        };
        take.iter().map(|&i| format!(" {:.9}", p[i])).collect()
    };
    let suffix = if curved { "_CURVED" } else { "" };
    let begin = |s: &mut String, p: &[f64]| {
        let _ = writeln!(
            s,
            "BEGIN_SEGMENT{suffix} {} {} {}{}",
            n.def,
            n.subtype,
            p[3] as u64,
            geo(p)
        );
    };
    begin(s, pts[0]);
    if pts.len() == 1 {
        let _ = writeln!(s, "END_SEGMENT{suffix} {}{}", pts[0][3] as u64, geo(pts[0]));
        return;
    }
    for (i, p) in pts.iter().enumerate().skip(1) {
        let last = i + 1 == pts.len();
        if p[3] != 0.0 || last {
            let _ = writeln!(s, "END_SEGMENT{suffix} {}{}", p[3] as u64, geo(p));
            if !last {
                begin(s, p);
            }
        } else {
            let _ = writeln!(s, "SHAPE_POINT{suffix}{}", geo(p));
        }
    }
}

/// A DSF2Text parse error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    /// 1-based line.
    pub line: usize,
    /// Byte range of the line in the source.
    pub span: std::ops::Range<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TextError {}

struct Line<'a> {
    no: usize,
    span: std::ops::Range<usize>,
    keyword: &'a str,
    rest: &'a str,
}

impl Line<'_> {
    fn err(&self, m: impl Into<String>) -> TextError {
        TextError {
            line: self.no,
            span: self.span.clone(),
            message: m.into(),
        }
    }

    fn args(&self) -> Vec<&str> {
        self.rest.split_whitespace().collect()
    }

    fn ints<const N: usize>(&self, a: &[&str]) -> Result<[i64; N], TextError> {
        let mut out = [0i64; N];
        for (i, o) in out.iter_mut().enumerate() {
            let t = a.get(i).ok_or_else(|| {
                self.err(format!(
                    "{} needs at least {N} integer arguments",
                    self.keyword
                ))
            })?;
            *o = t
                .parse()
                .map_err(|_| self.err(format!("`{t}` is not an integer")))?;
        }
        Ok(out)
    }

    fn floats(&self, a: &[&str]) -> Result<Vec<f64>, TextError> {
        a.iter()
            .map(|t| {
                t.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| self.err(format!("`{t}` is not a number")))
            })
            .collect()
    }

    fn exact(&self, a: &[&str], n: usize) -> Result<(), TextError> {
        if a.len() == n {
            Ok(())
        } else {
            Err(self.err(format!(
                "{} takes {n} values, found {}",
                self.keyword,
                a.len()
            )))
        }
    }
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (no, raw) in text.split_inclusive('\n').enumerate() {
        let span = start..start + raw.len();
        start += raw.len();
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let (keyword, rest) = match body.find(char::is_whitespace) {
            Some(i) => (&body[..i], body[i..].trim()),
            None => (body, ""),
        };
        out.push(Line {
            no: no + 1,
            span,
            keyword,
            rest,
        });
    }
    out
}

fn def_index(l: &Line<'_>, v: i64, table: &[String], name: &str) -> Result<u32, TextError> {
    if v >= 0 && (v as usize) < table.len() {
        Ok(v as u32)
    } else {
        Err(l.err(format!(
            "definition {v} is not in the {name} table ({} entries)",
            table.len()
        )))
    }
}

/// What is open while reading geometry.
enum Open {
    None,
    Polygon(Polygon, Option<Vec<f64>>),
    Patch(Patch, Option<Primitive>),
    Segment(NetworkChain),
}

/// Reads DSF2Text into a model plus the build options it asks for
/// (`DIVISIONS`). `load_raster` returns the bytes of a `RASTER_DATA` file.
pub fn from_text(
    text: &str,
    load_raster: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<(Dsf, BuildOptions), TextError> {
    let all = lines(text);
    let mut dsf = Dsf::default();
    let mut opts = BuildOptions::default();
    // Pass 1: header lines, wherever they are.
    for l in &all {
        match l.keyword {
            "PROPERTY" => {
                let (n, v) = match l.rest.find(char::is_whitespace) {
                    Some(i) => (&l.rest[..i], l.rest[i..].trim()),
                    None => (l.rest, ""),
                };
                if n.is_empty() {
                    return Err(l.err("PROPERTY needs a name"));
                }
                dsf.properties.push((n.to_string(), v.to_string()));
            }
            "TERRAIN_DEF" | "OBJECT_DEF" | "POLYGON_DEF" | "NETWORK_DEF" | "RASTER_DEF" => {
                if l.rest.is_empty() {
                    return Err(l.err(format!("{} needs a path", l.keyword)));
                }
                let t = match l.keyword {
                    "TERRAIN_DEF" => &mut dsf.terrain_defs,
                    "OBJECT_DEF" => &mut dsf.object_defs,
                    "POLYGON_DEF" => &mut dsf.polygon_defs,
                    "NETWORK_DEF" => &mut dsf.network_defs,
                    _ => &mut dsf.raster_defs,
                };
                t.push(l.rest.to_string());
            }
            "DIVISIONS" => {
                let [d] = l.ints::<1>(&l.args())?;
                if !(1..=64).contains(&d) {
                    return Err(l.err(format!("DIVISIONS {d} is not 1..64")));
                }
                opts.divisions = d as u32;
            }
            _ => {}
        }
    }
    // Pass 2: rasters and geometry, in order.
    let mut open = Open::None;
    for l in &all {
        let a = l.args();
        match (l.keyword, &mut open) {
            ("RASTER_DATA", _) => dsf.rasters.push(raster(l, &a, &dsf, load_raster)?),
            ("FILTER", Open::None) => {
                let [f] = l.ints::<1>(&a)?;
                let f = i32::try_from(f).map_err(|_| l.err("filter index out of range"))?;
                dsf.entities.push(Entity::Filter(f));
            }
            ("OBJECT" | "OBJECT_MSL" | "OBJECT_AGL", Open::None) => {
                let [d] = l.ints::<1>(&a)?;
                let def = def_index(l, d, &dsf.object_defs, "OBJECT_DEF")?;
                let draped = l.keyword == "OBJECT";
                l.exact(&a, if draped { 4 } else { 5 })?;
                let v = l.floats(&a[1..])?;
                dsf.entities.push(Entity::Object(Object {
                    def,
                    lon: v[0],
                    lat: v[1],
                    heading: if draped { v[2] } else { v[3] },
                    elevation: (!draped).then_some(v[2]),
                    mode: match l.keyword {
                        "OBJECT" => ElevationMode::Draped,
                        "OBJECT_MSL" => ElevationMode::Msl,
                        _ => ElevationMode::Agl,
                    },
                }));
            }
            ("BEGIN_POLYGON", Open::None) => {
                let [d, param] = l.ints::<2>(&a)?;
                let def = def_index(l, d, &dsf.polygon_defs, "POLYGON_DEF")?;
                let depth = if a.len() >= 3 { l.ints::<3>(&a)?[2] } else { 2 };
                if !(2..=255).contains(&depth) {
                    return Err(l.err(format!("polygon depth {depth} is not 2..255")));
                }
                let param = u16::try_from(param)
                    .map_err(|_| l.err(format!("polygon parameter {param} is not 0..65535")))?;
                open = Open::Polygon(
                    Polygon {
                        def,
                        param,
                        depth: depth as usize,
                        windings: Vec::new(),
                    },
                    None,
                );
            }
            ("BEGIN_WINDING", Open::Polygon(_, w @ None)) => *w = Some(Vec::new()),
            ("POLYGON_POINT", Open::Polygon(p, Some(w))) => {
                l.exact(&a, p.depth)?;
                w.extend(l.floats(&a)?);
            }
            ("END_WINDING", Open::Polygon(p, w @ Some(_))) => {
                p.windings.extend(w.take());
            }
            ("END_POLYGON", Open::Polygon(_, None)) => {
                if let Open::Polygon(p, _) = std::mem::replace(&mut open, Open::None) {
                    if p.windings.is_empty() {
                        return Err(l.err("polygon without windings"));
                    }
                    dsf.entities.push(Entity::Polygon(p));
                }
            }
            ("BEGIN_PATCH", Open::None) => {
                l.exact(&a, 5)?;
                let [d] = l.ints::<1>(&a)?;
                let def = def_index(l, d, &dsf.terrain_defs, "TERRAIN_DEF")?;
                let lod = l.floats(&a[1..3])?;
                let flags = l.ints::<1>(&a[3..])?[0];
                let depth = l.ints::<1>(&a[4..])?[0];
                let flags = u8::try_from(flags).map_err(|_| l.err("patch flags are not 0..255"))?;
                if !(2..=255).contains(&depth) {
                    return Err(l.err(format!("patch depth {depth} is not 2..255")));
                }
                open = Open::Patch(
                    Patch {
                        def,
                        flags,
                        lod_near: lod[0] as f32,
                        lod_far: lod[1] as f32,
                        depth: depth as usize,
                        primitives: Vec::new(),
                    },
                    None,
                );
            }
            ("BEGIN_PRIMITIVE", Open::Patch(_, pr @ None)) => {
                let [t] = l.ints::<1>(&a)?;
                let kind = PrimitiveKind::from_code(t)
                    .ok_or_else(|| l.err(format!("primitive type {t} is not 0, 1 or 2")))?;
                *pr = Some(Primitive {
                    kind,
                    vertices: Vec::new(),
                });
            }
            ("PATCH_VERTEX", Open::Patch(p, Some(pr))) => {
                l.exact(&a, p.depth)?;
                pr.vertices.extend(l.floats(&a)?);
            }
            ("END_PRIMITIVE", Open::Patch(p, pr @ Some(_))) => {
                if let Some(pr) = pr.take() {
                    if pr.vertices.is_empty() {
                        return Err(l.err("primitive without vertices"));
                    }
                    p.primitives.push(pr);
                }
            }
            ("END_PATCH", Open::Patch(_, None)) => {
                if let Open::Patch(p, _) = std::mem::replace(&mut open, Open::None) {
                    dsf.entities.push(Entity::Patch(p));
                }
            }
            ("BEGIN_SEGMENT" | "BEGIN_SEGMENT_CURVED", Open::None) => {
                let curved = l.keyword.ends_with("_CURVED");
                l.exact(&a, if curved { 9 } else { 6 })?;
                let [d, sub, node] = l.ints::<3>(&a)?;
                let def = def_index(l, d, &dsf.network_defs, "NETWORK_DEF")?;
                let subtype = u32::try_from(sub).map_err(|_| l.err("road subtype is negative"))?;
                let pt = net_point(l, node, &l.floats(&a[3..])?)?;
                let depth = pt.len();
                // Continue the previous chain when this segment starts where
                // it ended.
                let cont = match dsf.entities.last() {
                    Some(Entity::Network(c)) => {
                        c.def == def
                            && c.subtype == subtype
                            && c.depth == depth
                            && c.points.ends_with(&pt)
                    }
                    _ => false,
                };
                let chain = if cont {
                    match dsf.entities.pop() {
                        Some(Entity::Network(c)) => c,
                        _ => unreachable!("checked above"),
                    }
                } else {
                    NetworkChain {
                        def,
                        subtype,
                        depth,
                        points: pt,
                    }
                };
                open = Open::Segment(chain);
            }
            ("SHAPE_POINT" | "SHAPE_POINT_CURVED", Open::Segment(c)) => {
                let curved = l.keyword.ends_with("_CURVED");
                if curved != (c.depth >= 7) {
                    return Err(l.err("curved and plain network points are mixed"));
                }
                l.exact(&a, if curved { 6 } else { 3 })?;
                let pt = net_point(l, 0, &l.floats(&a)?)?;
                c.points.extend(pt);
            }
            ("END_SEGMENT" | "END_SEGMENT_CURVED", Open::Segment(c)) => {
                let curved = l.keyword.ends_with("_CURVED");
                if curved != (c.depth >= 7) {
                    return Err(l.err("curved and plain network points are mixed"));
                }
                l.exact(&a, if curved { 7 } else { 4 })?;
                let [node] = l.ints::<1>(&a)?;
                let pt = net_point(l, node, &l.floats(&a[1..])?)?;
                c.points.extend(pt);
                if let Open::Segment(c) = std::mem::replace(&mut open, Open::None) {
                    dsf.entities.push(Entity::Network(c));
                }
            }
            (
                "FILTER"
                | "OBJECT"
                | "OBJECT_MSL"
                | "OBJECT_AGL"
                | "BEGIN_POLYGON"
                | "BEGIN_WINDING"
                | "POLYGON_POINT"
                | "END_WINDING"
                | "END_POLYGON"
                | "BEGIN_PATCH"
                | "BEGIN_PRIMITIVE"
                | "PATCH_VERTEX"
                | "END_PRIMITIVE"
                | "END_PATCH"
                | "BEGIN_SEGMENT"
                | "BEGIN_SEGMENT_CURVED"
                | "SHAPE_POINT"
                | "SHAPE_POINT_CURVED"
                | "END_SEGMENT"
                | "END_SEGMENT_CURVED",
                _,
            ) => {
                return Err(l.err(format!("{} is not allowed here", l.keyword)));
            }
            _ => {}
        }
    }
    match open {
        Open::None => Ok((dsf, opts)),
        _ => Err(TextError {
            line: text.lines().count(),
            span: text.len()..text.len(),
            message: "the text ends inside a polygon, patch or segment".into(),
        }),
    }
}

/// lon, lat, elev, junction[, ctrl lon, ctrl lat, ctrl elev].
fn net_point(l: &Line<'_>, node: i64, geo: &[f64]) -> Result<Vec<f64>, TextError> {
    let node = u32::try_from(node).map_err(|_| l.err(format!("node ID {node} is not a u32")))?;
    let mut p = vec![geo[0], geo[1], geo[2], f64::from(node)];
    p.extend_from_slice(&geo[3..]);
    Ok(p)
}

fn raster(
    l: &Line<'_>,
    a: &[&str],
    dsf: &Dsf,
    load: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<Raster, TextError> {
    const KEYS: [&str; 7] = [
        "version", "bpp", "flags", "width", "height", "scale", "offset",
    ];
    if a.len() < 8 {
        return Err(l.err(
            "RASTER_DATA needs version= bpp= flags= width= height= scale= offset= and a file",
        ));
    }
    let mut v = [0f64; 7];
    for (i, key) in KEYS.iter().enumerate() {
        let val = a[i]
            .strip_prefix(key)
            .and_then(|r| r.strip_prefix('='))
            .ok_or_else(|| l.err(format!("expected {key}=… as argument {}", i + 1)))?;
        v[i] = val
            .parse()
            .map_err(|_| l.err(format!("`{val}` is not a number")))?;
    }
    let file = a[7..].join(" ");
    let int = |x: f64, max: f64, what: &str| {
        if x.fract() == 0.0 && (0.0..=max).contains(&x) {
            Ok(x)
        } else {
            Err(l.err(format!("{what} {x} is out of range")))
        }
    };
    let r = Raster {
        name: dsf
            .raster_defs
            .get(dsf.rasters.len())
            .cloned()
            .unwrap_or_default(),
        version: int(v[0], 255.0, "version")? as u8,
        bpp: int(v[1], 255.0, "bpp")? as u8,
        flags: int(v[2], 65535.0, "flags")? as u16,
        width: int(v[3], f64::from(u32::MAX), "width")? as u32,
        height: int(v[4], f64::from(u32::MAX), "height")? as u32,
        scale: v[5] as f32,
        offset: v[6] as f32,
        data: load(&file).map_err(|e| l.err(format!("cannot read raster file {file}: {e}")))?,
    };
    let expect = u64::from(r.width) * u64::from(r.height) * u64::from(r.bpp);
    if expect != r.data.len() as u64 {
        return Err(l.err(format!(
            "raster file {file} holds {} bytes, expected {expect}",
            r.data.len()
        )));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curved_segments_round_trip() {
        let t = "NETWORK_DEF lib/g8/roads.net\n\
                 BEGIN_SEGMENT_CURVED 0 2 7 1.0 2.0 3.0 1.1 2.1 3.1\n\
                 SHAPE_POINT_CURVED 1.2 2.2 3.2 1.3 2.3 3.3\n\
                 END_SEGMENT_CURVED 8 1.4 2.4 3.4 1.5 2.5 3.5\n";
        let (d, _) = from_text(t, &mut |_| Err("none".into())).unwrap();
        let c = d.chains().next().unwrap();
        assert_eq!(c.depth, 7);
        assert_eq!(c.points().count(), 3);
        assert_eq!(&c.points[..7], &[1.0, 2.0, 3.0, 7.0, 1.1, 2.1, 3.1]);
        let out = to_text(&d, &TextOptions::default());
        assert!(out.contains("BEGIN_SEGMENT_CURVED 0 2 7 1.000000000 2.000000000 3.000000000 1.100000000 2.100000000 3.100000000\n"), "{out}");
        assert!(out.contains("END_SEGMENT_CURVED 8 "), "{out}");
        let (again, _) = from_text(&out, &mut |_| Err("none".into())).unwrap();
        assert_eq!(again.entities, d.entities);
    }

    #[test]
    fn segments_sharing_a_junction_become_one_chain() {
        let t = "NETWORK_DEF r.net\n\
                 BEGIN_SEGMENT 0 1 1 1 1 0\nEND_SEGMENT 2 2 2 0\n\
                 BEGIN_SEGMENT 0 1 2 2 2 0\nSHAPE_POINT 3 3 0\nEND_SEGMENT 3 4 4 0\n\
                 BEGIN_SEGMENT 0 1 9 5 5 0\nEND_SEGMENT 10 6 6 0\n";
        let (d, _) = from_text(t, &mut |_| Err("none".into())).unwrap();
        let chains: Vec<usize> = d.chains().map(|c| c.points().count()).collect();
        assert_eq!(chains, [4, 2]);
    }
}
