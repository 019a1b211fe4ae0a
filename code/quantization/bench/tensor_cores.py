"""Tensor-core matmul throughput with PyTorch, beside the course's WGSL GEMM in the same run.

fp32 (TF32 off), tf32, bf16, fp16, fp8 (e4m3 through torch._scaled_mm), int8 (torch._int_mm,
int32 results; second operand row-major and column-major) and fp16 with 2:4 semi-structured
sparsity (torch.sparse.to_sparse_semi_structured, cuSPARSELt and CUTLASS). Compressing the 2:4
operand is timed on its own row ("... compress"), apart from the products that use it. Writes
<out>/quant_<machine>_tensor_cores.csv and a .json sidecar naming Python, PyTorch, CUDA and GPU.

    python3 code/quantization/bench/tensor_cores.py --out figures --machine h200 [--quick] \
        [--ladder-csv figures/graphs_h100_matmul_ladder.csv]

With --ladder-csv, the best WGSL rung of module 1's matmul ladder (a CSV written by
computational_graphs_figures) is printed beside this run's fp32 and tensor-core rows. Run both
programs on the same GPU, one after the other, for a same-machine comparison.
"""

import argparse
import csv
import datetime
import json
import os
import platform
import sys

import torch


# ANCHOR: timed
def timed(fn, reps):
    """Median seconds per call, from CUDA events around `reps` calls, five samples."""
    for _ in range(3):  # warm-up: library handles, kernel selection, caches
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(5):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(reps):
            fn()
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end) / 1000.0 / reps)
    samples.sort()
    return samples[2], samples[0], samples[4]
# ANCHOR_END: timed


def two_four_mask(a):
    """Keeps the two largest |values| of every group of four along each row: a 2:4 pattern."""
    n, k = a.shape
    groups = a.abs().reshape(n, k // 4, 4)
    keep = groups.topk(2, dim=-1).indices
    return torch.zeros_like(groups, dtype=torch.bool).scatter_(-1, keep, True).reshape(n, k)


def sparse_cases(a16, b16):
    """2:4 rows: compression of the operand, then the product, for each backend the build has.

    Compression happens once per weight matrix in practice, so it is timed as its own row and
    never inside a product's timing."""
    from torch.sparse import SparseSemiStructuredTensor, to_sparse_semi_structured

    pruned = a16 * two_four_mask(a16)

    def compressor(force_cutlass):
        def compress():
            SparseSemiStructuredTensor._FORCE_CUTLASS = force_cutlass
            try:
                return to_sparse_semi_structured(pruned)
            finally:
                SparseSemiStructuredTensor._FORCE_CUTLASS = False
        return compress

    out, seen = [], set()
    for force_cutlass in (False, True):
        try:
            compress = compressor(force_cutlass)
            sparse = compress()
            # The subclass names the backend that was really used (cuSPARSELt or CUTLASS).
            backend = type(sparse).__name__.replace("SparseSemiStructuredTensor", "") or "default"
            if backend in seen:
                continue
            seen.add(backend)
            out.append((f"fp16 2:4 compress ({backend})", compress, False))
            out.append((f"fp16 2:4 sparse ({backend})", lambda s=sparse: s @ b16, True))
        except Exception as e:  # noqa: BLE001 - report what the build lacks, measure the rest
            print(f"2:4 (force CUTLASS: {force_cutlass}) not measured: {e}", file=sys.stderr)
    return out


def cases(n):
    """(label, function, counts_flops) for an n×n·n×n product; a case the build lacks is skipped."""
    dev = "cuda"
    a32, b32 = torch.randn(n, n, device=dev), torch.randn(n, n, device=dev)

    def fp32():
        torch.backends.cuda.matmul.allow_tf32 = False
        return a32 @ b32

    def tf32():
        torch.backends.cuda.matmul.allow_tf32 = True
        return a32 @ b32

    a16, b16 = a32.half(), b32.half()
    abf, bbf = a32.bfloat16(), b32.bfloat16()
    out = [("fp32", fp32), ("tf32", tf32), ("bf16", lambda: abf @ bbf), ("fp16", lambda: a16 @ b16)]
    if hasattr(torch, "float8_e4m3fn") and hasattr(torch, "_scaled_mm"):
        a8 = a32.to(torch.float8_e4m3fn)
        b8 = b32.t().contiguous().to(torch.float8_e4m3fn).t()  # column-major second operand
        one = torch.tensor(1.0, device=dev)
        out.append(("fp8 e4m3", lambda: torch._scaled_mm(a8, b8, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)))
    # torch._int_mm (int8 x int8 -> int32) needs more than 16 rows and both other sizes a
    # multiple of 8. Random int8 in [-64, 64): a row of 8192 products cannot overflow int32.
    if hasattr(torch, "_int_mm") and n > 16 and n % 8 == 0:
        ai = torch.randint(-64, 64, (n, n), device=dev, dtype=torch.int8)
        bi = torch.randint(-64, 64, (n, n), device=dev, dtype=torch.int8)
        bi_col = bi.t().contiguous().t()
        out.append(("int8 (_int_mm)", lambda: torch._int_mm(ai, bi)))
        out.append(("int8 (_int_mm, B column-major)", lambda: torch._int_mm(ai, bi_col)))
    out = [(label, fn, True) for label, fn in out]
    try:
        out += sparse_cases(a16, b16)
    except Exception as e:  # noqa: BLE001
        print(f"2:4 semi-structured not measured: {e}", file=sys.stderr)
    return out


def best_ladder_rung(path):
    """(kernel, size, GFLOP/s) of the fastest WGSL rung in a matmul-ladder CSV."""
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if not r["kernel"].startswith("PyTorch")]
    if not rows:
        sys.exit(f"{path} has no WGSL rows: pass the CSV that computational_graphs_figures wrote")
    best = max(rows, key=lambda r: float(r["gflops"]))
    return best["kernel"], int(best["size"]), float(best["gflops"])


