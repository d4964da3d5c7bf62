#!/usr/bin/python3
"""The sim device's definedness tracking and block-order check.

Hand-written CUDA kernels (one warp per block, not tlc's emitter) run on
`sim` through tlc-run with a hand-written manifest:

initcheck (on by default): a value read from shared memory no thread wrote,
or from a register or local never written, is undefined; computing on it is
not an error, but storing it to global memory, branching on it, indexing
with it or giving it to an atomic is, reported with the .cu line.

  ragged          16 of 32 rows of a shared tile loaded; every lane reads
                  its row, exchanges it with shuffles (a pair sum and a
                  max over segments of 8 lanes), converts it through half
                  and bf16, and
                  only the 16 loaded rows are stored: clean, and D equals
                  NumPy's result for those rows
  ragged-store    the same with the store guard one row too wide: row 16
                  (never loaded) reaches D
  acc-not-cleared an accumulator array never zeroed, summed into and stored
  local-branch    an element of a local array never written decides a
                  loop's branch
  undefined-index an index read from shared memory no thread wrote
  atomic-operand  an element of a local array never written given to
                  atomicAdd

ordercheck (each launch that performs an atomic on global memory runs
twice, its 8 blocks handed out first to last and last to first, from the
same memory; TLC_SIM_ORDERCHECK=1: every launch; mixed-init and first-wins
run with the default):

  atomic-sum      every block atomically adds into D (random initial
                  values): floats summed in another order may round
                  differently, which is not reported (only atomics wrote
                  those bytes): clean, and D matches NumPy's sum
  mixed-init      block 0 stores D plainly while the others atomically add
                  to it: the result depends on which runs first
  first-wins      each block claims a flag with atomicMax and the first
                  one stores its block index: the winner depends on the order

Ordering between blocks (__threadfence + an atomic ticket, the CUDA
programming guide's last-block reduction; an init launch zeroes the ticket
counter D[40] first):

  last-block      each of 8 blocks stores its partial sum to D[32 + b],
                  fences, and draws a ticket with atomicAdd; the block that
                  draws the last one sums the partials into D[0]: clean
                  (under TLC_SIM_ORDERCHECK too), D[0] equals NumPy's
                  float32 sums and the counter is 8
  last-block-no-fence
                  the same without the fence: the last block's reads of
                  the others' partials race with their stores (racecheck)
  fence-chain     a chain through 3 relay blocks and 4 flags: block 0
                  writes, fences and sets flag 0; relay b acquires flag
                  b-1 in lane 0, lane 1 fences after a barrier and sets
                  flag b; block 4 acquires flag 3 and reads block 0's data:
                  clean, and D equals NumPy's result
  fence-chain-no-first, fence-chain-no-relay
                  the same with block 0's or relay 2's fence dropped: the
                  last block's reads race with block 0's stores

Each kernel's expectation must hold. Usage: initcheck.py --bin BUILD/bin
[--only NAME]...
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import probe_artifact

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

HEADER = r"""
#include "tlc_device/cuda.h"
extern "C" __global__ void __launch_bounds__(32) probe_kernel(
    const float *__restrict__ A, float *__restrict__ D) {
  extern __shared__ __align__(128) unsigned char smem[];
  float *S = reinterpret_cast<float *>(smem);
  const int lane = threadIdx.x;
"""

# The ragged tile: rows 0-15 loaded, every lane computes on its row.
RAGGED = HEADER + r"""
  if (lane < 16) S[lane] = A[lane];
  __syncthreads();
  float v = S[lane];
  float pair = v + __shfl_xor_sync(0xffffffffu, v, 1);
  float m = v;
  for (int o = 4; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o, 8));
  float h = float(__half(pair)) + float(__nv_bfloat16(v));
  if (lane < ROWS) D[lane] = h + m;
}
"""

# The last-block reduction; FENCE is __threadfence(); or nothing.
LAST_BLOCK = r"""
#include "tlc_device/cuda.h"
extern "C" __global__ void __launch_bounds__(32) init_kernel(
    const float *__restrict__ A, float *__restrict__ D) {
  if (threadIdx.x == 0)
    reinterpret_cast<unsigned *>(D)[40] = 0u;
}
extern "C" __global__ void __launch_bounds__(32) probe_kernel(
    const float *__restrict__ A, float *__restrict__ D) {
  extern __shared__ __align__(128) unsigned char smem[];
  float *S = reinterpret_cast<float *>(smem);
  const int lane = threadIdx.x;
  __shared__ unsigned ticket;
  S[lane] = A[(lane + blockIdx.x) % 32] * float(blockIdx.x + 1);
  __syncthreads();
  if (lane == 0) {
    float s = 0.0f;
    for (int i = 0; i < 32; ++i)
      s += S[i];
    D[32 + blockIdx.x] = s;
    FENCE
    ticket = atomicAdd(reinterpret_cast<unsigned *>(D) + 40, 1u);
  }
  __syncthreads();
  if (ticket == gridDim.x - 1 && lane == 0) {
    float t = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b)
      t += D[32 + b];
    D[0] = t;
  }
}
"""

# A release/acquire chain through blocks and atomics: block 0 writes
# D[32..47], fences (FENCE0) and sets flag 0; each relay block b (1..3)
# acquires flag b-1 in lane 0 (spinning on an atomic: blocks start in
# order, so the flag's writer has started), passes that on to lane 1
# through a barrier, and lane 1 fences (FENCEb) and sets flag b; block 4
# acquires flag 3 and reads D[32..47]. The flags are D[56..59]. Only block 0 touches the data.
CHAIN = r"""
#include "tlc_device/cuda.h"
extern "C" __global__ void __launch_bounds__(32) init_kernel(
    const float *__restrict__ A, float *__restrict__ D) {
  if (threadIdx.x < 4)
    reinterpret_cast<unsigned *>(D)[56 + threadIdx.x] = 0u;
}
extern "C" __global__ void __launch_bounds__(32) probe_kernel(
    const float *__restrict__ A, float *__restrict__ D) {
  unsigned *flag = reinterpret_cast<unsigned *>(D) + 56;
  const int lane = threadIdx.x;
  const unsigned b = blockIdx.x;
  if (b == 0) {
    if (lane < 16)
      D[32 + lane] = A[lane] * 2.0f;
    __syncthreads();
    if (lane == 0) {
      FENCE0
      atomicExch(&flag[0], 1u);
    }
    return;
  }
  if (lane == 0)
    while (atomicAdd(&flag[b - 1], 0u) == 0u) {
    }
  __syncthreads();
  if (b < 4) {
    if (lane == 1) {
      FENCEb
      atomicExch(&flag[b], 1u);
    }
    return;
  }
  if (lane < 16)
    D[lane] = D[32 + lane] + 1.0f;
}
"""


def chain(drop=None):
    """CHAIN with every fence, or without block \p drop's."""
    fence = "__threadfence();"
    return (CHAIN.replace("FENCE0", "" if drop == 0 else fence)
            .replace("FENCEb", fence if drop is None else f"if (b != {drop}) {fence}"))


