//! Writes the art of the bundled examples (`cargo run --example make_art`):
//! every object, facade, forest and texture the example assets name, drawn
//! by `examples/art/art.rs`. `tests/example_art.rs` checks that the
//! committed files are what it draws.

#[path = "art.rs"]
mod art;

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut total = 0;
    for (path, bytes) in art::files() {
        let to = root.join(&path);
        if let Err(e) = agkit::fsutil::write_atomic(&to, &bytes) {
            eprintln!("make_art: cannot write {}: {e}", to.display());
            std::process::exit(1);
        }
        println!("{:>9} bytes  examples/{path}", bytes.len());
        total += bytes.len();
    }
    println!("{total:>9} bytes in all");
}
