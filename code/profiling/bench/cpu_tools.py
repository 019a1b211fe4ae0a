#!/usr/bin/env python3
"""The CPU tools of module 4's measuring and memory pages, run on the course's workload, their
text output kept as the tools print it (machine paths and symbol hashes cut):

  perf      `perf record -e cpu-clock` on the CPU graph runner, `perf report` (the hottest
            functions) and `perf annotate` of the hottest one, with the inner loop cut out;
  callgrind `valgrind --tool=callgrind` on two graph runs and `callgrind_annotate`'s
            instructions (Ir) per function;
  heaptrack `heaptrack` on three graph runs and `heaptrack_print`'s summary and peak consumers;
  dhat      the GPU runner's allocation test (a test binary of `tests/gpu_heap.rs`) run in three
            processes, its counts as a CSV.

Counts of instructions and allocations do not depend on the machine's load; the shares of perf
samples barely do. The load is still checked (and recorded in every sidecar).

    python3 code/profiling/bench/cpu_tools.py --workload target/release/profiling_workload \
        --gpu-heap-test target/debug/deps/gpu_heap-<hash> --out figures --machine vm-2cpu

`COURSE_COMMIT` names the commit the binaries were built from (`<sha>-dirty` for a dirty tree);
without it, git is asked about the current directory.
"""
import argparse
import csv
import datetime
import glob
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

PROGRAM = "code/profiling/bench/cpu_tools.py"
HOT_FUNCTION = "computational_graphs::ops::cpu::linear"
GPU_TEST = "gpu_runner_loop_allocations_are_bounded_and_nothing_is_kept"
HASH = re.compile(r"::h[0-9a-f]{16}\b")


def run(cmd, **kw):
    """Runs `cmd`; its stdout, or an error that names the command and its stderr."""
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    except FileNotFoundError:
        sys.exit(f"cannot start {cmd[0]}: install it (Debian: perf is linux-perf, "
                 "callgrind is valgrind, heaptrack is heaptrack)")
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return out


def version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (FileNotFoundError, IndexError):
        return None


def load_average():
    with open("/proc/loadavg") as f:
        return [float(v) for v in f.read().split()[:3]]


def git_state():
    commit = os.environ.get("COURSE_COMMIT")
    if commit:
        return commit.removesuffix("-dirty"), commit.endswith("-dirty")
    head = run(["git", "rev-parse", "HEAD"]).stdout.strip()
    status = run(["git", "status", "--porcelain", "--untracked-files=no"]).stdout.strip()
    return head, bool(status)


def cpu_model():
    try:
        for line in run(["lscpu"]).stdout.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except SystemExit:
        pass
    return platform.processor() or "unknown"


class Sidecars:
    def __init__(self, args):
        self.args = args
        self.commit, self.dirty = git_state()
        self.machine = f"{cpu_model()}, {os.cpu_count()} logical CPUs"

    def write(self, figure, description, commands, files, notes, load, **extra):
        side = {
            "figure": figure,
            "description": description,
            "program": PROGRAM,
            "machine": self.machine,
            "machine_label": self.args.machine,
            "logical_cpus": os.cpu_count(),
            "os": f"{platform.system().lower()} {platform.machine()}",
            # CPU tools; the dhat part names the GPU adapter its test ran on.
            "adapter": None,
            "commit": self.commit,
            "dirty": self.dirty,
            "load_average": load,
            # The output folder is a temporary one on the machine that ran it.
            "command": " ".join(["python3", PROGRAM] + sys.argv[1:]).replace(
                self.args.out, "<out>"),
            "tool_commands": commands,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "notes": notes,
            "files": files,
        }
        side.update(extra)
        with open(os.path.join(self.args.out, f"{figure}.json"), "w") as f:
            json.dump(side, f, indent=2)
            f.write("\n")


