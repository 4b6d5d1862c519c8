"""The cost of one `euref.Thread.step()` from Python: a SIMD16 float `mad` on Skylake, on the
state of the Rust exec benchmark (benches/common/exec_cases.rs: r0-r127 normal floats of both
signs, f0 and f1 defined), so the numbers sit beside `cargo bench --bench exec` (the step
inside Rust) and capi/benches/step.rs (the step through the C ABI).

Each timed call restores the thread to the same checkpoint (state and run position) and steps
once; the restore alone is timed the same way and subtracted. Prints ns per step.

    python python/bench_step.py [--number N] [--repeat R]
"""

import argparse
import struct
import timeit

import euref

MAD = "mad (16|M0) r10.0<1>:f r20.0<4;4,1>:f r22.0<4;4,1>:f r24.0<4;4,1>:f"


def grf_values():
    """exec_cases::state(): dword k = (1 + (k % 97) / 64), negated when k % 3 == 0."""
    vals = [(1.0 + (k % 97) / 64.0) * (-1.0 if k % 3 == 0 else 1.0) for k in range(4096 // 4)]
    return struct.pack(f"<{len(vals)}f", *vals)


def thread():
    t = euref.Thread("skl")
    t.load_program(euref.assemble(MAD, "skl"))
    t.write("r0", grf_values())  # the whole GRF, r0-r127
    for f in ("f0", "f1"):
        t.write(f, b"\x5a\xa5\x0f\xf0")
    t.checkpoint()
    return t


def best(stmt, number, repeat):
    """Best time per call, in ns, over `repeat` runs of `number` calls."""
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number * 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=20000, help="calls per timed run")
    ap.add_argument("--repeat", type=int, default=7, help="timed runs (the best is kept)")
    a = ap.parse_args()
    t = thread()
    first = t.step()
    assert [w["reg"] for w in first["writes"]] == ["r10", "r11"], first
    t.restore()

    def restore_step():
        t.restore()
        t.step()

    both = best(restore_step, a.number, a.repeat)
    restore = best(t.restore, a.number, a.repeat)
    print(f"python Thread.step (SIMD16 mad, skl): {both - restore:.0f} ns/step "
          f"(restore+step {both:.0f} ns, restore {restore:.0f} ns; "
          f"best of {a.repeat} x {a.number})")


if __name__ == "__main__":
    main()
