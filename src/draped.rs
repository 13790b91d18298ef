//! Minimal readers for the three art formats a DSF tile names that agkit
//! did not read before: draped polygons (`.pol`, `DRAPED_POLYGON`),
//! painted lines (`.lin`, `LINE_PAINT`) and object strings (`.str`,
//! `OBJECT_STRING`).
//!
//! Only what placing and drawing a tile needs is kept (Laminar's format
//! pages on developer.x-plane.com are the reference):
//!
//! - `.pol`: its `TEXTURE` and `SCALE` (metres one repeat of the texture
//!   covers, east and north); a DSF polygon with UV planes ignores the
//!   scale.
//! - `.lin`: its `TEXTURE`, `SCALE`, `TEX_WIDTH` and the `S_OFFSET`
//!   layers, from which the drawn width follows ([`Lin::width`]).
//! - `.str`: its `OBJECT`s (the random heading range and the path, taken
//!   in turn along the string) and its `OFFSET` (metres to the right of
//!   the line).
//!
//! Every other directive is skipped. The readers take the file's bytes and
//! its name; a file that is not the format, or whose needed numbers do not
//! read, is an error naming the file and line. Work is bounded by the file
//! size ([`crate::limits::Limits::max_input_bytes`] when read through
//! [`read`]) and a `.str` keeps at most [`MAX_STRING_OBJECTS`] objects.

use crate::xptext;

/// Most `OBJECT`s one `.str` may list.
pub const MAX_STRING_OBJECTS: usize = 4096;

/// A draped polygon definition (`.pol`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pol {
    /// `TEXTURE`, as written (relative to the `.pol`).
    pub texture: Option<String>,
    /// `SCALE`: metres one repeat of the texture covers (horizontal,
    /// vertical); `None` when the file has none.
    pub scale: Option<[f64; 2]>,
    /// `NO_ALPHA`: the texture's alpha is ignored (drawn opaque).
    pub no_alpha: bool,
}

/// One `S_OFFSET` layer of a painted line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineLayer {
    /// Its layer number.
    pub layer: i64,
    /// Left, middle and right texture columns, in `TEX_WIDTH` units.
    pub s: [f64; 3],
}

/// A painted line definition (`.lin`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lin {
    /// `TEXTURE`, as written.
    pub texture: Option<String>,
    /// `SCALE`: metres the whole texture covers (horizontal, vertical).
    pub scale: Option<[f64; 2]>,
    /// `TEX_WIDTH`: the unit of the `S_OFFSET` columns.
    pub tex_width: Option<f64>,
    /// The `S_OFFSET` layers, in file order.
    pub layers: Vec<LineLayer>,
}

impl Lin {
    /// The width the line draws, metres: the widest layer's columns
    /// (`s2 - s1`) over `TEX_WIDTH`, times the horizontal `SCALE`.
    /// `None` without a scale, a width or a layer.
    pub fn width(&self) -> Option<f64> {
        let scale = self.scale?[0];
        let tw = self.tex_width.filter(|w| *w > 0.0)?;
        self.layers
            .iter()
            .map(|l| (l.s[2] - l.s[0]).abs() / tw * scale)
            .filter(|w| w.is_finite())
            .reduce(f64::max)
    }

    /// The widest `S_OFFSET` layer's texture columns as fractions of the
    /// texture's width `[s1, sm, s2]` (`S_OFFSET` over `TEX_WIDTH`), and
    /// `SCALE`: the window a drawn strip spans. `None` without a scale,
    /// a width or a layer.
    pub fn window(&self) -> Option<([f64; 3], [f64; 2])> {
        let scale = self
            .scale
            .filter(|s| s.iter().all(|v| v.is_finite() && *v > 0.0))?;
        let tw = self.tex_width.filter(|w| w.is_finite() && *w > 0.0)?;
        let widest = self
            .layers
            .iter()
            .filter(|l| l.s.iter().all(|v| v.is_finite()) && l.s[2] != l.s[0])
            .max_by(|a, b| (a.s[2] - a.s[0]).abs().total_cmp(&(b.s[2] - b.s[0]).abs()))?;
        Some((widest.s.map(|v| v / tw), scale))
    }
}

