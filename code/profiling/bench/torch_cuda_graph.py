"""The remedy a launch-bound profile points at, measured in the process that found it: the frame
captured once as a CUDA graph and replayed, one launch instead of one per operator.

`torch_profile.py --cuda-graph` calls `compare` after its own profile of the eager frames. It
times both kinds of frame without the profiler, alternating in rounds so that a drift of the
machine falls on both (CPU time per frame with `time.perf_counter`, GPU span per frame between
two CUDA events recorded before the first launch and after the last), then profiles the replayed
frames on the same schedule as the eager ones. Writes into the output folder:
  <prefix>_cuda_graph_timing.csv  per frame: mode (eager or graph), round, CPU us, GPU span us
  <prefix>_cuda_graph_frames.csv  per profiled replayed frame, as <prefix>_profile_frames.csv
  <prefix>_cuda_graph_trace.json  the profiler's Chrome trace of the replayed frames
"""
import csv
import os
import time

import torch
from torch.profiler import profile, record_function, schedule

from torch_trace import median, step_table


def capture(launch, warmups=3):
    """A CUDA graph of `launch()`, which must only queue GPU work on tensors that stay put, and
    the tensor it returns (the graph writes into it on every replay)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # capture wants its warm-up off the default stream
        for _ in range(warmups):
            launch()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = launch()
    return graph, out


# ANCHOR: replayed_frame
def replayed_frame(graph, out):
    """The same frame as `frame` + `.cpu()`: every kernel of it queued by one launch."""
    with record_function("graph replay"):
        graph.replay()
    return out.cpu()
# ANCHOR_END: replayed_frame


def timed(run_frame):
    """CPU time and GPU span of one frame, in microseconds, with no profiler attached."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0 = time.perf_counter()
    start.record()
    out = run_frame()
    end.record()
    out.cpu()  # the read-back waits for the GPU, as the profiled frames do
    cpu_us = (time.perf_counter() - t0) * 1e6
    return cpu_us, start.elapsed_time(end) * 1e3


def compare(launch, prefix, out_dir, frames, wait, warmup, rounds=5, per_round=40):
    """Eager frames against replayed ones (see the module's docstring); returns the files written
    and the medians for the sidecar."""
    graph, out = capture(launch)
    modes = {"eager": launch, "graph": lambda: (graph.replay(), out)[1]}
    rows = []
    for r in range(rounds):
        for mode, run_frame in modes.items():
            for k in range(per_round):
                cpu_us, span_us = timed(run_frame)
                rows.append([mode, r, k, f"{cpu_us:.1f}", f"{span_us:.1f}"])
    timing = f"{prefix}_cuda_graph_timing.csv"
    with open(os.path.join(out_dir, timing), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["mode", "round", "frame", "cpu_us", "gpu_span_us"])
        w.writerows(rows)

    trace = os.path.join(out_dir, f"{prefix}_cuda_graph_trace.json")
    plan = schedule(wait=wait, warmup=warmup, active=frames, repeat=1)
    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with profile(activities=activities, schedule=plan,
                 on_trace_ready=lambda p: p.export_chrome_trace(trace)) as prof:
        for _ in range(wait + warmup + frames):
            with record_function("frame"):
                replayed_frame(graph, out)
            prof.step()
    steps = step_table(trace)
    table = f"{prefix}_cuda_graph_frames.csv"
    with open(os.path.join(out_dir, table), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(list(steps[0].keys()))
        w.writerows([list(s.values()) for s in steps])

    summary = {}
    for mode in modes:
        mine = [r for r in rows if r[0] == mode]
        summary[mode] = {"frames": len(mine),
                         "median_cpu_us": median([float(r[3]) for r in mine]),
                         "median_gpu_span_us": median([float(r[4]) for r in mine])}
    print(f"unprofiled, {rounds} rounds of {per_round} frames each: {summary}")
    return [timing, table, os.path.basename(trace)], summary
