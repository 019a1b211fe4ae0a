//! Deterministic twins: each kernel run once under `valgrind --tool=cachegrind`, which simulates
//! the L1 data cache and the last-level cache and counts instructions, misses and mispredicted
//! branches. The counts are the same on every run, however noisy the machine.

use std::collections::LinkedList;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, bail};
use bench_harness::{Csv, MachineInfo, Progress, Sidecar, black_box, figures_dir};
use memory_hierarchies::access::{self, Matrix};
use memory_hierarchies::rng::shuffled;
use memory_hierarchies::{containers, inlining, pipeline};

use crate::config::Config;
use crate::layouts::{big_u64s, matrix_side};

/// `(kernel name, functions whose counts are the kernel's)`. There is no aged-heap list here:
/// under valgrind every allocation goes through valgrind's own allocator, which lays blocks out
/// differently from the system allocator the timed runs use.
const KERNELS: [(&str, &[&str]); 13] = [
    ("sequential", &["access::sum_in_order"]),
    ("strided", &["access::sum_in_order"]),
    ("random", &["access::sum_in_order"]),
    ("row_major", &["access::sum_row_major"]),
    ("col_major", &["access::sum_col_major"]),
    ("transpose_naive", &["access::transpose_naive"]),
    ("transpose_blocked", &["access::transpose_blocked"]),
    ("vec_sum", &["containers::sum_vec"]),
    ("list_fresh", &["containers::sum_list", "linked_list::Iter"]),
    ("branch_sorted", &["pipeline::sum_above_branchy"]),
    ("branch_random", &["pipeline::sum_above_branchy"]),
    ("branchless_random", &["pipeline::sum_above_branchless"]),
    (
        "inline_calls",
        &["inlining::apply_with_calls", "scale_never_inlined"],
    ),
];

/// Runs one kernel once and returns how many elements it handled. This is what valgrind runs.
pub fn run_kernel(name: &str, cfg: &Config) -> anyhow::Result<()> {
    let elements = kernel(name, cfg)?;
    println!("kernel {name}: {elements} elements");
    Ok(())
}

fn kernel(name: &str, cfg: &Config) -> anyhow::Result<usize> {
    let n = big_u64s(cfg);
    let side = matrix_side(cfg);
    let small = if cfg.quick { 100_000 } else { 1_000_000 };
    let gather = |order: Vec<u32>| {
        let data: Vec<u64> = (0..n as u64).collect();
        black_box(access::sum_in_order(&data, black_box(&order)));
        n
    };
    let branches = |sorted: bool, branchy: bool| {
        let mut data = pipeline::random_bytes(small, 3);
        if sorted {
            data.sort_unstable();
        }
        black_box(if branchy {
            pipeline::sum_above_branchy(black_box(&data), 128)
        } else {
            pipeline::sum_above_branchless(black_box(&data), 128)
        });
        small
    };
    let values: Vec<u64> = if name.starts_with("list") || name == "vec_sum" {
        (0..small as u64).collect()
    } else {
        Vec::new()
    };
    Ok(match name {
        "sequential" => gather(access::sequential_order(n)),
        "strided" => gather(access::strided_order(n, 16)),
        "random" => gather(shuffled(n, 11)),
        "row_major" | "col_major" => {
            let m = Matrix::ramp(side, side);
            black_box(if name == "row_major" {
                access::sum_row_major(black_box(&m))
            } else {
                access::sum_col_major(black_box(&m))
            });
            side * side
        }
        "transpose_naive" | "transpose_blocked" => {
            let m = Matrix::ramp(side, side);
            let mut out = access::transposed_shape(&m);
            if name == "transpose_naive" {
                access::transpose_naive(black_box(&m), &mut out);
            } else {
                access::transpose_blocked(black_box(&m), &mut out, 32);
            }
            black_box(&out);
            side * side
        }
        "vec_sum" => {
            black_box(containers::sum_vec(black_box(&values)));
            small
        }
        "list_fresh" => {
            let list: LinkedList<u64> = values.iter().copied().collect();
            black_box(containers::sum_list(black_box(&list)));
            small
        }
        "branch_sorted" => branches(true, true),
        "branch_random" => branches(false, true),
        "branchless_random" => branches(false, false),
        "inline_calls" | "inline_inlined" => {
            let mut v: Vec<f32> = (0..small).map(|i| i as f32).collect();
            if name == "inline_calls" {
                inlining::apply_with_calls(black_box(&mut v));
            } else {
                inlining::apply_inlined(black_box(&mut v));
            }
            black_box(&v);
            small
        }
        other => {
            let names: Vec<&str> = KERNELS.iter().map(|k| k.0).collect();
            bail!(
                "unknown kernel `{other}`; choose one of: {}, inline_inlined",
                names.join(", ")
            );
        }
    })
}

