#!/usr/bin/python3
"""Automatically warp-specialised GEMMs (tile-warp-specialize) on the sim.

tests/bench/CUDA/hopper_gemm.py built for cuda:sm_90a at ragged sizes (no
dimension a multiple of its tile; rows multiples of 16 bytes, so TMA loads
them), NN and TN, f16 and bf16, one and two consumer warpgroups, 2 to 4
stages, run on the sim device (racecheck, memcheck, synccheck, mbarrier
parity and transaction bytes, wgmma performed at its wait_group) and
verified against the CPU target. Each generated kernel must be
warp-specialised (a producer branch and setmaxnreg), and its epilogue a
TMA store (tile-plan-tma's tile.tma_store: 128B-swizzled panels in the
dead stages, one box store each, clipped at the ragged edges) when the
case asks for it (tlc.tma_store; every case but *_nost). The persist_*
cases are persistent (tile-persistent-gemm: a few blocks loop over
several ragged tiles each, the producer running into the next tile while
the consumers store the last; the epilogue in an area of its own). The
pingpong_* cases are persistent with two consumer warpgroups that take
alternate tiles and turns at the tensor cores (tile-gemm-pingpong: odd
tile counts, blocks of one tile, ring positions that wrap within and
across tiles). The default_* cases name no tlc.tma_store: a persistent
GEMM of at least 8 tiles a multiprocessor stores by TMA with the read
deferred (tile-persistent-gemm's default), one of fewer by the threads.

Usage: ws_gemm.py --bin BUILD/bin
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GEMM = os.path.join(ROOT, "tests", "bench", "CUDA", "hopper_gemm.py")

PERSIST = " --pass-config=tlc.persistent=True --pass-config=tlc.num_sms={}"
PINGPONG = " --pass-config=tlc.gemm_pingpong=True"
# One consumer warpgroup on one block of 4 tiles: ping-pong by default.
NO_PINGPONG = " --pass-config=tlc.gemm_pingpong=False"
ASYNC = " --pass-config=tlc.tma_store_async=True"
DEFERRED = "if (tid == 0) tlc::cuda::tmaStoreWaitRead();  // the copy engine read the previous"
CASES = [
    ("nn_f16_s3_t256", "-DM=120 -DN=248 -DK=328"),
    ("tn_f16_s2_t256", "-DM=120 -DN=248 -DK=328 -Dtrans_B=True -Dnum_stages=2"),
    ("nn_bf16_s4_t256", "-DM=120 -DN=248 -DK=456 -Ddtype=T.bfloat16 -Dnum_stages=4"),
    ("tn_bf16_s3_t256", "-DM=120 -DN=248 -DK=456 -Ddtype=T.bfloat16 -Dtrans_B=True"),
    ("nn_f16_s4_t128", "-DM=120 -DN=120 -DK=520 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4"),
    ("tn_bf16_s2_t128", "-DM=120 -DN=120 -DK=520 -Dthreads=128 -Dblock_N=128 "
                        "-Dtrans_B=True -Ddtype=T.bfloat16 -Dnum_stages=2"),
    ("nn_f16_m256_t256", "-DM=200 -DN=120 -DK=200 -Dblock_M=256 -Dblock_N=128"),
    ("nn_f16_s3_t256_nost", "-DM=120 -DN=248 -DK=328"),
    # tile-persistent-gemm (tlc.num_sms shrinks the grid so that each block
    # runs several ragged tiles): 9 tiles on 2 blocks, T.use_swizzle's panel
    # of 10 rows; 9 tiles on 3 blocks in panels of 2 rows (the last panel
    # of one row); 4 tiles of 128 x 128 on one block, 4 stages.
    ("persist_nn_f16_s3_t256", "-DM=376 -DN=600 -DK=200" + PERSIST.format(2)),
    ("persist_nn_f16_s3_t256_nost", "-DM=376 -DN=600 -DK=200" + PERSIST.format(2)),
    ("persist_tn_bf16_s2_t256_nost", "-DM=376 -DN=600 -DK=328 -Dtrans_B=True "
                                     "-Ddtype=T.bfloat16 -Dnum_stages=2 -Dpanel=2"
                                     + PERSIST.format(3)),
    ("persist_nn_f16_s4_t128", "-DM=250 -DN=248 -DK=136 -Dthreads=128 -Dblock_N=128 "
                               "-Dnum_stages=4" + PERSIST.format(1) + NO_PINGPONG),
    # tile-gemm-pingpong (two consumer warpgroups take alternate tiles, one
    # 128 x 128 or 64 x 256 tile each): 15 tiles on 2 blocks (8 and 7: an
    # odd count, warpgroup 0 one tile more), 4 k-steps on 4 stages; 15
    # tiles on 4 blocks, 6 k-steps on 3 stages (the ring position wraps
    # within a tile); 2 k-steps on 4 stages (several tiles per ring turn);
    # 6 tiles on 5 blocks (four blocks of one tile: warpgroup 1 idle); 64 x
    # 256 tiles, TN bf16. The k72 case has no pass config: the default
    # (2 k-steps, 5 tiles a block) makes it ping-pong.
    ("pingpong_nn_f16_s4", "-DM=376 -DN=600 -DK=200 -Dthreads=128 -Dblock_N=128 "
                           "-Dnum_stages=4" + PERSIST.format(2) + PINGPONG),
    ("pingpong_tn_bf16_s3_nost", "-DM=376 -DN=600 -DK=328 -Dthreads=128 -Dblock_N=128 "
                                 "-Dtrans_B=True -Ddtype=T.bfloat16 -Dnum_stages=3 -Dpanel=2"
                                 + PERSIST.format(4) + PINGPONG),
    ("pingpong_nn_f16_k72_s4_nost", "-DM=376 -DN=600 -DK=72 -Dthreads=128 -Dblock_N=128 "
                                    "-Dnum_stages=4" + PERSIST.format(3)),
    ("pingpong_nn_bf16_few_s3", "-DM=250 -DN=376 -DK=136 -Dthreads=128 -Dblock_N=128 "
                                "-Ddtype=T.bfloat16 -Dnum_stages=3" + PERSIST.format(5)
                                + PINGPONG),
    ("pingpong_tn_bf16_m64n256_s4", "-DM=200 -DN=600 -DK=200 -Dthreads=128 -Dblock_M=64 "
                                    "-Dblock_N=256 -Dtrans_B=True -Ddtype=T.bfloat16 "
                                    "-Dnum_stages=4" + PERSIST.format(2) + PINGPONG),
    # tlc.tma_store_async: the TMA store's read is waited for before the
    # next tile's epilogue and after the tile loop, not after each store
    # (the sim performs a bulk store at its issue, so these check the
    # values and the code's form, not the copy engine's timing).
    ("persist_nn_f16_s3_t256_async", "-DM=376 -DN=600 -DK=200" + PERSIST.format(2)
     + ASYNC),
    ("pingpong_nn_f16_s4_async", "-DM=376 -DN=600 -DK=200 -Dthreads=128 -Dblock_N=128 "
                                 "-Dnum_stages=4" + PERSIST.format(2) + PINGPONG + ASYNC),
    # No tlc.tma_store: a persistent GEMM with at least 8 tiles a
    # multiprocessor gets the TMA store with its read deferred by default
    # (9 ragged tiles on 1 block; 25 on 2 in ping-pong), one with fewer
    # keeps the threads' stores (9 tiles on 2 blocks).
    ("default_persist_nn_f16_s3_t256_async", "-DM=376 -DN=600 -DK=200" + PERSIST.format(1)),
    ("default_pingpong_tn_bf16_s3_async", "-DM=600 -DN=600 -DK=328 -Dthreads=128 "
                                          "-Dblock_N=128 -Dtrans_B=True -Ddtype=T.bfloat16 "
                                          "-Dnum_stages=3" + PERSIST.format(2) + PINGPONG),
    ("default_persist_nn_f16_s3_t256_nost", "-DM=376 -DN=600 -DK=200" + PERSIST.format(2)),
]
# tlc.tma_store=True everywhere but the *_nost and default_* cases; where
# it is asked for, the read is waited for at once unless the case is *_async
# (a persistent GEMM defers it without the config).
CASES = [(n, d if n.endswith("_nost") or n.startswith("default_")
          else d + " --pass-config=tlc.tma_store=True"
          + ("" if n.endswith("_async") else " --pass-config=tlc.tma_store_async=False"))
         for n, d in CASES]


def run(cmd, env):
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return proc.returncode, proc.stdout + proc.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    env = dict(os.environ, TLC_SIM_QUIET_INITCHECK="1")
    build = os.path.join(args.bin, "tlc-build")
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tlc-sim-ws-") as work:
        for name, defs in CASES:
            cpu, ws = os.path.join(work, name, "cpu"), os.path.join(work, name, "ws")
            bad = None
            for cmd in ([build, GEMM, "--target=cpu", "-o", cpu] + defs.split(),
                        [build, GEMM, "--target=cuda:sm_90a", "--cuda-compiler=none",
                         "-o", ws] + defs.split()):
                rc, out = run(cmd, env)
                if rc != 0:
                    bad = f"build failed:\n{out}"
                    break
            if bad is None:
                src = open(os.path.join(ws, "matmul.cu")).read()
                if "setMaxNRegDec" not in src or "mbarrierWait(&empty[" not in src:
                    bad = "the kernel is not warp-specialised"
                elif ("tmaStore<2>(" in src) == name.endswith("_nost"):
                    bad = "TMA store " + ("not " if "tmaStore<2>(" not in src else "") + "planned"
                elif ("+= gridDim.x)" in src) != name.startswith(("persist_", "pingpong_",
                                                                  "default_")):
                    bad = "persistent tile loop " + ("not " if "+= gridDim.x)" in src else "") + \
                          "expected"
                elif (DEFERRED in src) != name.endswith("_async"):
                    bad = "TMA store read " + ("not " if name.endswith("_async") else "") + \
                          "deferred"
                elif ("+= 2 * gridDim.x)" in src) != ("pingpong_" in name):
                    bad = "ping-pong over tiles " + \
                          ("not " if "+= 2 * gridDim.x)" not in src else "") + "expected"
            if bad is None:
                rc, out = run([os.path.join(args.bin, "tlc-run"), ws, "--device", "sim",
                               "--verify", "--reference", cpu, "--seed", "5"], env)
                if rc != 0 or "verify C: PASS" not in out:
                    bad = out
            if bad is None:
                print(f"PASS: {name}")
            else:
                print(f"FAIL: {name}: {bad}")
                failed += 1
    print(f"{len(CASES) - failed}/{len(CASES)} warp-specialised GEMMs verified on sim")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
