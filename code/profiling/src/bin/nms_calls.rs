//! Calls one NMS version a given number of times on the generated boxes of the NMS figure, and
//! nothing else: the program cachegrind runs to count each version's instructions and branch
//! mispredictions (two runs with different call counts; their difference is the calls' own).
//!
//! ```text
//! valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes \
//!     target/release/nms_calls --version scan --calls 4
//! ```

use clap::{Parser, ValueEnum};
use profiling_lab::yolo::{
    NmsFn, generated_detections, nms_branchless, nms_branchless_scalar, nms_scan, nms_sorted,
    nms_sorted_copied,
};

#[derive(Clone, Copy, ValueEnum)]
enum Version {
    Scan,
    Sorted,
    SortedCopied,
    Branchless,
    BranchlessScalar,
}

#[derive(Parser)]
struct Args {
    /// The NMS version to call.
    #[arg(long, value_enum)]
    version: Version,
    /// How many calls.
    #[arg(long, default_value_t = 1)]
    calls: usize,
    /// Candidate boxes (about 40 per object, as in the NMS figure).
    #[arg(long, default_value_t = 8000)]
    boxes: usize,
}

fn main() {
    let args = Args::parse();
    let nms: NmsFn = match args.version {
        Version::Scan => nms_scan,
        Version::Sorted => nms_sorted,
        Version::SortedCopied => nms_sorted_copied,
        Version::Branchless => nms_branchless,
        Version::BranchlessScalar => nms_branchless_scalar,
    };
    let dets = generated_detections(42, args.boxes, 640.0, 640.0);
    let mut kept = 0;
    for _ in 0..args.calls {
        kept = std::hint::black_box(nms(std::hint::black_box(&dets), 0.25, 0.45))
            .0
            .len();
    }
    println!("kept={kept}");
}