KERNELS = {
    # name: (source, grid, env, expected: None for clean, else a regex)
    "ragged": (RAGGED.replace("ROWS", "16"), 1, {}, None),
    "ragged-store": (RAGGED.replace("ROWS", "17"), 1, {},
                     r"initcheck: store of an undefined value to global memory "
                     r"\(byte 64 of 'parameter D [^']*'\) .* at probe\.cu:\d+"),
    "acc-not-cleared": (HEADER + r"""
  float acc[4];
  for (int k = 0; k < 8; ++k)
    acc[k % 4] += A[(lane + k) % 32];
  D[lane] = acc[lane % 4];
}
""", 1, {}, r"initcheck: store of an undefined value to global memory \(byte 0 of 'parameter D [^']*'\)"),
    "local-branch": (HEADER + r"""
  int bound[2];
  bound[0] = 4;  // bound[1] is never written
  float s = 0;
  for (int k = 0; k < bound[lane & 1]; ++k)
    s += A[k];
  D[lane] = s;
}
""", 1, {}, r"initcheck: use of an undefined value .* as a branch condition.* at probe\.cu:\d+"),
    "undefined-index": (HEADER + r"""
  if (lane < 16) S[lane] = float(lane);
  __syncthreads();
  int i = int(S[lane]);
  D[lane] = A[i & 31];
}
""", 1, {}, r"initcheck: use of an undefined value .* an address"),
    "atomic-operand": (HEADER + r"""
  float x[2];
  x[0] = A[lane];  // x[1] is never written
  atomicAdd(&D[lane], x[lane & 1]);
}
""", 1, {}, r"initcheck: use of an undefined value .* an atomic's operand"),
    "atomic-sum": (HEADER + r"""
  atomicAdd(&D[lane], A[(lane + blockIdx.x) % 32] * 0.1f);
}
""", 8, {"TLC_SIM_ORDERCHECK": "1"}, None),
    "mixed-init": (HEADER + r"""
  if (blockIdx.x == 0)
    D[lane] = A[lane];
  else
    atomicAdd(&D[lane], 1.0f);
}
""", 8, {},
        r"ordercheck: byte \d+ of 'parameter D [^']*' \(and \d+ more\) differs between the blocks run "
        r"first to last and last to first.* of block \(0,0,0\) at probe\.cu:\d+"),
    "first-wins": (HEADER + r"""
  __shared__ int won;
  if (lane == 0)
    won = atomicMax(reinterpret_cast<int *>(&D[32]), 0x7fffffff) != 0x7fffffff;
  __syncthreads();
  if (won)
    D[lane] = float(blockIdx.x);
}
""", 8, {}, r"ordercheck: byte \d+ of 'parameter D [^']*'"),
    "last-block": (LAST_BLOCK.replace("FENCE", "__threadfence();"), 8,
                   {"TLC_SIM_ORDERCHECK": "1"}, None),
    "last-block-no-fence": (LAST_BLOCK.replace("FENCE", ""), 8, {},
                            r"racecheck: read of global memory .*read-after-write"),
    # Blocks spin on each other's flags, so the reversed order of ordercheck
    # would never start block 0: off.
    "fence-chain": (chain(), 5, {"TLC_SIM_ORDERCHECK": "0"}, None),
    "fence-chain-no-first": (chain(0), 5, {"TLC_SIM_ORDERCHECK": "0"},
                             r"racecheck: read of global memory .*read-after-write"),
    "fence-chain-no-relay": (chain(2), 5, {"TLC_SIM_ORDERCHECK": "0"},
                             r"racecheck: read of global memory .*read-after-write"),
}


