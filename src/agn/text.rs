//! The text view: one line per chunk header or record, readable and editable,
//! accepted back by `agkit agn build` (a modern agn2txt).
//!
//! Grammar (one item per line; `#` starts a comment; blank lines and
//! indentation are ignored; words are separated by spaces or tabs):
//!
//! ```text
//! file      = "AGNX" line*                     first non-comment line
//! VERS n                                       version (int32)
//! GBDD a b c d                                 four int32 percentages
//! GBTE "name" [pad N]                          texture; N NULs (default: to a multiple of 4)
//! RHTE "name" [pad N]
//! VGRD c1 c2 pct1 density h1min h1max h2min h2max
//! RAW id hex                                   unknown chunk (id: 4 chars or 0x + 8 hex)
//! GBLD | PREG | VGRG | AGN2 | PBLD             opens a container ... closed by END
//! END
//! GBLR guid            then  B x y dx dy ox oy        generic buildings
//! PRDE guid            then  P x y x y ...            one polygon per line
//! VGRE guid            then  R x y dx dy              rectangles
//! A2GE guid 16|24      then  R x y dx dy | Q x y dx dy ox oy
//! PBDE guid            then  F kind width x y x y ...  one building per line
//! VGRO                 then  R x y dx dy
//! ROWH                 then  Q x y dx dy ox oy
//! ```
//!
//! A record line belongs to the nearest record-chunk header above it. A guid
//! is `default` or `{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}`. Texture names
//! are double-quoted with `\"`, `\\` and `\u{hex}` (control characters)
//! escapes. Floats are printed in
//! shortest round-trip form, so text → build reproduces the f32 values.

use super::*;
use std::fmt::Write as _;

/// The text of an AGN model.
pub fn to_text(agn: &Agn) -> String {
    let mut s = String::from("# agkit agn text v1\nAGNX\n");
    for c in &agn.chunks {
        chunk(&mut s, c, "");
    }
    s
}

fn quoted(name: &str) -> String {
    let mut q = String::from("\"");
    for ch in name.chars() {
        if ch == '"' || ch == '\\' {
            q.push('\\');
            q.push(ch);
        } else if ch.is_control() {
            let _ = write!(q, "\\u{{{:x}}}", ch as u32);
        } else {
            q.push(ch);
        }
    }
    q.push('"');
    q
}

fn nums(s: &mut String, v: &[f32]) {
    for f in v {
        let _ = write!(s, " {f}");
    }
}

