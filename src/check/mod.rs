//! What `agkit check` does to one file, as a library function.
//!
//! The CLI (`agkit check`) and the previewer's diagnostics panel
//! (`agkit serve`, `GET /api/asset`) both call [`check_bytes`], so the two
//! can never disagree about a file.

pub mod asset;

use crate::diag::Diagnostic;
use std::path::Path;

/// What kind of file a path holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileKind {
    /// An autogen text file (AGP, AGB, AGS, or anything else read as text).
    Text,
    /// An FSX AGN file.
    Agn,
    /// A DSF tile.
    Dsf,
    /// X-Plane art: an object, facade, forest or texture.
    Art(ArtKind),
    /// X-Plane art a DSF names beside those: a draped polygon, painted
    /// line, object string, terrain type or road network
    /// ([`crate::draped`]).
    Draped(DrapedKind),
    /// An X-Plane airport file (`apt.dat`, [`crate::apt`]).
    Apt,
}

/// The kinds of X-Plane art agkit reads: the one art-kind type, shared
/// with placement and the scenery's art store.
pub use crate::kinds::ArtKind;

/// The five text formats of [`crate::draped`], each with its own rules.
pub use crate::draped::DrapedKind;

/// Decides the kind of a file from its first bytes (the DSF and 7z magic,
/// RIFF, PNG and DDS, an `OBJ`, `FACADE`, `FOREST`, `DRAPED_POLYGON`,
/// `LINE_PAINT`, `OBJECT_STRING`, `TERRAIN` or `ROADS` header, an apt.dat
/// header), then from its name (`apt.dat`) or extension; anything else is
/// text. The header decides over the
/// extension: a `.pol` starting `A`, `850`, `LINE_PAINT` is a painted line.
pub fn classify(path: &Path, bytes: &[u8]) -> FileKind {
    if bytes.starts_with(b"XPLNEDSF") || bytes.starts_with(&[0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) {
        return FileKind::Dsf;
    }
    if bytes.starts_with(b"RIFF") {
        return FileKind::Agn;
    }
    if let Some(art) = ArtKind::sniff(bytes) {
        return FileKind::Art(art);
    }
    if let Some(d) = DrapedKind::sniff(bytes) {
        return FileKind::Draped(d);
    }
    if crate::apt::sniff(&bytes[..bytes.len().min(Contents::SNIFF)])
        || crate::apt::is_apt_name(path)
    {
        return FileKind::Apt;
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("agn") => FileKind::Agn,
        Some("dsf") => FileKind::Dsf,
        Some(e) => ArtKind::from_extension(e)
            .map(FileKind::Art)
            .or_else(|| DrapedKind::from_extension(e).map(FileKind::Draped))
            .unwrap_or(FileKind::Text),
        None => FileKind::Text,
    }
}

/// True when `bytes` start with the three header lines of an autogen text
/// file (an optional byte-order mark, then `A` or `I`, `1000` and
/// `AG_POINT`, `AG_BLOCK` or `AG_STRING`, spaces and CRLF allowed).
pub fn has_autogen_header(bytes: &[u8]) -> bool {
    matches!(
        header_lines(bytes),
        [
            Some(b"A" | b"I"),
            Some(b"1000"),
            Some(b"AG_POINT" | b"AG_BLOCK" | b"AG_STRING")
        ]
    )
}

/// The first three lines of `bytes` (after a byte-order mark), trimmed;
/// an X-Plane text file names its format there. LF, CRLF and a lone CR
/// end lines, as in the text formats.
fn header_lines(bytes: &[u8]) -> [Option<&[u8]>; 3] {
    let mut rest = Some(bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes));
    let mut next = || {
        let b = rest?;
        let Some(end) = memchr::memchr2(b'\n', b'\r', b) else {
            rest = None;
            return Some(b.trim_ascii());
        };
        let skip = if b[end..].starts_with(b"\r\n") { 2 } else { 1 };
        rest = Some(&b[end + skip..]);
        Some(b[..end].trim_ascii())
    };
    [next(), next(), next()]
}

