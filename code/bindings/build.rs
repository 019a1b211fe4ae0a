//! Compiles the C++ half of the `cxx` bridge (`src/cpp.rs` + `src/cpp/gain_loops.cc`), and lets
//! the tests and the figure program find the Python library they were linked against.

fn main() {
    // ANCHOR: cxx_build
    let mut cpp = cxx_build::bridge("src/cpp.rs");
    cpp.file("src/cpp/gain_loops.cc").std("c++17");
    // A release build of C++ drops its `assert`s (cxx checks every slice index with one), as a
    // C++ host program's release build would; the tests keep them.
    if std::env::var("PROFILE").as_deref() == Ok("release") {
        cpp.define("NDEBUG", None);
    }
    cpp.compile("bindings_cpp");
    // ANCHOR_END: cxx_build
    println!("cargo:rerun-if-changed=src/cpp/gain_loops.cc");
    println!("cargo:rerun-if-changed=src/cpp/gain_loops.h");
    // A Python from pyenv, conda or a virtual environment keeps libpython outside the dynamic
    // linker's search path: record its folder in the binaries (rpath), so `cargo test` runs
    // without LD_LIBRARY_PATH. A system Python's folder is searched anyway.
    pyo3_build_config::add_libpython_rpath_link_args();
}
