//! `cargo xtask figures [FLAGS…]`: runs every figure program (each binary or example whose name
//! ends in `_figures`) in release mode from the repository root, passing the flags to each: all
//! of them take `bench_harness::FigureArgs` (`--quick`, `--only`, `--machine`, `--out`,
//! `--allow-dirty`, `--redraw`). `cargo xtask figures --redraw` draws every chart again from the
//! committed tables and changes only the SVGs whose drawing changed.
//! `cargo xtask figures --check` verifies every sidecar instead (see `xtask_checks::sidecars`).

use anyhow::bail;

use crate::util::{cargo, root, run_step};
use crate::{sidecars, workspace};

#[derive(Debug, clap::Args)]
pub struct FiguresArgs {
    /// Verify every sidecar in figures/ (clean commit containing the program, machine and
    /// adapter named, data and chart present) instead of running the programs.
    #[arg(long)]
    pub check: bool,
    /// Flags for every figure program, e.g. `--quick` or `--only PART` (see a program's `--help`).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "FLAGS"
    )]
    pub program_flags: Vec<String>,
}

pub fn run(args: &FiguresArgs) -> anyhow::Result<()> {
    if args.check {
        return check_all();
    }
    let programs = workspace::figure_programs()?;
    if programs.is_empty() {
        bail!("no figure programs found (binaries or examples whose name ends in `_figures`)");
    }
    for program in &programs {
        let mut cmd = cargo();
        cmd.args(["run", "--release", "-p", &program.package])
            .args([
                if program.example {
                    "--example"
                } else {
                    "--bin"
                },
                &program.bin,
            ])
            .arg("--")
            .args(&args.program_flags);
        run_step(
            &mut cmd,
            &format!("figures from {}::{}", program.package, program.bin),
            "Its message above says what went wrong.",
        )?;
    }
    eprintln!(
        "\n{} figure program(s) ran; review `git status figures/` and commit the results.",
        programs.len()
    );
    Ok(())
}

/// Every sidecar of `figures/`: see `xtask_checks::sidecars` for what is checked.
pub fn check_all() -> anyhow::Result<()> {
    let problems = sidecars::check_dir(&root(), &root().join("figures"))?;
    if !problems.is_empty() {
        bail!(
            "{} problem(s) in figures/:\n  {}\nRegenerate the figure from a clean commit \
             (`cargo xtask figures --only …`) and commit it.",
            problems.len(),
            problems.join("\n  ")
        );
    }
    eprintln!("every sidecar in figures/ names a clean commit that contains its program");
    Ok(())
}