fn chunk(s: &mut String, c: &Chunk, ind: &str) {
    let sub = format!("{ind}  ");
    let id = c.id();
    match c {
        Chunk::Vers(v) => {
            let _ = writeln!(s, "{ind}VERS {}", v.version);
        }
        Chunk::Gbdd(g) => {
            let _ = writeln!(
                s,
                "{ind}GBDD {} {} {} {}",
                g.floors_1_2, g.floors_3_5, g.floors_6_8, g.floors_9_12
            );
        }
        Chunk::Gbte(t) | Chunk::Rhte(t) => {
            let _ = write!(s, "{ind}{id} {}", quoted(&t.name));
            if t.padding != Texture::padded(t.name.as_str()).padding {
                let _ = write!(s, " pad {}", t.padding);
            }
            s.push('\n');
        }
        Chunk::Gbld(g) | Chunk::Preg(g) | Chunk::Vgrg(g) | Chunk::Agn2(g) | Chunk::Pbld(g) => {
            let _ = writeln!(s, "{ind}{id}");
            for ch in &g.children {
                chunk(s, ch, &sub);
            }
            let _ = writeln!(s, "{ind}END");
        }
        Chunk::Gblr(g) => {
            let _ = writeln!(s, "{ind}GBLR {}", g.roof);
            for q in &g.buildings {
                quad_line(s, &sub, "B", q);
            }
        }
        Chunk::Prde(p) => {
            let _ = writeln!(s, "{ind}PRDE {}", p.vegetation);
            for poly in &p.polygons {
                let _ = write!(s, "{sub}P");
                poly.iter().for_each(|v| nums(s, v));
                s.push('\n');
            }
        }
        Chunk::Vgre(v) => {
            let _ = writeln!(s, "{ind}VGRE {}", v.vegetation);
            v.rects.iter().for_each(|r| rect_line(s, &sub, r));
        }
        Chunk::Vgrd(v) => {
            let _ = write!(
                s,
                "{ind}VGRD {} {} {} {}",
                v.class1, v.class2, v.percent1, v.max_density
            );
            nums(
                s,
                &[v.min_height1, v.max_height1, v.min_height2, v.max_height2],
            );
            s.push('\n');
        }
        Chunk::Vgro(v) => {
            let _ = writeln!(s, "{ind}VGRO");
            v.rects.iter().for_each(|r| rect_line(s, &sub, r));
        }
        Chunk::Rowh(r) => {
            let _ = writeln!(s, "{ind}ROWH");
            r.houses.iter().for_each(|q| quad_line(s, &sub, "Q", q));
        }
        Chunk::A2ge(a) => {
            let _ = writeln!(s, "{ind}A2GE {} {}", a.object, a.records.record_size());
            match &a.records {
                A2geRecords::Short(v) => v.iter().for_each(|r| rect_line(s, &sub, r)),
                A2geRecords::Long(v) => v.iter().for_each(|q| quad_line(s, &sub, "Q", q)),
            }
        }
        Chunk::Pbde(p) => {
            let _ = writeln!(s, "{ind}PBDE {}", p.building);
            for b in &p.buildings {
                let _ = write!(s, "{sub}F {}", b.kind);
                nums(s, &[b.width]);
                b.footprint.iter().for_each(|v| nums(s, v));
                s.push('\n');
            }
        }
        Chunk::Raw(r) => {
            let _ = writeln!(s, "{ind}RAW {} {}", r.id, hex_encode(&r.data));
        }
    }
}

fn rect_line(s: &mut String, ind: &str, r: &Rect) {
    let _ = write!(s, "{ind}R");
    nums(s, &[r.x, r.y, r.dx, r.dy]);
    s.push('\n');
}

fn quad_line(s: &mut String, ind: &str, tag: &str, q: &Quad) {
    let _ = write!(s, "{ind}{tag}");
    nums(s, &[q.x, q.y, q.dx, q.dy, q.ox, q.oy]);
    s.push('\n');
}

/// An error in the text view: 1-based line and a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct TextError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses the text view into a model.
pub fn from_text(src: &str) -> Result<Agn, TextError> {
    let mut p = Parser {
        top: Vec::new(),
        group: None,
        seen_header: false,
    };
    for (i, raw) in src.lines().enumerate() {
        let line = strip_comment(raw);
        let words = split_words(line).map_err(|m| TextError {
            line: i + 1,
            message: m,
        })?;
        if words.is_empty() {
            continue;
        }
        p.line(&words).map_err(|m| TextError {
            line: i + 1,
            message: m,
        })?;
    }
    if !p.seen_header {
        return Err(TextError {
            line: 1,
            message: "empty input: the first line must be `AGNX`".into(),
        });
    }
    if let Some((id, _)) = p.group {
        return Err(TextError {
            line: src.lines().count().max(1),
            message: format!("{id} container is not closed with END"),
        });
    }
    Ok(Agn { chunks: p.top })
}

/// Removes a `#` comment that is not inside a quoted name.
fn strip_comment(line: &str) -> &str {
    let mut in_quote = false;
    let mut escaped = false;
    for (i, ch) in line.char_indices() {
        match ch {
            _ if escaped => escaped = false,
            '\\' if in_quote => escaped = true,
            '"' => in_quote = !in_quote,
            '#' if !in_quote => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Splits on whitespace; a double-quoted word keeps its spaces and is
/// returned with the quotes so callers can tell it apart.
fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut w = String::from("\"");
            loop {
                match chars.next() {
                    None => return Err("unterminated quoted name".into()),
                    Some('\\') => match chars.next() {
                        Some(e @ ('"' | '\\')) => w.push(e),
                        Some('u') => w.push(unicode_escape(&mut chars)?),
                        _ => {
                            return Err(
                                "only \\\", \\\\ and \\u{hex} escapes are allowed in names".into(),
                            );
                        }
                    },
                    Some('"') => break,
                    Some(o) => w.push(o),
                }
            }
            out.push(w);
        } else {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                w.push(c);
                chars.next();
            }
            out.push(w);
        }
    }
    Ok(out)
}