/// One `OBJECT` of an object string.
#[derive(Debug, Clone, PartialEq)]
pub struct StringObject {
    /// Lowest and highest extra heading, degrees clockwise.
    pub heading: [f64; 2],
    /// The object path, as written.
    pub path: String,
}

/// An object string definition (`.str`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Str {
    /// Its objects, laid in turn along the string.
    pub objects: Vec<StringObject>,
    /// `OFFSET`: metres to the right of the line (negative: left).
    pub offset: f64,
}

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct DrapedError {
    /// The file.
    pub file: String,
    /// The line (1-based; 1 for the header).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The body of a file after its header, checked to be `keyword`.
fn body<'a>(text: &'a str, name: &str, keyword: &str) -> Result<&'a str, DrapedError> {
    let err = |message: String| DrapedError {
        file: name.to_string(),
        line: 1,
        message,
    };
    match xptext::sniff(text) {
        Some((_, k)) if k == keyword => {}
        Some((_, k)) => return Err(err(format!("not a {keyword} file (its header says `{k}`)"))),
        None => return Err(err(format!("not an X-Plane {keyword} file (no header)"))),
    }
    let start = text.find(keyword).map_or(text.len(), |i| i + keyword.len());
    Ok(&text[start..])
}

/// Each non-comment line of `body` as (line number, words), the line
/// counted in the whole `text`.
fn each<'a>(text: &'a str, body: &'a str) -> impl Iterator<Item = (usize, Vec<&'a str>)> {
    let offset = text.len() - body.len();
    let head_lines = text[..offset].matches('\n').count();
    body.split('\n').enumerate().filter_map(move |(i, l)| {
        let words: Vec<&str> = l
            .split([' ', '\t', '\r'])
            .filter(|w| !w.is_empty())
            .collect();
        match words.first() {
            None => None,
            Some(w) if w.starts_with('#') => None,
            Some(_) => Some((head_lines + i + 1, words)),
        }
    })
}

