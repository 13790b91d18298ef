//! Reading AGN bytes into an [`Agn`].
//!
//! One bounds-checked [`Cursor`] walks the input; every read can fail and the
//! error carries the absolute byte offset. Counts implied by a chunk's length
//! are derived from it, and every count is checked against the bytes that
//! remain before anything is allocated, so memory stays proportional to the
//! input whatever it claims.

use super::rules::codes;
use super::*;

/// Options for [`read_with`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Forces the `A2GE` record size (16 or 24) when the payload length
    /// divides by both; `None` lets the reader decide (see `docs/agn.md`).
    pub a2ge_record_size: Option<usize>,
}

/// Reads an AGN file with default options.
pub fn read(bytes: &[u8]) -> Result<Agn, Error> {
    read_with(bytes, &ReadOptions::default())
}

/// Reads an AGN file.
pub fn read_with(bytes: &[u8], opts: &ReadOptions) -> Result<Agn, Error> {
    read_located(bytes, opts).map(|(agn, _)| agn)
}

/// Where a chunk starts in the file, with the same for its children.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Located {
    /// Offset of the chunk header.
    pub offset: u64,
    /// Children of a container, in order.
    pub children: Vec<Located>,
}

/// Reads an AGN file and returns, beside the model, the offset of every
/// chunk (parallel to `agn.chunks`).
pub fn read_located(bytes: &[u8], opts: &ReadOptions) -> Result<(Agn, Vec<Located>), Error> {
    let mut c = Cursor::new(bytes);
    let id = c.fourcc()?;
    if &id.0 != b"RIFF" {
        return Err(err(
            0,
            codes::NOT_AGN,
            format!("not an AGN file: starts with `{id}`, expected `RIFF`"),
        ));
    }
    let len = c.u32()? as usize;
    if len > c.remaining() {
        return Err(err(
            4,
            codes::CHUNK_TOO_LONG,
            format!(
                "RIFF chunk claims {len} bytes but only {} follow",
                c.remaining()
            ),
        ));
    }
    if len < c.remaining() {
        return Err(err(
            (8 + len) as u64,
            codes::TRAILING_BYTES,
            format!(
                "{} bytes after the end of the RIFF chunk",
                c.remaining() - len
            ),
        ));
    }
    let mut body = c.sub(len)?;
    let form = body.fourcc()?;
    if &form.0 != b"AGNX" {
        return Err(err(
            8,
            codes::NOT_AGN,
            format!("RIFF type is `{form}`, expected `AGNX` (FSX autogen)"),
        ));
    }
    let mut chunks = Vec::new();
    let mut located = Vec::new();
    while body.remaining() > 0 {
        let (chunk, loc) = read_chunk(&mut body, false, opts)?;
        chunks.push(chunk);
        located.push(loc);
    }
    Ok((Agn { chunks }, located))
}

fn err(offset: u64, code: &'static str, message: String) -> Error {
    Error {
        offset,
        code,
        message,
    }
}

/// A bounds-checked reader over a slice of the input. Positions are absolute
/// offsets into the whole file.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    end: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over all of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Cursor {
            data,
            pos: 0,
            end: data.len(),
        }
    }

    /// Current absolute offset.
    pub fn offset(&self) -> u64 {
        self.pos as u64
    }

    /// Bytes left before the end of this cursor.
    pub fn remaining(&self) -> usize {
        self.end - self.pos
    }

    /// Takes `n` bytes.
    pub fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8], Error> {
        if n > self.remaining() {
            return Err(err(
                self.offset(),
                codes::TRUNCATED,
                format!(
                    "unexpected end of data reading {what}: {n} bytes needed, {} left",
                    self.remaining()
                ),
            ));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], Error> {
        let b = self.bytes(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(b);
        Ok(a)
    }

    /// A little-endian u32.
    pub fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.array("a 32-bit integer")?))
    }

    /// A little-endian i32.
    pub fn i32(&mut self) -> Result<i32, Error> {
        Ok(i32::from_le_bytes(self.array("a 32-bit integer")?))
    }

    /// A little-endian f32 that must be finite.
    pub fn f32(&mut self) -> Result<f32, Error> {
        let at = self.offset();
        let v = f32::from_le_bytes(self.array("a float")?);
        if !v.is_finite() {
            return Err(err(
                at,
                codes::NOT_FINITE,
                format!("float is {v}; coordinates and sizes must be finite"),
            ));
        }
        Ok(v)
    }

    /// A four-character id.
    pub fn fourcc(&mut self) -> Result<FourCc, Error> {
        Ok(FourCc(self.array("a chunk id")?))
    }

    /// A 16-byte GUID.
    pub fn guid(&mut self) -> Result<Guid, Error> {
        Ok(Guid(self.array("a 16-byte GUID")?))
    }

    /// A cursor over the next `n` bytes; this cursor moves past them.
    pub fn sub(&mut self, n: usize) -> Result<Cursor<'a>, Error> {
        let start = self.pos;
        self.bytes(n, "a chunk")?;
        Ok(Cursor {
            data: self.data,
            pos: start,
            end: start + n,
        })
    }
}

