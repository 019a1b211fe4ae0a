# The Python side of the call-cost figure (src/call_cost.rs runs it in an embedded interpreter).
# Every variant computes the same thing, a frame of samples times a gain.
import array
import time

from bindings import scale_into, scale_list, scale_one


# ANCHOR: variants
def per_element(xs, gain):
    return [scale_one(x, gain) for x in xs]


def batched_list(xs, gain):
    return scale_list(xs, gain)


def batched_buffer(frame, gain, out):
    scale_into(frame, gain, out)
    return out


def pure_python(xs, gain):
    return [x * gain for x in xs]
# ANCHOR_END: variants


def arguments(variant, xs, gain):
    """The call's arguments: float32 arrays for the buffer variant, a list of floats otherwise."""
    if variant == "batched_buffer":
        return (array.array("f", xs), gain, array.array("f", bytes(4 * len(xs))))
    return (xs, gain)


def timed_ns(fn, args, reps):
    """Nanoseconds for `reps` calls, timed in Python as a Python user would time them."""
    start = time.perf_counter_ns()
    for _ in range(reps):
        fn(*args)
    return time.perf_counter_ns() - start