def run_kernel(bin_dir, work, name, source, grid, env):
    art = os.path.join(work, name, "art")
    # atomic-sum adds into D's random initial values (saved as inputs).
    probe_artifact.write(art, source, probe_artifact.manifest(
        "initcheck.py", grid, 64, "inout" if name == "atomic-sum" else "out", shared=1024,
        init="init_kernel" in source))
    out = os.path.join(work, name, "out")
    proc = subprocess.run([os.path.join(bin_dir, "tlc-run"), art, "--device", "sim",
                           "--seed", "5", "--save", out], capture_output=True, text=True,
                          env=dict(os.environ, **env))
    return proc.returncode, proc.stdout + proc.stderr, out


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--only", action="append", default=[], help="run only these probes")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="tlc-sim-initcheck-")
    failed = 0
    kernels = {k: v for k, v in KERNELS.items() if not args.only or k in args.only}
    for name, (source, grid, env, expect) in kernels.items():
        rc, text, out = run_kernel(args.bin, work, name, source, grid, env)
        if expect is None:
            ok = rc == 0
            detail = "runs clean"
            if ok and name == "ragged":
                # The loaded rows against NumPy: half(pair sum) + bf16(v).
                a = np.load(os.path.join(out, "inputs", "A.npy")).astype(np.float32)
                d = np.load(os.path.join(out, "D.npy"))[:16]
                pair = a[:16] + a[np.arange(16) ^ 1]
                bits = a[:16].view(np.uint32)
                bf16 = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16).view(np.float32)
                seg_max = a[:16].reshape(2, 8).max(axis=1).repeat(8)
                want = pair.astype(np.float16).astype(np.float32) + bf16 + seg_max
                ok = np.array_equal(d, want)
                detail = f"runs clean, D {'equals' if ok else 'differs from'} NumPy's"
            if ok and name == "atomic-sum":
                a = np.load(os.path.join(out, "inputs", "A.npy")).astype(np.float64)
                d0 = np.load(os.path.join(out, "inputs", "D.npy")).astype(np.float64)[:32]
                d = np.load(os.path.join(out, "D.npy"))[:32]
                want = d0 + sum(a[(np.arange(32) + b) % 32] * 0.1 for b in range(grid))
                ok = np.allclose(d, want, rtol=1e-5)
                detail = f"runs clean under TLC_SIM_ORDERCHECK, sums {'match' if ok else 'differ from'} NumPy's"
            if ok and name == "last-block":
                a = np.load(os.path.join(out, "inputs", "A.npy")).astype(np.float32)
                d = np.load(os.path.join(out, "D.npy"))
                total = np.float32(0)
                for b in range(grid):
                    s = np.float32(0)
                    for i in range(32):
                        s = np.float32(s + a[(i + b) % 32] * np.float32(b + 1))
                    total = np.float32(total + s)
                count = int(d[40:41].view(np.uint32)[0])
                ok = d[0] == total and count == grid
                detail = (f"runs clean under TLC_SIM_ORDERCHECK, D[0] "
                          f"{'equals' if d[0] == total else 'differs from'} NumPy's "
                          f"sum, {count} tickets drawn")
            if ok and name == "fence-chain":
                a = np.load(os.path.join(out, "inputs", "A.npy")).astype(np.float32)
                d = np.load(os.path.join(out, "D.npy"))
                ok = np.array_equal(d[:16], a[:16] * np.float32(2) + np.float32(1))
                detail = (f"runs clean, D[0:16] {'equals' if ok else 'differs from'} "
                          f"NumPy's A * 2 + 1")
        else:
            ok = rc != 0 and re.search(expect, text) is not None
            line = next((l.strip() for l in text.splitlines() if re.search(expect, l)), "")
            detail = f"caught: {line[:240]}" if ok else f"not caught (exit {rc}; expected '{expect}')"
        if not ok:
            print(text)
        print(f"{'PASS' if ok else 'FAIL'}: {name}: {detail}")
        failed += not ok
    shutil.rmtree(work, ignore_errors=True)
    print(f"{len(kernels) - failed}/{len(kernels)} initcheck/ordercheck probes as expected")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