fn read_chunk(c: &mut Cursor, nested: bool, opts: &ReadOptions) -> Result<(Chunk, Located), Error> {
    let at = c.offset();
    let id = c.fourcc()?;
    let len = c.u32()? as usize;
    if len > c.remaining() {
        return Err(err(
            at + 4,
            codes::CHUNK_TOO_LONG,
            format!(
                "{id} chunk at byte {at} claims {len} bytes but only {} remain",
                c.remaining()
            ),
        ));
    }
    let mut b = c.sub(len)?;
    let mut loc = Located {
        offset: at,
        children: Vec::new(),
    };
    let group = |b: &mut Cursor, loc: &mut Located| -> Result<Group, Error> {
        let mut children = Vec::new();
        while b.remaining() > 0 {
            let (ch, l) = read_chunk(b, true, opts)?;
            children.push(ch);
            loc.children.push(l);
        }
        Ok(Group { children })
    };
    let chunk = match &id.0 {
        b"GBLD" | b"PREG" | b"VGRG" | b"AGN2" | b"PBLD" if !nested => {
            let g = group(&mut b, &mut loc)?;
            match &id.0 {
                b"GBLD" => Chunk::Gbld(g),
                b"PREG" => Chunk::Preg(g),
                b"VGRG" => Chunk::Vgrg(g),
                b"AGN2" => Chunk::Agn2(g),
                _ => Chunk::Pbld(g),
            }
        }
        b"VERS" => {
            fixed_len(id, at, len, 4)?;
            Chunk::Vers(Vers { version: b.i32()? })
        }
        b"GBDD" => {
            fixed_len(id, at, len, 16)?;
            Chunk::Gbdd(Gbdd {
                floors_1_2: b.i32()?,
                floors_3_5: b.i32()?,
                floors_6_8: b.i32()?,
                floors_9_12: b.i32()?,
            })
        }
        b"GBTE" => Chunk::Gbte(texture(&mut b, id)?),
        b"RHTE" => Chunk::Rhte(texture(&mut b, id)?),
        b"VGRD" => {
            fixed_len(id, at, len, 32)?;
            Chunk::Vgrd(Vgrd {
                class1: b.i32()?,
                class2: b.i32()?,
                percent1: b.i32()?,
                max_density: b.i32()?,
                min_height1: b.f32()?,
                max_height1: b.f32()?,
                min_height2: b.f32()?,
                max_height2: b.f32()?,
            })
        }
        b"GBLR" => {
            let roof = b.guid()?;
            let buildings = records(&mut b, id, at, 24, "a generic building", quad)?;
            Chunk::Gblr(Gblr { roof, buildings })
        }
        b"VGRE" => {
            let vegetation = b.guid()?;
            let rects = records(&mut b, id, at, 16, "a rectangle", rect)?;
            Chunk::Vgre(Vgre { vegetation, rects })
        }
        b"VGRO" => Chunk::Vgro(Vgro {
            rects: records(&mut b, id, at, 16, "a rectangle", rect)?,
        }),
        b"ROWH" => Chunk::Rowh(Rowh {
            houses: records(&mut b, id, at, 24, "a row house", quad)?,
        }),
        b"A2GE" => {
            let object = b.guid()?;
            let size = a2ge_record_size(&b, at, opts)?;
            let records = if size == 16 {
                A2geRecords::Short(records(&mut b, id, at, 16, "a library object", rect)?)
            } else {
                A2geRecords::Long(records(&mut b, id, at, 24, "a library object", quad)?)
            };
            Chunk::A2ge(A2ge { object, records })
        }
        b"PRDE" => {
            let vegetation = b.guid()?;
            let mut polygons = Vec::new();
            while b.remaining() > 0 {
                polygons.push(vertices(&mut b, id, "polygon")?);
            }
            Chunk::Prde(Prde {
                vegetation,
                polygons,
            })
        }
        b"PBDE" => {
            let building = b.guid()?;
            let mut buildings = Vec::new();
            while b.remaining() > 0 {
                if b.remaining() < 12 {
                    return Err(err(
                        b.offset(),
                        codes::TRUNCATED,
                        format!(
                            "PBDE chunk at byte {at}: {} bytes left, too few for a polygon building (12-byte header)",
                            b.remaining()
                        ),
                    ));
                }
                let kind = b.i32()?;
                let width = b.f32()?;
                let footprint = vertices(&mut b, id, "footprint")?;
                buildings.push(PolyBuilding {
                    kind,
                    width,
                    footprint,
                });
            }
            Chunk::Pbde(Pbde {
                building,
                buildings,
            })
        }
        _ => Chunk::Raw(RawChunk {
            id,
            data: b.bytes(len, "a chunk")?.to_vec(),
        }),
    };
    if b.remaining() != 0 {
        // Only possible for fixed-size chunks, which are checked up front.
        return Err(err(
            b.offset(),
            codes::NOT_WHOLE_RECORDS,
            format!("{id} chunk at byte {at}: {} unread bytes", b.remaining()),
        ));
    }
    Ok((chunk, loc))
}