/// The cache geometry to simulate: the OS's sizes, 64-byte lines, and an associativity that
/// makes the number of sets a power of two (cachegrind requires it).
fn geometry(bytes: u64, preferred_ways: u64) -> String {
    let ways = [preferred_ways, 16, 12, 8, 11, 20, 24, 4]
        .into_iter()
        .find(|w| (bytes / 64 / w).is_power_of_two() && bytes.is_multiple_of(64 * w))
        .unwrap_or(preferred_ways);
    format!("{bytes},{ways},64")
}

pub fn run_all(cfg: &Config) -> anyhow::Result<()> {
    let valgrind = Command::new("valgrind").arg("--version").output();
    if !valgrind.is_ok_and(|o| o.status.success()) {
        eprintln!(
            "valgrind is not installed: skipping the cachegrind counts \
             (install it, e.g. `apt-get install valgrind`, to regenerate memory_cachegrind.csv)"
        );
        return Ok(());
    }
    let machine = MachineInfo::detect();
    let d1 = geometry(machine.data_cache_bytes(1).unwrap_or(32 << 10), 8);
    let ll = geometry(cfg.llc as u64, 16);
    let exe = std::env::current_exe().context("cannot find this program")?;
    let work = std::env::temp_dir().join(format!("memory_cachegrind_{}", std::process::id()));
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let mut csv = Csv::new(&[
        "kernel",
        "elements",
        "Ir",
        "Dr",
        "D1mr",
        "DLmr",
        "Dw",
        "D1mw",
        "DLmw",
        "Bc",
        "Bcm",
        "Ir_per_element",
        "D1_misses_per_element",
        "LL_misses_per_element",
        "mispredicts_per_element",
    ]);
    let mut all: Vec<(&str, &[&str])> = KERNELS.to_vec();
    all.push(("inline_inlined", &["inlining::apply_inlined"]));
    let progress = Progress::new(all.len() as u64, "cachegrind");
    println!("\ncachegrind (D1 {d1}, LL {ll}; counts of the kernel's own functions)");
    for (name, functions) in all {
        progress.step(name);
        let out_file = work.join(format!("cg.{name}.out"));
        let mut cmd = Command::new("valgrind");
        cmd.arg("--tool=cachegrind")
            .arg("--cache-sim=yes")
            .arg("--branch-sim=yes")
            .arg(format!("--I1={}", geometry(32 << 10, 8)))
            .arg(format!("--D1={d1}"))
            .arg(format!("--LL={ll}"))
            .arg(format!("--cachegrind-out-file={}", out_file.display()))
            .arg(&exe)
            .args(["--cachegrind", name]);
        if cfg.quick {
            cmd.arg("--quick");
        }
        let output = cmd.output().context("could not start valgrind")?;
        if !output.status.success() {
            bail!(
                "valgrind failed on kernel {name}:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let stdout = String::from_utf8_lossy(&output.stdout);
        let elements: usize = stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("kernel {name}: ")))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .with_context(|| format!("kernel {name} did not say how many elements it ran"))?;
        let counts = parse_cg_out(&out_file, functions)?;
        let get = |e: &str| counts.iter().find(|c| c.0 == e).map_or(0, |c| c.1);
        let per = |x: u64| format!("{:.4}", x as f64 / elements as f64);
        let d1_misses = get("D1mr") + get("D1mw");
        let ll_misses = get("DLmr") + get("DLmw");
        println!(
            "  {name:<18} {elements:>9} elements: {:>6} instr, {:>7} D1 misses, {:>7} LL misses, {:>7} mispredicts per element",
            per(get("Ir")),
            per(d1_misses),
            per(ll_misses),
            per(get("Bcm"))
        );
        let mut row = vec![name.to_owned(), elements.to_string()];
        for e in [
            "Ir", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw", "Bc", "Bcm",
        ] {
            row.push(get(e).to_string());
        }
        row.extend([
            per(get("Ir")),
            per(d1_misses),
            per(ll_misses),
            per(get("Bcm")),
        ]);
        csv.row(&row);
    }
    progress.finish();
    let _ = std::fs::remove_dir_all(&work);
    let dir = figures_dir();
    let io = |e: std::io::Error| anyhow::Error::new(e).context("could not write memory_cachegrind");
    csv.write(&dir.join("memory_cachegrind.csv")).map_err(io)?;
    let mut sidecar = Sidecar::new(
        "memory_cachegrind",
        "Cache misses, instructions and branch mispredictions of each kernel, simulated by cachegrind",
    );
    sidecar.notes = vec![
        format!("valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --D1={d1} --LL={ll}"),
        "cachegrind simulates two levels (L1 and the last level), no L2 and no prefetcher".into(),
        "counts are summed over the kernel's own functions, so setup is not counted".into(),
        "the branch and inlining kernels use 1M elements; the others the sizes of the timed runs"
            .into(),
    ];
    sidecar.files = vec!["memory_cachegrind.csv".into()];
    sidecar
        .write(&dir.join("memory_cachegrind.json"))
        .map_err(io)?;
    println!("wrote figures/memory_cachegrind.{{csv,json}}");
    Ok(())
}

