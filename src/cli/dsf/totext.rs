//! `agkit dsf totext`: DSFs (plain or 7z) to DSF2Text, streamed.

use super::common::{dsf_error, md5_warning, refuse_overwrite};
use crate::cli::output::{self, EXIT_OK, EXIT_USAGE};
use agkit::dsf::{self, TextOptions};
use std::path::{Path, PathBuf};

/// One DSF to convert and where its text goes (`None` = stdout).
struct Job {
    input: PathBuf,
    output: Option<PathBuf>,
}

/// True for a `.dsf` file name (any case).
fn is_dsf(p: &Path) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case("dsf"))
}

/// The `.dsf` files below `dir`, sorted, as paths relative to it.
fn dsf_files_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for entry in std::fs::read_dir(dir.join(&rel))? {
            let entry = entry?;
            if agkit::fsutil::is_temp_name(&entry.file_name()) {
                continue; // what a killed write left
            }
            let rel = rel.join(entry.file_name());
            let ty = entry.file_type()?;
            if ty.is_dir() {
                stack.push(rel);
            } else if is_dsf(&rel) {
                out.push(rel);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// `<name>.txt` for a DSF called `<name>` (so `+47+012.dsf.txt`, which
/// never clashes with the DSF itself or DSFTool's `+47+012.txt`).
fn text_name(rel: &Path) -> PathBuf {
    let mut name = rel.as_os_str().to_owned();
    name.push(".txt");
    PathBuf::from(name)
}

/// Works out which text each input gets.
fn plan(files: &[PathBuf], output: Option<&Path>) -> Result<Vec<Job>, u8> {
    let single = files.len() == 1 && !files[0].is_dir();
    if single {
        let output = output.map(|o| {
            if o.is_dir() {
                o.join(text_name(Path::new(
                    files[0].file_name().unwrap_or_default(),
                )))
            } else {
                o.to_path_buf()
            }
        });
        return Ok(vec![Job {
            input: files[0].clone(),
            output,
        }]);
    }
    if let Some(o) = output
        && o.exists()
        && !o.is_dir()
    {
        return Err(output::fail(format!(
            "{}: with several DSFs, -o must name a directory",
            o.display()
        )));
    }
    let mut jobs = Vec::new();
    for f in files {
        if f.is_dir() {
            let found =
                dsf_files_in(f).map_err(|e| output::fail(format!("{}: {e}", f.display())))?;
            if found.is_empty() {
                eprintln!("warning: {}: no .dsf files found", f.display());
            }
            for rel in found {
                let out = match output {
                    Some(o) => o.join(text_name(&rel)),
                    None => f.join(text_name(&rel)),
                };
                jobs.push(Job {
                    input: f.join(rel),
                    output: Some(out),
                });
            }
        } else {
            let name = Path::new(f.file_name().unwrap_or_default());
            let out = match output {
                Some(o) => o.join(text_name(name)),
                None => text_name(f),
            };
            jobs.push(Job {
                input: f.clone(),
                output: Some(out),
            });
        }
    }
    Ok(jobs)
}

pub fn totext_all(files: &[PathBuf], output: Option<&Path>) -> u8 {
    let jobs = match plan(files, output) {
        Ok(j) => j,
        Err(c) => return c,
    };
    // No text may replace an input, even one converted after it.
    for j in &jobs {
        agkit::fsutil::declare_input(&j.input, "a DSF tile");
    }
    let many = jobs.len() > 1 || jobs.first().is_some_and(|j| j.input != files[0]);
    let mut seen = std::collections::HashSet::new();
    let mut status = EXIT_OK;
    let (mut done, mut failed) = (0usize, 0usize);
    for job in &jobs {
        if let Some(out) = &job.output
            && !seen.insert(out.clone())
        {
            eprintln!(
                "error: {}: its text {} was already written for another input",
                job.input.display(),
                out.display()
            );
            status = status.max(EXIT_USAGE);
            failed += 1;
            continue;
        }
        let code = totext(&job.input, job.output.as_deref());
        if code == EXIT_OK {
            done += 1;
            match &job.output {
                Some(out) if many => {
                    eprintln!("{} -> {}", job.input.display(), out.display());
                }
                Some(out) => output::wrote(out, "DSF2Text"),
                None => {}
            }
        } else {
            failed += 1;
        }
        status = status.max(code);
    }
    if many {
        eprintln!("{done} converted, {failed} failed");
    }
    status
}

/// Streams one DSF's text (the text is written as the commands are
/// decoded, never held whole): to `output` atomically, or to stdout.
fn totext(file: &Path, output: Option<&Path>) -> u8 {
    use dsf::read::StreamError;
    if let Some(Err(c)) = output.map(|o| refuse_overwrite(file, o)) {
        return c;
    }
    let max = agkit::limits::Limits::default().max_input_bytes;
    let bytes = match agkit::fsutil::read_file(file, "a DSF tile", max) {
        Ok(b) => b,
        Err(e) => return output::fail(e),
    };
    let decoded = match dsf::read::decode(&bytes, &agkit::limits::Limits::default()) {
        Ok(d) => d,
        Err(e) => return dsf_error(file, &e, &bytes),
    };
    md5_warning(file, &decoded.head);
    let opts = TextOptions {
        source_name: Some(file.display().to_string()),
        raster_base: output.map(|o| o.display().to_string()),
    };
    // A read error found while streaming is reported after the fact; the
    // I/O error handed to the writer only stops it.
    let mut bad: Option<dsf::DsfError> = None;
    let mut stream = |w: &mut dyn std::io::Write| -> std::io::Result<()> {
        match dsf::text::write_stream(&decoded, &opts, w) {
            Ok(()) => Ok(()),
            Err(StreamError::Sink(e)) => Err(e),
            Err(StreamError::Dsf(e)) => {
                bad = Some(e);
                Err(std::io::Error::other("the DSF is malformed"))
            }
        }
    };
    if let Some(out) = output {
        if let Some(dir) = out.parent().filter(|p| !p.as_os_str().is_empty())
            && let Err(e) = std::fs::create_dir_all(dir)
        {
            return output::fail(format!("{}: {}: {e}", file.display(), dir.display()));
        }
        for (k, r) in decoded.head.rasters.iter().enumerate() {
            let name = dsf::text::raster_file_name(&opts, k, r);
            if let Err(e) = agkit::fsutil::write_atomic(Path::new(&name), &r.data) {
                return output::fail(format!("{}: {name}: {e}", file.display()));
            }
        }
    }
    let written = output::write_output_with(output, |w| stream(w));
    match (written, bad) {
        (_, Some(e)) => dsf_error(file, &e, &bytes),
        (Ok(()), None) => EXIT_OK,
        (Err(e), None) => output::fail(format!("{}: {e}", file.display())),
    }
}
