//! The DSF command stream as data: one [`Command`] per opcode form.
//!
//! The reader parses `CMDS` into these values before running its state
//! machine, and the writer encodes them, so every opcode the reader
//! understands (1–18, 23–34; see the DSF notes §3.3) can also be written.
//! [`super::write::build`] picks the forms itself; [`super::write::write_raw`]
//! writes a caller's own command list over a [`super::Dsf`]'s own pools.

use super::PrimitiveKind;
use super::cursor::{Cursor, DsfError, ErrorKind};

/// One command of the `CMDS` atom, exactly as encoded (the three
/// definition and comment widths are distinct variants).
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// 1: select 16-bit pool and 32-bit pool `n`.
    PoolSelect(u16),
    /// 2: base added to the indices of opcodes 9 and 10.
    JunctionOffset(u32),
    /// 3: current definition (one byte).
    SetDefinition8(u8),
    /// 4: current definition (two bytes).
    SetDefinition16(u16),
    /// 5: current definition (four bytes).
    SetDefinition32(u32),
    /// 6: road subtype of the following chains.
    RoadSubtype(u8),
    /// 7: one object at a pool point.
    Object(u16),
    /// 8: one object per point of `[first, last)`.
    ObjectRange(u16, u16),
    /// 9: a chain of 32-bit pool points `junction offset + i` (≤ 255).
    NetworkChain(Vec<u16>),
    /// 10: a chain of points `[offset + first, offset + last)`.
    NetworkChainRange(u16, u16),
    /// 11: a chain of absolute 32-bit pool indices (≤ 255).
    NetworkChain32(Vec<u32>),
    /// 12: a polygon of one winding (≤ 255 points).
    Polygon {
        /// Type-specific parameter.
        param: u16,
        /// Point indices.
        points: Vec<u16>,
    },
    /// 13: a polygon whose one winding is `[first, last)`.
    PolygonRange {
        /// Type-specific parameter.
        param: u16,
        /// First point.
        first: u16,
        /// One past the last point.
        last: u16,
    },
    /// 14: a polygon of several windings (≤ 255, each ≤ 255 points).
    NestedPolygon {
        /// Type-specific parameter.
        param: u16,
        /// Point indices of each winding.
        windings: Vec<Vec<u16>>,
    },
    /// 15: a polygon whose winding `k` is `[bounds[k], bounds[k + 1])`.
    NestedPolygonRange {
        /// Type-specific parameter.
        param: u16,
        /// Winding boundaries: one more than the windings (≤ 256).
        bounds: Vec<u16>,
    },
    /// 16: open a terrain patch with the current flags and LOD.
    TerrainPatch,
    /// 17: set the patch flags, then open a patch.
    TerrainPatchFlags(u8),
    /// 18: set the patch flags and LOD range, then open a patch.
    TerrainPatchFlagsLod {
        /// 1 physical, 2 overlay.
        flags: u8,
        /// Near LOD, metres.
        near: f32,
        /// Far LOD, metres.
        far: f32,
    },
    /// 23 / 26 / 29: a primitive of current-pool indices (≤ 255).
    Primitive(PrimitiveKind, Vec<u16>),
    /// 24 / 27 / 30: a primitive of `(pool, index)` vertices (≤ 255).
    PrimitiveCrossPool(PrimitiveKind, Vec<(u16, u16)>),
    /// 25 / 28 / 31: a primitive of the current pool's `[first, last)`.
    PrimitiveRange(PrimitiveKind, u16, u16),
    /// 32: a comment of up to 255 bytes.
    Comment8(Vec<u8>),
    /// 33: a comment of up to 65535 bytes.
    Comment16(Vec<u8>),
    /// 34: a comment of any length.
    Comment32(Vec<u8>),
}

/// Why a command cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    /// The opcode.
    pub opcode: u8,
    /// What does not fit.
    pub message: String,
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "command {}: {}", self.opcode, self.message)
    }
}

