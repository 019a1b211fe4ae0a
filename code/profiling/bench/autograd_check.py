#!/usr/bin/env python3
"""The course's backward pass against PyTorch's autograd, on the same network and the same batch.

`autograd_export` (a binary of profiling_lab) writes a JSON file with a two-layer network's
weights and biases, a batch of spiral points with their labels, and the loss and gradients the
Rust backward pass computed. This script rebuilds the network in PyTorch from those numbers
(Linear as x @ W + b, ReLU between the layers, cross-entropy averaged over the batch), runs
loss.backward(), and compares every gradient, on the CPU and, when there is one, on the GPU, in
float32 and float64 (float64 is the reference closest to the exact gradient of these weights).

    cargo run --release -p profiling_lab --bin autograd_export -- --out autograd_check.json
    COURSE_COMMIT=$(git rev-parse HEAD) python3 code/profiling/bench/autograd_check.py \
        --json autograd_check.json --out figures --machine h200

Refuses to run without COURSE_COMMIT set to a full commit hash (with -dirty appended when the
tree had changes: where git cannot see the checkout, that is how the sidecar learns it). Writes
<out>/profiling_<machine>_autograd_check.csv (one row per device, precision and tensor: max
absolute error, that error relative to the largest reference value, and how much the tensor's
sums over the batch cancel) and a .json
sidecar. Exits with status 1 if any relative error exceeds --tolerance.
"""

import argparse
import csv
import datetime
import json
import os
import platform
import sys


def load_check(path):
    """The exported network, batch and gradients, with every shape checked against `widths`."""
    with open(path) as f:
        check = json.load(f)
    for key in ("widths", "x", "labels", "layers", "loss", "gradients"):
        if key not in check:
            raise ValueError(f"{path}: no '{key}' field; write the file with autograd_export")
    widths = check["widths"]
    if len(check["layers"]) != len(widths) - 1 or len(check["gradients"]) != len(widths) - 1:
        raise ValueError(f"{path}: {len(widths)} widths need {len(widths) - 1} layers and gradients")
    m = len(check["x"])
    if m == 0 or len(check["labels"]) != m:
        raise ValueError(f"{path}: {m} points and {len(check['labels'])} labels; need one label a point")
    if any(len(row) != widths[0] for row in check["x"]):
        raise ValueError(f"{path}: every point must have {widths[0]} coordinates")
    if any(not 0 <= label < widths[-1] for label in check["labels"]):
        raise ValueError(f"{path}: labels must lie in 0..{widths[-1] - 1}")
    for kind in ("layers", "gradients"):
        for i, p in enumerate(check[kind]):
            rows, cols = widths[i], widths[i + 1]
            if len(p["weights"]) != rows or any(len(r) != cols for r in p["weights"]):
                raise ValueError(f"{path}: {kind}[{i}].weights must be {rows}x{cols}")
            if len(p["bias"]) != cols:
                raise ValueError(f"{path}: {kind}[{i}].bias must have {cols} numbers")
    return check


