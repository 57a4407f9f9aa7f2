//! Every file under src/, for the tests that read the source tree (tests/docs.rs: the layout
//! names each; tests/layers.rs: no circle between them).

use std::path::PathBuf;

/// The paths of every file under src/, written with `/` (e.g. `src/search/mod.rs`).
pub fn src_files() -> Vec<String> {
    let mut files = Vec::new();
    let mut folders = vec![PathBuf::from("src")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("src/ is readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files
}
