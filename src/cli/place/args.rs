//! The arguments of `agkit place` and the settings they give.

use agkit::limits::Limits;
use agkit::out::Format;
use agkit::place::{FrameConvention, Params};
use agkit::xp::model::Kind;
use std::path::PathBuf;

/// The AGP orientation convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Frame {
    /// WorldEditor's preview: texture up north at heading 0, ROTATION turns CW.
    Wed,
    /// The AGP spec: bottom edge north at heading 0, ROTATION turns CCW.
    Spec,
}

/// Arguments of `agkit place`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The asset: .agp (with --at) or .agb/.ags (with --polygon); or none,
    /// with --dsf.
    pub asset: Option<PathBuf>,
    /// Where an .agp goes: latitude, longitude and heading (degrees
    /// clockwise from true north, default 0).
    #[arg(
        long,
        value_name = "LAT,LON[,HEADING]",
        allow_hyphen_values = true,
        conflicts_with = "polygon"
    )]
    pub at: Option<String>,
    /// The DSF polygon of an .agb/.ags: a GeoJSON Polygon, MultiPolygon,
    /// Feature or FeatureCollection; each polygon is one use, its rings
    /// (lon/lat) the DSF windings.
    #[arg(long, value_name = "FILE")]
    pub polygon: Option<PathBuf>,
    /// The raw 16-bit DSF polygon parameter (height/4 << 8 | low byte).
    #[arg(
        long,
        allow_negative_numbers = true,
        conflicts_with_all = ["height", "spawning", "spelling_set", "dsf"]
    )]
    pub param: Option<u16>,
    /// Building height in metres (AGB/AGS), 0 to 1020: a DSF stores it / 4
    /// in 8 bits.
    #[arg(long, value_name = "METRES", allow_negative_numbers = true, value_parser = parse_height,
          conflicts_with = "dsf")]
    pub height: Option<f64>,
    /// Number of tile-spawning contours (AGS).
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["spelling_set", "dsf"])]
    pub spawning: Option<u8>,
    /// Spelling set (AGB).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "dsf")]
    pub spelling_set: Option<u8>,
    /// Place every autogen use of this DSF tile (or of every .dsf under a folder).
    #[arg(long, value_name = "TILE.dsf", conflicts_with_all = ["asset", "at", "polygon"])]
    pub dsf: Option<PathBuf>,
    /// With --dsf: place everything the tile places, not only its autogen
    /// uses: objects, facade, forest and draped polygons, lines and object
    /// strings (one placement per definition, after the autogen uses).
    /// What is not drawn (road networks, terrain …) is counted on stderr.
    #[arg(long, requires = "dsf")]
    pub all: bool,
    /// With --all: the base mesh to set the tile on, a DSF or a folder
    /// holding the tile's DSF (as a package, `Earth nav data/+40+010/…`,
    /// a tile folder or directly). Without it, the tile's own DSF when it
    /// is a base mesh, else the mesh X-Plane would load (--xplane), else
    /// flat at the tile's airport elevation (apt.dat), else flat at 0.
    #[arg(long, value_name = "TILE.dsf|DIR", requires = "all")]
    pub mesh: Option<std::path::PathBuf>,
    /// The scenery package the DSF belongs to (default: the folder above
    /// `Earth nav data`).
    #[arg(long, value_name = "DIR", requires = "dsf")]
    pub scenery: Option<PathBuf>,
    /// A library package or Custom Scenery folder to resolve library paths
    /// in (repeatable; searched in order): the DSF's paths, and the art an
    /// asset names that is not beside it.
    #[arg(long = "library", value_name = "DIR")]
    pub library: Vec<PathBuf>,
    /// Resolve library paths across this X-Plane installation (the X-Plane
    /// folder or its Custom Scenery folder), in scenery_packs.ini order,
    /// as the simulator does (the DSF's paths, and the art an asset names
    /// that is not beside it).
    #[arg(long, value_name = "DIR", conflicts_with = "library")]
    pub xplane: Option<PathBuf>,
    /// Place without reading the art the assets name: objects as points,
    /// tree lines and fills at the fixed 10 m spacing, no art fields.
    #[arg(long)]
    pub no_art: bool,
    /// A dataref value for libraries' REGION_DREF conditions (repeatable);
    /// conditions on datarefs not given are assumed to hold.
    #[arg(long = "dref", value_name = "NAME=VALUE", requires = "dsf")]
    pub dref: Vec<String>,
    /// The season for X-Plane 12 seasonal exports (e.g. sum, win).
    #[arg(long, value_name = "SEASON", requires = "dsf")]
    pub season: Option<String>,
    /// Seed of every random choice. With --dsf, use I of a tile (in the
    /// order `agkit dsf autogen` lists them) draws from SEED XOR I.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: u64,
    /// Object density setting 1..6.
    #[arg(
        long,
        default_value_t = 6,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u8).range(1..=6)
    )]
    pub density: u8,
    /// AGP orientation convention (WorldEditor's, as authors see it, unless
    /// `spec`).
    #[arg(long, value_enum, default_value_t = Frame::Wed)]
    pub frame: Frame,
    /// Print the engine's decisions to stderr.
    #[arg(long)]
    pub explain: bool,
    /// Largest extent of one polygon in metres (the larger side of its
    /// bounding box); a wider one is refused before placing.
    #[arg(long, value_name = "METRES", default_value_t = Limits::default().max_extent_m,
          value_parser = positive_metres)]
    pub max_extent: f64,
    /// Output format (default: from the -o extension, else json).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// How a picture (svg, png) draws: the art itself (tiles with their
    /// texture, footprints, roofs, crowns; symbols where art is missing),
    /// or symbols only.
    #[arg(long, value_enum, default_value_t = agkit::out::svg::PictureStyle::Textured)]
    pub style: agkit::out::svg::PictureStyle,
    /// Indent GeoJSON for people to read (it is compact otherwise).
    #[arg(long)]
    pub pretty: bool,
    /// Output file (written atomically; stdout when absent).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl Args {
    /// The output format: `--format`, else from the `-o` extension, else
    /// JSON; `Err` when `-o` has an extension that names none.
    pub fn format(&self) -> Result<Format, String> {
        match (self.format, &self.output) {
            (Some(f), _) => Ok(f),
            (None, Some(o)) => Format::from_path(o).ok_or_else(|| {
                format!(
                    "{}: cannot tell the format from the extension; give --format",
                    o.display()
                )
            }),
            (None, None) => Ok(Format::Json),
        }
    }

    /// The engine settings the flags give.
    pub fn params(&self) -> Params {
        let mut params = Params {
            seed: self.seed,
            density: self.density,
            frame: match self.frame {
                Frame::Spec => FrameConvention::Spec,
                Frame::Wed => FrameConvention::Wed,
            },
            explain: self.explain,
            whole_tile: self.all,
            mesh: self.mesh.clone(),
            limits: Limits {
                max_extent_m: self.max_extent,
                ..Limits::default()
            },
            ..Params::default()
        };
        if let Some(p) = self.param {
            params = params.with_dsf_param(p);
        }
        if let Some(h) = self.height {
            params.height = h;
        }
        if let Some(k) = self.spawning.or(self.spelling_set) {
            params.low = k;
        }
        params
    }
}

