//! Writing an [`Agn`] as bytes.
//!
//! The writer is the exact inverse of the reader: chunk order, unknown
//! chunks, texture padding and `A2GE` record sizes come from the model, so a
//! file that was read and not changed is written back byte for byte. Values a
//! reader would refuse (non-finite floats, NUL inside a texture name, chunks
//! over 4 GiB) are refused here too; the error offset is the output offset
//! where the value would have been written.

use super::*;

/// The largest texture-name padding the writer accepts (a model read from a
/// file never has more padding than the file had bytes; this bounds what a
/// hand-written JSON or text input can make the writer allocate).
pub const MAX_TEXTURE_PADDING: u32 = 1 << 20;

/// Writes an AGN file.
pub fn write(agn: &Agn) -> Result<Vec<u8>, Error> {
    let mut w = Writer { out: Vec::new() };
    w.chunk(FourCc(*b"RIFF"), |w| {
        w.out.extend_from_slice(b"AGNX");
        for c in &agn.chunks {
            w.any(c)?;
        }
        Ok(())
    })?;
    Ok(w.out)
}

struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn err(&self, message: String) -> Error {
        Error {
            offset: self.out.len() as u64,
            code: "AGN020",
            message,
        }
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
            return Err(self.err(format!("float is {v}; AGN values must be finite")));
        }
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }

    fn guid(&mut self, g: Guid) {
        self.out.extend_from_slice(&g.0);
    }

    fn rect(&mut self, r: &Rect) -> Result<(), Error> {
        for v in [r.x, r.y, r.dx, r.dy] {
            self.f32(v)?;
        }
        Ok(())
    }

    fn quad(&mut self, q: &Quad) -> Result<(), Error> {
        for v in [q.x, q.y, q.dx, q.dy, q.ox, q.oy] {
            self.f32(v)?;
        }
        Ok(())
    }

    fn vertices(&mut self, v: &[Vertex]) -> Result<(), Error> {
        let n = i32::try_from(v.len())
            .map_err(|_| self.err(format!("{} vertices do not fit an int32 count", v.len())))?;
        self.i32(n);
        for p in v {
            self.f32(p[0])?;
            self.f32(p[1])?;
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
            Chunk::Gbld(g) | Chunk::Preg(g) | Chunk::Vgrg(g) | Chunk::Agn2(g) | Chunk::Pbld(g) => {
                for ch in &g.children {
                    if ch.children().is_some() {
                        return Err(w.err(format!(
                            "{} container inside {}: containers do not nest",
                            ch.id(),
                            c.id()
                        )));
                    }
                    w.any(ch)?;
                }
                Ok(())
            }
            Chunk::Gblr(g) => {
                w.guid(g.roof);
                g.buildings.iter().try_for_each(|q| w.quad(q))
            }
            Chunk::Prde(p) => {
                w.guid(p.vegetation);
                p.polygons.iter().try_for_each(|v| w.vertices(v))
            }
            Chunk::Vgre(v) => {
                w.guid(v.vegetation);
                v.rects.iter().try_for_each(|r| w.rect(r))
            }
            Chunk::Vgrd(v) => {
                for i in [v.class1, v.class2, v.percent1, v.max_density] {
                    w.i32(i);
                }
                for f in [v.min_height1, v.max_height1, v.min_height2, v.max_height2] {
                    w.f32(f)?;
                }
                Ok(())
            }
            Chunk::Vgro(v) => v.rects.iter().try_for_each(|r| w.rect(r)),
            Chunk::Rowh(r) => r.houses.iter().try_for_each(|q| w.quad(q)),
            Chunk::A2ge(a) => {
                w.guid(a.object);
                match &a.records {
                    A2geRecords::Short(v) => v.iter().try_for_each(|r| w.rect(r)),
                    A2geRecords::Long(v) => v.iter().try_for_each(|q| w.quad(q)),
                }
            }
            Chunk::Pbde(p) => {
                w.guid(p.building);
                for b in &p.buildings {
                    w.i32(b.kind);
                    w.f32(b.width)?;
                    w.vertices(&b.footprint)?;
                }
                Ok(())
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
