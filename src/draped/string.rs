//! Object strings (`.str`): the objects laid in turn along a DSF line.
//!
//! What is accepted follows WorldEditor's reader, `WED_ResourceMgr::GetStr`
//! (xptools `src/WEDCore/WED_ResourceMgr.cpp`): the header `A`/`I`, `850`,
//! `OBJECT_STRING`; `OFFSET` (metres to the right of the line) and `OBJECT
//! <heading min> <heading max> <path>`, the objects found beside the `.str`
//! or in the libraries. A `.str` keeps at most
//! [`MAX_STRING_OBJECTS`] objects (`STR0008`).

use super::{Cap, Directive, MAX_STRING_OBJECTS, Str, StringObject, check_format, lacks};
use crate::diag::Diagnostic;
use crate::kinds::ArtKind;
use crate::limits::Limits;
use crate::xptext::Checked;

crate::diag::rules! {
    HEADER = "STR0001", Error, "the header is not `A`/`I`, `850`, `OBJECT_STRING`";
    MISSING_ARG = "STR0002", Error, "a directive has too few arguments";
    NOT_A_NUMBER = "STR0003", Error, "an argument that must be a number is not one";
    NOT_FINITE = "STR0004", Error, "a number is NaN or infinite";
    UNKNOWN_DIRECTIVE = "STR0005", Warning, "unknown directive (X-Plane ignores it)";
    NO_OBJECT = "STR0006", Warning, "no `OBJECT`: the string lays nothing";
    OUT_OF_RANGE = "STR0007", Error, "a number outside the range agkit can draw (beyond ±1e6)";
    TOO_MANY = "STR0008", Error, "more `OBJECT`s than agkit reads (4,096)";
}

/// The versions the header may name (`GetStr` accepts 850).
pub const VERSIONS: &[u32] = &[850];

super::reader!(String, Str, VERSIONS, unknown: Some(codes::UNKNOWN_DIRECTIVE), known: &[]);

/// Reads a `.str`, returning its text, the model (unless the header is
/// wrong) and every diagnostic. The `OBJECT`s past
/// [`MAX_STRING_OBJECTS`] are one error, at the first of them.
pub fn check(bytes: &[u8], _limits: &Limits) -> Checked<Str> {
    let mut cap = Cap::new(MAX_STRING_OBJECTS, codes::TOO_MANY, "`OBJECT`s", "str");
    check_format(
        bytes,
        &FORMAT,
        |_| Str::default(),
        |s, d| line(s, d, &mut cap),
        |s, _, diags| {
            lacks(
                diags,
                s.objects.is_empty(),
                codes::NO_OBJECT,
                "no `OBJECT`: the string lays nothing",
            );
        },
    )
}

fn line(s: &mut Str, d: &mut Directive<'_, '_>, cap: &mut Cap) -> Result<bool, Diagnostic> {
    match d.keyword().text {
        "OFFSET" => s.offset = d.args.number("metres to the right")?,
        "OBJECT" => {
            if !cap.admits(s.objects.len(), d)? {
                return Ok(true);
            }
            let heading = d.pair(["a lowest heading", "a highest heading"])?;
            let path = d.path(ArtKind::Object, &mut s.names)?;
            s.objects.push(StringObject { heading, path });
        }
        _ => return Ok(false),
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_objects_and_offset_and_names_bad_lines() {
        let s = read(
            b"A\n850\nOBJECT_STRING\n\nOBJECT 0 10 lights/blue.obj\nOFFSET -2.5\n",
            "a.str",
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(s.objects[0].path, "lights/blue.obj");
        assert_eq!(s.objects[0].heading, [0.0, 10.0]);
        assert_eq!(s.offset, -2.5);
        let e = read(
            b"A\n850\nOBJECT_STRING\nOBJECT x y\n",
            "b.str",
            &Limits::default(),
        )
        .unwrap_err();
        assert!(
            e.to_string().starts_with("b.str:4:8: error[STR0003]"),
            "{e}"
        );
        let e = read(
            b"A\n850\nOBJECT_STRING\nOBJECT 0 0\n",
            "c.str",
            &Limits::default(),
        )
        .unwrap_err();
        assert!(
            e.to_string().starts_with("c.str:4:1: error[STR0002]"),
            "{e}"
        );
    }

    /// Issue 46 item 5: a `.str` of 100,000 `OBJECT` lines was
    /// "unreadable" with no reason given; the refusal says the limit, at
    /// the first line past it, once.
    #[test]
    fn a_str_of_100000_objects_says_why_it_is_refused() {
        let mut t = String::from("A\n850\nOBJECT_STRING\n");
        for _ in 0..100_000 {
            t.push_str("OBJECT 0 0 y.obj\n");
        }
        let e = read(t.as_bytes(), "s.str", &Limits::default()).unwrap_err();
        assert_eq!(e.diagnostics.len(), 1, "{:?}", &e.diagnostics[..2]);
        let s = e.to_string();
        assert_eq!(
            s,
            format!(
                "s.str:{}:1: error[STR0008]: more than 4,096 `OBJECT`s: agkit reads at most that many in one .str",
                4 + MAX_STRING_OBJECTS
            )
        );
    }
}
