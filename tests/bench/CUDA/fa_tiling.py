#!/usr/bin/python3
"""The sm_90a tiling of examples/flash_attention_causal.py per head dimension and mask.

The compiler cannot choose block_M (the program indexes with it), so the
choice is made here, for the staged GPU calls and for anyone binding the
example with -D: it prints the -D bindings of the tiling.

Rule (docs/perf/hopper.md, perf38), for a 128-key tile, 2 stages, f16:
each consumer warpgroup owns 64 query rows; tile-warp-specialize adds a
producer warpgroup. Try W = 3 consumer warpgroups (block_M = 192), else 2
(block_M = 128):

* registers: W = 3 launches 4 warpgroups (512 threads) and gets no
  setmaxnreg (the pass raises registers only for at most 256 program
  threads), so a consumer thread has 65536 / 512 = 128 registers; W = 2
  raises the consumers to 232. A consumer thread holds S (64 x 128 f32 over
  128 threads: 64 registers; P, its f16 copy, is converted in place), O
  (64 x D f32: D / 2) and ~24 more (row max / sum / scale, addresses,
  descriptors): D = 64 needs 120 <= 128, D = 128 needs 152 > 128.
* shared memory: Q (block_M x D) + 2 stages of K and V (128 x D each) at
  2 bytes, under 227 KiB (D = 64, W = 3: 88 KiB).
* the mask: a causal kernel keeps 128 x 128 (measured, perf37's H100 run:
  causal D64 at 192 x 128 0.51 of cuDNN against 0.93 at 128 x 128, while
  non-causal D64 gained 0.855 / 0.901 -> 1.080 / 0.964 in two rounds).

Usage: fa_tiling.py --dim D [--causal 0|1]     (prints the -D bindings)
"""

import argparse

KEY_TILE = 128
STAGES = 2
ELEM_BYTES = 2
SHARED_LIMIT = 227 * 1024
REGISTER_FILE = 65536
CONSUMER_REGS_SETMAXNREG = 232  # tile-warp-specialize's consumer count
OTHER_REGS = 24


def consumer_registers(warpgroups):
    """Registers a consumer thread may use with W consumer warpgroups."""
    if warpgroups * 128 <= 256:
        return CONSUMER_REGS_SETMAXNREG
    return REGISTER_FILE // (128 * (warpgroups + 1)) // 8 * 8


def registers_needed(dim):
    """S (64 x 128 f32), O (64 x dim f32) over 128 threads, and the rest."""
    return 64 * KEY_TILE // 128 + 64 * dim // 128 + OTHER_REGS


def shared_bytes(warpgroups, dim):
    return (64 * warpgroups * dim + STAGES * 2 * KEY_TILE * dim) * ELEM_BYTES


def tiling(dim, causal):
    """(block_M, block_N, threads, num_stages) for head dimension `dim`."""
    for w in ((2,) if causal else (3, 2)):
        if registers_needed(dim) <= consumer_registers(w) and \
                shared_bytes(w, dim) <= SHARED_LIMIT:
            return 64 * w, KEY_TILE, 128 * w, STAGES
    return 128, KEY_TILE, 256, STAGES


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dim", type=int, required=True)
    parser.add_argument("--causal", type=int, default=1)
    args = parser.parse_args()
    m, n, t, s = tiling(args.dim, bool(args.causal))
    print(f"-Dblock_M={m} -Dblock_N={n} -Dthreads={t} -Dnum_stages={s}")


if __name__ == "__main__":
    main()