fn fixed_len(id: FourCc, at: u64, len: usize, want: usize) -> Result<(), Error> {
    if len != want {
        return Err(err(
            at + 4,
            codes::WRONG_SIZE,
            format!("{id} chunk at byte {at} is {len} bytes long, expected {want}"),
        ));
    }
    Ok(())
}

fn texture(b: &mut Cursor, id: FourCc) -> Result<Texture, Error> {
    let start = b.offset();
    let data = b.bytes(b.remaining(), "a texture name")?;
    let name_len = data.iter().position(|&x| x == 0).unwrap_or(data.len());
    if let Some(p) = data[name_len..].iter().position(|&x| x != 0) {
        return Err(err(
            start + (name_len + p) as u64,
            codes::BAD_TEXTURE_NAME,
            format!("{id} texture name is followed by non-NUL bytes"),
        ));
    }
    let name = std::str::from_utf8(&data[..name_len]).map_err(|e| {
        err(
            start + e.valid_up_to() as u64,
            codes::BAD_TEXTURE_NAME,
            format!("{id} texture name is not valid text"),
        )
    })?;
    Ok(Texture {
        name: name.to_string(),
        padding: (data.len() - name_len) as u32,
    })
}

fn rect(b: &mut Cursor) -> Result<Rect, Error> {
    Ok(Rect {
        x: b.f32()?,
        y: b.f32()?,
        dx: b.f32()?,
        dy: b.f32()?,
    })
}

fn quad(b: &mut Cursor) -> Result<Quad, Error> {
    Ok(Quad {
        x: b.f32()?,
        y: b.f32()?,
        dx: b.f32()?,
        dy: b.f32()?,
        ox: b.f32()?,
        oy: b.f32()?,
    })
}

/// Reads the fixed-size records filling the rest of a chunk. The count is
/// the remaining length divided by `size`; a remainder is an error.
fn records<T>(
    b: &mut Cursor,
    id: FourCc,
    at: u64,
    size: usize,
    what: &str,
    one: fn(&mut Cursor) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    let n = b.remaining();
    if !n.is_multiple_of(size) {
        return Err(err(
            b.offset(),
            codes::NOT_WHOLE_RECORDS,
            format!(
                "{id} chunk at byte {at}: {n} bytes of records is not a multiple of {size} ({what})"
            ),
        ));
    }
    let mut v = Vec::with_capacity(n / size);
    for _ in 0..n / size {
        v.push(one(b)?);
    }
    Ok(v)
}