/// The numbers `words[1..=n]`, or an error naming `line`.
fn numbers<const N: usize>(
    name: &str,
    line: usize,
    words: &[&str],
) -> Result<[f64; N], DrapedError> {
    let mut out = [0.0; N];
    for (i, v) in out.iter_mut().enumerate() {
        *v = words
            .get(i + 1)
            .and_then(|w| w.parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .ok_or_else(|| DrapedError {
                file: name.to_string(),
                line,
                message: format!("{} needs {N} numbers", words[0]),
            })?;
    }
    Ok(out)
}

/// The rest of a line after its keyword, as one path (spaces kept).
fn path_after(words: &[&str], from: usize) -> Option<String> {
    (words.len() > from).then(|| words[from..].join(" "))
}

/// Reads a `.pol`.
pub fn read_pol(bytes: &[u8], name: &str) -> Result<Pol, DrapedError> {
    let text = xptext::text(bytes);
    let body = body(&text, name, "DRAPED_POLYGON")?;
    let mut pol = Pol::default();
    for (line, w) in each(&text, body) {
        match w[0] {
            "TEXTURE" => pol.texture = path_after(&w, 1),
            "SCALE" => pol.scale = Some(numbers::<2>(name, line, &w)?),
            "NO_ALPHA" => pol.no_alpha = true,
            _ => {}
        }
    }
    Ok(pol)
}

/// Reads a `.lin`.
pub fn read_lin(bytes: &[u8], name: &str) -> Result<Lin, DrapedError> {
    let text = xptext::text(bytes);
    let body = body(&text, name, "LINE_PAINT")?;
    let mut lin = Lin::default();
    for (line, w) in each(&text, body) {
        match w[0] {
            "TEXTURE" => lin.texture = path_after(&w, 1),
            "SCALE" => lin.scale = Some(numbers::<2>(name, line, &w)?),
            "TEX_WIDTH" => lin.tex_width = Some(numbers::<1>(name, line, &w)?[0]),
            "S_OFFSET" if lin.layers.len() < MAX_STRING_OBJECTS => {
                let [layer, s1, sm, s2] = numbers::<4>(name, line, &w)?;
                lin.layers.push(LineLayer {
                    layer: layer as i64,
                    s: [s1, sm, s2],
                });
            }
            _ => {}
        }
    }
    Ok(lin)
}

/// Reads a `.str`.
pub fn read_str(bytes: &[u8], name: &str) -> Result<Str, DrapedError> {
    let text = xptext::text(bytes);
    let body = body(&text, name, "OBJECT_STRING")?;
    let mut s = Str::default();
    for (line, w) in each(&text, body) {
        match w[0] {
            "OFFSET" => s.offset = numbers::<1>(name, line, &w)?[0],
            "OBJECT" => {
                if s.objects.len() >= MAX_STRING_OBJECTS {
                    return Err(DrapedError {
                        file: name.to_string(),
                        line,
                        message: format!("more than {MAX_STRING_OBJECTS} OBJECTs"),
                    });
                }
                let [r1, r2] = numbers::<2>(name, line, &w)?;
                let path = path_after(&w, 3).ok_or_else(|| DrapedError {
                    file: name.to_string(),
                    line,
                    message: "OBJECT needs two headings and a path".into(),
                })?;
                s.objects.push(StringObject {
                    heading: [r1, r2],
                    path,
                });
            }
            _ => {}
        }
    }
    Ok(s)
}

/// A `.pol`, `.lin` or `.str` read.
#[derive(Debug, Clone, PartialEq)]
pub enum DrapedArt {
    /// A draped polygon.
    Pol(Pol),
    /// A painted line.
    Lin(Lin),
    /// An object string.
    Str(Str),
}

/// Reads `file` as the format its extension names (`pol`, `lin`, `str`),
/// at most `max_bytes` of it.
pub fn read(file: &std::path::Path, max_bytes: u64) -> Result<DrapedArt, String> {
    let name = file.display().to_string();
    let ext = file
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let bytes = crate::fsutil::read_input(file, "a draped art file", max_bytes)
        .map_err(|e| e.to_string())?;
    let r = match ext.as_str() {
        "pol" => read_pol(&bytes, &name).map(DrapedArt::Pol),
        "lin" => read_lin(&bytes, &name).map(DrapedArt::Lin),
        "str" => read_str(&bytes, &name).map(DrapedArt::Str),
        _ => return Err(format!("{name}: not a .pol, .lin or .str")),
    };
    r.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pol_keeps_texture_and_scale() {
        let p = read_pol(
            b"A\n850\nDRAPED_POLYGON\n\n# c\nTEXTURE ../tex/apt.png\nSCALE 500 250\nNO_ALPHA\n",
            "a.pol",
        )
        .unwrap();
        assert_eq!(p.texture.as_deref(), Some("../tex/apt.png"));
        assert_eq!(p.scale, Some([500.0, 250.0]));
        assert!(p.no_alpha);
    }

    #[test]
    fn lin_width_is_the_widest_layer() {
        let l = read_lin(
            b"A\n850\nLINE_PAINT\nTEXTURE l.png\nSCALE 20 100\nTEX_WIDTH 1024\nS_OFFSET 0 0 25 51.2\nS_OFFSET 1 100 150 202.4\n",
            "a.lin",
        )
        .unwrap();
        assert!((l.width().unwrap() - 2.0).abs() < 1e-9);
        let (s, scale) = l.window().unwrap();
        assert_eq!(s, [100.0 / 1024.0, 150.0 / 1024.0, 202.4 / 1024.0]);
        assert_eq!(scale, [20.0, 100.0]);
    }

    #[test]
    fn str_reads_objects_and_offset_and_names_bad_lines() {
        let s = read_str(
            b"A\n850\nOBJECT_STRING\n\nOBJECT 0 10 lights/blue.obj\nOFFSET -2.5\n",
            "a.str",
        )
        .unwrap();
        assert_eq!(s.objects[0].path, "lights/blue.obj");
        assert_eq!(s.objects[0].heading, [0.0, 10.0]);
        assert_eq!(s.offset, -2.5);
        let e = read_str(b"A\n850\nOBJECT_STRING\nOBJECT x y\n", "b.str").unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.to_string().starts_with("b.str:4:"), "{e}");
        let e = read_pol(b"A\n850\nLINE_PAINT\n", "c.pol").unwrap_err();
        assert!(e.message.contains("LINE_PAINT"), "{e}");
    }
}