/// How messages name an autogen text file.
pub const AUTOGEN_TEXT: &str = "an autogen text file (.agp .agb .ags)";

/// What a file holds, told from its first bytes whatever its name: so that
/// a command given another command's input says what the file is and which
/// command reads it, instead of quoting its bytes back as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contents {
    /// An autogen text file (the AGP, AGB or AGS header).
    Autogen,
    /// A DSF tile, plain or 7z-compressed.
    Dsf,
    /// An FSX/P3D AGN file (RIFF `AGNX`).
    Agn,
    /// DSF2Text, the text form of a DSF.
    DsfText,
    /// An X-Plane airport file (`apt.dat`).
    Apt,
    /// An X-Plane library list (`library.txt`).
    Library,
    /// X-Plane's list of scenery packs in priority order
    /// (`scenery_packs.ini`).
    SceneryPacks,
    /// X-Plane art agkit reads with `check` and `info`, by its name (e.g.
    /// `an X-Plane object (.obj)`, `a PNG image`).
    Art(&'static str),
    /// GeoJSON.
    GeoJson,
    /// Any other JSON.
    Json,
    /// An image, compressed file or other binary format, by its name
    /// (e.g. `a PNG image`).
    Binary(&'static str),
    /// Text that is none of the above (such as an autogen file whose header
    /// is wrong): the text checks say what is wrong with it.
    Text,
}

impl Contents {
    /// How many leading bytes [`Contents::of`] looks at.
    pub const SNIFF: usize = crate::kinds::SNIFF;

    /// What `bytes` (a whole file or its first [`Contents::SNIFF`] bytes)
    /// hold.
    pub fn of(bytes: &[u8]) -> Contents {
        const MAGIC: &[(&[u8], Contents)] = &[
            (b"XPLNEDSF", Contents::Dsf),
            (&[0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], Contents::Dsf),
            (b"\x89PNG", Contents::Art("a PNG image")),
            (&[0xFF, 0xD8, 0xFF], Contents::Binary("a JPEG image")),
            (b"DDS ", Contents::Art("a DDS texture")),
            (b"GIF8", Contents::Binary("a GIF image")),
            (b"%PDF", Contents::Binary("a PDF document")),
            (b"PK\x03\x04", Contents::Binary("a zip archive")),
            (&[0x1F, 0x8B], Contents::Binary("a gzip file")),
        ];
        let head = &bytes[..bytes.len().min(Self::SNIFF)];
        if let Some((_, c)) = MAGIC.iter().find(|(m, _)| head.starts_with(m)) {
            return *c;
        }
        if head.starts_with(b"RIFF") {
            return if head.get(8..12) == Some(b"AGNX") {
                Contents::Agn
            } else {
                Contents::Binary("a RIFF file that is not an AGN")
            };
        }
        if has_autogen_header(head) {
            return Contents::Autogen;
        }
        if crate::apt::sniff(head) {
            return Contents::Apt;
        }
        if let [Some(b"A" | b"I"), Some(version), Some(b"SCENERY")] = header_lines(head)
            && version.starts_with(b"1000")
        {
            return Contents::SceneryPacks;
        }
        if let [Some(b"A" | b"I"), Some(version), Some(kind)] = header_lines(head)
            && version.starts_with(b"800")
        {
            match kind {
                b"DSF2TEXT" => return Contents::DsfText,
                b"LIBRARY" => return Contents::Library,
                _ => {}
            }
        }
        match ArtKind::sniff(head) {
            Some(ArtKind::Object) => return Contents::Art("an X-Plane object (.obj)"),
            Some(ArtKind::Facade) => return Contents::Art("an X-Plane facade (.fac)"),
            Some(ArtKind::Forest) => return Contents::Art("an X-Plane forest (.for)"),
            _ => {}
        }
        if let Some(d) = DrapedKind::sniff(head) {
            return Contents::Art(d.describe());
        }
        if memchr::memchr(0, head).is_some() {
            return Contents::Binary("a binary file");
        }
        let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
        if matches!(text.trim_ascii_start().first(), Some(b'{' | b'[')) {
            let geo = [
                &b"\"FeatureCollection\""[..],
                b"\"Feature\"",
                b"\"coordinates\"",
            ];
            return if geo.iter().any(|k| memchr::memmem::find(text, k).is_some()) {
                Contents::GeoJson
            } else {
                Contents::Json
            };
        }
        Contents::Text
    }

    /// Why a command reading `what` (any of `accepted`) refuses a file of
    /// these contents: `not {what}: it is …, which … read`. `None` when the
    /// contents are accepted or plain [`Contents::Text`], whose problems the
    /// command's own reader explains line by line.
    pub fn refusal(self, what: &str, accepted: &[Contents]) -> Option<String> {
        if accepted.contains(&self) {
            return None;
        }
        self.hint().map(|hint| format!("not {what}: {hint}"))
    }

    /// What the file is and which agkit commands read it, e.g. `it is a DSF
    /// tile, which ... read`, to follow a message saying what it is not.
    /// `None` for [`Contents::Text`], which has nothing more to say.
    pub fn hint(self) -> Option<String> {
        let (what, readers): (&str, &[&str]) = match self {
            Contents::Autogen => ("an autogen text file", &["check", "fmt", "info", "place"]),
            Contents::Dsf => (
                "a DSF tile",
                &["dsf totext", "dsf autogen", "place --dsf", "check"],
            ),
            Contents::Agn => ("an FSX/P3D AGN file", &["agn dump", "convert agn", "check"]),
            Contents::DsfText => ("DSF2Text (a DSF as text)", &["dsf build"]),
            Contents::Apt => (
                "an X-Plane airport file (apt.dat)",
                &["check", "info", "apt export"],
            ),
            Contents::Library => (
                "an X-Plane library list",
                &["scenery check --xplane", "place --dsf --library"],
            ),
            Contents::SceneryPacks => (
                "X-Plane's scenery pack list (scenery_packs.ini)",
                &["scenery check --xplane"],
            ),
            Contents::GeoJson => (
                "GeoJSON",
                &["place --polygon", "overlay build", "agn build"],
            ),
            Contents::Json => ("JSON", &[]),
            Contents::Art(what) => (what, &["check", "info"]),
            Contents::Binary(what) => (what, &[]),
            Contents::Text => return None,
        };
        let commands: Vec<String> = readers.iter().map(|r| format!("`agkit {r}`")).collect();
        Some(match commands.as_slice() {
            [] => format!("it is {what}, which agkit does not read"),
            [one] => format!("it is {what}, which {one} reads"),
            [first @ .., last] => {
                format!("it is {what}, which {} and {last} read", first.join(", "))
            }
        })
    }
}

/// The one error (AG0001, for the whole file) for bytes that are not an
/// autogen text file but something agkit can name — a DSF, an AGN, an
/// image, GeoJSON, a library list: it says what the file is and which
/// command reads it, and quotes none of it. `None` for an autogen text file
/// and for other text, whose problems the text checks explain line by line.
pub fn not_autogen_text(bytes: &[u8]) -> Option<Diagnostic> {
    let message = Contents::of(bytes).refusal(AUTOGEN_TEXT, &[Contents::Autogen])?;
    Some(Diagnostic::new(
        crate::diag::Severity::Error,
        crate::xp::rules::codes::HEADER_ORIGIN,
        message,
        crate::diag::Location::File,
    ))
}

/// Checks one file's bytes: the diagnostics and, for a text file, the text
/// they point into (invalid UTF-8 decoded lossily, and reported). A file
/// taken for text that is something else (an image, GeoJSON, DSF2Text …)
/// gets one error saying what it is, never its bytes quoted as text.
pub fn check_bytes(path: &Path, bytes: &[u8]) -> (Option<String>, Vec<Diagnostic>) {
    let (text, _, diags) = check_bytes_model(path, bytes);
    (text, diags)
}

/// [`check_bytes`] with, for an autogen text file, the asset as read
/// ([`crate::xp::check_bytes_model`]), so that the art it names is
/// followed without parsing it again.
#[allow(clippy::type_complexity)]
pub fn check_bytes_model(
    path: &Path,
    bytes: &[u8],
) -> (
    Option<String>,
    Option<crate::xp::model::Asset>,
    Vec<Diagnostic>,
) {
    let (text, diags) = match classify(path, bytes) {
        FileKind::Agn => (None, crate::agn::check_bytes(bytes)),
        FileKind::Dsf => (None, crate::dsf::check_bytes(bytes)),
        FileKind::Art(kind) => check_art(kind, bytes),
        FileKind::Draped(kind) => check_draped(kind, bytes),
        FileKind::Apt => check_apt(bytes),
        FileKind::Text => {
            if let Some(d) = not_autogen_text(bytes) {
                return (None, None, vec![d]);
            }
            let (text, asset, diags) = crate::xp::check_bytes_model(bytes);
            return (Some(text), asset, diags);
        }
    };
    (text, None, diags)
}

/// Checks X-Plane art of `kind`: the text and diagnostics of an object,
/// facade or forest, or the diagnostics of a texture (decoded to find
/// them), under the default [`crate::limits::Limits`].
pub fn check_art(kind: ArtKind, bytes: &[u8]) -> (Option<String>, Vec<Diagnostic>) {
    let limits = crate::limits::Limits::default();
    match kind {
        ArtKind::Object => {
            let c = crate::obj::check(bytes, &limits);
            (Some(c.text), c.diagnostics)
        }
        ArtKind::Facade => {
            let c = crate::fac::check(bytes, &limits);
            (Some(c.text), c.diagnostics)
        }
        ArtKind::Forest => {
            let c = crate::forest::check(bytes, &limits);
            (Some(c.text), c.diagnostics)
        }
        ArtKind::Texture => (None, crate::texture::check(bytes, &limits).1),
    }
}

/// Checks a draped polygon, painted line, object string, terrain type or
/// road network of `kind`: its text and diagnostics, under the default
/// [`crate::limits::Limits`].
pub fn check_draped(kind: DrapedKind, bytes: &[u8]) -> (Option<String>, Vec<Diagnostic>) {
    let c = crate::draped::check(kind, bytes, &crate::limits::Limits::default());
    (Some(c.text), c.diagnostics)
}

/// Checks an `apt.dat` ([`crate::apt::check`]): its text and diagnostics,
/// under the default [`crate::limits::Limits`].
pub fn check_apt(bytes: &[u8]) -> (Option<String>, Vec<Diagnostic>) {
    let c = crate::apt::check(bytes, &crate::limits::Limits::default());
    (Some(c.text), c.diagnostics)
}

/// The `agkit info` summary of an `apt.dat`, or, when its header is wrong,
/// its text and diagnostics.
#[allow(clippy::type_complexity)]
pub fn summarize_apt(
    bytes: &[u8],
) -> Result<crate::apt::summary::Summary, (Option<String>, Vec<Diagnostic>)> {
    let c = crate::apt::check(bytes, &crate::limits::Limits::default());
    let errors = c.diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Warning)
        .count();
    match &c.value {
        Some(f) => Ok(crate::apt::summary::Summary::of(f, errors, warnings)),
        None => Err((Some(c.text), c.diagnostics)),
    }
}

