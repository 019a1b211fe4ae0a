#!/usr/bin/env python3
"""torch.profiler on the training case: the spiral classifier's step in PyTorch.

The network is the case study's: 2 inputs, a hidden layer of --hidden ReLU units, 3 classes,
cross-entropy averaged over a full batch of --batch spiral points, plain SGD. Each step reads its
loss back (`loss.item()`), so a step ends when the GPU has finished it.

The profiler runs on a schedule: one step skipped (`wait`), two recorded and thrown away
(`warmup`: the profiler's own start-up, CUPTI's buffers, lands there), then five kept
(`active`). It records input shapes, memory and Python stacks.

Writes into --out:
  torch_training_trace.json   Chrome trace of the five kept steps (Perfetto, chrome://tracing)
  torch_training_steps.csv    per step: CPU time, runtime calls, GPU work it launched, GPU span
  torch_training_ops.csv      per operator: calls, CPU and device time, memory (totals)
  torch_training_shapes.csv   the same grouped by input shapes
  torch_training_tables.txt   the profiler's own tables (by shape, by memory, by stack)
  torch_training_profile.json sidecar: machine, torch, device, commit, command, date, load

    COURSE_COMMIT=$(git rev-parse HEAD) python3 code/profiling/bench/torch_training_profile.py --out figures
"""
import argparse
import csv
import datetime
import json
import math
import os
import sys

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function, schedule

from torch_trace import device_times, machine, provenance, median, memory_fields, step_table

WAIT, WARMUP, ACTIVE = 1, 2, 5


def spirals(classes, per_class, seed):
    """Points on `classes` noisy spiral arms, as module 3's data set draws them."""
    gen = torch.Generator().manual_seed(seed)
    t = torch.arange(per_class, dtype=torch.float32) / per_class
    xs, labels = [], []
    for c in range(classes):
        angle = 4.0 * t + c * 2 * math.pi / classes + (torch.rand(per_class, generator=gen) * 2 - 1) * 0.2
        xs.append(torch.stack([t * torch.cos(angle), t * torch.sin(angle)], dim=1))
        labels.append(torch.full((per_class,), c, dtype=torch.long))
    return torch.cat(xs), torch.cat(labels)


# ANCHOR: profiled_loop
def train_step(model, opt, x, y):
    with record_function("forward"):
        loss = F.cross_entropy(model(x), y)
    with record_function("backward"):
        opt.zero_grad(set_to_none=True)
        loss.backward()
    with record_function("update"):
        opt.step()
    return loss.item()  # waits for the GPU: the step is over when its loss is known


def profile_training(model, opt, x, y, on_trace_ready, detail=True):
    activities = [ProfilerActivity.CPU]
    if torch.cuda.is_available():
        activities.append(ProfilerActivity.CUDA)
    with profile(
        activities=activities,
        schedule=schedule(wait=WAIT, warmup=WARMUP, active=ACTIVE, repeat=1),
        on_trace_ready=on_trace_ready,
        record_shapes=detail,  # input shapes of every operator
        profile_memory=detail,  # bytes allocated and freed by every operator
        with_stack=detail,  # the Python line that called it
        # Without verbose, the stacks reach the trace but not key_averages(group_by_stack_n=…).
        experimental_config=torch._C._profiler._ExperimentalConfig(verbose=detail),
    ) as prof:
        for _ in range(WAIT + WARMUP + ACTIVE):
            train_step(model, opt, x, y)
            prof.step()  # tells the schedule a step is over
    return prof
# ANCHOR_END: profiled_loop


