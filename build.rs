//! Compiles in every lesson of `lessons/` (src/lessons.rs): a teacher adds a file there, and the next build has it.

fn main() {
    println!("cargo:rerun-if-changed=lessons");
    let mut files: Vec<_> =
        std::fs::read_dir("lessons").map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect()).unwrap_or_default();
    files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "json"));
    files.sort();
    let mut out = String::from("/// (file name, text) of every lesson file.\npub const FILES: &[(&str, &str)] = &[\n");
    for p in files {
        println!("cargo:rerun-if-changed={}", p.display());
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        // Relative to the package, not an absolute path: a target directory shared by two checkouts (CI's fresh
        // clone) would otherwise keep the other checkout's path, since this script only reruns on a change here.
        out.push_str(&format!(
            "    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/lessons/{name}\"))),\n"
        ));
    }
    out.push_str("];\n");
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("lessons.rs");
    std::fs::write(dest, out).expect("write lessons.rs");
}