impl Args {
    /// Refuses a flag that does not apply to an asset of `kind`
    /// (`--spawning` on an .agb, `--spelling-set` on an .ags, a polygon
    /// parameter on an .agp), so that it is not silently ignored.
    pub fn check_applies(&self, kind: Kind) -> Result<(), String> {
        let given = [
            ("--param", self.param.is_some()),
            ("--height", self.height.is_some()),
            ("--spawning", self.spawning.is_some()),
            ("--spelling-set", self.spelling_set.is_some()),
        ];
        let (applies, what): (&[&str], &str) = match kind {
            Kind::Agp => (
                &[],
                "an .agp takes --at LAT,LON[,HEADING] and no polygon parameter",
            ),
            Kind::Agb => (
                &["--param", "--height", "--spelling-set"],
                "an .agb takes --height and --spelling-set (or --param); --spawning counts an .ags's contours",
            ),
            Kind::Ags => (
                &["--param", "--height", "--spawning"],
                "an .ags takes --height and --spawning (or --param); --spelling-set chooses an .agb's spellings",
            ),
        };
        match given.iter().find(|(f, on)| *on && !applies.contains(f)) {
            Some((flag, _)) => Err(format!(
                "{flag} does not apply to an {} asset: {what}",
                kind.header()
            )),
            None => Ok(()),
        }
    }
}

/// `--height`: metres, 0 to 1020 (the DSF parameter's high byte × 4).
fn parse_height(s: &str) -> Result<f64, String> {
    let h: f64 = s
        .trim()
        .parse()
        .map_err(|_| "expected a height in metres".to_string())?;
    if (0.0..=1020.0).contains(&h) {
        Ok(h)
    } else {
        Err("a building height is 0 to 1020 m: a DSF stores height / 4 in 8 bits".to_string())
    }
}

/// A `--max-extent` value: a positive number of metres.
fn positive_metres(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("`{s}` is not a positive number of metres")),
    }
}