def print_beside_ladder(path, rows):
    """This run's rows at the ladder's size, each as a multiple of the ladder's best rung."""
    kernel, size, gflops = best_ladder_rung(path)
    ladder_tflops = gflops / 1e3
    print(f"\nladder's best WGSL rung ({kernel}, n={size}): {ladder_tflops:.1f} TFLOP/s ({path})")
    same_size = [r for r in rows if r["n"] == size]
    if not same_size:
        print(f"this run measured no n={size}: run it without --quick to compare")
    for r in same_size:
        if not r["tflops"]:
            continue  # a compression row: no FLOP to compare
        t = float(r["tflops"])
        print(f"{r['kind']:>16} n={size}: {t:8.1f} TFLOP/s = {t / ladder_tflops:5.2f}x the ladder's best")


def cpu_description():
    """The host CPU as /proc/cpuinfo names it, with the logical CPU count."""
    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            names = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
        model = names[0] if names else model
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical CPUs"


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", default="figures")
    p.add_argument("--machine", default="h200", help="label in the file names (h100, h200)")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--ladder-csv", help="a matmul-ladder CSV to print beside this run's rows")
    args = p.parse_args()
    if args.ladder_csv:
        best_ladder_rung(args.ladder_csv)  # a bad path fails now, not after the sweep
    if not torch.cuda.is_available():
        sys.exit("no CUDA device: this script measures NVIDIA tensor cores")
    sizes = [1024, 2048] if args.quick else [2048, 4096, 8192]
    name = f"quant_{args.machine}_tensor_cores"
    rows = []
    for n in sizes:
        for label, fn, counts_flops in cases(n):
            try:
                med, lo, hi = timed(fn, 3 if n >= 8192 else 10)
            except Exception as e:  # noqa: BLE001
                print(f"{label} n={n} failed: {e}", file=sys.stderr)
                continue
            tflops = f"{2 * n**3 / med / 1e12:.2f}" if counts_flops else ""
            rows.append({"kind": label, "n": n, "median_s": f"{med:.6e}", "p10_s": f"{lo:.6e}", "p90_s": f"{hi:.6e}", "tflops": tflops})
            print(f"{label:>32} n={n}: {med * 1e3:9.4f} ms {tflops:>8} TFLOP/s")
        torch.cuda.empty_cache()
    os.makedirs(args.out, exist_ok=True)
    if not rows:
        sys.exit("no case could be measured: see the messages above")
    with open(os.path.join(args.out, name + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    sidecar = {
        "figure": name,
        "description": "PyTorch matmul throughput per number format, and 2:4 semi-structured sparsity",
        "program": "code/quantization/bench/tensor_cores.py",
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "gpu": torch.cuda.get_device_name(0),
        "commit": os.environ.get("COURSE_COMMIT", "unknown"),
        "command": " ".join(sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "load_average": list(os.getloadavg()),
        "machine": cpu_description(),
        "machine_label": args.machine,
        "adapter": f"{torch.cuda.get_device_name(0)} (CUDA {torch.version.cuda} through PyTorch {torch.__version__})",
        "files": [name + ".csv"],
        "notes": [
            "median of 5 samples after 3 warm-up calls, CUDA events; min as p10, max as p90",
            "multiply-adds count as 2 operations; the tflops column is TOP/s for int8, empty for compression rows",
            "fp32 rows run with torch.backends.cuda.matmul.allow_tf32 = False",
            "2:4 rows: 'compress' times to_sparse_semi_structured alone; 'sparse' times the product with the compressed operand (counted as dense work)",
        ],
    }
    with open(os.path.join(args.out, name + ".json"), "w") as f:
        json.dump(sidecar, f, indent=2)
    if args.ladder_csv:
        print_beside_ladder(args.ladder_csv, rows)


if __name__ == "__main__":
    main()
