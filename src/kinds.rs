//! The kinds of X-Plane art agkit reads, told by their extension or their
//! first bytes: the one art-kind type the formats' checks, the scenery's
//! art store and placement share.

/// How many leading bytes a file's kind is told from.
pub const SNIFF: usize = 4096;

/// What kind of art a path names (one kind for placement and the
/// scenery's store): textures are looked for with other extensions and
/// never in libraries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ArtKind {
    /// An OBJ8 object.
    Object,
    /// A facade.
    Facade,
    /// A forest.
    Forest,
    /// A PNG or DDS texture.
    Texture,
}

impl ArtKind {
    /// The kind a file extension names (`obj`, `fac`, `for`, `png`,
    /// `dds`, any case).
    pub fn from_extension(ext: &str) -> Option<ArtKind> {
        match ext.to_ascii_lowercase().as_str() {
            "obj" => Some(ArtKind::Object),
            "fac" => Some(ArtKind::Facade),
            "for" => Some(ArtKind::Forest),
            "png" | "dds" => Some(ArtKind::Texture),
            _ => None,
        }
    }

    /// The kind the first bytes of a file say: the PNG or DDS magic, or an
    /// X-Plane header naming `OBJ`, `FACADE` or `FOREST` (read as
    /// tolerantly as the readers read it, any version).
    pub fn sniff(bytes: &[u8]) -> Option<ArtKind> {
        if crate::texture::is_texture(bytes) {
            return Some(ArtKind::Texture);
        }
        let head = &bytes[..bytes.len().min(SNIFF)];
        match crate::xptext::sniff(&String::from_utf8_lossy(head))?.1 {
            "OBJ" => Some(ArtKind::Object),
            "FACADE" => Some(ArtKind::Facade),
            "FOREST" => Some(ArtKind::Forest),
            _ => None,
        }
    }

    /// How messages name it.
    pub fn noun(self) -> &'static str {
        match self {
            ArtKind::Object => "object",
            ArtKind::Facade => "facade",
            ArtKind::Forest => "forest",
            ArtKind::Texture => "texture",
        }
    }
}
