#!/usr/bin/env python3
"""PyTorch on the same random graphs as `computational_graphs_figures`.

The Rust binary writes the graphs (seed, size, depth and the Linear/ReLU/Softmax sequence) with
`--export-graphs graphs.json`; this script builds the same networks (same structure and shapes;
weights from the same uniform distribution, drawn by torch) and times them like the Rust "graph
loop": the input is uploaded once, the network runs N times, and the result is read back once.

Variants: eager; eager captured once into a CUDA graph by hand (`torch.cuda.CUDAGraph`: every
kernel of a run replayed with one launch, no compiler involved); torch.compile (default mode)
and torch.compile(mode="reduce-overhead"), which adds CUDA graphs (`--compile-modes` picks the
modes). Compilation and capture are one-time costs, reported in their own column. A time budget
keeps compilation from eating the run: the seed's reference point (256x256, depth 64) goes first.

Also times a 4096x4096 f32 matrix product with TF32 off (the yardstick of the WGSL ladder).

    python3 pytorch_baseline.py --graphs graphs.json --out pytorch.csv [--budget-s 300]
"""
import argparse
import csv
import json
import math
import os
import platform
import statistics
import sys
import time

import torch


def build(graph, device):
    """The network as a Python function of x, with its weights captured."""
    n = graph["size"]
    gen = torch.Generator().manual_seed(graph["seed"])
    scale = 1.0 / math.sqrt(n)
    steps = []
    for kind in graph["layers"]:
        if kind == "linear":
            w = ((torch.rand(n, n, generator=gen) * 2 - 1) * scale).to(device)
            b = ((torch.rand(n, generator=gen) * 2 - 1) * scale).to(device)
            steps.append(("linear", w, b))
        else:
            steps.append((kind, None, None))

    def forward(x):
        for kind, w, b in steps:
            if kind == "linear":
                x = torch.addmm(b, x, w)
            elif kind == "relu":
                x = torch.relu(x)
            else:
                # Row-wise: each row (one sample) becomes a distribution over its columns.
                x = torch.softmax(x, dim=1)
        return x

    return forward


def time_loop(f, x, iterations, warmup, samples, mark_step, read_back=True):
    """Seconds per iteration: N runs, one synchronising read-back, per sample (without
    `read_back`, a wait for the GPU in its place: the result stays on the device)."""
    def once():
        out = None
        for _ in range(iterations):
            if mark_step:
                torch.compiler.cudagraph_mark_step_begin()
            out = f(x)
        if not read_back:
            torch.cuda.synchronize()
            return out
        return out.cpu()

    for _ in range(warmup):
        once()
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        once()
        times.append((time.perf_counter() - start) / iterations)
    return times


def captured(f, x):
    """`f` recorded once as a CUDA graph on a static copy of `x`; each call replays it.

    The replay reads the static input, so it is exact here, where every run takes the same x.
    Returns the replaying function and the seconds the warm-up and capture took."""
    start = time.perf_counter()
    static_x = x.clone()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            f(static_x)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_out = f(static_x)
    torch.cuda.synchronize()

    def replay(_x):
        graph.replay()
        return static_out

    return replay, time.perf_counter() - start


def summary(times):
    times = sorted(times)
    q = statistics.quantiles(times, n=10) if len(times) > 1 else [times[0]] * 9
    return statistics.median(times), q[0], q[-1]


def matmul(size, warmup=3, samples=10):
    a = torch.rand(size, size, device="cuda") * 2 - 1
    b = torch.rand(size, size, device="cuda") * 2 - 1
    for _ in range(warmup):
        torch.mm(a, b)
    times = []
    for _ in range(samples):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        torch.mm(a, b)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return times


