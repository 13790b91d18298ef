//! Writing an [`Agn`] as bytes.
//!
//! The writer is the exact inverse of the reader: chunk order, unknown
//! chunks, texture padding and `A2GE` record sizes come from the model, so a
//! file that was read and not changed is written back byte for byte. Values a
//! reader would refuse (non-finite floats, NUL inside a texture name, chunks
//! over 4 GiB) are refused here too; the error offset is the output offset
//! where the value would have been written.

use super::rules::codes;
use super::*;

/// The largest texture-name padding the writer accepts (a model read from a
/// file never has more padding than the file had bytes; this bounds what a
/// hand-written JSON or text input can make the writer allocate).
pub const MAX_TEXTURE_PADDING: u32 = 1 << 20;

/// Writes an AGN file, of at most the default
/// [`Limits::max_output_bytes`](crate::limits::Limits::max_output_bytes)
/// (see [`write_with`]).
pub fn write(agn: &Agn) -> Result<Vec<u8>, Error> {
    write_with(agn, &crate::limits::Limits::default())
}

/// Writes an AGN file of at most `limits.max_output_bytes`: texture-name
/// padding is the one value that makes a file larger than its model, and a
/// file that would pass the limit is refused before the padding is
/// allocated. An error names the value's place in the model as a JSON path
/// (`chunks[2].children[0].buildings[3].x`, the path of the JSON view) and
/// the output offset where it would have been written.
pub fn write_with(agn: &Agn, limits: &crate::limits::Limits) -> Result<Vec<u8>, Error> {
    let mut w = Writer {
        out: Vec::new(),
        at: Vec::new(),
        max: limits.max_output_bytes,
    };
    w.chunk(FourCc(*b"RIFF"), |w| {
        w.out.extend_from_slice(b"AGNX");
        for (i, c) in agn.chunks.iter().enumerate() {
            w.within(format!("chunks[{i}]"), |w| w.any(c))?;
        }
        Ok(())
    })?;
    Ok(w.out)
}

struct Writer {
    out: Vec<u8>,
    /// The place in the model being written, as JSON path segments.
    at: Vec<String>,
    /// Most bytes written.
    max: u64,
}

impl Writer {
    fn err(&self, message: String) -> Error {
        let message = if self.at.is_empty() {
            message
        } else {
            format!("{}: {message}", self.at.concat())
        };
        Error {
            offset: self.out.len() as u64,
            code: codes::NOT_WRITABLE,
            message,
        }
    }