def write(out, name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


LEGACY = [("$LT$", "<"), ("$GT$", ">"), ("$C$", ","), ("$u20$", " "), ("$u7b$", "{"),
          ("$u7d$", "}"), ("..", "::")]


def clean(line, workload):
    """One tool line without the machine's paths and Rust's symbol hashes; a symbol in Rust's
    legacy mangling that the tool left mangled (`_$LT$...`) is spelled out."""
    line = HASH.sub("", line)
    if line.lstrip().startswith("_$LT$"):
        line = line.replace("_$LT$", "$LT$", 1)
        for code, text in LEGACY:
            line = line.replace(code, text)
    line = re.sub(r"\s+-\s+-\s*$", "", line)
    line = re.sub(r" \[/[^\]]*\]$", "", line)
    return line.replace(os.path.dirname(workload) + "/", "").rstrip()


def hot_loop(lines):
    """The innermost loop around the hottest instruction of `perf annotate`'s listing: from the
    target of the first backward jump after it to that jump."""
    rows = []
    for i, line in enumerate(lines):
        m = re.match(r"\s*([\d.]+)\s*:\s*([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if m:
            rows.append((i, float(m[1]), int(m[2], 16), m[3], m[4]))
    if not rows:
        sys.exit("perf annotate printed no instructions")
    hottest = max(rows, key=lambda r: r[1])
    for i, _, addr, op, operand in rows:
        target = re.match(r"([0-9a-f]+)\s*<", operand)
        if addr > hottest[2] and op.startswith("j") and target:
            start = int(target[1], 16)
            if start <= hottest[2]:
                first = next(r[0] for r in rows if r[2] == start)
                return lines[first:i + 1]
    sys.exit("no backward jump closes a loop around the hottest instruction")


def perf(args, side, tmp):
    load = load_average()
    data = os.path.join(tmp, "perf.data")
    runs = "100" if args.quick else "500"
    record = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "999", "-o", data, "--",
              args.workload, "--runs", runs]
    printed = run(record).stdout.strip()
    report_cmd = ["perf", "report", "-i", data, "--stdio", "--sort", "symbol",
                  "--percent-limit", "1"]
    report = [clean(l, args.workload) for l in run(report_cmd).stdout.splitlines()
              if l.strip() and not l.startswith("#")]
    annotate_cmd = ["perf", "annotate", "-i", data, "--stdio", "-s", HOT_FUNCTION]
    listing = [clean(l, args.workload) for l in run(annotate_cmd).stdout.splitlines()]
    header = next((l for l in listing if "samples" in l), "")
    loop = hot_loop(listing)
    share = sum(float(l.split(":")[0]) for l in loop)
    write(args.out, "profiling_perf_report.txt", "\n".join(report) + "\n")
    write(args.out, "profiling_perf_annotate_linear.txt", "\n".join(listing) + "\n")
    write(args.out, "profiling_perf_annotate_loop.txt", "\n".join([header] + loop) + "\n")
    samples = re.search(r"\((\d+) samples", header)
    side.write(
        "profiling_perf_annotate",
        "perf record (cpu-clock) of the CPU graph runner; perf report's hottest functions and "
        "perf annotate of the hottest, with its inner loop cut out.",
        [" ".join(record).replace(args.workload, "profiling_workload"),
         " ".join(report_cmd).replace(data, "perf.data"),
         " ".join(annotate_cmd).replace(data, "perf.data")],
        ["profiling_perf_report.txt", "profiling_perf_annotate_linear.txt",
         "profiling_perf_annotate_loop.txt"],
        [f"the workload printed: {printed}",
         "profiling_perf_annotate_loop.txt: perf annotate's header line, then the lines from the "
         "target of the first backward jump after the hottest instruction to that jump",
         f"the loop's instructions hold {share:.2f} % of the function's samples"],
        load,
        perf_version=version(["perf", "--version"]),
        samples_in_function=int(samples[1]) if samples else None,
        loop_share_percent=round(share, 2),
    )


def callgrind(args, side, tmp):
    load = load_average()
    out_file = os.path.join(tmp, "callgrind.out")
    cmd = ["valgrind", "-q", "--tool=callgrind", f"--callgrind-out-file={out_file}",
           args.workload, "--runs", "2"]
    printed = run(cmd).stdout.strip()
    annotate = run(["callgrind_annotate", out_file]).stdout.splitlines()
    # The totals and the table of functions; the header (data file, thresholds) and the list
    # of source files it could not find are left out.
    start = next(i for i, l in enumerate(annotate) if "PROGRAM TOTALS" in l)
    table = [clean(l, args.workload) for l in annotate[start:]]
    end = next((i for i, l in enumerate(table) if i > 2 and not l.strip()), len(table))
    write(args.out, "profiling_callgrind_annotate.txt", "\n".join(table[:end]) + "\n")
    side.write(
        "profiling_callgrind_annotate",
        "callgrind's instruction count (Ir) per function for two graph runs of the workload, "
        "as callgrind_annotate prints it.",
        [" ".join(cmd).replace(out_file, "callgrind.out").replace(args.workload,
                                                                  "profiling_workload"),
         "callgrind_annotate callgrind.out"],
        ["profiling_callgrind_annotate.txt"],
        [f"the workload printed: {printed}",
         "kept: from the PROGRAM TOTALS line to the end of the table of functions; "
         "' [object]' suffixes and symbol hashes cut"],
        load,
        valgrind_version=version(["valgrind", "--version"]),
    )


def heaptrack(args, side, tmp):
    load = load_average()
    base = os.path.join(tmp, "heaptrack.profiling_workload")
    cmd = ["heaptrack", "-o", base, args.workload, "--runs", "3"]
    log = run(cmd).stdout
    printed = next((l for l in log.splitlines() if l.startswith("runs=")), "")
    data = next(iter(glob.glob(base + "*")), None)
    if data is None:
        sys.exit(f"heaptrack wrote no {base}.*")
    print_cmd = ["heaptrack_print", "-f", data, "-a", "0", "-T", "0", "-p", "1", "-n", "8",
                 "-s", "1", "-l", "1"]
    text = run(print_cmd).stdout
    # heaptrack_print leaves symbols in Rust's v0 mangling (`_RNv...`) as they are; binutils'
    # c++filt spells them out, and the crate's disambiguator (`std[0123abcd...]`) is cut.
    text = run(["c++filt"], input=text).stdout
    text = re.sub(r"\[[0-9a-f]{16}\]", "", text)
    lines = [clean(l, args.workload) for l in text.splitlines()]
    kept = ["PEAK MEMORY CONSUMERS"]
    # Each peak: its line, the allocating function, and the first caller line with its frame.
    for i, line in enumerate(lines):
        if "peak memory consumed" in line:
            kept += [line, lines[i + 1]]
            # A bare address is code without symbols: keep the library it is in.
            if lines[i + 1].startswith("0x") and lines[i + 2].strip().startswith("in "):
                kept.append(lines[i + 2])
            caller = next((j for j in range(i + 2, len(lines)) if "consumed over" in lines[j]),
                          None)
            if caller is not None and caller + 1 < len(lines):
                kept += [lines[caller], lines[caller + 1]]
    # Each leak: its line and the allocating function.
    kept += ["", "MEMORY LEAKS"]
    for i, line in enumerate(lines):
        if re.match(r"\S+ leaked over \d+ calls from$", line):
            kept += [line, lines[i + 1]]
    kept.append("")
    for line in lines:
        if re.match(r"(calls to allocation|temporary memory|peak heap|peak RSS|total memory "
                    r"leaked)", line):
            kept.append(re.sub(r" \([\d.]+/s\)", "", line))
    write(args.out, "profiling_heaptrack.txt", "\n".join(kept) + "\n")
    side.write(
        "profiling_heaptrack",
        "heaptrack on three graph runs of the workload: heaptrack_print's peak memory consumers "
        "(allocating function and first caller), its leaks (allocating function) and its "
        "summary.",
        [" ".join(cmd).replace(base, "heaptrack.profiling_workload").replace(
            args.workload, "profiling_workload"),
         " ".join(print_cmd).replace(data, os.path.basename(data))],
        ["profiling_heaptrack.txt"],
        [f"the workload printed: {printed}",
         "heaptrack_print's K and M are powers of 1000; 'in FILE' lines, symbol hashes and the "
         "per-second rates of the summary are cut; the total runtime line is left out"],
        load,
        heaptrack_version=version(["heaptrack", "--version"]),
    )


def dhat_gpu(args, side):
    load = load_average()
    processes = 2 if args.quick else 3
    cmd = [args.gpu_heap_test, "--exact", GPU_TEST, "--nocapture", "--test-threads", "1"]
    printed, rows = [], []
    for process in range(1, processes + 1):
        out = run(cmd)
        line = next((l for l in (out.stderr + out.stdout).splitlines()
                     if l.startswith("one iteration:")), None)
        if line is None:
            sys.exit("the GPU heap test printed no 'one iteration:' line")
        printed.append(line)
        pairs = re.findall(r"\((\d+), (-?\d+)\)", line)
        for run_index, (allocations, kept) in enumerate(pairs, 1):
            rows.append([process, 1, run_index, allocations, kept])
        nine = re.search(r"nine: (\d+)", line)
        rows.append([process, 9, "fewest of 3", nine[1] if nine else "", ""])
    write(args.out, "profiling_gpu_heap_counts.txt", "\n".join(printed) + "\n")
    with open(os.path.join(args.out, "profiling_gpu_heap_counts.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["process", "iterations", "run", "allocations", "blocks_kept"])
        w.writerows(rows)
    dispatches = re.search(r"dispatches: (\d+)", printed[0])
    adapter = None
    summary = subprocess.run(["vulkaninfo", "--summary"], capture_output=True, text=True)
    names = re.findall(r"(deviceName|driverInfo)\s*=\s*(.+)", summary.stdout)
    if names:
        adapter = ", ".join(v.strip() for _, v in names)
    side.write(
        "profiling_gpu_heap_counts",
        "dhat's allocation counts of the GPU graph runner's loop (tests/gpu_heap.rs), ten runs of "
        "one iteration and the fewest of three runs of nine, in separate processes.",
        [" ".join(cmd).replace(args.gpu_heap_test, "gpu_heap")],
        ["profiling_gpu_heap_counts.txt", "profiling_gpu_heap_counts.csv"],
        ["the test binary is tests/gpu_heap.rs built by `cargo test --no-run` (the test profile)",
         "blocks_kept: live blocks after a run minus before it"],
        load,
        adapter=adapter,
        dispatches_per_iteration=int(dispatches[1]) if dispatches else None,
    )


def pmu(args, side):
    """Whether the kernel exposes the processor's counters: a transcript of three checks."""
    load = load_average()
    devices = sorted(os.listdir("/sys/bus/event_source/devices"))
    with open("/proc/cpuinfo") as f:
        flagged = sum(1 for l in f if l.startswith("flags") and " hypervisor" in l)
    lines = ["$ ls /sys/bus/event_source/devices", "  ".join(devices),
             "$ grep -c hypervisor /proc/cpuinfo", str(flagged),
             "$ perf stat -e instructions,cycles true"]
    try:
        out = subprocess.run(["perf", "stat", "-e", "instructions,cycles", "true"],
                             capture_output=True, text=True)
        lines += [l.rstrip() for l in out.stderr.splitlines()
                  if "instructions" in l or "cycles" in l]
    except FileNotFoundError:
        lines.append("bash: perf: command not found")
    name = f"profiling_{args.machine}_pmu"
    write(args.out, f"{name}.txt", "\n".join(lines) + "\n")
    side.write(
        name,
        "Whether the kernel lists a hardware PMU (a 'cpu' event source), whether the CPUs carry "
        "the hypervisor flag, and what perf stat prints for two hardware events.",
        ["ls /sys/bus/event_source/devices", "grep -c hypervisor /proc/cpuinfo",
         "perf stat -e instructions,cycles true"],
        [f"{name}.txt"],
        ["the grep count is the number of logical CPUs whose flags include hypervisor"],
        load,
    )


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workload", help="a release build of profiling_workload (perf, "
                   "callgrind, heaptrack)")
    p.add_argument("--gpu-heap-test", help="the test binary of code/profiling/tests/gpu_heap.rs "
                   "(dhat)")
    p.add_argument("--out", required=True, help="folder for the text files, CSV and sidecars")
    p.add_argument("--machine", required=True, help="a short label for the machine (vm-2cpu)")
    p.add_argument("--max-load", type=float, default=0.75,
                   help="refuse to run above this 1-minute load average")
    p.add_argument("--allow-busy", action="store_true",
                   help="run on a busy machine anyway (the load is recorded)")
    p.add_argument("--quick", action="store_true", help="fewer runs, for a test of the script")
    p.add_argument("--only", default="pmu,perf,callgrind,heaptrack,dhat",
                   help="comma-separated parts: pmu, perf, callgrind, heaptrack, dhat")
    args = p.parse_args()
    parts = set(args.only.split(","))
    unknown = parts - {"pmu", "perf", "callgrind", "heaptrack", "dhat"}
    if unknown:
        sys.exit(f"unknown part(s) {sorted(unknown)}: use pmu, perf, callgrind, heaptrack, dhat")
    needs = [("--workload", "workload", {"perf", "callgrind", "heaptrack"}),
             ("--gpu-heap-test", "gpu_heap_test", {"dhat"})]
    for flag, name, users in needs:
        if parts & users:
            path = getattr(args, name)
            if path is None or not os.access(path, os.X_OK):
                sys.exit(f"{flag} {path}: not an executable file; build it first (see --help)")
            setattr(args, name, os.path.abspath(path))
    load = load_average()[0]
    if load > args.max_load and not args.allow_busy:
        sys.exit(f"the 1-minute load average is {load} (over {args.max_load}): wait for an idle "
                 "machine, or pass --allow-busy")
    os.makedirs(args.out, exist_ok=True)
    side = Sidecars(args)
    if "pmu" in parts:
        pmu(args, side)
    with tempfile.TemporaryDirectory() as tmp:
        if "perf" in parts:
            perf(args, side, tmp)
        if "callgrind" in parts:
            callgrind(args, side, tmp)
        if "heaptrack" in parts:
            heaptrack(args, side, tmp)
    if "dhat" in parts:
        dhat_gpu(args, side)


if __name__ == "__main__":
    main()
