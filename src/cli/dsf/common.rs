//! What the `agkit dsf` subcommands share: reading a DSF, and the
//! messages for a read error, a bad MD5 footer and an output that is its
//! own input.

use crate::cli::output::{self, EXIT_INPUT};
use agkit::check::Contents;
use agkit::dsf;
use std::path::Path;

pub fn load(file: &Path) -> Result<dsf::Dsf, u8> {
    let max = agkit::limits::Limits::default().max_input_bytes;
    let bytes = agkit::fsutil::read_file(file, "a DSF tile", max).map_err(output::fail)?;
    match dsf::read(&bytes) {
        Ok(d) => {
            md5_warning(file, &d);
            Ok(d)
        }
        Err(e) => Err(dsf_error(file, &e, &bytes)),
    }
}

/// Warns when the MD5 footer does not match.
pub fn md5_warning(file: &Path, d: &dsf::Dsf) {
    if let dsf::Md5Status::Mismatch { offset, .. } = d.md5 {
        eprintln!(
            "warning[DSF020]: {} @ byte {offset}: the MD5 footer does not match the file",
            file.display()
        );
    }
}

/// Reports a read error with the file and byte offset.
pub fn dsf_error(file: &Path, e: &dsf::DsfError, bytes: &[u8]) -> u8 {
    eprintln!(
        "error[{}]: {} @ byte {}: {}{}",
        e.code(),
        file.display(),
        e.offset,
        e.message(),
        output::kind_hint(bytes, Contents::Dsf)
    );
    EXIT_INPUT
}

/// True when `output` names the file `input` is (so writing it would
/// replace the input).
fn is_input(input: &Path, output: &Path) -> bool {
    match (input.canonicalize(), output.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Refuses to write an output over its own input.
pub fn refuse_overwrite(input: &Path, output: &Path) -> Result<(), u8> {
    if is_input(input, output) {
        Err(output::fail(format!(
            "{}: the output is the input file; name another output",
            output.display()
        )))
    } else {
        Ok(())
    }
}
