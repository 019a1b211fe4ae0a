#!/usr/bin/env python3
"""Nsight Compute on cuBLAS's kernel for the matmul ladder's yardstick: PyTorch's 4096x4096 FP32
product with TF32 off. It records what the ladder's own kernels are compared against: the
kernel's name, its grid and block, registers per thread, shared memory per block, theoretical and
achieved occupancy, SM throughput, how busy the FMA pipe is, and the duration.

The workload and the ncu driving are those of code/profiling/bench/nsight_compute.py (imported,
not copied); this script asks ncu for the launch, occupancy and compute-workload sections too.

    python3 code/computational_graphs/bench/ncu_cublas.py --out figures --machine h200

writes graphs_<machine>_ncu_cublas.csv (one row per kernel in the profiled product) and
graphs_<machine>_ncu_cublas.json (the sidecar). ncu needs access to the GPU's performance
counters (root, or the driver's RmProfilingAdminOnly=0). Without ncu or PyTorch it says so and
exits with status 2, writing nothing.
"""
import argparse
import csv
import datetime
import io
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "profiling", "bench"))
import nsight_compute  # noqa: E402  (the profiling crate's ncu driver: workload, parsing)

SECTIONS = ["SpeedOfLight", "LaunchStats", "Occupancy", "ComputeWorkloadAnalysis"]
SOL = "GPU Speed Of Light Throughput"
LAUNCH = "Launch Statistics"
CWA = "Compute Workload Analysis"
# Raw counters for the FMA pipe (the one FP32 multiply-adds issue to), asked for with --metrics.
FMA_METRICS = [
    ("fma_pipe_cycles_active_pct", None,
     "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"),
    ("fma_instructions_pct_of_peak", None,
     "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"),
]
# (column in our CSV, ncu section or None for a --metrics counter, ncu metric name)
METRICS = [
    ("duration_us", SOL, "Duration"),
    ("grid_size", LAUNCH, "Grid Size"),
    ("block_size", LAUNCH, "Block Size"),
    ("registers_per_thread", LAUNCH, "Registers Per Thread"),
    ("static_shared_memory_per_block", LAUNCH, "Static Shared Memory Per Block"),
    ("dynamic_shared_memory_per_block", LAUNCH, "Dynamic Shared Memory Per Block"),
    ("shared_memory_configuration_size", LAUNCH, "Shared Memory Configuration Size"),
    ("waves_per_sm", LAUNCH, "Waves Per SM"),
    ("theoretical_occupancy_pct", "Occupancy", "Theoretical Occupancy"),
    ("achieved_occupancy_pct", "Occupancy", "Achieved Occupancy"),
    ("block_limit_registers", "Occupancy", "Block Limit Registers"),
    ("block_limit_shared_mem", "Occupancy", "Block Limit Shared Mem"),
    ("sm_throughput_pct", SOL, "Compute (SM) Throughput"),
    ("memory_throughput_pct", SOL, "Memory Throughput"),
    ("dram_throughput_pct", SOL, "DRAM Throughput"),
    ("executed_ipc_active", CWA, "Executed Ipc Active"),
    ("issue_slots_busy_pct", CWA, "Issue Slots Busy"),
] + FMA_METRICS


def launch_shape_and_units(raw_csv):
    """Per kernel ID: ncu's (x, y, z) grid and block, which its table gives beside every row;
    and the unit ncu printed for each of our columns."""
    start = raw_csv.find('"ID"')
    shapes, units = {}, {}
    for row in csv.DictReader(io.StringIO(raw_csv[start:])):
        shapes[int(row["ID"])] = (row.get("Grid Size", ""), row.get("Block Size", ""))
        for column, section, metric in METRICS:
            if section in (None, row["Section Name"]) and row["Metric Name"] == metric:
                units[column] = "us" if column == "duration_us" else row["Metric Unit"]
    return shapes, units