def machine_description():
    """The CPU model and logical CPU count, as the Rust figure programs name a machine."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical CPUs"


def script_differs_from(commit, declared_dirty):
    """Whether this script differs from its copy at `commit`, and how that is known: git's answer
    where git can see the checkout; otherwise the run script's word, as for the Rust figure
    programs (a COURSE_COMMIT ending in -dirty means the tree was not clean)."""
    import subprocess

    here = os.path.abspath(__file__)
    try:
        diff = subprocess.run(["git", "diff", "--quiet", commit, "--", here],
                              cwd=os.path.dirname(here), capture_output=True)
        answer = {0: False, 1: True}.get(diff.returncode)
    except OSError:
        answer = None
    if answer is not None:
        return answer, "git diff against the commit"
    return declared_dirty, "COURSE_COMMIT as set by the run script (no git where it ran)"


def flat(matrix_or_vector):
    """A list of numbers from a list of rows or a list of numbers."""
    if matrix_or_vector and isinstance(matrix_or_vector[0], list):
        return [v for row in matrix_or_vector for v in row]
    return list(matrix_or_vector)


def errors(ours, reference):
    """Max |ours - reference|, and that divided by max |reference| (0 if the reference is 0)."""
    ours, reference = flat(ours), flat(reference)
    if len(ours) != len(reference):
        raise ValueError(f"{len(ours)} numbers against {len(reference)}")
    max_abs = max((abs(a - b) for a, b in zip(ours, reference)), default=0.0)
    scale = max((abs(b) for b in reference), default=0.0)
    return max_abs, (max_abs / scale if scale > 0 else 0.0)


def torch_gradients(check, device, dtype):
    """The loss and each layer's (weights, bias) gradients, from PyTorch's autograd."""
    import torch

    def tensor(values):
        return torch.tensor(values, dtype=dtype, device=device, requires_grad=True)

    params = [(tensor(p["weights"]), tensor(p["bias"])) for p in check["layers"]]
    h = torch.tensor(check["x"], dtype=dtype, device=device)
    inputs, outputs = [], []
    for i, (w, b) in enumerate(params):
        inputs.append(h)
        h = h @ w + b
        h.retain_grad()  # each sample's share of the parameters' gradients
        outputs.append(h)
        if i + 1 < len(params):
            h = torch.relu(h)
    labels = torch.tensor(check["labels"], dtype=torch.long, device=device)
    loss = torch.nn.functional.cross_entropy(h, labels)  # mean over the batch, like ours
    loss.backward()
    grads = [(w.grad.double().cpu().tolist(), b.grad.double().cpu().tolist()) for w, b in params]
    return loss.item(), grads, cancellation(params, inputs, outputs)


def cancellation(params, inputs, outputs):
    """Per layer, (weights, bias): the largest sum of |terms| over the batch against the largest
    |gradient|. Each gradient entry is a sum over the samples (x_ip * d_ij for a weight, d_ij for
    a bias, d the gradient of the layer's output); where terms of opposite sign cancel, the sum
    is small against its terms, and the f32 rounding of the terms stays as large as they are."""
    out = []
    for (w, b), x, y in zip(params, inputs, outputs):
        d = y.grad.detach()
        w_terms = x.detach().abs().T @ d.abs()
        b_terms = d.abs().sum(dim=0)
        out.append(((w_terms.max() / w.grad.abs().max()).item(),
                    (b_terms.max() / b.grad.abs().max()).item()))
    return out


def compare(check, loss, grads, ratios, device, precision):
    """One CSV row per tensor: this device's gradients against the exported Rust ones, and how
    much the tensor's sums cancel (empty for the loss)."""
    rows = []
    loss_abs = abs(check["loss"] - loss)
    rows.append({"device": device, "precision": precision, "tensor": "loss",
                 "max_abs_error": loss_abs, "max_rel_error": loss_abs / abs(loss) if loss else 0.0,
                 "terms_over_gradient": None})
    for i, (ours, (dw, db), (rw, rb)) in enumerate(zip(check["gradients"], grads, ratios)):
        for name, mine, theirs, ratio in (("weights", ours["weights"], dw, rw),
                                          ("bias", ours["bias"], db, rb)):
            a, r = errors(mine, theirs)
            rows.append({"device": device, "precision": precision, "tensor": f"layer{i}.{name}",
                         "max_abs_error": a, "max_rel_error": r, "terms_over_gradient": ratio})
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--json", required=True, help="the file autograd_export wrote")
    p.add_argument("--out", required=True, help="folder for the CSV and its sidecar")
    p.add_argument("--machine", default="cpu", help="names the files: profiling_<machine>_autograd_check")
    p.add_argument("--tolerance", type=float, default=1e-4,
                   help="largest relative error (to the largest reference value) that counts as agreement")
    args = p.parse_args()

    # The sidecar must name the clean commit the Rust gradients came from, in full.
    commit = os.environ.get("COURSE_COMMIT", "")
    declared_dirty = commit.endswith("-dirty")
    commit = commit.removesuffix("-dirty")
    if len(commit) != 40 or any(c not in "0123456789abcdef" for c in commit):
        sys.exit("set COURSE_COMMIT to the full 40-hex commit that autograd_export was built from "
                 "(COURSE_COMMIT=$(git rev-parse HEAD) on a clean tree; add -dirty if it is not)")
    check = load_check(args.json)
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False  # TF32 would round the products to 10 bits
    torch.backends.cudnn.allow_tf32 = False
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    rows = []
    for device in devices:
        for precision, dtype in (("float32", torch.float32), ("float64", torch.float64)):
            loss, grads, ratios = torch_gradients(check, device, dtype)
            rows.extend(compare(check, loss, grads, ratios, device, precision))
    for r in rows:
        ratio = r["terms_over_gradient"]
        print(f"{r['device']:>5} {r['precision']:>8} {r['tensor']:>15}: "
              f"max abs {r['max_abs_error']:.3e}, max rel {r['max_rel_error']:.3e}"
              + (f", terms/gradient {ratio:.3g}" if ratio is not None else ""))

    name = f"profiling_{args.machine}_autograd_check"
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, name + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        for r in rows:
            ratio = r["terms_over_gradient"]
            w.writerow({**r, "max_abs_error": f"{r['max_abs_error']:.6e}",
                        "max_rel_error": f"{r['max_rel_error']:.6e}",
                        "terms_over_gradient": "" if ratio is None else f"{ratio:.6g}"})
    dirty, dirty_from = script_differs_from(commit, declared_dirty)
    sidecar = {
        "figure": name,
        "machine": machine_description(),
        "machine_label": args.machine,
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "dirty": dirty,
        "dirty_from": dirty_from,
        "description": "the course's backward pass (Rust, f32) against PyTorch autograd on the same network",
        "program": "code/profiling/bench/autograd_check.py",
        "input": os.path.basename(args.json),
        "widths": check["widths"],
        "points": len(check["x"]),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "adapter": (f"{torch.cuda.get_device_name(0)} (CUDA through PyTorch {torch.__version__})"
                    if torch.cuda.is_available() else None),
        "commit": commit,
        "command": " ".join(sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "files": [name + ".csv"],  # a table without a chart
        "notes": [
            "relative error = max |rust - torch| / max |torch| per tensor; TF32 off",
            "terms_over_gradient = the largest sum over the batch of |terms| of one entry (from "
            "PyTorch's per-sample gradients of each layer's output) / the largest |gradient| "
            "entry of the tensor: how much its sums cancel",
            f"{os.path.basename(args.json)} was written by autograd_export (profiling_lab) built "
            "from the same commit; it holds the weights, inputs, labels and the Rust gradients",
        ],
    }
    with open(os.path.join(args.out, name + ".json"), "w") as f:
        json.dump(sidecar, f, indent=2)
    worst = max(r["max_rel_error"] for r in rows)
    if worst > args.tolerance:
        sys.exit(f"disagreement: a relative error of {worst:.3e} exceeds {args.tolerance:.0e}")
    print(f"agreement: every relative error is at most {worst:.3e}")


if __name__ == "__main__":
    main()
