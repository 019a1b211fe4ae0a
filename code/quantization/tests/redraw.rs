//! `--redraw` of each figure program on a copy of its committed figures: every chart comes out
//! byte-identical to the committed SVG (the chart code draws from the CSV what the measuring run
//! drew), and every figure is found.

use std::fs;
use std::process::Command;

use bench_harness::{CommittedFigures, committed_figures_dir};

/// Runs `bin --redraw` on the copy and checks its summary (`changed, unchanged, kept`) and that
/// every file in the copy is still byte-identical to the committed one.
fn redraws_identically(bin: &str, exe: &str, sources: &[&str], unchanged: usize, kept: usize) {
    let committed = CommittedFigures::copy(bin, sources).unwrap();
    let dir = committed.dir();
    let out = Command::new(exe).args(committed.flags()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{bin} --redraw failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = format!(
        "0 SVG(s) changed, {unchanged} unchanged, {kept} figure(s) without a chart to redraw"
    );
    assert!(
        stdout.contains(&summary),
        "{bin}: expected `{summary}`, got:\n{stdout}"
    );
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let before = fs::read(committed_figures_dir().join(entry.file_name())).unwrap();
        assert!(
            fs::read(entry.path()).unwrap() == before,
            "{bin} --redraw changed {}",
            entry.file_name().to_string_lossy()
        );
    }
}

#[test]
fn lenet_figures_redraw_finds_its_table() {
    redraws_identically(
        "lenet_figures",
        env!("CARGO_BIN_EXE_lenet_figures"),
        &["code/quantization/src/bin/lenet_figures"],
        0,
        1,
    );
}

#[test]
fn inference_figures_redraw_the_committed_charts() {
    redraws_identically(
        "inference_figures",
        env!("CARGO_BIN_EXE_inference_figures"),
        &["code/quantization/src/bin/inference_figures/"],
        1,
        1,
    );
}

#[test]
fn quantization_practice_figures_redraw_the_committed_charts() {
    redraws_identically(
        "quantization_practice_figures",
        env!("CARGO_BIN_EXE_quantization_practice_figures"),
        &["code/quantization/src/bin/quantization_practice_figures/"],
        4,
        0,
    );
}

#[test]
fn quantization_figures_redraw_the_committed_charts() {
    // 19 charts of 13 figures; six figures are tables for the text (cooperative matrices, CPU
    // energy counters, octahedral normals, shared exponents).
    redraws_identically(
        "quantization_figures",
        env!("CARGO_BIN_EXE_quantization_figures"),
        &["code/quantization/src/bin/quantization_figures/"],
        19,
        6,
    );
}
