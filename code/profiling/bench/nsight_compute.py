#!/usr/bin/env python3
"""Nsight Compute on the PyTorch baselines of module 1: the 4096x4096 matmul (the matmul
ladder's cuBLAS reference) and one iteration of the random graph (the graph loop's reference),
and on one elementwise kernel with a data-dependent branch, run on three inputs (every lane takes
the long branch, lanes take it at random, no lane takes it) to show what divergence looks like in
the Warp State Statistics.

Nsight Compute profiles CUDA kernels only; the course's own kernels are Vulkan compute shaders,
which it does not see (`ncu_on_vulkan.py` keeps what it says when pointed at one). What it
reports for the CUDA baselines (the share of the SMs' and the memory's peak each kernel reaches)
is what the matmul ladder and the graph pages compare against.

Run on a machine with an NVIDIA GPU, `ncu` and PyTorch:

    python3 code/profiling/bench/nsight_compute.py --graph figures/profiling_graph_trace.json \
        --out figures --machine h200

For each workload it runs `ncu` on this script (`--workload NAME`), which marks the region to
capture with an NVTX range, and writes into --out:
  nsight_<machine>_<workload>.csv   one row per kernel: name, duration, SM, memory and DRAM
                                    throughput (% of peak), achieved occupancy, threads active
                                    and threads not predicated off per executed warp instruction
  nsight_<machine>.json             sidecar: GPU, ncu and torch versions, commit, command, load
"""
import argparse
import csv
import datetime
import io
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SECTIONS = ["SpeedOfLight", "Occupancy", "WarpStateStats"]
WORKLOADS = ["matmul", "graph", "divergence"]
# (column in our CSV, ncu section, ncu metric name)
METRICS = [
    ("duration_us", "GPU Speed Of Light Throughput", "Duration"),
    ("sm_throughput_pct", "GPU Speed Of Light Throughput", "Compute (SM) Throughput"),
    ("memory_throughput_pct", "GPU Speed Of Light Throughput", "Memory Throughput"),
    ("dram_throughput_pct", "GPU Speed Of Light Throughput", "DRAM Throughput"),
    ("achieved_occupancy_pct", "Occupancy", "Achieved Occupancy"),
    ("active_threads_per_warp", "Warp State Statistics", "Avg. Active Threads Per Warp"),
    ("not_predicated_off_threads_per_warp", "Warp State Statistics",
     "Avg. Not Predicated Off Threads Per Warp"),
    ("warp_cycles_per_issued_instruction", "Warp State Statistics",
     "Warp Cycles Per Issued Instruction"),
]
# One elementwise kernel (compiled at run time by PyTorch's jiterator) whose lanes branch on their
# own element: a positive element takes a 64-step loop, any other a single negation.
BRANCHY = """template <typename T> T branchy(T x) {
  T y = x;
  if (x > T(0)) {
    for (int k = 0; k < 64; ++k) { y = ::sin(y) + x; }
  } else {
    y = -x;
  }
  return y;
}"""
DIVERGENCE_INPUTS = ["all lanes branch", "lanes branch at random", "no lane branches"]
MARK = "profiled"


def run_workload(name, graph_path):
    """The child process ncu watches: warm up, then one marked region."""
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    if name == "matmul":
        a = torch.randn(4096, 4096, device="cuda")
        b = torch.randn(4096, 4096, device="cuda")
        step = lambda: a @ b  # noqa: E731
    elif name == "divergence":
        kernel = torch.cuda.jiterator._create_jit_fn(BRANCHY)
        n = 1 << 22
        magnitude = torch.rand(n, device="cuda") + 0.5
        signs = torch.randint(0, 2, (n,), device="cuda") * 2 - 1  # a fair coin per element
        inputs = [magnitude, magnitude * signs, -magnitude]  # in DIVERGENCE_INPUTS' order

        def step():
            for x in inputs:
                kernel(x)
    else:
        sys.path.insert(0, HERE)
        from torch_profile import network, read_graph

        graph = read_graph(graph_path)
        layers = network(graph, "cuda")
        x = torch.rand(graph["size"], graph["size"], device="cuda")

        def step():
            h = x
            for layer in layers:
                h = layer(h)
            return h

    for _ in range(3):  # kernels load and cuBLAS picks its algorithm outside the marked range
        step()
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push(MARK)
    step()
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()


def to_us(value, unit):
    scale = {"ns": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3, "s": 1e6}
    return float(value.replace(",", "")) * scale.get(unit, 1.0)


