//! Embeds every levels file `levels/FAMILY.txt` (the playground's bundled levels), so that a
//! family's levels appear by adding its file: `$OUT_DIR/levels.rs` holds
//! `FILES: &[(family, text)]`, sorted by family.

use std::path::Path;

fn main() {
    let dir = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("levels");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .filter_map(|p| {
                    let stem = p.file_stem()?.to_str()?.to_string();
                    println!("cargo:rerun-if-changed={}", p.display());
                    Some((stem, p.display().to_string()))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::from(
        "/// Every levels file: (family, text), sorted by family.\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for (family, path) in files {
        out.push_str(&format!("    ({family:?}, include_str!({path:?})),\n"));
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets it")).join("levels.rs");
    std::fs::write(dest, out).expect("write levels.rs");
}
