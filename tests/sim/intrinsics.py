#!/usr/bin/python3
"""tile.intrinsic programs on the sim device against NumPy.

Each is built for cuda:sm_80 and cuda:sm_90a (--cuda-compiler=none),
run on the sim device with --save, and every output is recomputed here with
NumPy from the saved inputs; the programs the CPU target builds (its
per-thread lowering: CPU_REFERENCE) are also run on the CPU target, whose
outputs must equal NumPy's too, and the sim run is verified against it
(tlc-run --verify --reference):

  intrinsics-warp.py    shuffles (xor, up, idx, down with width 16), ballot,
                        any/all, match_any, __syncthreads_count, warp max,
                        lane/warp/warp-group indices, shuffle_elect, and
                        __activemask under `if lane < 5`
  intrinsics-memory.py  a loop left with T.loop_break under a condition each
                        thread computes in its own order (decided for the
                        block), any_of / all_of over bool regions, atomic_max,
                        IEEE add/mul/div with rz/ru/rd rounding and sqrt_rn
  intrinsics-dp4a.py    T.dp4a from per-thread int8 buffers and from a
                        global row (guarded in the short last block)
  thread-range-swapped.py  a T.copy by the threads `128 <= tx and tx < 256`

With --hip they are built for hip:gfx90a and hip:gfx942 instead (T.dp4a
as v_dot4_i32_i8 through __builtin_amdgcn_sdot4; wavefronts of 64: the
default width of 32 shuffles within each half-wavefront and 32-bit masks
name the half, so every row is the same as on CUDA except the lane and
warp indices, whose default warp size is 64 there, and
T.warp_reduce_max, over the wavefront). The CPU target (warps of 32) is no
reference for those rows: the HIP runs are compared with NumPy only.

Usage: intrinsics.py --bin BUILD/bin [--hip]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LIT = os.path.join(ROOT, "tests", "lit", "Target", "CUDA")


WAVE = 32  # the target's warp size (--hip: 64)


def warp_oracle(ins, outs):
    x = ins["X"].astype(np.int64)
    n = x.size
    lane = np.arange(n) % 32
    w = x.reshape(-1, 32)
    want = np.zeros((13, n), np.int64)
    want[0] = np.repeat(w.sum(1), 32)
    want[1] = np.cumsum(w, 1).reshape(-1)
    want[2] = np.repeat(w[:, 3], 32)
    h = x.reshape(-1, 16)
    down = np.concatenate([h[:, 1:], h[:, -1:]], 1)  # lane 15 of 16 keeps its own
    want[3] = down.reshape(-1)
    bits = (w > 0).astype(np.int64) << np.arange(32)
    want[4] = np.repeat(bits.sum(1), 32)
    want[5] = np.repeat((w > 6).any(1), 32)
    want[6] = np.repeat((w > -9).all(1), 32)
    m = w & 3
    match = np.zeros_like(w)
    for l in range(32):
        match[:, l] = ((m == m[:, l:l + 1]).astype(np.int64) << np.arange(32)).sum(1)
    want[7] = match.reshape(-1)
    want[8] = np.repeat((x.reshape(-1, 128) > 0).sum(1), 128)
    want[9] = np.repeat(x.reshape(-1, WAVE).max(1), WAVE)
    tid = np.arange(n) % 128
    want[10] = tid % WAVE + 100 * (tid // WAVE) + 1000 * (tid // 64)
    want[11] = tid % 64 == 0
    want[12] = np.where(lane < 5, 0x1F, -1)
    got = outs["Out"].astype(np.int64)
    want = (want + 2**31) % 2**32 - 2**31  # int32 bits
    return [("Out row %d" % r, got[r], want[r]) for r in range(13)]


def rounded(f, x, y, mode):
    """f(x, y) in float64 (exact for +, * of two f32; division/sqrt to
    within 2^-53), rounded to f32 in direction mode."""
    exact = f(x.astype(np.float64), y.astype(np.float64))
    near = exact.astype(np.float32)
    up = np.where(near.astype(np.float64) < exact, np.nextafter(near, np.float32(np.inf)), near)
    down = np.where(near.astype(np.float64) > exact, np.nextafter(near, np.float32(-np.inf)), near)
    if mode == "ru":
        return up
    if mode == "rd":
        return down
    return np.where(exact >= 0, down, up)  # rz


def memory_oracle(ins, outs):
    x = ins["X"].astype(np.float32)
    flags = ins["Flags"].astype(bool)
    blocks = x.reshape(-1, 64)
    rounds = []
    for b in blocks:
        s = np.abs(b.astype(np.float64)).sum()
        r = 0
        while r < 40 and s >= 1.0:
            s /= 2
            r += 1
        rounds.append(r)
    rounds = np.array(rounds)
    checks = [("Rounds", outs["Rounds"], rounds),
              ("AnyAll[:, 0]", outs["AnyAll"][:, 0], flags[:, 0:4].any(1)),
              ("AnyAll[:, 1]", outs["AnyAll"][:, 1], flags[:, 1:3].all(1)),
              ("Peak", outs["Peak"], np.array([rounds.max()]))]
    got = outs["Rounded"]
    checks.append(("ieee_add rz", got[0], rounded(np.add, x, np.full_like(x, np.float32(0.1)), "rz")))
    checks.append(("ieee_mul ru", got[1], rounded(np.multiply, x, np.full_like(x, np.float32(0.3)), "ru")))
    checks.append(("ieee_fdiv rd", got[2], rounded(np.divide, x, np.full_like(x, np.float32(3.0)), "rd")))
    checks.append(("ieee_fsqrt rn", got[3], np.sqrt(np.abs(x).astype(np.float64)).astype(np.float32)))
    return checks


def dp4a_oracle(ins, outs):
    a = ins["A"].astype(np.int64)
    b = ins["B"].astype(np.int64)
    dot = a @ b
    got = outs["C"].astype(np.int64)
    return [("C[0] (local bytes)", got[0], dot), ("C[1] (global row, from 7)", got[1], dot + 7)]


def masked_copy_oracle(ins, outs):
    return [("B", outs["B"], ins["A"])]


PROGRAMS = [("intrinsics-warp.py", warp_oracle), ("intrinsics-memory.py", memory_oracle),
            ("intrinsics-dp4a.py", dp4a_oracle), ("thread-range-swapped.py", masked_copy_oracle)]
# Programs the CPU target builds: the sim run is verified against it, and
# its own outputs against the oracle (None: the CPU target is the oracle).
CPU_REFERENCE = {"intrinsics-warp.py", "intrinsics-memory.py", "intrinsics-dp4a.py",
                 "thread-range-swapped.py"}
# Programs the HIP target refuses (run only with CUDA targets).
CUDA_ONLY = set()
CPU_ONLY_ORACLE = [(os.path.join(ROOT, "tests", "lit", "Target", "Cpp", "per-thread.py"), None)]


def compare(oracle, ins, outs):
    bad = []
    for what, got, want in oracle(ins, outs):
        if got.shape != np.shape(want) or not np.array_equal(got, want):
            diff = np.flatnonzero(np.asarray(got).reshape(-1) != np.asarray(want).reshape(-1))
            bad.append(f"{what}: {diff.size} elements differ, first at {diff[:3]}: "
                       f"got {np.asarray(got).reshape(-1)[diff[:3]]}, "
                       f"want {np.asarray(want).reshape(-1)[diff[:3]]}")
    return bad


def load(d):
    return {f[:-4]: np.load(os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".npy")}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--hip", action="store_true")
    args = parser.parse_args()
    global WAVE
    WAVE = 64 if args.hip else 32
    archs = ("hip:gfx90a", "hip:gfx942") if args.hip else ("cuda:sm_80", "cuda:sm_90a")
    failures = 0
    def run(label, cmds):
        for cmd in cmds:
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode:
                print(f"{label}: FAIL: {' '.join(cmd)}\n{p.stdout}{p.stderr}")
                return False
        return True

    build = os.path.join(args.bin, "tlc-build")
    tlc_run = os.path.join(args.bin, "tlc-run")
    with tempfile.TemporaryDirectory(prefix="tlc-sim-intrinsics-") as tmp:
        programs = [(os.path.join(LIT, n), o) for n, o in PROGRAMS
                    if not (args.hip and n in CUDA_ONLY)]
        programs += [] if args.hip else CPU_ONLY_ORACLE
        for path, oracle in programs:
            name = os.path.basename(path)
            cpu = None
            if (name in CPU_REFERENCE and not args.hip) or oracle is None:
                cpu = os.path.join(tmp, name, "cpu")
                cpu_save = cpu + "-run"
                if not run(f"{name} cpu", [[build, path, "--target=cpu", "-o", cpu],
                                           [tlc_run, cpu, "--seed", "7", "--save", cpu_save]]):
                    failures += 1
                    continue
                if oracle:
                    bad = compare(oracle, load(os.path.join(cpu_save, "inputs")), load(cpu_save))
                    print(f"{name} cpu against NumPy: " + ("PASS" if not bad else "FAIL\n  " + "\n  ".join(bad)))
                    failures += bool(bad)
            for target in archs:
                arch = target.split(":")[1]
                art = os.path.join(tmp, name, arch)
                save = os.path.join(tmp, name, arch + "-run")
                sim = [tlc_run, art, "--device", "sim", "--seed", "7", "--threads", "2", "--save", save]
                if cpu:
                    sim += ["--verify", "--reference", cpu]
                if not run(f"{name} {arch}", [[build, path, f"--target={target}", "--cuda-compiler=none", "-o", art], sim]):
                    failures += 1
                    continue
                bad = compare(oracle, load(os.path.join(save, "inputs")), load(save)) if oracle else []
                what = " and ".join(w for w, on in (("NumPy", oracle), ("the CPU target", cpu)) if on)
                print(f"{name} {arch} against {what}: " + ("PASS" if not bad else "FAIL\n  " + "\n  ".join(bad)))
                failures += bool(bad)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
