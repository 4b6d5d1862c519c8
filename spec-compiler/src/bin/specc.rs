//! `specc [SPEC_DIR]`: validate a spec folder and print its diagnostics
//! (`file:line: message`), exit status 1 when anything is wrong.

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "spec".to_string());
    let path = std::path::Path::new(&dir);
    match euref_spec_compiler::compile(path, &dir) {
        Ok(out) => {
            println!(
                "{}: ok ({} files, {} bytes of Rust generated)",
                dir,
                out.inputs.len(),
                out.rust.len()
            );
        }
        Err(diags) => {
            for d in &diags {
                eprintln!("{d}");
            }
            eprintln!("{dir}: {} error(s)", diags.len());
            std::process::exit(1);
        }
    }
}
