//! Runs your solution of one puzzle on your GPU (natively, through wgpu) and judges it like the
//! book's page does. `cargo run -p gpu_puzzles --bin puzzle -- --list` lists the puzzles;
//! `cargo run -p gpu_puzzles --bin puzzle -- map my_map.wgsl` runs a file (by default the
//! puzzle's stub, `puzzles/<id>/stub.wgsl`, which you may edit in place).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use gpu_context::GpuContext;
use gpu_puzzles::{PuzzleError, Verdict, catalogue};

#[derive(Parser)]
struct Args {
    /// The puzzle's id (see --list).
    id: Option<String>,
    /// Your WGSL file (default: the puzzle's stub).
    file: Option<PathBuf>,
    /// List the puzzles, easiest first.
    #[arg(long)]
    list: bool,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Args) -> anyhow::Result<bool> {
    let all = catalogue::all();
    let ids: Vec<&str> = all.iter().map(|p| p.id).collect();
    let Some(id) = args.id.filter(|_| !args.list) else {
        for (n, p) in all.iter().enumerate() {
            println!("{:>2}. {:<12} {}", n + 1, p.id, p.title);
        }
        return Ok(true);
    };
    let puzzle = catalogue::by_id(&id)
        .with_context(|| format!("no puzzle `{id}`; the puzzles are: {}", ids.join(", ")))?;
    let file = args.file.unwrap_or_else(|| puzzle.dir().join("stub.wgsl"));
    let code =
        std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let ctx = GpuContext::new().context("opening a GPU")?;
    println!("{} on {}", puzzle.title, ctx.report().name);
    match gpu_puzzles::run(&ctx, &puzzle, &code) {
        Ok(outcome) => {
            println!("{}", outcome.verdict);
            if outcome.verdict == Verdict::Pass {
                println!("hint for the next one: cargo run -p gpu_puzzles --bin puzzle -- --list");
            } else {
                println!("hint: {}", puzzle.hint);
            }
            Ok(outcome.verdict == Verdict::Pass)
        }
        Err(PuzzleError::Compile(message)) => {
            println!(
                "{} does not compile (line numbers are your file's):\n{message}",
                file.display()
            );
            Ok(false)
        }
        Err(e) => Err(e.into()),
    }
}