impl std::error::Error for EncodeError {}

/// `n` as the count or length type `T` of a command, or an error saying
/// what did not fit (`field`: how the format stores it).
fn fit<T: TryFrom<usize>>(opcode: u8, what: &str, n: usize, field: &str) -> Result<T, EncodeError> {
    T::try_from(n).map_err(|_| EncodeError {
        opcode,
        message: format!("{n} {what} do not fit {field}"),
    })
}

fn count_u8(opcode: u8, what: &str, n: usize) -> Result<u8, EncodeError> {
    fit(opcode, what, n, "the one-byte count (at most 255)")
}

fn base_op(kind: PrimitiveKind) -> u8 {
    23 + 3 * kind.code()
}

impl Command {
    /// The opcode byte this command is written with.
    pub fn opcode(&self) -> u8 {
        match self {
            Command::PoolSelect(_) => 1,
            Command::JunctionOffset(_) => 2,
            Command::SetDefinition8(_) => 3,
            Command::SetDefinition16(_) => 4,
            Command::SetDefinition32(_) => 5,
            Command::RoadSubtype(_) => 6,
            Command::Object(_) => 7,
            Command::ObjectRange(..) => 8,
            Command::NetworkChain(_) => 9,
            Command::NetworkChainRange(..) => 10,
            Command::NetworkChain32(_) => 11,
            Command::Polygon { .. } => 12,
            Command::PolygonRange { .. } => 13,
            Command::NestedPolygon { .. } => 14,
            Command::NestedPolygonRange { .. } => 15,
            Command::TerrainPatch => 16,
            Command::TerrainPatchFlags(_) => 17,
            Command::TerrainPatchFlagsLod { .. } => 18,
            Command::Primitive(k, _) => base_op(*k),
            Command::PrimitiveCrossPool(k, _) => base_op(*k) + 1,
            Command::PrimitiveRange(k, ..) => base_op(*k) + 2,
            Command::Comment8(_) => 32,
            Command::Comment16(_) => 33,
            Command::Comment32(_) => 34,
        }
    }

    /// The narrowest `SetDefinition` for `def`.
    pub fn set_definition(def: u32) -> Command {
        if let Ok(d) = u8::try_from(def) {
            Command::SetDefinition8(d)
        } else if let Ok(d) = u16::try_from(def) {
            Command::SetDefinition16(d)
        } else {
            Command::SetDefinition32(def)
        }
    }

    /// The narrowest comment holding `body`.
    pub fn comment(body: Vec<u8>) -> Command {
        if body.len() <= 255 {
            Command::Comment8(body)
        } else if body.len() <= 65535 {
            Command::Comment16(body)
        } else {
            Command::Comment32(body)
        }
    }

    /// A typed comment (type u16 + i32 value: 1 filter, 2 AGL), as xptools
    /// writes it (`Comment8`, length 6).
    pub fn typed_comment(kind: u16, value: i32) -> Command {
        let mut b = kind.to_le_bytes().to_vec();
        b.extend_from_slice(&value.to_le_bytes());
        Command::Comment8(b)
    }