def summarise(raw_csv, metrics=METRICS):
    """ncu's --csv --page details: one row per (kernel, metric); one row per kernel here.
    `metrics` as METRICS; a section of None matches a metric in any section (those given to
    ncu with --metrics)."""
    start = raw_csv.find('"ID"')
    if start < 0:
        raise RuntimeError("ncu printed no kernel table: did the workload run on the GPU?\n"
                           + raw_csv[-2000:])
    kernels = {}
    for row in csv.DictReader(io.StringIO(raw_csv[start:])):
        k = kernels.setdefault(row["ID"], {"id": int(row["ID"]), "kernel": row["Kernel Name"][:120]})
        for column, section, metric in metrics:
            if section in (None, row["Section Name"]) and row["Metric Name"] == metric:
                value = row["Metric Value"]
                k[column] = f"{to_us(value, row['Metric Unit']):.2f}" if column == "duration_us" else value
    return sorted(kernels.values(), key=lambda k: k["id"])


def profile(workload, graph_path):
    """Runs ncu on this script's `--workload` child; the rows of its kernel table."""
    cmd = ["ncu", "--nvtx", "--nvtx-include", f"{MARK}/", "--csv", "--page", "details"]
    for s in SECTIONS:
        cmd += ["--section", s]
    cmd += [sys.executable, __file__, "--workload", workload, "--graph", graph_path]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise RuntimeError(f"ncu exited with {done.returncode}; is the GPU's performance-counter "
                           f"access allowed?\n{done.stderr[-2000:]}")
    rows = summarise(done.stdout)
    if workload == "divergence":  # one kernel per input, launched in DIVERGENCE_INPUTS' order
        labels = DIVERGENCE_INPUTS if len(rows) == len(DIVERGENCE_INPUTS) else [
            f"kernel {k}" for k in range(len(rows))]
        for row, label in zip(rows, labels):
            row["input"] = label
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workload", choices=WORKLOADS, help="(internal) the child ncu runs")
    ap.add_argument("--graph", required=True, help="profiling_graph_trace.json (the sidecar)")
    ap.add_argument("--out", default="figures")
    ap.add_argument("--machine", default="gpu")
    args = ap.parse_args()
    if args.workload:
        run_workload(args.workload, args.graph)
        return

    import torch

    from torch_trace import machine, provenance

    os.makedirs(args.out, exist_ok=True)
    files, failed = [], {}
    for workload in WORKLOADS:
        try:
            rows = profile(workload, args.graph)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            failed[workload] = str(e)[-2000:]
            print(f"{workload}: failed: {failed[workload]}", file=sys.stderr)
            continue
        name = f"nsight_{args.machine}_{workload}.csv"
        columns = ["id", "kernel"] + (["input"] if workload == "divergence" else [])
        with open(os.path.join(args.out, name), "w", newline="") as f:
            out = csv.DictWriter(f, fieldnames=columns + [m[0] for m in METRICS])
            out.writeheader()
            out.writerows(rows)
        files.append(name)
        print(f"{workload}: {len(rows)} kernels -> {name}")
    ncu_version = subprocess.run(["ncu", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    sidecar = {
        "figure": f"nsight_{args.machine}",
        "description": "Nsight Compute on the PyTorch baselines (a 4096x4096 f32 matmul, one "
                       "iteration of the random graph) and on one branching elementwise kernel "
                       "fed three inputs",
        "program": "code/profiling/bench/nsight_compute.py",
        "machine": f"{machine()} (the GPU's host)",
        "adapter": f"{torch.cuda.get_device_name()} (CUDA, through PyTorch {torch.__version__}), profiled by {ncu_version}",
        "gpu": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "ncu": ncu_version,
        "sections": SECTIONS,
        **provenance(),  # commit, dirty and how dirty is known
        "command": " ".join(["python3"] + sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average": list(os.getloadavg()),
        "notes": ["TF32 off; ncu replays each kernel to read its counters, so durations are per "
                  "kernel with caches flushed (ncu's default)",
                  "divergence: the kernel is " + " ".join(BRANCHY.split()) + f", on {1 << 22} "
                  "f32 elements; inputs in the CSV's 'input' column"],
        "failed": failed,
        "files": files,
    }
    with open(os.path.join(args.out, f"nsight_{args.machine}.json"), "w") as f:
        json.dump(sidecar, f, indent=2)
    if failed:
        sys.exit(f"ncu failed on: {', '.join(failed)}")


if __name__ == "__main__":
    main()
