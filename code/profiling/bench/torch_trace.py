"""Reading a torch.profiler Chrome trace step by step (shared by the two profiling scripts).

The profiler marks each `prof.step()` with a CPU range `ProfilerStep#N`. Every kernel, copy or
fill on the GPU carries the `correlation` id of the runtime call (cudaLaunchKernel, cudaMemcpy…)
that queued it, and that call happened inside one step's CPU range. So each piece of GPU work
can be charged to the step that launched it, even though the GPU runs it later.
"""
import json
import os
import platform
import subprocess

GPU_CATEGORIES = {"kernel", "gpu_memcpy", "gpu_memset"}


def step_table(trace_path, step="ProfilerStep#"):
    """One dict per profiled step: CPU time of the step, the profiler's own overhead events
    inside it, runtime calls made in it, GPU work it launched (count, summed duration) and the
    GPU span from its first to its last piece of work. A step is a CPU range whose name starts
    with `step`: the profiler's `ProfilerStep#N`, or a `record_function` label."""
    with open(trace_path) as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X"]
    steps = sorted(
        (e for e in events
         if e["name"].startswith(step) and e.get("cat") == "user_annotation"),
        key=lambda e: e["ts"],
    )

    def step_of(ts):
        for i, s in enumerate(steps):
            if s["ts"] <= ts <= s["ts"] + s["dur"]:
                return i
        return None

    launched = {}  # correlation id -> step index
    calls = [0] * len(steps)
    overhead = [0.0] * len(steps)
    for e in events:
        if e.get("cat") == "overhead":
            i = step_of(e["ts"])
            if i is not None:
                overhead[i] += e.get("dur", 0.0)
    for e in events:
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            i = step_of(e["ts"])
            if i is not None:
                launched[e["args"]["correlation"]] = i
                calls[i] += 1
    work = [[] for _ in steps]
    for e in events:
        if e.get("cat") in GPU_CATEGORIES:
            i = launched.get(e.get("args", {}).get("correlation"))
            if i is not None:
                work[i].append(e)
    rows = []
    for k, (s, n, w) in enumerate(zip(steps, calls, work)):
        busy = sum(e["dur"] for e in w)
        span = (max(e["ts"] + e["dur"] for e in w) - min(e["ts"] for e in w)) if w else 0.0
        rows.append({
            "step": s["name"].split("#", 1)[1] if "#" in s["name"] else str(k),
            "cpu_us": round(s["dur"], 1),
            "profiler_overhead_us": round(overhead[k], 1),
            "runtime_calls": n,
            "gpu_items": len(w),
            "gpu_busy_us": round(busy, 1),
            "gpu_span_us": round(span, 1),
        })
    return rows


def median(values):
    v = sorted(values)
    if not v:
        return float("nan")
    mid = len(v) // 2
    return v[mid] if len(v) % 2 else (v[mid - 1] + v[mid]) / 2


def memory_fields(event):
    """(cpu, self cpu, device, self device) memory in bytes of a key_averages row; the device
    fields were named cuda_* before PyTorch 2.4."""
    def get(*names):
        for n in names:
            if hasattr(event, n):
                return int(getattr(event, n))
        return 0
    return (
        get("cpu_memory_usage"),
        get("self_cpu_memory_usage"),
        get("device_memory_usage", "cuda_memory_usage"),
        get("self_device_memory_usage", "self_cuda_memory_usage"),
    )


def device_times(event):
    """(total, self) device time in µs of a key_averages row, under either name."""
    total = getattr(event, "device_time_total", getattr(event, "cuda_time_total", 0.0))
    own = getattr(event, "self_device_time_total", getattr(event, "self_cuda_time_total", 0.0))
    return total, own


def machine():
    """The CPU's model name and logical CPU count, as the course's sidecars name a machine."""
    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{model}, {os.cpu_count()} logical CPUs"


def provenance():
    """The commit the scripts came from and whether they differed from it, for a sidecar.

    COURSE_COMMIT names the commit (a `-dirty` suffix marks a changed tree). Where the run script
    checked the files against the commit itself (no git where it ran), it says so in COURSE_DIRTY
    (0 or 1) and how in COURSE_DIRTY_FROM. Otherwise git is asked; without either, unknown."""
    commit = os.environ.get("COURSE_COMMIT", "unknown")
    dirty = commit.endswith("-dirty") or None
    commit = commit.removesuffix("-dirty")
    declared = os.environ.get("COURSE_DIRTY", "").strip().lower()
    if declared in ("0", "1", "false", "true"):
        dirty = dirty or declared in ("1", "true")
        how = os.environ.get("COURSE_DIRTY_FROM", "COURSE_DIRTY, set by the run script")
        return {"commit": commit, "dirty": dirty, "dirty_from": how}
    try:
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                cwd=os.path.dirname(os.path.abspath(__file__)),
                                capture_output=True, text=True)
        if status.returncode == 0:
            return {"commit": commit, "dirty": bool(dirty or status.stdout.strip()),
                    "dirty_from": "git status of the checkout"}
    except OSError:
        pass
    return {"commit": commit, "dirty": dirty, "dirty_from": "unknown (no git, no COURSE_DIRTY)"}