def run_ncu(extra_metrics):
    cmd = ["ncu", "--nvtx", "--nvtx-include", f"{nsight_compute.MARK}/", "--csv", "--page",
           "details"]
    for s in SECTIONS:
        cmd += ["--section", s]
    if extra_metrics:
        cmd += ["--metrics", ",".join(m[2] for m in FMA_METRICS)]
    cmd += [sys.executable, os.path.abspath(__file__), "--child"]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=35)
    except subprocess.TimeoutExpired as e:
        raise RuntimeError(f"ncu did not finish within {e.timeout} s") from e


def profile():
    """The kernel rows, the units, and a note when the FMA counters were not available."""
    done = run_ncu(extra_metrics=True)
    note = None
    if done.returncode != 0 or '"ID"' not in done.stdout:
        note = ("the FMA pipe counters were refused by this ncu; profiled without them: "
                + (done.stderr or done.stdout)[-300:].strip())
        done = run_ncu(extra_metrics=False)
    if done.returncode != 0:
        raise RuntimeError(f"ncu exited with {done.returncode}; is the GPU's performance-counter "
                           f"access allowed (root)?\n{done.stderr[-2000:]}")
    rows = nsight_compute.summarise(done.stdout, METRICS)
    shapes, units = launch_shape_and_units(done.stdout)
    for row in rows:
        row["grid"], row["block"] = shapes.get(row["id"], ("", ""))
    return rows, units, note


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--child", action="store_true", help="(internal) the process ncu watches")
    ap.add_argument("--out", default="figures")
    ap.add_argument("--machine", default="gpu", help="short machine name for the file names")
    args = ap.parse_args()
    if args.child:
        nsight_compute.run_workload("matmul", None)
        return
    missing = [what for what, ok in [("ncu (Nsight Compute)", shutil.which("ncu")),
                                     ("PyTorch", _has_torch())] if not ok]
    if missing:
        print(f"ncu_cublas: {' and '.join(missing)} not found; nothing profiled. Run it on a "
              "machine with an NVIDIA GPU, Nsight Compute on PATH and PyTorch with CUDA.",
              file=sys.stderr)
        sys.exit(2)
    import torch

    from torch_trace import machine, provenance

    rows, units, note = profile()
    name = f"graphs_{args.machine}_ncu_cublas"
    os.makedirs(args.out, exist_ok=True)
    columns = ["id", "kernel", "grid", "block"] + [m[0] for m in METRICS]
    with open(os.path.join(args.out, f"{name}.csv"), "w", newline="") as f:
        out = csv.DictWriter(f, fieldnames=columns)
        out.writeheader()
        out.writerows(rows)
    ncu_version = subprocess.run(["ncu", "--version"], capture_output=True,
                                 text=True).stdout.strip().splitlines()[-1]
    notes = ["PyTorch a @ b on two 4096x4096 float32 CUDA tensors, TF32 off "
             "(torch.backends.cuda.matmul.allow_tf32 = False), after three unprofiled runs; "
             "the profiled product is the one inside the NVTX range",
             "ncu replays each kernel to read its counters, with caches flushed between replays "
             "(its default): duration_us is one kernel's, not the timed loop's"]
    if note:
        notes.append(note)
    sidecar = {
        "figure": name,
        "description": "Nsight Compute on cuBLAS's kernel for a 4096x4096 FP32 matmul (TF32 off): "
                       "launch shape, registers, shared memory, occupancy, SM and FMA-pipe use",
        "program": "code/computational_graphs/bench/ncu_cublas.py",
        "machine": f"{machine()} (the GPU's host)",
        "adapter": f"{torch.cuda.get_device_name()} (CUDA, through PyTorch {torch.__version__}), "
                   f"profiled by {ncu_version}",
        "gpu": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "ncu": ncu_version,
        "sections": SECTIONS,
        "units": units,
        **provenance(),
        "command": " ".join(["python3"] + sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average": list(os.getloadavg()),
        "notes": notes,
        "files": [f"{name}.csv"],  # a table without a chart
    }
    with open(os.path.join(args.out, f"{name}.json"), "w") as f:
        json.dump(sidecar, f, indent=2)
    for row in rows:
        print(f"{row['kernel'][:60]}: {row.get('duration_us')} us, "
              f"{row.get('registers_per_thread')} registers, grid {row['grid']}, "
              f"block {row['block']}")


def _has_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    main()
