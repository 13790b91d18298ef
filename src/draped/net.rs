//! Road networks (`.net`), where agkit can check them: Laminar's road
//! format is not published, so only what WorldEditor's reader relies on
//! is checked (`WED_ResourceMgr::GetRoad`, xptools
//! `src/WEDCore/WED_ResourceMgr.cpp`): the header `A`/`I`, `800`, `ROADS`,
//! and the textures its `TEXTURE <z> <path>` lines name. Every other line
//! is accepted unread, unknown ones too.

use super::{Cap, Directive, MAX_NET_TEXTURES, Net, check_format};
use crate::diag::Diagnostic;
use crate::kinds::ArtKind;
use crate::limits::Limits;
use crate::xptext::Checked;

crate::diag::rules! {
    HEADER = "NET0001", Error, "the header is not `A`/`I`, `800`, `ROADS`";
    MISSING_ARG = "NET0002", Error, "a `TEXTURE` line has too few arguments";
    NOT_A_NUMBER = "NET0003", Error, "a `TEXTURE` z index is not a number";
    NOT_FINITE = "NET0004", Error, "a number is NaN or infinite";
    OUT_OF_RANGE = "NET0005", Error, "a number outside the range agkit reads (beyond ±1e6)";
    TOO_MANY = "NET0006", Error, "more `TEXTURE`s than agkit reads (4,096)";
}

/// The versions the header may name (`GetRoad` accepts 800).
pub const VERSIONS: &[u32] = &[800];

super::reader!(Network, Net, VERSIONS, unknown: None, known: &[]);

/// Reads a `.net`, returning its text, the model (unless the header is
/// wrong) and every diagnostic.
pub fn check(bytes: &[u8], _limits: &Limits) -> Checked<Net> {
    let mut cap = Cap::new(MAX_NET_TEXTURES, codes::TOO_MANY, "`TEXTURE`s", "net");
    check_format(
        bytes,
        &FORMAT,
        |_| Net::default(),
        |n, d| line(n, d, &mut cap),
        |_, _, _| {},
    )
}

fn line(n: &mut Net, d: &mut Directive<'_, '_>, cap: &mut Cap) -> Result<bool, Diagnostic> {
    match d.keyword().text {
        "TEXTURE" => {
            if !cap.admits(n.names.len(), d)? {
                return Ok(true);
            }
            d.args.number("a z index")?;
            d.path(ArtKind::Texture, &mut n.names)?;
        }
        "ROAD_TYPE" => n.road_types += 1,
        _ => return Ok(false),
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textures_are_named_and_the_rest_accepted() {
        let n = read(
            b"A\n800\nROADS\n#VROAD local\nTEXTURE 3 ../textures/roads.dds\nROAD_TYPE 1 8 20 0 1 1 1\nSEGMENT_DRAPED 0 0 20000 0 -4 0 4 100\nANYTHING else\n",
            "r.net",
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(n.names[0].path, "../textures/roads.dds");
        assert_eq!(n.road_types, 1);
        let e = read(
            b"A\n800\nROADS\nTEXTURE roads.dds\n",
            "r.net",
            &Limits::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("NET0003"), "{e}");
    }
}