/// The rest of a `\u{hex}` escape (after the `u`).
fn unicode_escape(chars: &mut std::iter::Peekable<std::str::Chars>) -> Result<char, String> {
    if chars.next() != Some('{') {
        return Err("a \\u escape must look like \\u{1f}".into());
    }
    let mut hex = String::new();
    loop {
        match chars.next() {
            Some('}') => break,
            Some(c) if c.is_ascii_hexdigit() && hex.len() < 6 => hex.push(c),
            _ => return Err("a \\u escape must look like \\u{1f}".into()),
        }
    }
    u32::from_str_radix(&hex, 16)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| format!("\\u{{{hex}}} is not a character"))
}

struct Parser {
    top: Vec<Chunk>,
    /// The open container: its id and children.
    group: Option<(FourCc, Vec<Chunk>)>,
    seen_header: bool,
}

fn int(w: &str) -> Result<i32, String> {
    w.parse()
        .map_err(|_| format!("`{w}` is not a 32-bit integer"))
}

fn float(w: &str) -> Result<f32, String> {
    let v: f32 = w.parse().map_err(|_| format!("`{w}` is not a number"))?;
    if !v.is_finite() {
        return Err(format!("`{w}` is not a finite number"));
    }
    Ok(v)
}

fn floats(ws: &[String]) -> Result<Vec<f32>, String> {
    ws.iter().map(|w| float(w)).collect()
}

fn arity(words: &[String], n: usize, usage: &str) -> Result<(), String> {
    if words.len() != n {
        return Err(format!(
            "`{}` takes {} value{}: {usage}",
            words[0],
            n - 1,
            if n == 2 { "" } else { "s" }
        ));
    }
    Ok(())
}

fn pairs(v: Vec<f32>, what: &str) -> Result<Vec<Vertex>, String> {
    if !v.len().is_multiple_of(2) {
        return Err(format!(
            "{what} needs x y pairs, got an odd count of numbers"
        ));
    }
    Ok(v.chunks_exact(2).map(|p| [p[0], p[1]]).collect())
}

impl Parser {
    fn current(&mut self) -> &mut Vec<Chunk> {
        match &mut self.group {
            Some((_, v)) => v,
            None => &mut self.top,
        }
    }