/// What `agkit info` prints for a piece of X-Plane art.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum ArtSummary {
    /// An object.
    Obj(crate::obj::summary::Summary),
    /// A facade.
    Facade(crate::fac::summary::Summary),
    /// A forest.
    Forest(crate::forest::summary::Summary),
    /// A texture: its header.
    Texture(TextureSummary),
    /// A draped polygon, painted line, object string, terrain type or
    /// road network.
    Draped(crate::draped::Summary),
}

/// What `agkit info` says about a texture (its header only; nothing is
/// decoded).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TextureSummary {
    /// `png` or `dds`.
    pub format: crate::texture::Container,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixel format (`DXT1`, `RGBA8`, …).
    pub pixel_format: String,
    /// Images in the mipmap chain.
    pub mipmaps: u32,
    /// True when agkit decodes the pixel format.
    pub decodable: bool,
}

impl ArtSummary {
    /// A few aligned lines for people.
    pub fn to_human(&self) -> String {
        match self {
            ArtSummary::Obj(s) => s.to_human(),
            ArtSummary::Facade(s) => s.to_human(),
            ArtSummary::Forest(s) => s.to_human(),
            ArtSummary::Draped(s) => s.to_human(),
            ArtSummary::Texture(t) => format!(
                "format     {}\nsize       {} × {} pixels\npixels     {}{}\nmipmaps    {}\n",
                match t.format {
                    crate::texture::Container::Png => "PNG",
                    crate::texture::Container::Dds => "DDS",
                },
                t.width,
                t.height,
                t.pixel_format,
                if t.decodable {
                    ""
                } else {
                    " (not decoded by agkit)"
                },
                t.mipmaps
            ),
        }
    }
}