/// Reads an i32 vertex count and that many `[x, y]` pairs, checking the
/// count against the bytes left first.
fn vertices(b: &mut Cursor, id: FourCc, what: &str) -> Result<Vec<Vertex>, Error> {
    let at = b.offset();
    let count = b.i32()?;
    if count < 0 || count as usize > b.remaining() / 8 {
        return Err(err(
            at,
            codes::BAD_VERTEX_COUNT,
            format!(
                "{id} {what} claims {count} vertices but only {} bytes remain in the chunk ({} vertices)",
                b.remaining(),
                b.remaining() / 8
            ),
        ));
    }
    let mut v = Vec::with_capacity(count as usize);
    for _ in 0..count {
        v.push([b.f32()?, b.f32()?]);
    }
    Ok(v)
}

/// Decides the record size of an `A2GE` payload (after the GUID).
///
/// - only one of 16 and 24 divides the length: that one;
/// - neither: error;
/// - both (a multiple of 48): an empty payload is 16; otherwise the forced
///   size from [`ReadOptions`] if any; otherwise 24 if every 24-byte record's
///   third-point offset is non-zero and perpendicular to its direction (the
///   records describe bounding boxes); otherwise 16 if every 16-byte record's
///   first point lies inside the cell (|x|, |y| ≤ 0.5 plus 1e-3); otherwise the
///   file is refused as ambiguous.
fn a2ge_record_size(b: &Cursor, at: u64, opts: &ReadOptions) -> Result<usize, Error> {
    let n = b.remaining();
    let (by16, by24) = (n.is_multiple_of(16), n.is_multiple_of(24));
    match (by16, by24) {
        (false, false) => Err(err(
            b.offset(),
            codes::NOT_WHOLE_RECORDS,
            format!(
                "A2GE chunk at byte {at}: {n} bytes after the GUID is a multiple of neither 16 nor 24 (library object records)"
            ),
        )),
        (true, false) => Ok(16),
        (false, true) => Ok(24),
        (true, true) if n == 0 => Ok(16),
        (true, true) => {
            if let Some(s) = opts.a2ge_record_size
                && (s == 16 || s == 24)
            {
                return Ok(s);
            }
            let floats: Vec<f32> = b.data[b.pos..b.end]
                .chunks_exact(4)
                .map(|q| f32::from_le_bytes([q[0], q[1], q[2], q[3]]))
                .collect();
            if floats.iter().any(|f| !f.is_finite()) {
                // Let the record reader report the exact offset.
                return Ok(16);
            }
            let perpendicular = floats.chunks_exact(6).all(|r| {
                let (dx, dy, ox, oy) = (r[2] as f64, r[3] as f64, r[4] as f64, r[5] as f64);
                let (ld, lo) = (dx.hypot(dy), ox.hypot(oy));
                ld > 0.0 && lo > 0.0 && (dx * ox + dy * oy).abs() <= 1e-3 * ld * lo
            });
            if perpendicular {
                return Ok(24);
            }
            let inside = floats
                .chunks_exact(4)
                .all(|r| r[0].abs() <= 0.501 && r[1].abs() <= 0.501);
            if inside {
                return Ok(16);
            }
            Err(err(
                b.offset(),
                codes::AMBIGUOUS_RECORD,
                format!(
                    "A2GE chunk at byte {at}: {n} bytes of records divide into both 16-byte and 24-byte records and neither layout is plausible; choose one with --a2ge-record-size 16|24"
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn riff(body: &[u8]) -> Vec<u8> {
        let mut v = b"RIFF".to_vec();
        v.extend_from_slice(&((body.len() + 4) as u32).to_le_bytes());
        v.extend_from_slice(b"AGNX");
        v.extend_from_slice(body);
        v
    }

    fn chunk(id: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut v = id.to_vec();
        v.extend_from_slice(&(body.len() as u32).to_le_bytes());
        v.extend_from_slice(body);
        v
    }

    fn floats(f: &[f32]) -> Vec<u8> {
        f.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn empty_agn_reads() {
        assert_eq!(read(&riff(b"")).unwrap(), Agn::default());
    }

    #[test]
    fn huge_chunk_length_is_refused_with_offset() {
        let mut body = b"GBLD".to_vec();
        body.extend_from_slice(&u32::MAX.to_le_bytes());
        let e = read(&riff(&body)).unwrap_err();
        assert_eq!((e.code, e.offset), ("AGN003", 16));
    }

    #[test]
    fn record_remainder_is_an_error() {
        let mut body = vec![0u8; 16];
        body.extend_from_slice(&[0; 20]);
        let e = read(&riff(&chunk(b"GBLR", &body))).unwrap_err();
        assert_eq!((e.code, e.offset), ("AGN004", 12 + 8 + 16));
        assert!(e.message.contains("GBLR chunk at byte 12"), "{e}");
    }

    #[test]
    fn nan_is_refused_at_its_offset() {
        let e = read(&riff(&chunk(b"VGRO", &floats(&[0.1, f32::NAN, 0.0, 0.0])))).unwrap_err();
        assert_eq!((e.code, e.offset), ("AGN005", 24));
    }

    #[test]
    fn vertex_count_is_checked_before_allocating() {
        let mut body = vec![0u8; 16];
        body.extend_from_slice(&i32::MAX.to_le_bytes());
        let e = read(&riff(&chunk(b"PRDE", &body))).unwrap_err();
        assert_eq!((e.code, e.offset), ("AGN006", 36));
        let mut body = vec![0u8; 16];
        body.extend_from_slice(&(-1i32).to_le_bytes());
        assert_eq!(
            read(&riff(&chunk(b"PRDE", &body))).unwrap_err().code,
            "AGN006"
        );
    }

    #[test]
    fn a2ge_layout_rules() {
        let g = [1u8; 16];
        // 32 bytes: only 16 divides.
        let mut b = g.to_vec();
        b.extend(floats(&[0.1, 0.1, 0.01, 0.0, -0.2, 0.3, 0.0, 0.02]));
        let a = read(&riff(&chunk(b"A2GE", &b))).unwrap();
        let Chunk::A2ge(x) = &a.chunks[0] else {
            panic!()
        };
        assert_eq!(x.records.record_size(), 16);
        // 48 bytes, perpendicular third offsets: 24.
        let mut b = g.to_vec();
        b.extend(floats(&[
            0.1, 0.1, 0.01, 0.0, 0.0, 0.02, -0.2, 0.3, 0.0, 0.03, -0.01, 0.0,
        ]));
        let a = read(&riff(&chunk(b"A2GE", &b))).unwrap();
        let Chunk::A2ge(x) = &a.chunks[0] else {
            panic!()
        };
        assert_eq!(x.records.record_size(), 24);
        // 48 bytes of 16-byte records.
        let mut b = g.to_vec();
        b.extend(floats(&[
            0.1, 0.1, 0.01, 0.0, -0.2, 0.3, 0.0, 0.02, 0.4, -0.4, 0.01, 0.01,
        ]));
        let a = read(&riff(&chunk(b"A2GE", &b))).unwrap();
        let Chunk::A2ge(x) = &a.chunks[0] else {
            panic!()
        };
        assert_eq!(x.records.record_size(), 16);
        // Neither plausible: refused, unless forced.
        let mut b = g.to_vec();
        b.extend(floats(&[
            3.0, 0.1, 0.01, 0.0, -0.2, 0.3, 0.0, 0.02, 0.4, -0.4, 0.01, 0.01,
        ]));
        let e = read(&riff(&chunk(b"A2GE", &b))).unwrap_err();
        assert_eq!(e.code, "AGN008");
        let opts = ReadOptions {
            a2ge_record_size: Some(24),
        };
        let a = read_with(&riff(&chunk(b"A2GE", &b)), &opts).unwrap();
        let Chunk::A2ge(x) = &a.chunks[0] else {
            panic!()
        };
        assert_eq!(x.records.record_size(), 24);
        // Neither divides.
        let mut b = g.to_vec();
        b.extend([0u8; 20]);
        assert_eq!(read(&riff(&chunk(b"A2GE", &b))).unwrap_err().code, "AGN004");
    }

    #[test]
    fn truncated_guid_is_reported() {
        let e = read(&riff(&chunk(b"GBLR", &[1, 2, 3]))).unwrap_err();
        assert_eq!((e.code, e.offset), ("AGN001", 20));
        assert!(e.message.contains("GUID"), "{e}");
    }
}