    fn line(&mut self, w: &[String]) -> Result<(), String> {
        let kw = w[0].as_str();
        if !self.seen_header {
            if kw != "AGNX" || w.len() != 1 {
                return Err(format!("the first line must be `AGNX`, found `{kw}`"));
            }
            self.seen_header = true;
            return Ok(());
        }
        let guid = |i: usize| -> Result<Guid, String> {
            w.get(i)
                .ok_or_else(|| format!("`{kw}` needs a GUID (or `default`)"))?
                .parse()
        };
        let chunk = match kw {
            "AGNX" => return Err("`AGNX` may appear only on the first line".into()),
            "END" => {
                arity(w, 1, "END")?;
                let (id, children) = self.group.take().ok_or("`END` without an open container")?;
                let g = Group { children };
                self.top.push(match &id.0 {
                    b"GBLD" => Chunk::Gbld(g),
                    b"PREG" => Chunk::Preg(g),
                    b"VGRG" => Chunk::Vgrg(g),
                    b"AGN2" => Chunk::Agn2(g),
                    _ => Chunk::Pbld(g),
                });
                return Ok(());
            }
            "GBLD" | "PREG" | "VGRG" | "AGN2" | "PBLD" => {
                arity(w, 1, kw)?;
                if let Some((open, _)) = self.group {
                    return Err(format!(
                        "`{kw}` inside {open}: containers do not nest (close it with END first)"
                    ));
                }
                let id: FourCc = kw.parse()?;
                self.group = Some((id, Vec::new()));
                return Ok(());
            }
            "B" | "P" | "R" | "Q" | "F" => return self.record(w),
            "VERS" => {
                arity(w, 2, "VERS version")?;
                Chunk::Vers(Vers {
                    version: int(&w[1])?,
                })
            }
            "GBDD" => {
                arity(w, 5, "GBDD p1_2 p3_5 p6_8 p9_12")?;
                Chunk::Gbdd(Gbdd {
                    floors_1_2: int(&w[1])?,
                    floors_3_5: int(&w[2])?,
                    floors_6_8: int(&w[3])?,
                    floors_9_12: int(&w[4])?,
                })
            }
            "GBTE" | "RHTE" => {
                let name = w
                    .get(1)
                    .and_then(|n| n.strip_prefix('"'))
                    .ok_or_else(|| format!("`{kw}` needs a double-quoted texture name"))?;
                if name.contains('\0') {
                    return Err("texture names cannot contain NUL".into());
                }
                let mut t = Texture::padded(name);
                match w.len() {
                    2 => {}
                    4 if w[2] == "pad" => {
                        t.padding = w[3]
                            .parse()
                            .map_err(|_| format!("`{}` is not a padding count", w[3]))?;
                    }
                    _ => return Err(format!("usage: {kw} \"name\" [pad N]")),
                }
                if kw == "GBTE" {
                    Chunk::Gbte(t)
                } else {
                    Chunk::Rhte(t)
                }
            }
            "VGRD" => {
                arity(
                    w,
                    9,
                    "VGRD class1 class2 percent1 max_density h1min h1max h2min h2max",
                )?;
                Chunk::Vgrd(Vgrd {
                    class1: int(&w[1])?,
                    class2: int(&w[2])?,
                    percent1: int(&w[3])?,
                    max_density: int(&w[4])?,
                    min_height1: float(&w[5])?,
                    max_height1: float(&w[6])?,
                    min_height2: float(&w[7])?,
                    max_height2: float(&w[8])?,
                })
            }
            "RAW" => {
                if w.len() != 2 && w.len() != 3 {
                    return Err("usage: RAW id [hex]".into());
                }
                Chunk::Raw(RawChunk {
                    id: w[1].parse()?,
                    data: w.get(2).map_or(Ok(Vec::new()), |h| hex_decode(h))?,
                })
            }
            "GBLR" => {
                arity(w, 2, "GBLR guid")?;
                Chunk::Gblr(Gblr {
                    roof: guid(1)?,
                    buildings: Vec::new(),
                })
            }
            "PRDE" => {
                arity(w, 2, "PRDE guid")?;
                Chunk::Prde(Prde {
                    vegetation: guid(1)?,
                    polygons: Vec::new(),
                })
            }
            "VGRE" => {
                arity(w, 2, "VGRE guid")?;
                Chunk::Vgre(Vgre {
                    vegetation: guid(1)?,
                    rects: Vec::new(),
                })
            }
            "PBDE" => {
                arity(w, 2, "PBDE guid")?;
                Chunk::Pbde(Pbde {
                    building: guid(1)?,
                    buildings: Vec::new(),
                })
            }
            "A2GE" => {
                arity(w, 3, "A2GE guid 16|24")?;
                let records = match w[2].as_str() {
                    "16" => A2geRecords::Short(Vec::new()),
                    "24" => A2geRecords::Long(Vec::new()),
                    o => return Err(format!("A2GE record size must be 16 or 24, not `{o}`")),
                };
                Chunk::A2ge(A2ge {
                    object: guid(1)?,
                    records,
                })
            }
            "VGRO" => {
                arity(w, 1, "VGRO")?;
                Chunk::Vgro(Vgro { rects: Vec::new() })
            }
            "ROWH" => {
                arity(w, 1, "ROWH")?;
                Chunk::Rowh(Rowh { houses: Vec::new() })
            }
            _ => return Err(format!("unknown keyword `{kw}`")),
        };
        self.current().push(chunk);
        Ok(())
    }