/// Sums the event counts of every function whose name contains one of `functions`.
fn parse_cg_out(path: &Path, functions: &[&str]) -> anyhow::Result<Vec<(String, u64)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read cachegrind output {}", path.display()))?;
    parse_cg_text(&text, functions).with_context(|| path.display().to_string())
}

fn parse_cg_text(text: &str, functions: &[&str]) -> anyhow::Result<Vec<(String, u64)>> {
    let events: Vec<String> = text
        .lines()
        .find_map(|l| l.strip_prefix("events:"))
        .context("no `events:` line: is this a cachegrind output file?")?
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let mut totals = vec![0u64; events.len()];
    let mut inside = false;
    let mut matched = false;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("fn=") {
            inside = functions.iter().any(|f| name.contains(f));
            matched |= inside;
        } else if inside && line.starts_with(|c: char| c.is_ascii_digit()) {
            // "<line number> <count per event…>"; trailing zero counts may be left out.
            for (total, count) in totals.iter_mut().zip(line.split_whitespace().skip(1)) {
                *total += count.parse::<u64>().unwrap_or(0);
            }
        }
    }
    if !matched {
        bail!("no function matching {functions:?}: was the kernel inlined away?");
    }
    Ok(events.into_iter().zip(totals).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "desc: D1 cache: 32768 B, 64 B, 8-way associative
cmd: ./t
events: Ir Dr D1mr
fl=src/lib.rs
fn=memory_hierarchies::access::sum_row_major
10 100 50 3
11 20 10
fn=main
5 1000 1000 1000
fn=memory_hierarchies::access::sum_row_major
12 1 1 1
summary: 1121 1061 1004
";

    #[test]
    fn sums_only_the_kernel_functions() {
        let counts = parse_cg_text(SAMPLE, &["access::sum_row_major"]).unwrap();
        assert_eq!(
            counts,
            vec![("Ir".into(), 121), ("Dr".into(), 61), ("D1mr".into(), 4)]
        );
    }

    #[test]
    fn says_when_nothing_matches() {
        let err = parse_cg_text(SAMPLE, &["sum_col_major"]).unwrap_err();
        assert!(err.to_string().contains("inlined away"), "{err}");
        assert!(parse_cg_text("fn=x\n", &["x"]).is_err());
    }

    #[test]
    fn geometry_keeps_the_number_of_sets_a_power_of_two() {
        assert_eq!(geometry(32 << 10, 8), "32768,8,64");
        assert_eq!(geometry(32 << 20, 16), "33554432,16,64");
        assert_eq!(geometry(12 << 20, 16), "12582912,12,64");
    }
}
