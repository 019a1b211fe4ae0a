"""Reads the CPU-side energy counters a Linux guest offers, idle and with every CPU busy.

The `cpu-energy` part of `quantization_figures` lists which interfaces exist. This script reads
the one a guest often does have: the perf `power` PMU's `energy-psys` event (Intel's "platform"
domain: the SoC and whatever the platform's power delivery reports, not the CPU package alone).
It opens the event with the perf_event_open system call (no `perf` binary needed), reads it
across 1 s of sleep and 1 s with every logical CPU spinning, and records whether the count moves
with the load. It also says what it found about the `msr` driver (module files, `modprobe msr`,
`/dev/cpu/0/msr`) before concluding anything about RAPL's MSRs.

Writes <out>/quant_<machine>_cpu_psys.csv and a .json sidecar. Needs root or
perf_event_paranoid <= 0 for a system-wide event.
"""

import argparse
import csv
import ctypes
import datetime
import json
import multiprocessing
import os
import platform
import shutil
import struct
import subprocess
import time

PMU = "/sys/bus/event_source/devices/power"
SYS_PERF_EVENT_OPEN = 298  # x86-64


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError as e:
        return None if e.errno == 2 else f"error: {e}"


def open_event(name):
    """A file descriptor counting the power PMU's `name` on the PMU's CPU, or an error string."""
    config = read(f"{PMU}/events/{name}")
    pmu_type = read(f"{PMU}/type")
    if config is None or pmu_type is None:
        return None, f"{PMU}/events/{name} or {PMU}/type is absent"
    event = int(config.split("=")[1], 16)
    cpu = int((read(f"{PMU}/cpumask") or "0").split(",")[0].split("-")[0])
    # perf_event_attr, first 64 bytes (PERF_ATTR_SIZE_VER0): type, size, config, the rest zero
    # (not disabled, so it counts from the moment it is opened).
    attr = ctypes.create_string_buffer(struct.pack("IIQ", int(pmu_type), 64, event) + bytes(48))
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.syscall(SYS_PERF_EVENT_OPEN, attr, -1, cpu, -1, 0)
    if fd < 0:
        return None, f"perf_event_open: {os.strerror(ctypes.get_errno())}"
    return fd, None


def count(fd):
    return struct.unpack("Q", os.read(fd, 8))[0]


def spin(seconds):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def joules_over(fd, scale, busy):
    """Joules the counter advanced over about 1 s, and the seconds it took."""
    workers = []
    if busy:
        workers = [multiprocessing.Process(target=spin, args=(1.0,)) for _ in range(os.cpu_count())]
    c0, t0 = count(fd), time.perf_counter()
    for w in workers:
        w.start()
    if busy:
        for w in workers:
            w.join()
    else:
        time.sleep(1.0)
    c1, t1 = count(fd), time.perf_counter()
    return (c1 - c0) * scale, t1 - t0


def cpu_description():
    """The CPU as /proc/cpuinfo names it, with the logical CPU count."""
    names = [l.split(":", 1)[1].strip() for l in (read("/proc/cpuinfo") or "").splitlines() if l.startswith("model name")]
    return f"{names[0] if names else platform.processor() or 'unknown CPU'}, {os.cpu_count()} logical CPUs"


def msr_checks(try_modprobe):
    """What stands between this guest and RAPL's MSRs, each check with its result."""
    release = platform.release()
    rows = [("kernel", release), ("uid", str(os.getuid()))]
    moddir = f"/lib/modules/{release}"
    rows.append((f"{moddir} exists", str(os.path.isdir(moddir))))
    modules = read("/proc/modules") or ""
    rows.append(("msr in /proc/modules", str(any(l.startswith("msr ") for l in modules.splitlines()))))
    builtin = read(f"{moddir}/modules.builtin") or ""
    rows.append(("msr built into the kernel", str("arch/x86/kernel/msr.ko" in builtin)))
    if not try_modprobe:
        rows.append(("modprobe msr", "not tried (--no-modprobe)"))
    elif shutil.which("modprobe"):
        r = subprocess.run(["modprobe", "msr"], capture_output=True, text=True, timeout=10)
        rows.append(("modprobe msr", f"exit {r.returncode} {r.stderr.strip()}".strip()))
    else:
        rows.append(("modprobe msr", "modprobe is not installed"))
    try:
        with open("/dev/cpu/0/msr", "rb") as f:
            f.seek(0x611)
            rows.append(("/dev/cpu/0/msr 0x611 (package energy)", str(struct.unpack("Q", f.read(8))[0])))
    except OSError as e:
        rows.append(("/dev/cpu/0/msr 0x611 (package energy)", f"error: {e.strerror}"))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", default="figures")
    p.add_argument("--machine", default="h200", help="label in the file names")
    p.add_argument("--no-modprobe", action="store_true", help="do not try to load the msr module")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = [("check", "result")]
    rows.append(("power PMU events", " ".join(sorted(os.listdir(f"{PMU}/events"))) if os.path.isdir(f"{PMU}/events") else "absent"))
    fd, err = open_event("energy-psys")
    if fd is None:
        rows.append(("energy-psys", err))
    else:
        scale = float(read(f"{PMU}/events/energy-psys.scale"))
        rows.append(("energy-psys unit", read(f"{PMU}/events/energy-psys.unit") or "?"))
        for busy in (False, True, False):
            joules, seconds = joules_over(fd, scale, busy)
            what = f"all {os.cpu_count()} CPUs spinning" if busy else "sleep"
            rows.append((f"energy-psys over {seconds:.3f} s, {what}", f"{joules:.4f} J ({joules / seconds:.2f} W)"))
        os.close(fd)
    rows.extend(msr_checks(not args.no_modprobe))
    name = f"quant_{args.machine}_cpu_psys"
    with open(os.path.join(args.out, name + ".csv"), "w", newline="") as f:
        csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    for check, result in rows[1:]:
        print(f"{check}: {result}")
    sidecar = {
        "figure": name,
        "description": "The perf power PMU's energy-psys counter, idle and loaded, and the msr driver's state",
        "program": "code/quantization/bench/cpu_psys.py",
        "python": platform.python_version(),
        "commit": os.environ.get("COURSE_COMMIT", "unknown"),
        "command": "code/quantization/bench/cpu_psys.py --out " + args.out + " --machine " + args.machine,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "load_average": list(os.getloadavg()),
        "machine": cpu_description(),
        "machine_label": args.machine,
        "adapter": None,
        "files": [name + ".csv"],
        "notes": [
            "energy-psys read through perf_event_open (system-wide, on the PMU's CPU) across 1 s of "
            "sleep, 1 s with every logical CPU spinning, and 1 s of sleep again",
            "psys is Intel's platform domain, not the CPU package (energy-pkg)",
        ],
    }
    with open(os.path.join(args.out, name + ".json"), "w") as f:
        json.dump(sidecar, f, indent=2)


if __name__ == "__main__":
    main()