    fn record(&mut self, w: &[String]) -> Result<(), String> {
        let kw = w[0].clone();
        let nums = floats(&w[1..]);
        let last = self
            .current()
            .last_mut()
            .ok_or_else(|| format!("`{kw}` record before any chunk header"))?;
        let id = last.id();
        let mismatch = || format!("`{kw}` record does not belong to a {id} chunk");
        let rect = |n: Vec<f32>| -> Result<Rect, String> {
            if n.len() != 4 {
                return Err(format!("`{kw}` takes 4 numbers: x y dx dy"));
            }
            Ok(Rect {
                x: n[0],
                y: n[1],
                dx: n[2],
                dy: n[3],
            })
        };
        let quad = |n: Vec<f32>| -> Result<Quad, String> {
            if n.len() != 6 {
                return Err(format!("`{kw}` takes 6 numbers: x y dx dy ox oy"));
            }
            Ok(Quad {
                x: n[0],
                y: n[1],
                dx: n[2],
                dy: n[3],
                ox: n[4],
                oy: n[5],
            })
        };
        match (kw.as_str(), last) {
            ("B", Chunk::Gblr(g)) => g.buildings.push(quad(nums?)?),
            ("Q", Chunk::Rowh(r)) => r.houses.push(quad(nums?)?),
            (
                "Q",
                Chunk::A2ge(A2ge {
                    records: A2geRecords::Long(v),
                    ..
                }),
            ) => v.push(quad(nums?)?),
            (
                "R",
                Chunk::A2ge(A2ge {
                    records: A2geRecords::Short(v),
                    ..
                }),
            ) => v.push(rect(nums?)?),
            ("R", Chunk::Vgre(g)) => g.rects.push(rect(nums?)?),
            ("R", Chunk::Vgro(g)) => g.rects.push(rect(nums?)?),
            ("P", Chunk::Prde(p)) => p.polygons.push(pairs(nums?, "P")?),
            ("F", Chunk::Pbde(p)) => {
                if w.len() < 3 {
                    return Err("usage: F kind width x y x y ...".into());
                }
                let kind = int(&w[1])?;
                let width = float(&w[2])?;
                let footprint = pairs(floats(&w[3..])?, "F")?;
                p.buildings.push(PolyBuilding {
                    kind,
                    width,
                    footprint,
                });
            }
            _ => return Err(mismatch()),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_small_file() {
        let src = r#"
AGNX  # header
VERS 1091777331
GBTE "gen # tex" pad 2
GBLD
  GBLR default
    B 0.1 -0.2 0.01 0 0 0.02
END
ROWH
  Q 0 0 1 0 0 1
"#;
        let a = from_text(src).unwrap();
        assert_eq!(a.chunks.len(), 4);
        assert_eq!(
            a.chunks[1],
            Chunk::Gbte(Texture {
                name: "gen # tex".into(),
                padding: 2
            })
        );
        assert_eq!(from_text(&to_text(&a)).unwrap(), a);
        let odd = Agn {
            chunks: vec![
                Chunk::Rhte(Texture::padded("a\nb\"c\\d\u{7f}é")),
                Chunk::Raw(RawChunk {
                    id: FourCc(*b"fmt "),
                    data: vec![],
                }),
            ],
        };
        let t = to_text(&odd);
        assert!(t.contains(r#"RHTE "a\u{a}b\"c\\d\u{7f}é""#), "{t}");
        assert_eq!(from_text(&t).unwrap(), odd);
    }

    #[test]
    fn errors_name_the_line() {
        let e = from_text("AGNX\nGBLD\n  R 1 2 3 4\nEND\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = from_text("AGNX\nVGRO\n  R 1 2 nan 4\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = from_text("AGNX\nPBLD\n").unwrap_err();
        assert!(e.message.contains("not closed"), "{e}");
        assert!(from_text("VERS 1\n").is_err());
    }
}