/// The `agkit info` summary of a draped polygon, painted line, object
/// string, terrain type or road network, or, when its header is wrong,
/// its text and diagnostics.
#[allow(clippy::type_complexity)]
pub fn summarize_draped(
    kind: DrapedKind,
    bytes: &[u8],
) -> Result<ArtSummary, (Option<String>, Vec<Diagnostic>)> {
    crate::draped::summarize(kind, bytes).map(ArtSummary::Draped)
}

/// The `agkit info` summary of art of `kind`, or, when the file cannot be
/// read at all (a wrong header, not a texture), its text and diagnostics.
#[allow(clippy::type_complexity)]
pub fn summarize_art(
    kind: ArtKind,
    bytes: &[u8],
) -> Result<ArtSummary, (Option<String>, Vec<Diagnostic>)> {
    let limits = crate::limits::Limits::default();
    fn counts(d: &[Diagnostic]) -> (usize, usize) {
        let e = d.iter().filter(|d| d.is_error()).count();
        let w = d
            .iter()
            .filter(|d| d.severity == crate::diag::Severity::Warning)
            .count();
        (e, w)
    }
    macro_rules! text_art {
        ($module:ident, $variant:ident) => {{
            let c = crate::$module::check(bytes, &limits);
            let (e, w) = counts(&c.diagnostics);
            match c.value {
                Some(v) => Ok(ArtSummary::$variant(crate::$module::summary::Summary::of(
                    &v, e, w,
                ))),
                None => Err((Some(c.text), c.diagnostics)),
            }
        }};
    }
    match kind {
        ArtKind::Object => text_art!(obj, Obj),
        ArtKind::Facade => text_art!(fac, Facade),
        ArtKind::Forest => text_art!(forest, Forest),
        ArtKind::Texture => match crate::texture::probe(bytes) {
            Ok(i) => Ok(ArtSummary::Texture(TextureSummary {
                format: i.container,
                width: i.width,
                height: i.height,
                pixel_format: i.format,
                mipmaps: i.mipmaps,
                decodable: i.decodable,
            })),
            Err(e) => Err((None, vec![e.diagnostic()])),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_by_magic_then_extension() {
        let p = Path::new("x.ags");
        assert_eq!(classify(p, b"A\n1000\nAG_STRING\n"), FileKind::Text);
        assert_eq!(classify(p, b"XPLNEDSF\x01\0\0\0"), FileKind::Dsf);
        assert_eq!(classify(p, b"RIFF\0\0\0\0"), FileKind::Agn);
        assert_eq!(classify(Path::new("x.AGN"), b""), FileKind::Agn);
        assert_eq!(classify(Path::new("x.dsf"), b"junk"), FileKind::Dsf);
    }

    #[test]
    fn contents_from_first_bytes() {
        let c = Contents::of;
        assert_eq!(c(b"A\r\n1000\r\nAG_BLOCK\r\n"), Contents::Autogen);
        assert_eq!(c(b"\xef\xbb\xbfI\n1000\nAG_POINT\n"), Contents::Autogen);
        assert_eq!(c(b"A\r1000\rAG_POINT\r"), Contents::Autogen);
        assert_eq!(c(b"A\r\n1000\r\nAG_BLOCK"), Contents::Autogen);
        assert_eq!(c(b"A\r\r1000\rAG_POINT\r"), Contents::Text);
        assert_eq!(c(b"XPLNEDSF\x01\0\0\0"), Contents::Dsf);
        assert_eq!(c(&[0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0]), Contents::Dsf);
        assert_eq!(c(b"RIFF\x10\0\0\0AGNXVERS"), Contents::Agn);
        assert!(matches!(c(b"RIFF\x10\0\0\0WAVEfmt "), Contents::Binary(_)));
        assert_eq!(c(b"I\n800 written by agkit\nDSF2TEXT\n"), Contents::DsfText);
        assert_eq!(c(b"A\n800\nLIBRARY\n"), Contents::Library);
        assert_eq!(
            c(b"I\r\n1000 Version\r\nSCENERY\r\n"),
            Contents::SceneryPacks
        );
        assert!(matches!(c(b"I\n800\nOBJ\n"), Contents::Art(_)));
        assert!(matches!(
            c(b"A\r\n\r\n1000\r\n\r\nFACADE\r\n"),
            Contents::Art(_)
        ));
        assert_eq!(c(b"\x89PNG\r\n\x1a\n"), Contents::Art("a PNG image"));
        assert_eq!(c(b"abc\0def"), Contents::Binary("a binary file"));
        assert_eq!(c(b" {\"type\": \"FeatureCollection\"}"), Contents::GeoJson);
        assert_eq!(c(b"[{\"chunks\": []}]"), Contents::Json);
        // A broken header is still text: the checks explain it.
        assert_eq!(c(b"A\n1001\nAG_POINT\n"), Contents::Text);
        assert_eq!(c(b""), Contents::Text);
        // Only the first bytes count: a NUL far in is the text checks' business.
        let mut late = b"A\n1000\nAG_POINT\n".to_vec();
        late.resize(Contents::SNIFF + 10, b' ');
        late.push(0);
        assert_eq!(c(&late), Contents::Autogen);
    }

    #[test]
    fn hints_name_the_readers() {
        assert_eq!(
            Contents::DsfText.hint().unwrap(),
            "it is DSF2Text (a DSF as text), which `agkit dsf build` reads"
        );
        assert_eq!(
            Contents::Agn.hint().unwrap(),
            "it is an FSX/P3D AGN file, which `agkit agn dump`, `agkit convert agn` and `agkit check` read"
        );
        assert_eq!(
            Contents::Art("a PNG image").hint().unwrap(),
            "it is a PNG image, which `agkit check` and `agkit info` read"
        );
        assert_eq!(
            Contents::Binary("a GIF image").hint().unwrap(),
            "it is a GIF image, which agkit does not read"
        );
        assert_eq!(Contents::Text.hint(), None);
        let refused = |b: &[u8]| Contents::of(b).refusal("DSF2Text", &[Contents::DsfText]);
        assert_eq!(refused(b"I\n800\nDSF2TEXT\n"), None);
        assert_eq!(refused(b"no header"), None);
        assert_eq!(
            refused(b"A\n1000\nAG_POINT\n").unwrap(),
            "not DSF2Text: it is an autogen text file, which `agkit check`, `agkit fmt`, `agkit info` and `agkit place` read"
        );
    }

    #[test]
    fn art_is_classified_by_header_then_extension() {
        let art = |p: &str, b: &[u8]| classify(Path::new(p), b);
        assert_eq!(
            art("x.txt", b"A\n800\nOBJ\n"),
            FileKind::Art(ArtKind::Object)
        );
        assert_eq!(
            art("x", b"I\n1000\nFACADE\n"),
            FileKind::Art(ArtKind::Facade)
        );
        assert_eq!(
            art("x", b"A\n1200\nFOREST\n"),
            FileKind::Art(ArtKind::Forest)
        );
        assert_eq!(art("x.agp", b"DDS \x7c"), FileKind::Art(ArtKind::Texture));
        assert_eq!(art("x.FOR", b"junk"), FileKind::Art(ArtKind::Forest));
        assert_eq!(art("x.dds", b""), FileKind::Art(ArtKind::Texture));
        assert_eq!(art("x.agp", b"A\n1000\nAG_POINT\n"), FileKind::Text);
    }

    /// Issue 46 item 5: `check` read valid `.pol`, `.lin` and `.str`
    /// files as autogen text (AG0002, AG0003); each is told by its header
    /// and checked with its own rules.
    #[test]
    fn draped_art_is_told_by_its_header_not_read_as_autogen() {
        let cases: [(&str, &[u8]); 5] = [
            ("x.pol", b"A\n850\nDRAPED_POLYGON\nTEXTURE_NOWRAP a.dds\nSCALE 10 10\n"),
            ("x.lin", b"I\n850\nLINE_PAINT\nTEXTURE l.png\nSCALE 8 8\nTEX_WIDTH 256\nS_OFFSET 0 0 16 32\n"),
            ("x.str", b"A\n850\nOBJECT_STRING\nOBJECT 0 0 light.obj\n"),
            ("x.ter", b"A\n800\nTERRAIN\nBASE_TEX_NOWRAP t.dds\n"),
            ("x.net", b"A\n800\nROADS\nTEXTURE 0 r.dds\n"),
        ];
        for (name, bytes) in cases {
            let kind = classify(Path::new(name), bytes);
            let FileKind::Draped(k) = kind else {
                panic!("{name}: {kind:?}")
            };
            assert_eq!(k.extension(), &name[2..]);
            // By header whatever the name; by extension without one.
            assert_eq!(classify(Path::new("x.txt"), bytes), kind);
            assert_eq!(classify(Path::new(name), b"junk"), kind);
            let (text, diags) = check_bytes(Path::new(name), bytes);
            assert!(text.is_some());
            assert!(diags.is_empty(), "{name}: {diags:?}");
            assert!(matches!(Contents::of(bytes), Contents::Art(_)), "{name}");
        }
        let (_, diags) = check_bytes(Path::new("x.pol"), b"A\n850\nDRAPED_POLYGON\nSCALE 1\n");
        let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(
            codes,
            ["POL0002"],
            "refused: no warning that it lacks a texture"
        );
        let (_, diags) = check_bytes(Path::new("x.pol"), b"A\n850\nDRAPED_POLYGON\nSCALE 1 1\n");
        assert_eq!(diags[0].code, "POL0006");
    }

    #[test]
    fn text_of_another_kind_is_named_not_quoted() {
        let (text, diags) = check_bytes(Path::new("x.agp"), b"GIF89a\0\0\0\rIHDR");
        assert!(text.is_none());
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].location, crate::diag::Location::File);
        assert!(
            diags[0].message.contains("a GIF image"),
            "{}",
            diags[0].message
        );
    }

    #[test]
    fn text_keeps_its_source_and_reports_bad_utf8() {
        let (text, diags) = check_bytes(Path::new("a.agp"), b"A\n1000\nAG_POINT\n\xff\n");
        let text = text.unwrap();
        assert!(text.contains('\u{fffd}'));
        assert!(diags.iter().any(|d| d.is_error()));
        let (text, _) = check_bytes(Path::new("a.agn"), b"RIFF");
        assert!(text.is_none());
    }
}
