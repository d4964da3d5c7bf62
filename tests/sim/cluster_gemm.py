#!/usr/bin/python3
"""Clustered warp-specialised GEMMs (tile-gemm-cluster) on the sim.

tests/bench/CUDA/hopper_gemm.py built for cuda:sm_90a with
`tlc.gemm_cluster=True` at ragged sizes (no dimension a multiple of its
tile): pairs of blocks in a cluster take adjacent tiles, and each block's
producer loads half of the tile they share and multicasts it to both
(cp.async.bulk.tensor ... .multicast::cluster); both blocks' consumers
release each stage on both blocks' empty barriers (mapa + remote arrive).
The sim runs each rank of a cluster as a block of its own (racecheck,
memcheck, synccheck, mbarrier transaction bytes; a multicast lands in the
peer when its threads cannot run) and every kernel is verified against
the CPU target. Cases: 128 x 256 tiles sharing B along y; 256 x 128
sharing A along x; the program's T.use_swizzle over the pairs;
persistent kernels walking pairs of tiles (an odd tlc.num_sms made even),
with consumer ping-pong and the TMA-store epilogue.

Then faults planted in one clean kernel's generated source must be caught:

  cta-mask        each block multicasts its half to itself only (mask
                  1 << rank): the peer's full barrier never gets those bytes
  remote-release  the consumers release the stage on their own block's
                  empty barrier only (the count halved to match): a
                  producer multicasts into the peer's stage before the
                  peer's consumers are done with it
  one-half        the rank's row offset dropped: both blocks load the
                  first half, the second half of the shared tile is never
                  loaded (a wrong product, or bytes never completed)

Usage: cluster_gemm.py --bin BUILD/bin [--cases NAME,...]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GEMM = os.path.join(ROOT, "tests", "bench", "CUDA", "hopper_gemm.py")

CLUSTER = " --pass-config=tlc.gemm_cluster=True"
PERSIST = " --pass-config=tlc.persistent=True --pass-config=tlc.num_sms={}"
NOT_PERSISTENT = " --pass-config=tlc.persistent=False"
# name, bindings, the axis the pairs must lie along (x: A shared, y: B).
CASES = [
    # 128 x 256 tiles: B's tile (64 x 256) is the larger, shared along y
    # (4 x 2 tiles); 2 stages for 4 k-steps (the ring wraps).
    ("nn_f16_t256_y", "-DM=500 -DN=376 -DK=200 -Dnum_stages=2" + NOT_PERSISTENT, "y"),
    ("tn_bf16_t256_y", "-DM=500 -DN=376 -DK=328 -Dtrans_B=True -Ddtype=T.bfloat16"
                       + NOT_PERSISTENT, "y"),
    # 256 x 128 tiles (two consumer warpgroups): A's tile shared along x.
    ("nn_f16_m256_x", "-DM=376 -DN=504 -DK=200 -Dblock_M=256 -Dblock_N=128 -Dnum_stages=3"
                      + NOT_PERSISTENT, "x"),
    # T.use_swizzle's panels of 2 rows over the pairs (4 x 4 tiles).
    ("nn_f16_raster_y", "-DM=1000 -DN=1000 -DK=136 -Dpanel=2 -Dnum_stages=3"
                        + NOT_PERSISTENT, "y"),
    # Persistent: 4 x 2 tiles of 128 x 256 on 3 blocks made 2 (one pair).
    ("persist_nn_f16_y", "-DM=500 -DN=376 -DK=200 -Dnum_stages=3" + PERSIST.format(3), "y"),
    # Ping-pong over 128 x 128 tiles (4 x 4), 2 pairs of blocks, TMA-store
    # epilogue.
    ("pingpong_tn_f16_x", "-DM=500 -DN=500 -DK=200 -Dthreads=128 -Dblock_N=128 "
                          "-Dnum_stages=4 -Dtrans_B=True --pass-config=tlc.gemm_pingpong=True "
                          "--pass-config=tlc.tma_store=True" + PERSIST.format(4), "x"),
    # 4 x 3 tiles on 3 blocks made 2 (one pair: 6 pairs of tiles, 3 a
    # warpgroup), 6 k-steps on 4 stages.
    ("pingpong_nn_bf16_x", "-DM=376 -DN=504 -DK=328 -Dthreads=128 -Dblock_N=128 "
                           "-Ddtype=T.bfloat16 -Dnum_stages=4 --pass-config=tlc.gemm_pingpong=True"
                           + PERSIST.format(3), "x"),
]
CASES = [(n, d + CLUSTER, a) for n, d, a in CASES]

FAULTS = {
    "cta-mask": (r"(tmaLoadMulticast<\d>\([^;]*?\[\w+\]), 3,",
                 r"\1, 1 << tlc::cuda::clusterCtaRank(),",
                 r"synccheck: .*cannot all continue|TMA multicast .*hazard"),
    "remote-release": None,  # two edits: see plant()
    "one-half": (r"const int (share\w*) = \(int\)tlc::cuda::clusterCtaRank\(\) \* (\d+);",
                 r"const int \1 = 0 * \2;",
                 r"racecheck: TMA multicast .*write-after-write|verify C: FAIL"),
}


def plant(name, text):
    """The source with fault `name` planted, or None when it has no site."""
    if name == "remote-release":
        text, n = re.subn(r"tlc::cuda::mbarrierArriveWarpPair\(([^;]*?), "
                          r"tlc::cuda::clusterCtaRank\(\) \^ 1u\);",
                          r"{ __syncwarp(); if ((threadIdx.x & 31) == 0) "
                          r"tlc::cuda::mbarrierArrive(\1); }", text)
        m = re.search(r"mbarrierInit\(&(empty\w*)\[s\], (\d+)\);", text)
        if n == 0 or not m:
            return None
        return text.replace(m.group(0), f"mbarrierInit(&{m.group(1)}[s], "
                                        f"{int(m.group(2)) // 2});")
    pattern, repl, _ = FAULTS[name]
    planted, n = re.subn(pattern, repl, text)
    return planted if n else None


def run(cmd, env):
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return proc.returncode, proc.stdout + proc.stderr


def check_source(name, src, axis):
    """What is wrong with the generated clustered kernel, or None."""
    if "tmaLoadMulticast<" not in src:
        return "no TMA multicast"
    if "mbarrierArriveWarpPair(" not in src or "mbarrierWaitCluster(&empty" not in src:
        return "the stages are not released on both blocks"
    dims = "__cluster_dims__(2, 1, 1)" if axis == "x" or name.startswith(
        ("persist_", "pingpong_")) else "__cluster_dims__(1, 2, 1)"
    if dims not in src:
        return f"not launched in clusters {dims}"
    if src.count("tlc::cuda::clusterWait();") != 2:
        return "not two cluster barriers (after the rings' init, before the exit)"
    shared = "rows of A" if axis == "x" else "columns of B"
    if not name.startswith(("persist_", "pingpong_")) and shared not in src:
        return f"the pairs do not share {shared}"
    if name.startswith(("persist_", "pingpong_")) and "((int)gridDim.x >> 1)" not in src:
        return "the persistent loop does not walk pairs"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--cases", help="comma-separated case names (default: all, "
                        "then the planted faults)")
    args = parser.parse_args()
    cases = [c for c in CASES if not args.cases or c[0] in args.cases.split(",")]
    env = dict(os.environ, TLC_SIM_QUIET_INITCHECK="1")
    build = os.path.join(args.bin, "tlc-build")
    failed = total = 0
    with tempfile.TemporaryDirectory(prefix="tlc-sim-cluster-") as work:
        for name, defs, axis in cases:
            total += 1
            cpu, cl = os.path.join(work, name, "cpu"), os.path.join(work, name, "cl")
            bad = None
            for cmd in ([build, GEMM, "--target=cpu", "-o", cpu] + defs.split(),
                        [build, GEMM, "--target=cuda:sm_90a", "--cuda-compiler=none",
                         "-o", cl] + defs.split()):
                rc, out = run(cmd, env)
                if rc != 0:
                    bad = f"build failed:\n{out}"
                    break
            if bad is None:
                bad = check_source(name, open(os.path.join(cl, "matmul.cu")).read(), axis)
            if bad is None:
                rc, out = run([os.path.join(args.bin, "tlc-run"), cl, "--device", "sim",
                               "--verify", "--reference", cpu, "--seed", "5"], env)
                if rc != 0 or "verify C: PASS" not in out:
                    bad = out
            print(f"PASS: {name}" if bad is None else f"FAIL: {name}: {bad}", flush=True)
            failed += bad is not None
        # Planted faults, in the first case's clean kernel.
        name, _, _ = CASES[0]
        if cases[:1] != CASES[:1]:
            print(f"{total - failed}/{total} clustered GEMM checks passed on sim")
            return 1 if failed else 0
        clean = os.path.join(work, name, "cl")
        cpu = os.path.join(work, name, "cpu")
        text = open(os.path.join(clean, "matmul.cu")).read()
        for fault in FAULTS:
            total += 1
            planted = plant(fault, text)
            expect = FAULTS[fault][2] if FAULTS[fault] else \
                r"racecheck: TMA multicast .*no release of it reached the issuer"
            if planted is None:
                print(f"FAIL: {fault}: the generated source has no site to edit")
                failed += 1
                continue
            art = os.path.join(work, "fault-" + fault)
            shutil.copytree(clean, art)
            with open(os.path.join(art, "matmul.cu"), "w") as f:
                f.write(planted)
            rc, out = run([os.path.join(args.bin, "tlc-run"), art, "--device", "sim",
                           "--verify", "--reference", cpu, "--seed", "5"], env)
            if rc != 0 and re.search(expect, out):
                line = next((l.strip() for l in out.splitlines() if re.search(expect, l)), "")
                print(f"PASS: {fault}: caught: {line[:300]}")
            else:
                print(out)
                print(f"FAIL: {fault}: not caught (exit {rc}; expected '{expect}')")
                failed += 1
    print(f"{total - failed}/{total} clustered GEMM checks passed on sim")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
