#!/usr/bin/env python3
"""Points Nsight Compute at one of the course's own Vulkan programs and keeps what it says.

Nsight Compute replays CUDA kernels; the course's kernels are WGSL compute shaders that wgpu runs
through Vulkan. Rather than assert that ncu cannot see them, this runs it on such a program, with
`--target-processes all` so that no child process escapes it, and records its output:

    python3 code/profiling/bench/ncu_on_vulkan.py --out figures --machine h200 -- \\
        target/release/profiling_figures --only trace --machine h200

Writes into --out:
  ncu_vulkan_<machine>.log   everything ncu and the program printed, in order
  ncu_vulkan_<machine>.json  sidecar: ncu's version and exit status, ncu's own lines (those that
                             start with "=="), which NVIDIA profilers the host has, commit, load
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys

from torch_trace import machine, provenance

CUDA_BIN = "/usr/local/cuda/bin"


def host_tools():
    """Where ncu and nsys are on PATH (None if absent), and the Nsight names in CUDA_BIN."""
    listed = sorted(os.listdir(CUDA_BIN)) if os.path.isdir(CUDA_BIN) else []
    return {
        "ncu": shutil.which("ncu"),
        "nsys": shutil.which("nsys"),
        f"{CUDA_BIN} entries starting with ncu or nsys": [
            n for n in listed if n.startswith(("ncu", "nsys"))],
        "/opt/nvidia entries": sorted(os.listdir("/opt/nvidia")) if os.path.isdir("/opt/nvidia") else [],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="folder for the log and its sidecar")
    ap.add_argument("--machine", required=True, help="short machine name for the file names")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds before ncu is stopped")
    ap.add_argument("--program-commit", help="the commit the profiled program was built from, "
                    "when it is not COURSE_COMMIT (recorded in the sidecar)")
    ap.add_argument("program", nargs="+", help="the Vulkan program and its arguments, after --")
    args = ap.parse_args()
    ncu = shutil.which("ncu")
    if ncu is None:
        sys.exit("ncu is not on PATH; add the CUDA toolkit's bin folder (e.g. /usr/local/cuda/bin)")

    os.makedirs(args.out, exist_ok=True)
    cmd = [ncu, "--target-processes", "all"] + args.program
    try:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=args.timeout)
        output, status = done.stdout, done.returncode
    except subprocess.TimeoutExpired as e:
        output = e.stdout or ""
        if isinstance(output, bytes):  # what was printed before the timeout may come back as bytes
            output = output.decode(errors="replace")
        status = f"stopped after {args.timeout} s"
    log = f"ncu_vulkan_{args.machine}.log"
    with open(os.path.join(args.out, log), "w") as f:
        f.write(output)
    said = [line for line in output.splitlines() if line.startswith("==")]
    # The course's GPU programs print their adapter report ("adapter:", "backend:", "driver:").
    report = {k: v.strip() for k, _, v in (line.partition(":") for line in output.splitlines())
              if k in ("adapter", "backend", "driver") and v.strip()}
    version = subprocess.run([ncu, "--version"], capture_output=True, text=True).stdout
    sidecar = {
        "figure": f"ncu_vulkan_{args.machine}",
        "description": "Nsight Compute run on one of the course's Vulkan (wgpu) programs",
        "program": "code/profiling/bench/ncu_on_vulkan.py",
        "machine": machine(),
        "adapter": (f"{report['adapter']} ({report.get('backend', '?')}, driver "
                    f"{report.get('driver', '?')})" if "adapter" in report else None),
        "ncu": version.strip().splitlines()[-1] if version.strip() else None,
        "profiled_command": " ".join(cmd),
        "profiled_program_commit": args.program_commit or provenance()["commit"],
        "exit_status": status,
        "ncu_lines": said,
        "host_tools": host_tools(),
        **provenance(),  # commit, dirty and how dirty is known
        "command": " ".join(["python3"] + sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average": list(os.getloadavg()),
        "files": [log],
    }
    with open(os.path.join(args.out, f"ncu_vulkan_{args.machine}.json"), "w") as f:
        json.dump(sidecar, f, indent=2)
    print("\n".join(said) or "ncu printed no line of its own")


if __name__ == "__main__":
    main()
