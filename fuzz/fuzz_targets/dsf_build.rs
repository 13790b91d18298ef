//! `dsf build` from DSF2Text: whatever the text, parsing and building end
//! with a model or an error (never a panic, a hang or memory out of
//! proportion). A model that builds, kept in order or grouped as `dsf
//! build` writes it, reads back with as many objects, polygons, patches
//! and chains, and the text of what was built parses and builds again.
#![no_main]
use agkit::dsf::{self, BuildOptions, Dsf, Entity};
use libfuzzer_sys::fuzz_target;

/// Objects, polygons, patches and chains.
fn census(d: &Dsf) -> [usize; 4] {
    let mut c = [0; 4];
    for e in &d.entities {
        match e {
            Entity::Filter(_) => {}
            Entity::Object(_) => c[0] += 1,
            Entity::Polygon(_) => c[1] += 1,
            Entity::Patch(_) => c[2] += 1,
            Entity::Network(_) => c[3] += 1,
        }
    }
    c
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut no_raster = |_: &str| -> Result<Vec<u8>, String> { Err("no rasters".into()) };
    let Ok((model, opts)) = dsf::from_text(&text, &mut no_raster) else {
        return;
    };
    for group in [false, true] {
        let opts = BuildOptions {
            group,
            strip: group,
            ..opts
        };
        let Ok(bytes) = dsf::build(&model, &opts) else {
            continue;
        };
        let back = dsf::read(&bytes).expect("a built DSF reads");
        assert_eq!(census(&back), census(&model), "entities lost or made");
        let t = dsf::to_text(&back, &dsf::TextOptions::default());
        let (again, o) = dsf::from_text(&t, &mut no_raster).expect("its text parses");
        dsf::build(&again, &o).expect("and builds again");
    }
});
