//! Writes `book_data/<id>.json` for every puzzle (the data the book's puzzle pages embed) and
//! `browser_checks.json` (what the browser test runs). `--with-solutions` writes a teacher's
//! edition whose pages offer the reference solution: build the book from it, never commit it.

use std::fs;
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;

#[derive(Parser)]
struct Args {
    /// Put each reference solution in its page (a teacher's edition; never publish it to students).
    #[arg(long)]
    with_solutions: bool,
    /// Where to write the pages' JSON files.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/book_data"))]
    out: PathBuf,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let puzzles = gpu_puzzles::catalogue::all();
    fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    for puzzle in &puzzles {
        let solution = if args.with_solutions {
            Some(puzzle.source("solution").with_context(|| {
                format!(
                    "reading {}'s solution (the student edition has none)",
                    puzzle.id
                )
            })?)
        } else {
            None
        };
        let path = args.out.join(format!("{}.json", puzzle.id));
        fs::write(
            &path,
            gpu_puzzles::export::page_json(puzzle, solution.as_deref()),
        )
        .with_context(|| format!("writing {}", path.display()))?;
    }
    // The student edition has no solutions: then there is nothing for the browser test.
    match gpu_puzzles::export::browser_checks_json(&puzzles) {
        Ok(checks) => {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/browser_checks.json");
            fs::write(path, checks).with_context(|| format!("writing {path}"))?;
        }
        Err(e) => eprintln!("browser_checks.json not written: {e}"),
    }
    println!("wrote {} puzzles to {}", puzzles.len(), args.out.display());
    Ok(())
}