def write_sidecar(args, cuda, figure, files):
    sidecar = {
        "figure": figure,
        "description": "torch.profiler on a schedule (wait/warmup/active) on the spiral "
                       "classifier's training step"
                       + ("" if args.plain else ", with input shapes, memory and stacks"),
        "program": "code/profiling/bench/torch_training_profile.py",
        "machine": machine(),
        "adapter": (f"{torch.cuda.get_device_name()} (CUDA through PyTorch {torch.__version__})"
                    if cuda else None),
        "torch": torch.__version__,
        "batch": args.batch,
        "hidden": args.hidden,
        "schedule": {"wait": WAIT, "warmup": WARMUP, "active": ACTIVE},
        "tf32": False,
        **provenance(),  # commit, dirty and how dirty is known
        "command": " ".join(["python3"] + sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average": list(os.getloadavg()),
        "files": files,
    }
    with open(os.path.join(args.out, f"{figure}.json"), "w") as f:
        json.dump(sidecar, f, indent=2)


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(header)
        out.writerows(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="folder for the trace, the tables and the sidecar")
    ap.add_argument("--batch", type=int, default=3000, help="spiral points per step (a multiple of 3)")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--rate", type=float, default=0.5, help="SGD learning rate")
    ap.add_argument("--tag", default="", help="appended to the output names (repeated processes)")
    ap.add_argument("--plain", action="store_true",
                    help="no shapes, memory or stacks: only the per-step table and the trace, "
                         "named torch_training_plain_*, to see what the three options cost")
    args = ap.parse_args()
    if args.batch <= 0 or args.batch % 3 or args.hidden <= 0:
        sys.exit("--batch must be a positive multiple of 3 (three classes) and --hidden positive")

    cuda = torch.cuda.is_available()
    device = "cuda" if cuda else "cpu"
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(1)
    x, y = spirals(3, args.batch // 3, seed=1)
    x, y = x.to(device), y.to(device)
    model = torch.nn.Sequential(
        torch.nn.Linear(2, args.hidden), torch.nn.ReLU(), torch.nn.Linear(args.hidden, 3)
    ).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=args.rate)

    os.makedirs(args.out, exist_ok=True)
    name = ("torch_training_plain" if args.plain else "torch_training") + args.tag
    trace = os.path.join(args.out, f"{name}_trace.json")
    prof = profile_training(model, opt, x, y, lambda p: p.export_chrome_trace(trace),
                            detail=not args.plain)

    steps = step_table(trace)
    write_csv(os.path.join(args.out, f"{name}_steps.csv"),
              list(steps[0].keys()), [list(s.values()) for s in steps])
    if args.plain:
        os.remove(trace)  # the detailed run's trace is the one to read
        cpu = median([s["cpu_us"] for s in steps])
        print(f"{len(steps)} steps without shapes, memory or stacks: median CPU {cpu:.1f} us")
        write_sidecar(args, cuda, f"{name}_steps", [f"{name}_steps.csv"])
        return
    ops = []
    for e in prof.key_averages():
        dev, self_dev = device_times(e)
        ops.append([e.key, e.count, f"{e.cpu_time_total:.1f}", f"{e.self_cpu_time_total:.1f}",
                    f"{dev:.1f}", f"{self_dev:.1f}", *memory_fields(e)])
    write_csv(os.path.join(args.out, f"{name}_ops.csv"),
              ["name", "calls", "cpu_total_us", "self_cpu_us", "device_total_us", "self_device_us",
               "cpu_memory_bytes", "self_cpu_memory_bytes", "device_memory_bytes",
               "self_device_memory_bytes"], ops)
    shapes = []
    for e in prof.key_averages(group_by_input_shape=True):
        dev, _ = device_times(e)
        shapes.append([e.key, str(e.input_shapes), e.count, f"{e.cpu_time_total:.1f}",
                       f"{e.self_cpu_time_total:.1f}", f"{dev:.1f}"])
    write_csv(os.path.join(args.out, f"{name}_shapes.csv"),
              ["name", "input_shapes", "calls", "cpu_total_us", "self_cpu_us", "device_total_us"],
              shapes)
    memory_key = "self_cuda_memory_usage" if cuda else "self_cpu_memory_usage"
    tables = [
        ("by operator and input shapes, sorted by CPU time",
         prof.key_averages(group_by_input_shape=True).table(sort_by="cpu_time_total", row_limit=14)),
        ("by memory the operator itself allocated on the device",
         prof.key_averages().table(sort_by=memory_key, row_limit=10)),
        ("by the Python stack (5 frames) that called the operator, sorted by self CPU time",
         prof.key_averages(group_by_stack_n=5).table(sort_by="self_cpu_time_total", row_limit=6)),
    ]
    with open(os.path.join(args.out, f"{name}_tables.txt"), "w") as f:
        for title, table in tables:
            f.write(f"== {title}\n{table}\n")

    files = [f"{name}_{part}" for part in
             ("steps.csv", "ops.csv", "shapes.csv", "tables.txt", "trace.json")]
    write_sidecar(args, cuda, f"{name}_profile", files)
    cpu = median([s["cpu_us"] for s in steps])
    busy = median([s["gpu_busy_us"] for s in steps])
    print(f"{len(steps)} steps: median CPU {cpu:.1f} us per step, GPU busy {busy:.1f} us")
    print(tables[0][1])


if __name__ == "__main__":
    main()