    /// Runs `f` with `seg` added to the place named in errors.
    fn within(
        &mut self,
        seg: String,
        f: impl FnOnce(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.at.push(seg);
        f(self)?;
        self.at.pop();
        Ok(())
    }

    /// Each item of `items` at `name[k]`.
    fn each<T>(
        &mut self,
        name: &str,
        items: &[T],
        mut f: impl FnMut(&mut Self, &T) -> Result<(), Error>,
    ) -> Result<(), Error> {
        for (k, item) in items.iter().enumerate() {
            self.within(format!(".{name}[{k}]"), |w| f(w, item))?;
        }
        Ok(())
    }

    /// A named float field.
    fn field(&mut self, name: &str, v: f32) -> Result<(), Error> {
        self.within(format!(".{name}"), |w| w.f32(v))
    }

    fn chunk(
        &mut self,
        id: FourCc,
        body: impl FnOnce(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let start = self.out.len();
        self.out.extend_from_slice(&id.0);
        self.out.extend_from_slice(&[0; 4]);
        body(self)?;
        let len = self.out.len() - start - 8;
        let len = u32::try_from(len).map_err(|_| {
            self.err(format!(
                "{id} chunk is {len} bytes, over the 4 GiB RIFF limit"
            ))
        })?;
        self.out[start + 4..start + 8].copy_from_slice(&len.to_le_bytes());
        Ok(())
    }

    fn i32(&mut self, v: i32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    fn f32(&mut self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(self.err(format!(
                "float is {v}{}; AGN values are finite 32-bit floats",
                if v.is_infinite() {
                    " (a value beyond ±3.4e38 overflows a 32-bit float)"
                } else {
                    ""
                }
            )));
        }
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }

    fn guid(&mut self, g: Guid) {
        self.out.extend_from_slice(&g.0);
    }

    fn rect(&mut self, r: &Rect) -> Result<(), Error> {
        for (name, v) in [("x", r.x), ("y", r.y), ("dx", r.dx), ("dy", r.dy)] {
            self.field(name, v)?;
        }
        Ok(())
    }

    fn quad(&mut self, q: &Quad) -> Result<(), Error> {
        for (name, v) in [
            ("x", q.x),
            ("y", q.y),
            ("dx", q.dx),
            ("dy", q.dy),
            ("ox", q.ox),
            ("oy", q.oy),
        ] {
            self.field(name, v)?;
        }
        Ok(())
    }

    fn vertices(&mut self, v: &[Vertex]) -> Result<(), Error> {
        let n = i32::try_from(v.len())
            .map_err(|_| self.err(format!("{} vertices do not fit an int32 count", v.len())))?;
        self.i32(n);
        for (k, p) in v.iter().enumerate() {
            self.within(format!("[{k}]"), |w| {
                w.within("[0]".into(), |w| w.f32(p[0]))?;
                w.within("[1]".into(), |w| w.f32(p[1]))
            })?;
        }
        Ok(())
    }

    fn texture(&mut self, t: &Texture) -> Result<(), Error> {
        if t.name.contains('\0') {
            return Err(self.err(format!("texture name {:?} contains a NUL", t.name)));
        }
        if t.padding > MAX_TEXTURE_PADDING {
            return Err(self.err(format!(
                "texture padding of {} bytes is implausible (at most {MAX_TEXTURE_PADDING})",
                t.padding
            )));
        }
        let total = self.out.len() as u64 + t.name.len() as u64 + u64::from(t.padding);
        if total > self.max {
            return Err(self.err(format!(
                "the file would pass {} bytes here, the limit for one AGN (texture-name \
                 padding makes it larger than its text)",
                self.max
            )));
        }
        self.out.extend_from_slice(t.name.as_bytes());
        self.out.resize(self.out.len() + t.padding as usize, 0);
        Ok(())
    }

    fn any(&mut self, c: &Chunk) -> Result<(), Error> {
        self.chunk(c.id(), |w| match c {
            Chunk::Vers(v) => {
                w.i32(v.version);
                Ok(())
            }
            Chunk::Gbdd(g) => {
                for v in [g.floors_1_2, g.floors_3_5, g.floors_6_8, g.floors_9_12] {
                    w.i32(v);
                }
                Ok(())
            }
            Chunk::Gbte(t) | Chunk::Rhte(t) => w.texture(t),
            Chunk::Gbld(g) | Chunk::Preg(g) | Chunk::Vgrg(g) | Chunk::Agn2(g) | Chunk::Pbld(g) => w
                .each("children", &g.children, |w, ch| {
                    if ch.children().is_some() {
                        return Err(w.err(format!(
                            "{} container inside {}: containers do not nest",
                            ch.id(),
                            c.id()
                        )));
                    }
                    w.any(ch)
                }),
            Chunk::Gblr(g) => {
                w.guid(g.roof);
                w.each("buildings", &g.buildings, Self::quad)
            }
            Chunk::Prde(p) => {
                w.guid(p.vegetation);
                w.each("polygons", &p.polygons, |w, v| w.vertices(v))
            }
            Chunk::Vgre(v) => {
                w.guid(v.vegetation);
                w.each("rects", &v.rects, Self::rect)
            }
            Chunk::Vgrd(v) => {
                for i in [v.class1, v.class2, v.percent1, v.max_density] {
                    w.i32(i);
                }
                for (name, f) in [
                    ("min_height1", v.min_height1),
                    ("max_height1", v.max_height1),
                    ("min_height2", v.min_height2),
                    ("max_height2", v.max_height2),
                ] {
                    w.field(name, f)?;
                }
                Ok(())
            }
            Chunk::Vgro(v) => w.each("rects", &v.rects, Self::rect),
            Chunk::Rowh(r) => w.each("houses", &r.houses, Self::quad),
            Chunk::A2ge(a) => {
                w.guid(a.object);
                match &a.records {
                    A2geRecords::Short(v) => w.each("objects", v, Self::rect),
                    A2geRecords::Long(v) => w.each("objects", v, Self::quad),
                }
            }
            Chunk::Pbde(p) => {
                w.guid(p.building);
                w.each("buildings", &p.buildings, |w, b| {
                    w.i32(b.kind);
                    w.field("width", b.width)?;
                    w.within(".footprint".into(), |w| w.vertices(&b.footprint))
                })
            }
            Chunk::Raw(r) => {
                w.out.extend_from_slice(&r.data);
                Ok(())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_header_and_lengths() {
        let agn = Agn {
            chunks: vec![
                Chunk::Vers(Vers {
                    version: DEFAULT_VERSION,
                }),
                Chunk::Gbte(Texture::padded("abc")),
            ],
        };
        let b = write(&agn).unwrap();
        assert_eq!(&b[..4], b"RIFF");
        assert_eq!(
            u32::from_le_bytes(b[4..8].try_into().unwrap()) as usize,
            b.len() - 8
        );
        assert_eq!(&b[8..12], b"AGNX");
        assert_eq!(&b[12..16], b"VERS");
        assert_eq!(&b[24..28], b"GBTE");
        assert_eq!(&b[28..32], &4u32.to_le_bytes());
        assert_eq!(&b[32..36], b"abc\0");
        assert_eq!(read(&b).unwrap(), agn);
    }

    #[test]
    fn non_finite_is_refused() {
        let agn = Agn {
            chunks: vec![Chunk::Vgro(Vgro {
                rects: vec![Rect {
                    x: f32::INFINITY,
                    y: 0.0,
                    dx: 0.0,
                    dy: 0.0,
                }],
            })],
        };
        let e = write(&agn).unwrap_err();
        assert_eq!((e.code, e.offset), ("AGN020", 20));
    }
}
