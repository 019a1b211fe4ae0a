"""Does the GPU keep its clock under a sustained load? And which lscpu lines give the topology.

Samples nvidia-smi once a second while the GPU idles, then while it runs bf16 matrix products
back to back, then while it idles again: SM clock, the highest SM clock, temperature, power,
and the clock-event reasons (the flags the driver raises when it lowers a clock for power or
heat). Each sample also gives the matmul throughput of that second and the CPU clock that
/proc/cpuinfo reports. Writes, into --out:

- realtime_clocks_<machine>.csv and .json (a sidecar: commit, GPU, driver, load averages);
- realtime_topology_<machine>.txt: lscpu, the SMT siblings of CPU 0, the kernel, and
  `nvidia-smi -q -d CLOCK,PERFORMANCE` after the load.

    python3 code/realtime/bench/clocks_under_load.py --out figures --machine h200host [--seconds 60] [--quick]
"""

import argparse
import csv
import datetime
import json
import os
import platform
import subprocess
import sys
import threading
import time

# The clock-event reasons worth a column; the driver names them clocks_event_reasons.* (older
# drivers: clocks_throttle_reasons.*).
REASONS = ["sw_power_cap", "hw_slowdown", "sw_thermal_slowdown", "hw_thermal_slowdown"]
GPU_FIELDS = ["clocks.sm", "clocks.max.sm", "temperature.gpu", "power.draw", "power.limit"]


def nvidia_smi(*args):
    return subprocess.run(["nvidia-smi", *args], capture_output=True, text=True, check=True).stdout


def reason_prefix():
    """The name this driver gives the clock-event reasons."""
    for prefix in ["clocks_event_reasons", "clocks_throttle_reasons"]:
        try:
            nvidia_smi(f"--query-gpu={prefix}.active", "--format=csv,noheader")
            return prefix
        except subprocess.CalledProcessError:
            continue
    sys.exit("nvidia-smi reports no clock-event reasons: this driver is too old for this script")


def gpu_sample(prefix):
    fields = GPU_FIELDS + [f"{prefix}.active"] + [f"{prefix}.{r}" for r in REASONS]
    line = nvidia_smi(f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits")
    values = [v.strip() for v in next(csv.reader(line.splitlines()))]
    return dict(zip(["sm_mhz", "max_sm_mhz", "temp_c", "power_w", "power_limit_w", "reasons_active"] + REASONS, values))


def cpu_mhz():
    """Lowest and highest `cpu MHz` over the logical CPUs (a VM guest may report a fixed value)."""
    with open("/proc/cpuinfo") as f:
        mhz = [float(line.split(":")[1]) for line in f if line.startswith("cpu MHz")]
    return (min(mhz), max(mhz)) if mhz else ("", "")


class Load:
    """bf16 n×n products back to back on the GPU, counting those finished."""

    def __init__(self, n):
        import torch

        self.torch, self.n = torch, n
        self.a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        self.b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        self.done, self.stop = 0, threading.Event()

    def run(self):
        while not self.stop.is_set():
            for _ in range(8):
                self.a @ self.b
            self.torch.cuda.synchronize()  # keeps the queue short, so the count is current
            self.done += 8


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="figures")
    p.add_argument("--machine", default="h200host")
    p.add_argument("--seconds", type=int, default=60, help="seconds of load (default 60)")
    p.add_argument("--quick", action="store_true", help="5 s of load")
    args = p.parse_args()
    import torch

    if not torch.cuda.is_available():
        sys.exit("no CUDA device: this script loads an NVIDIA GPU; run it on a machine with one")
    prefix = reason_prefix()
    if args.seconds < 1:
        sys.exit(f"--seconds {args.seconds}: give at least 1 second of load")
    idle_s, load_s = (2, 5) if args.quick else (5, args.seconds)
    load = Load(4096 if args.quick else 8192)
    flop = 2 * load.n**3
    rows, t0 = [], time.monotonic()

    def sample_for(seconds, phase):
        end = time.monotonic() + seconds
        last_t, last_done = time.monotonic(), load.done
        while time.monotonic() < end:
            time.sleep(1.0)
            now, done = time.monotonic(), load.done
            lo, hi = cpu_mhz()
            row = {"t_s": f"{now - t0:.1f}", "phase": phase, **gpu_sample(prefix)}
            row["matmul_tflops"] = f"{(done - last_done) * flop / (now - last_t) / 1e12:.1f}"
            row["cpu_mhz_min"], row["cpu_mhz_max"] = lo, hi
            rows.append(row)
            print(", ".join(f"{k} {v}" for k, v in row.items()), flush=True)
            last_t, last_done = now, done

    sample_for(idle_s, "idle")
    worker = threading.Thread(target=load.run)
    worker.start()
    try:
        sample_for(load_s, "load")
    finally:
        load.stop.set()
        worker.join()
    sample_for(idle_s, "after")

    os.makedirs(args.out, exist_ok=True)
    name = f"realtime_clocks_{args.machine}"
    with open(os.path.join(args.out, name + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(args.out, f"realtime_topology_{args.machine}.txt"), "w") as f:
        for cmd in (["lscpu"], ["cat", "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list"],
                    ["uname", "-rv"], ["nvidia-smi", "-q", "-d", "CLOCK,PERFORMANCE"]):
            out = subprocess.run(cmd, capture_output=True, text=True)
            f.write(f"$ {' '.join(cmd)}\n{out.stdout}{out.stderr}\n")
    gpu = nvidia_smi("--query-gpu=name,driver_version", "--format=csv,noheader").strip()
    gpu_name = next(csv.reader([gpu]))[0].strip()
    sidecar = {
        "figure": name,
        "description": "GPU SM clock, temperature, power and clock-event reasons, idle and under a sustained bf16 matmul load",
        "program": "code/realtime/bench/clocks_under_load.py",
        "machine_label": args.machine,
        "machine": f"{cpu_model()}, {os.cpu_count()} logical CPUs",
        "logical_cpus": os.cpu_count(),
        "gpu": gpu,
        "adapter": f"{gpu_name} (CUDA through PyTorch {torch.__version__})",
        "files": [name + ".csv", f"realtime_topology_{args.machine}.txt"],
        "python": platform.python_version(),
        "torch": torch.__version__,
        "commit": os.environ.get("COURSE_COMMIT", "unknown"),
        "command": " ".join(sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average": list(os.getloadavg()),
        "notes": [
            f"one sample a second: {idle_s} s idle, {load_s} s of {load.n}x{load.n} bf16 products, {idle_s} s idle",
            f"reason columns are {prefix}.*: Active or Not Active in the second of the sample",
        ],
    }
    with open(os.path.join(args.out, name + ".json"), "w") as f:
        json.dump(sidecar, f, indent=2)


def cpu_model():
    """The CPU's model name as /proc/cpuinfo gives it (the sidecars of the Rust figures use the same)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    main()