    /// Appends the encoded command to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let op = self.opcode();
        let u16s = |out: &mut Vec<u8>, v: &[u16]| {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        };
        let mut body = Vec::new();
        match self {
            Command::PoolSelect(p) => u16s(&mut body, &[*p]),
            Command::JunctionOffset(v) | Command::SetDefinition32(v) => {
                body.extend_from_slice(&v.to_le_bytes());
            }
            Command::SetDefinition8(v)
            | Command::RoadSubtype(v)
            | Command::TerrainPatchFlags(v) => {
                body.push(*v);
            }
            Command::SetDefinition16(v) | Command::Object(v) => u16s(&mut body, &[*v]),
            Command::ObjectRange(a, b)
            | Command::NetworkChainRange(a, b)
            | Command::PrimitiveRange(_, a, b) => u16s(&mut body, &[*a, *b]),
            Command::NetworkChain(v) | Command::Primitive(_, v) => {
                body.push(count_u8(op, "indices", v.len())?);
                u16s(&mut body, v);
            }
            Command::NetworkChain32(v) => {
                body.push(count_u8(op, "indices", v.len())?);
                for x in v {
                    body.extend_from_slice(&x.to_le_bytes());
                }
            }
            Command::Polygon { param, points } => {
                u16s(&mut body, &[*param]);
                body.push(count_u8(op, "points", points.len())?);
                u16s(&mut body, points);
            }
            Command::PolygonRange { param, first, last } => {
                u16s(&mut body, &[*param, *first, *last]);
            }
            Command::NestedPolygon { param, windings } => {
                u16s(&mut body, &[*param]);
                body.push(count_u8(op, "windings", windings.len())?);
                for w in windings {
                    body.push(count_u8(op, "points", w.len())?);
                    u16s(&mut body, w);
                }
            }
            Command::NestedPolygonRange { param, bounds } => {
                u16s(&mut body, &[*param]);
                if bounds.is_empty() {
                    return Err(EncodeError {
                        opcode: op,
                        message: "a nested polygon range needs at least one bound".into(),
                    });
                }
                body.push(count_u8(op, "windings", bounds.len() - 1)?);
                u16s(&mut body, bounds);
            }
            Command::TerrainPatch => {}
            Command::TerrainPatchFlagsLod { flags, near, far } => {
                body.push(*flags);
                body.extend_from_slice(&near.to_le_bytes());
                body.extend_from_slice(&far.to_le_bytes());
            }
            Command::PrimitiveCrossPool(_, v) => {
                body.push(count_u8(op, "vertices", v.len())?);
                for (p, i) in v {
                    u16s(&mut body, &[*p, *i]);
                }
            }
            Command::Comment8(b) => {
                body.push(count_u8(op, "comment bytes", b.len())?);
                body.extend_from_slice(b);
            }
            Command::Comment16(b) => {
                let n: u16 = fit(op, "comment bytes", b.len(), "a u16 length")?;
                u16s(&mut body, &[n]);
                body.extend_from_slice(b);
            }
            Command::Comment32(b) => {
                let n: u32 = fit(op, "comment bytes", b.len(), "a u32 length")?;
                body.extend_from_slice(&n.to_le_bytes());
                body.extend_from_slice(b);
            }
        }
        out.push(op);
        out.extend_from_slice(&body);
        Ok(())
    }

    /// Parses one command (opcode included) from `c`. A command cut short
    /// is [`ErrorKind::TruncatedCommand`] and an unknown opcode
    /// [`ErrorKind::UnknownOpcode`], both at the opcode's offset; counts
    /// are checked against the bytes left before anything is allocated.
    pub fn parse(c: &mut Cursor<'_>) -> Result<Command, DsfError> {
        let at = c.offset();
        let op = c.u8("a command")?;
        Self::parse_body(c, op, at).map_err(|e| match e.kind {
            ErrorKind::Truncated { .. } => DsfError::new(at, ErrorKind::TruncatedCommand(op)),
            _ => e,
        })
    }

    fn parse_body(c: &mut Cursor<'_>, op: u8, at: u64) -> Result<Command, DsfError> {
        const W: &str = "a command";
        let u16s = |c: &mut Cursor<'_>, n: usize| -> Result<Vec<u16>, DsfError> {
            if n * 2 > c.remaining() {
                return Err(DsfError::new(c.offset(), ErrorKind::Truncated { what: W }));
            }
            (0..n).map(|_| c.u16(W)).collect()
        };
        let need = |c: &Cursor<'_>, n: usize| -> Result<(), DsfError> {
            if n > c.remaining() {
                Err(DsfError::new(c.offset(), ErrorKind::Truncated { what: W }))
            } else {
                Ok(())
            }
        };
        let kind = |op: u8| match op {
            23..=25 => PrimitiveKind::Triangles,
            26..=28 => PrimitiveKind::Strip,
            _ => PrimitiveKind::Fan,
        };
        Ok(match op {
            1 => Command::PoolSelect(c.u16(W)?),
            2 => Command::JunctionOffset(c.u32(W)?),
            3 => Command::SetDefinition8(c.u8(W)?),
            4 => Command::SetDefinition16(c.u16(W)?),
            5 => Command::SetDefinition32(c.u32(W)?),
            6 => Command::RoadSubtype(c.u8(W)?),
            7 => Command::Object(c.u16(W)?),
            8 => Command::ObjectRange(c.u16(W)?, c.u16(W)?),
            9 => {
                let n = c.u8(W)? as usize;
                Command::NetworkChain(u16s(c, n)?)
            }
            10 => Command::NetworkChainRange(c.u16(W)?, c.u16(W)?),
            11 => {
                let n = c.u8(W)? as usize;
                need(c, n * 4)?;
                Command::NetworkChain32((0..n).map(|_| c.u32(W)).collect::<Result<_, _>>()?)
            }
            12 => {
                let param = c.u16(W)?;
                let n = c.u8(W)? as usize;
                Command::Polygon {
                    param,
                    points: u16s(c, n)?,
                }
            }
            13 => Command::PolygonRange {
                param: c.u16(W)?,
                first: c.u16(W)?,
                last: c.u16(W)?,
            },
            14 => {
                let param = c.u16(W)?;
                let w = c.u8(W)? as usize;
                let mut windings = Vec::with_capacity(w);
                for _ in 0..w {
                    let n = c.u8(W)? as usize;
                    windings.push(u16s(c, n)?);
                }
                Command::NestedPolygon { param, windings }
            }
            15 => {
                let param = c.u16(W)?;
                let w = c.u8(W)? as usize;
                Command::NestedPolygonRange {
                    param,
                    bounds: u16s(c, w + 1)?,
                }
            }
            16 => Command::TerrainPatch,
            17 => Command::TerrainPatchFlags(c.u8(W)?),
            18 => Command::TerrainPatchFlagsLod {
                flags: c.u8(W)?,
                near: c.f32(W)?,
                far: c.f32(W)?,
            },
            23 | 26 | 29 => {
                let n = c.u8(W)? as usize;
                Command::Primitive(kind(op), u16s(c, n)?)
            }
            24 | 27 | 30 => {
                let n = c.u8(W)? as usize;
                let v = u16s(c, 2 * n)?;
                Command::PrimitiveCrossPool(
                    kind(op),
                    v.chunks_exact(2).map(|p| (p[0], p[1])).collect(),
                )
            }
            25 | 28 | 31 => Command::PrimitiveRange(kind(op), c.u16(W)?, c.u16(W)?),
            32 => {
                let n = c.u8(W)? as usize;
                Command::Comment8(c.bytes(n, W)?.to_vec())
            }
            33 => {
                let n = c.u16(W)? as usize;
                Command::Comment16(c.bytes(n, W)?.to_vec())
            }
            34 => {
                let n = c.u32(W)? as usize;
                Command::Comment32(c.bytes(n, W)?.to_vec())
            }
            _ => {
                return Err(DsfError::new(at, ErrorKind::UnknownOpcode(op)));
            }
        })
    }
}

/// Encodes a command list as a `CMDS` payload.
pub fn encode_all(cmds: &[Command]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    for c in cmds {
        c.encode(&mut out)?;
    }
    Ok(out)
}

/// Parses a whole `CMDS` payload whose first byte is at offset `base`;
/// each command comes with its offset.
pub fn parse_all(payload: &[u8], base: u64) -> Result<Vec<(u64, Command)>, DsfError> {
    let mut c = Cursor::new(payload, base);
    let mut out = Vec::new();
    while !c.is_empty() {
        let at = c.offset();
        out.push((at, Command::parse(&mut c)?));
    }
    Ok(out)
}
