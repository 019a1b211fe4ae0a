#!/usr/bin/env python3
"""torch.profiler on the same random graph as `profiling_figures --only trace`.

The graph (seed, size, depth and the Linear/ReLU/Softmax sequence) is read from the trace's
sidecar, `profiling_graph_trace.json` (its note "graph: {...}"), so both traces show one network:
same structure and shapes; the weights are drawn by torch from the same uniform distribution.
Each frame runs the graph `iterations` times under `record_function` labels that match the Rust
trace's GPU scopes ("graph", "iteration k"). The profiler runs on a schedule (one frame skipped,
one recorded and thrown away, then --frames kept), so its own start-up stays out of the frames
it reports.

Writes into --out:
  torch_graph_trace.json   Chrome trace (open in Perfetto next to profiling_graph_trace.trace.json)
  torch_profile_ops.csv    per operator: calls, CPU time, device time (totals over the frames)
  torch_profile_frames.csv per frame: CPU time, runtime calls, GPU work launched, GPU span
  torch_profile.json       sidecar: torch version, device, commit, command, date
With --unscheduled the profiler wraps the frames with no schedule, as a bare `with profile()`
does, and the files are named torch_unscheduled_* (its start-up then lands in the first frame).
With --cuda-graph (scheduled only) the same process then captures the frame as a CUDA graph and
compares it with the eager frames (torch_cuda_graph.py): torch_cuda_graph_{timing,frames}.csv.

    python3 code/profiling/bench/torch_profile.py --graph figures/profiling_graph_trace.json --out figures
"""
import argparse
import csv
import datetime
import json
import math
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile, record_function, schedule

from torch_trace import device_times, machine, provenance, step_table

WAIT, WARMUP = 1, 1


def read_graph(sidecar_path):
    with open(sidecar_path) as f:
        sidecar = json.load(f)
    if isinstance(sidecar.get("graph"), dict):
        return sidecar["graph"]
    for note in sidecar.get("notes", []):
        if note.startswith("graph: "):
            return json.loads(note[len("graph: "):])
    sys.exit(f"{sidecar_path} has no 'graph: ' note; run profiling_figures --only trace first")


def network(graph, device):
    """The layers as closures over their weights; x @ w + b as the Rust Linear computes it."""
    n = graph["size"]
    gen = torch.Generator().manual_seed(graph["seed"])
    bound = 1.0 / math.sqrt(n)
    layers = []
    for kind in graph["layers"]:
        if kind == "linear":
            w = (torch.rand(n, n, generator=gen) * 2 - 1).mul_(bound).to(device)
            b = (torch.rand(n, generator=gen) * 2 - 1).mul_(bound).to(device)
            layers.append(lambda x, w=w, b=b: torch.addmm(b, x, w))
        elif kind == "relu":
            layers.append(torch.relu)
        else:
            layers.append(lambda x: torch.softmax(x, dim=1))
    return layers


# ANCHOR: frame
def frame(layers, x, iterations):
    with record_function("graph"):
        for i in range(iterations):
            with record_function(f"iteration {i}"):
                h = x
                for layer in layers:
                    h = layer(h)
    return h
# ANCHOR_END: frame


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graph", required=True, help="profiling_graph_trace.json (the sidecar)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--iterations", type=int, default=4)
    ap.add_argument("--frames", type=int, default=5)
    ap.add_argument("--tag", default="", help="appended to the output names (repeated processes)")
    ap.add_argument("--unscheduled", action="store_true",
                    help="profile without a schedule (the profiler's start-up lands in the first "
                         "frame), writing torch_unscheduled_* instead")
    ap.add_argument("--cuda-graph", action="store_true",
                    help="then capture the frame as a CUDA graph and measure its replays against "
                         "the eager frames, in this process (needs CUDA; not with --unscheduled)")
    args = ap.parse_args()
    if args.cuda_graph and (args.unscheduled or not torch.cuda.is_available()):
        sys.exit("--cuda-graph needs a CUDA device and the scheduled profile (drop --unscheduled)")

    graph = read_graph(args.graph)
    cuda = torch.cuda.is_available()
    device = "cuda" if cuda else "cpu"
    torch.backends.cuda.matmul.allow_tf32 = False
    layers = network(graph, device)
    x = torch.rand(graph["size"], graph["size"], device=device)
    for _ in range(3):  # warm-up: kernels load, allocator caches fill
        frame(layers, x, args.iterations).cpu()

    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    os.makedirs(args.out, exist_ok=True)
    prefix = ("torch_unscheduled" if args.unscheduled else "torch") + args.tag
    trace = os.path.join(args.out, f"{prefix}_graph_trace.json")
    if args.unscheduled:
        with profile(activities=activities) as prof:
            for _ in range(args.frames):
                with record_function("frame"):
                    frame(layers, x, args.iterations).cpu()
        prof.export_chrome_trace(trace)
        frames = step_table(trace, step="frame")
    else:
        plan = schedule(wait=WAIT, warmup=WARMUP, active=args.frames, repeat=1)
        with profile(activities=activities, schedule=plan,
                     on_trace_ready=lambda p: p.export_chrome_trace(trace)) as prof:
            for _ in range(WAIT + WARMUP + args.frames):
                with record_function("frame"):
                    frame(layers, x, args.iterations).cpu()
                prof.step()
        frames = step_table(trace)
    with open(os.path.join(args.out, f"{prefix}_profile_frames.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(list(frames[0].keys()))
        out.writerows([list(r.values()) for r in frames])
    with open(os.path.join(args.out, f"{prefix}_profile_ops.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["name", "calls", "cpu_total_us", "device_total_us"])
        for e in prof.key_averages():
            device_us, _ = device_times(e)
            out.writerow([e.key, e.count, f"{e.cpu_time_total:.1f}", f"{device_us:.1f}"])
    files = [f"{prefix}_profile_ops.csv", f"{prefix}_profile_frames.csv",
             f"{prefix}_graph_trace.json"]
    replayed = None
    if args.cuda_graph:
        from torch_cuda_graph import compare

        try:
            written, replayed = compare(lambda: frame(layers, x, args.iterations), prefix,
                                        args.out, args.frames, WAIT, WARMUP)
            files += written
        except RuntimeError as e:  # keep the eager profile; the sidecar says what failed
            replayed = {"error": str(e)[-2000:]}
            print(f"CUDA graph comparison failed: {e}", file=sys.stderr)
    sidecar = {
        "figure": f"{prefix}_profile",
        "description": "torch.profiler of the random graph, same structure as profiling_graph_trace",
        "program": "code/profiling/bench/torch_profile.py",
        "machine": machine(),
        "adapter": (f"{torch.cuda.get_device_name()} (CUDA through PyTorch {torch.__version__})"
                    if cuda else None),
        "graph": graph,
        "torch": torch.__version__,
        "device": torch.cuda.get_device_name() if cuda else "cpu",
        "tf32": False,
        "iterations": args.iterations,
        "frames": args.frames,
        "schedule": (None if args.unscheduled
                     else {"wait": WAIT, "warmup": WARMUP, "active": args.frames}),
        **provenance(),  # commit, dirty and how dirty is known
        "command": " ".join(["python3"] + sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average": list(os.getloadavg()),
        "cuda_graph": replayed,
        "files": files,
    }
    with open(os.path.join(args.out, f"{prefix}_profile.json"), "w") as f:
        json.dump(sidecar, f, indent=2)
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=12))


if __name__ == "__main__":
    main()