def driver_version():
    try:
        import subprocess
        return subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def provenance():
    """The commit this script came from, and whether the tree differed from it.

    The run script on the measuring machine (which has no git) sets COURSE_COMMIT and, after
    comparing the files with the commit, COURSE_DIRTY (0 or 1); in a checkout, git answers."""
    commit = os.environ.get("COURSE_COMMIT", "unknown")
    declared = os.environ.get("COURSE_DIRTY", "").strip()
    if declared in ("0", "1"):
        return {"commit": commit, "dirty": declared == "1", "dirty_from": "COURSE_DIRTY"}
    import subprocess
    try:
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                cwd=os.path.dirname(os.path.abspath(__file__)),
                                capture_output=True, text=True)
        if status.returncode == 0:
            return {"commit": commit, "dirty": bool(status.stdout.strip()),
                    "dirty_from": "git status of the checkout"}
    except OSError:
        pass
    return {"commit": commit, "dirty": None, "dirty_from": "unknown (no git, no COURSE_DIRTY)"}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--graphs", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--budget-s", type=float, default=300.0, help="seconds for all torch.compile work")
    p.add_argument("--matmul-sizes", type=lambda v: [int(x) for x in v.split(",") if x], default=[],
                   help="extra square sizes for the FP32 matmul, comma-separated")
    p.add_argument("--compile-modes", type=lambda v: [m for m in v.split(",") if m],
                   default=["default", "reduce-overhead"],
                   help="torch.compile modes to time, comma-separated (empty for none)")
    p.add_argument("--without-read-back", action="store_true",
                   help="also time eager and the CUDA graph with a wait for the GPU in place of "
                        "the read-back of the result")
    args = p.parse_args()
    unknown = set(args.compile_modes) - {"default", "reduce-overhead"}
    if unknown:
        p.error(f"--compile-modes: unknown mode(s) {sorted(unknown)}; use default and/or reduce-overhead")

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    spec = json.load(open(args.graphs))
    it, warmup, samples = spec["loop_iterations"], spec["warmup"], spec["samples"]
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}", file=sys.stderr)

    # Rows are written as they are measured, so a run cut short keeps what it has.
    out = open(args.out, "w", newline="")
    writer = csv.writer(out)
    writer.writerow(["sweep", "size", "depth", "variant", "median_ms", "p10_ms", "p90_ms", "compile_s"])

    def write(row):
        writer.writerow(row)
        out.flush()

    def record(sweep, g, variant, times, compile_s=0.0):
        med, p10, p90 = summary(times)
        write([sweep, g["size"], g["depth"], variant, f"{med*1e3:.5f}", f"{p10*1e3:.5f}",
               f"{p90*1e3:.5f}", f"{compile_s:.2f}"])
        print(f"{sweep} {g['size']}/{g['depth']} {variant}: {med*1e3:.4f} ms", file=sys.stderr, flush=True)

    def cpu_model():
        try:
            with open("/proc/cpuinfo") as fh:
                for line in fh:
                    if line.startswith("model name"):
                        return line.split(":", 1)[1].strip()
        except OSError:
            pass
        return platform.processor() or platform.machine()

    def write_sidecar():
        sidecar = {
            "figure": args.out.rsplit("/", 1)[-1].removesuffix(".csv"),
            "description": "PyTorch eager, eager captured as a CUDA graph, and torch.compile (modes: "
                           + ", ".join(args.compile_modes) + ") on the exported random graphs; ms per "
                           "run (N runs per read-back"
                           + ("; the no-read-back rows wait for the GPU instead" if args.without_read_back else "")
                           + "); FP32 matmul with TF32 off",
            "gpu": torch.cuda.get_device_name(),
            "torch": torch.__version__,
            "cuda": torch.version.cuda,
            "cudnn": torch.backends.cudnn.version(),
            "driver": driver_version(),
            "tf32": False,
            "python": sys.version.split()[0],
            # The fields `cargo xtask figures --check` asks of every sidecar.
            "program": "code/computational_graphs/bench/pytorch_baseline.py",
            "machine": f"{cpu_model()}, {os.cpu_count()} logical CPUs",
            "adapter": f"{torch.cuda.get_device_name()} (CUDA {torch.version.cuda} through PyTorch {torch.__version__})",
            "load_average": list(os.getloadavg()),
            "files": [args.out.rsplit("/", 1)[-1], args.graphs.rsplit("/", 1)[-1]],
            **provenance(),
            "command": " ".join(sys.argv),
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        with open(args.out.removesuffix(".csv") + ".json", "w") as fh:
            json.dump(sidecar, fh, indent=2)

    entries = spec["graphs"]
    for e in entries:
        g = e["graph"]
        x = (torch.rand(g["size"], g["size"]) * 2 - 1).cuda()
        forward = build(g, "cuda")
        record(e["sweep"], g, "PyTorch eager", time_loop(forward, x, it, warmup, samples, False))
        replay, capture_s = captured(forward, x)
        record(e["sweep"], g, "PyTorch CUDA graph (captured eager)",
               time_loop(replay, x, it, warmup, samples, False), capture_s)
        if args.without_read_back:
            record(e["sweep"], g, "PyTorch eager, no read-back",
                   time_loop(forward, x, it, warmup, samples, False, read_back=False))
            record(e["sweep"], g, "PyTorch CUDA graph, no read-back",
                   time_loop(replay, x, it, warmup, samples, False, read_back=False), capture_s)

    # cuBLAS through torch.mm at the ladder's size and the graphs' sizes (TF32 off: FP32 FMA).
    for n in sorted({spec["ladder_size"], *args.matmul_sizes}):
        mm = matmul(n)
        write(["matmul", n, 0, "PyTorch FP32 (TF32 off)", *(f"{v*1e3:.5f}" for v in summary(mm)), "0"])
        print(f"matmul {n}: {2*n**3/statistics.median(mm)/1e12:.2f} TFLOP/s", file=sys.stderr)

    # Written now and again at the end, so that a run cut short during compilation keeps it.
    write_sidecar()

    # The reference point first, then the rest, while the compile budget lasts.
    ordered = sorted(entries, key=lambda e: (e["graph"]["size"], e["graph"]["depth"]) != (256, 64))
    deadline = time.perf_counter() + args.budget_s
    for e in ordered:
        g = e["graph"]
        modes = [("default", "torch.compile"), ("reduce-overhead", "torch.compile reduce-overhead")]
        for mode, variant in [(m, v) for m, v in modes if m in args.compile_modes]:
            if time.perf_counter() > deadline:
                print(f"compile budget spent: skipping {variant} at {g['size']}/{g['depth']}", file=sys.stderr)
                continue
            torch._dynamo.reset()
            x = (torch.rand(g["size"], g["size"]) * 2 - 1).cuda()
            f = torch.compile(build(g, "cuda"), mode=mode, dynamic=False)
            start = time.perf_counter()
            for _ in range(3):
                if mode == "reduce-overhead":
                    torch.compiler.cudagraph_mark_step_begin()
                f(x)
            torch.cuda.synchronize()
            compile_s = time.perf_counter() - start
            times = time_loop(f, x, it, warmup, samples, mode == "reduce-overhead")
            record(e["sweep"], g, variant, times, compile_s)

    out.close()
    write_sidecar()
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
