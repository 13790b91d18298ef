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

/// Refuses to write an output over its own input (by identity: links and
/// `./x` are the same file) before any work; a missing folder is made
/// later, so only the input is refused here.
pub fn refuse_overwrite(input: &Path, out: &Path) -> Result<(), u8> {
    use agkit::fsutil::{OutputErrorKind, OutputRole, check_output};
    match check_output(out, OutputRole::File, &[input]) {
        Err(e)
            if matches!(
                e.kind,
                OutputErrorKind::IsInput(_) | OutputErrorKind::IsFolder
            ) =>
        {
            Err(output::fail(e))
        }
        _ => Ok(()),
    }
}
