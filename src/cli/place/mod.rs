//! `agkit place`: what an autogen asset lays down, as JSON, GeoJSON,
//! DSF2Text, SVG or PNG.
//!
//! - `agkit place A.agp --at LAT,LON[,HEADING]` ([`asset`]);
//! - `agkit place A.agb|A.ags --polygon P.geojson [--param N | --height M
//!   --spawning K | --spelling-set S]` ([`asset`]);
//! - `agkit place --dsf TILE.dsf|FOLDER [--scenery DIR] [--library DIR]... |
//!   [--xplane DIR]` ([`tiles`]).
//!
//! The library places; these modules parse the arguments ([`args`]), print
//! the messages and write the output ([`report`]).

mod args;
mod asset;
mod report;
mod tiles;

pub use args::Args;

/// The three forms of `agkit place`, for its usage line.
pub const USAGE: &str = "agkit place ASSET.agp --at LAT,LON[,HEADING] [OPTIONS]
       agkit place ASSET.agb|ASSET.ags --polygon FILE.geojson [OPTIONS]
       agkit place --dsf TILE.dsf|FOLDER [--scenery DIR] [--library DIR]... [OPTIONS]
       agkit place --dsf TILE.dsf|FOLDER --xplane DIR [OPTIONS]";

/// Runs `agkit place`.
pub fn run(mut args: Args) -> u8 {
    if args.asset.is_none() && args.dsf.is_none() {
        return crate::cli::output::fail(format!(
            "give an asset to place, or --dsf with a DSF tile\n\nUsage: {USAGE}\n\nFor more \
             information, try '--help'."
        ));
    }
    args.output = crate::cli::output::output_file(args.output);
    let format = match args.format() {
        Ok(f) => f,
        Err(e) => return crate::cli::output::fail(e),
    };
    if let Some(o) = &args.output {
        let inputs: Vec<&std::path::Path> = [&args.asset, &args.polygon, &args.dsf]
            .into_iter()
            .flatten()
            .map(|p| p.as_path())
            .collect();
        let role = agkit::fsutil::OutputRole::File;
        if let Err(code) = crate::cli::output::check_output(o, role, &inputs) {
            return code;
        }
    }
    let params = args.params();
    match (&args.dsf, &args.polygon, &args.at) {
        (Some(dsf), _, _) => tiles::run(dsf, &args, &params, format),
        (None, Some(poly), None) => asset::run_polygons(poly, &args, &params, format),
        _ => asset::run_at(&args, &params, format),
    }
}
