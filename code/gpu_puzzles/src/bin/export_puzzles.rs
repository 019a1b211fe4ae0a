//! Writes `book_data/<id>.json` for every puzzle: the data the book's puzzle pages embed.
//! `--with-solutions` writes a teacher's edition whose pages offer the reference solution.

use std::fs;
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;

#[derive(Parser)]
struct Args {
    /// Put each reference solution in its page (a teacher's edition; never publish it to students).
    #[arg(long)]
    with_solutions: bool,
    /// Where to write the JSON files.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/book_data"))]
    out: PathBuf,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    for puzzle in gpu_puzzles::catalogue::all() {
        let path = args.out.join(format!("{}.json", puzzle.id));
        fs::write(
            &path,
            gpu_puzzles::export::page_json(&puzzle, args.with_solutions),
        )
        .with_context(|| format!("writing {}", path.display()))?;
    }
    let checks = concat!(env!("CARGO_MANIFEST_DIR"), "/browser_checks.json");
    fs::write(
        checks,
        gpu_puzzles::export::browser_checks_json(&gpu_puzzles::catalogue::all()),
    )
    .with_context(|| format!("writing {checks}"))?;
    println!(
        "wrote {} puzzles to {}",
        gpu_puzzles::catalogue::all().len(),
        args.out.display()
    );
    Ok(())
}
