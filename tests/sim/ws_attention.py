#!/usr/bin/python3
"""Automatically warp-specialised flash attention (tile-warp-specialize) on
the sim.

examples/flash_attention_fwd.py and flash_attention_causal.py built for
cuda:sm_90a with a multi-buffered K/V pipeline: the producer warpgroup
loads K and V of each iteration by TMA, the
consumers compute S = Q K^T (wgmma), the online softmax (warp-shuffle
reductions), O += P V (wgmma, P from registers). K and V have a ring of
full/empty mbarriers each: K's stage is released right after S = Q K^T,
V's after O += P V.
Ragged sizes (seq_len no multiple of a tile), D64/D128, two consumer
warpgroups (with one, attention stays single-role), 2 and 3 stages, the causal loop whose trip count
depends on the block index; run on the sim device (racecheck, memcheck,
synccheck, mbarrier parity and transaction bytes) and verified against the
CPU target. Each generated kernel must be warp-specialised, and its two
consumer warpgroups take turns at the tensor cores (ping-pong: named
barriers 2 and 3 around each wgmma) when the case asks for it
(tlc.ws_pingpong; every case but *_nopp and *_def); the *_ov cases overlap
each iteration's softmax with the previous one's P V gemm (tlc.ws_overlap:
wait_group 1 for S, 0 for P V), the others pass tlc.ws_overlap=False but
*_def, which passes no pass config (overlap by default at head dimension
128). Very ragged sizes (seq_len 77: one partial
query tile, one or two key tiles) check the turns' first hand-over and
the last one after the loop.

The *_pers_* cases are persistent (tlc.persistent_attention): a few
blocks loop over the (query block, head, batch) tiles, longest rows first.
The cases with tlc.tma_once=True load Q by one TMA load that the producer
issues before its loop (the consumers wait on its mbarrier), but the
persistent ones, whose consumers' threads load it; the others (the
default) by the consumers' threads.

Usage: ws_attention.py --bin BUILD/bin [--only SUBSTRING]
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FWD = os.path.join(ROOT, "examples", "flash_attention_fwd.py")
CAUSAL = os.path.join(ROOT, "examples", "flash_attention_causal.py")

SMALL = "-Dbatch=1 -Dheads=2 -Dseq_len=200"
CASES = [
    # name, program, kernel, -D bindings
    ("fwd_d64_m128n64_s2", FWD, "flashattn",
     f"{SMALL} -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2"),
    ("fwd_d128_m128n128_t256_s2", FWD, "flashattn",
     f"{SMALL} -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
     " --pass-config=tlc.tma_once=True"),
    ("fwd_d64_m128n32_s3", FWD, "flashattn",
     f"{SMALL} -Ddim=64 -Dblock_M=128 -Dblock_N=32 -Dthreads=256 -Dnum_stages=3"),
    ("causal_d64_m128n64_s2", CAUSAL, "flashattn_causal",
     f"{SMALL} -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2"
     " --pass-config=tlc.tma_once=True"),
    ("causal_d128_m128n128_t256_s2", CAUSAL, "flashattn_causal",
     f"{SMALL} -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"),
    ("causal_d64_m128n32_s3", CAUSAL, "flashattn_causal",
     f"{SMALL} -Ddim=64 -Dblock_M=128 -Dblock_N=32 -Dthreads=256 -Dnum_stages=3"),
    ("fwd_d64_m128n64_s2_seq77", FWD, "flashattn",
     "-Dbatch=1 -Dheads=2 -Dseq_len=77 -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 "
     "-Dnum_stages=2"),
    ("causal_d128_m128n64_s2_seq77", CAUSAL, "flashattn_causal",
     "-Dbatch=1 -Dheads=1 -Dseq_len=77 -Ddim=128 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 "
     "-Dnum_stages=2"),
    ("fwd_d64_m128n64_s2_nopp", FWD, "flashattn",
     f"{SMALL} -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2"),
    # The softmax overlapping the previous iteration's P V (tlc.ws_overlap),
    # with and without ping-pong; seq_len 77 / 64: one key tile (prologue and
    # epilogue only, the loop runs no iteration).
    ("fwd_d64_m128n64_s2_ov", FWD, "flashattn",
     f"{SMALL} -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2"),
    ("fwd_d128_m128n128_s2_ov", FWD, "flashattn",
     f"{SMALL} -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"),
    ("causal_d64_m128n32_s3_ov", CAUSAL, "flashattn_causal",
     f"{SMALL} -Ddim=64 -Dblock_M=128 -Dblock_N=32 -Dthreads=256 -Dnum_stages=3"),
    ("causal_d128_m128n64_s2_ov_nopp", CAUSAL, "flashattn_causal",
     f"{SMALL} -Ddim=128 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2"),
    ("fwd_d64_m128n64_s2_seq64_ov", FWD, "flashattn",
     "-Dbatch=1 -Dheads=2 -Dseq_len=64 -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 "
     "-Dnum_stages=2"),
    ("causal_d128_m128n32_s2_ov", CAUSAL, "flashattn_causal",
     f"{SMALL} -Ddim=128 -Dblock_M=128 -Dblock_N=32 -Dthreads=256 -Dnum_stages=2"),
]
# Without a pass config (`_def`) the overlap is on from head dimension 128,
# and a causal loop is split at head dimension 64 and 128 (perf37; every
# causal `_def` case that names no tlc.split_masks is checked for it): the
# 128 x 128 tiling of the bench at a ragged 333.
CASES += [
    ("causal_d128_m128n64_s2_def", CAUSAL, "flashattn_causal",
     f"{SMALL} -Ddim=128 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2"),
    ("causal_d128_m128n128_t256_s2_seq333_def", CAUSAL, "flashattn_causal",
     "-Dbatch=2 -Dheads=1 -Dseq_len=333 -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 "
     "-Dnum_stages=2"),
]
CASES = [(n, p, k, d + ("" if n.endswith("_nopp") or n.endswith("_def")
                        else " --pass-config=tlc.ws_pingpong=True")
          + ("" if n.endswith("_def") else
             " --pass-config=tlc.ws_overlap=" + ("True" if "_ov" in n else "False")))
         for n, p, k, d in CASES]
# The per-iteration work of docs/perf/hopper.md (FA3 comparison), each
# behind its pass config: the causal and sequence-end masks skipped where
# they are all true (tlc.split_masks), heavy query blocks first
# (tlc.heavy_blocks_first), FA3's 24 / 240 registers (tlc.ws_fa3_regs).
FAPERF = (" --pass-config=tlc.split_masks=True --pass-config=tlc.heavy_blocks_first=True"
          " --pass-config=tlc.ws_fa3_regs=True")
CASES += [
    ("causal_d128_m128n128_t256_s2_fp_def", CAUSAL, "flashattn_causal",
     f"{SMALL} -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2" + FAPERF),
    ("causal_d64_m128n64_s2_fp_def", CAUSAL, "flashattn_causal",
     "-Dbatch=1 -Dheads=2 -Dseq_len=333 -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 "
     "-Dnum_stages=2" + FAPERF),
    ("fwd_d128_m128n128_t256_s2_seq77_fp_def", FWD, "flashattn",
     "-Dbatch=1 -Dheads=2 -Dseq_len=77 -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 "
     "-Dnum_stages=2" + FAPERF),
    ("fwd_d64_m128n128_t256_s2_fp_def", FWD, "flashattn",
     f"{SMALL} -Ddim=64 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2" + FAPERF),
    # The loop split with the two warpgroups' ping-pong turns (the first
    # loop leaves before the turn is taken).
    ("causal_d128_m128n128_t256_s2_seq333_fppp_def", CAUSAL, "flashattn_causal",
     "-Dbatch=1 -Dheads=1 -Dseq_len=333 -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 "
     "-Dnum_stages=2 --pass-config=tlc.split_masks=True --pass-config=tlc.ws_pingpong=True"),
    # tlc.split_masks=branch: the branch in every iteration (no loop split).
    ("causal_d64_m128n64_s3_fpbr_def", CAUSAL, "flashattn_causal",
     "-Dbatch=1 -Dheads=2 -Dseq_len=333 -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 "
     "-Dnum_stages=3 --pass-config=tlc.split_masks=branch"),
    # tlc.split_masks=fill: the all-true side fills S instead of clearing
    # it through the gemm's scale-d.
    ("causal_d128_m128n64_s2_fpfill_def", CAUSAL, "flashattn_causal",
     "-Dbatch=1 -Dheads=1 -Dseq_len=333 -Ddim=128 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 "
     "-Dnum_stages=2 --pass-config=tlc.split_masks=fill"),
]
# Persistent attention (tile-persistent-gemm with tlc.persistent_attention):
# a few blocks (tlc.num_sms) walk (query block, head, batch) tiles in groups
# of (head, batch) pairs, each group from its last query block down; ragged
# sequences, tile counts no multiple of the blocks (18 tiles on 4 and 5
# blocks, 9 on 4, 6 on 4 and 2), groups of 2 or 3 pairs
# (tlc.persistent_group) and of all, the
# split causal loop (D64, no config), the softmax overlap (D128) and 2 / 3
# stages whose ring positions carry from tile to tile, and the two
# warpgroups' ping-pong turns within each tile (D128, split loop).
PERSIST = " --pass-config=tlc.persistent_attention=True --pass-config=tlc.num_sms={}"
CASES += [
    ("causal_d64_m128n128_t256_s2_pers_def", CAUSAL, "flashattn_causal",
     "-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=64 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 "
     "-Dnum_stages=2" + PERSIST.format(4)),
    ("causal_d64_m128n64_s3_pers_def", CAUSAL, "flashattn_causal",
     "-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 "
     "-Dnum_stages=3 --pass-config=tlc.persistent_group=2" + PERSIST.format(5)),
    ("causal_d128_m128n128_t256_s2_pers_def", CAUSAL, "flashattn_causal",
     "-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 "
     "-Dnum_stages=2" + PERSIST.format(4)),
    # With the two warpgroups' ping-pong turns and the split loop (overlap
    # at D128): the turns are taken and handed back within each tile.
    ("causal_d128_m128n128_t256_s2_seq333_fppp_pers_def", CAUSAL, "flashattn_causal",
     "-Dbatch=1 -Dheads=3 -Dseq_len=333 -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 "
     "-Dnum_stages=2 --pass-config=tlc.split_masks=True --pass-config=tlc.ws_pingpong=True"
     + PERSIST.format(4)),
    # Not causal (flash_attention_causal.py's is_causal=False: every row as
    # long; its epilogue stores the fragment, as the plan needs).
    ("fwdc_d64_m128n128_t256_s2_seq77_pers_def", CAUSAL, "flashattn_causal",
     "-Dbatch=2 -Dheads=3 -Dseq_len=77 -Ddim=64 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 "
     "-Dnum_stages=2 -Dis_causal=False" + PERSIST.format(4)),
    ("fwdc_d128_m128n64_s2_pers_def", CAUSAL, "flashattn_causal",
     "-Dbatch=1 -Dheads=3 -Dseq_len=200 -Ddim=128 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 "
     "-Dnum_stages=2 -Dis_causal=False --pass-config=tlc.persistent_group=3" + PERSIST.format(2)),
    # O by TMA store (tlc.tma_store): its panels in the epilogue's own area,
    # not the K stages the producer refills for the next tile (they were,
    # until perf35: racecheck caught it).
    ("causal_d64_m128n128_t256_s2_tmast_pers_def", CAUSAL, "flashattn_causal",
     "-Dbatch=1 -Dheads=2 -Dseq_len=200 -Ddim=64 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 "
     "-Dnum_stages=2 --pass-config=tlc.tma_store=True" + PERSIST.format(3)),
    ("fwdc_d128_m128n128_t256_s2_seq77_tmast_pers_def", CAUSAL, "flashattn_causal",
     "-Dbatch=1 -Dheads=2 -Dseq_len=77 -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 "
     "-Dnum_stages=2 -Dis_causal=False --pass-config=tlc.tma_store=True"
     " --pass-config=tlc.tma_once=True" + PERSIST.format(1)),
]
PERSISTENT = "(head, batch) pairs, the last query block first"
# Q by one TMA load the producer issues before its loop (tile-plan-tma's
# tile.tma_once, with tlc.tma_once=True), but in a persistent kernel, whose
# threads load it.
QTMA = "T.copy (TMA, issued by the producer warpgroup)"
OVERLAP = "tlc::cuda::wgmmaWait<1>();  // S is complete; P V may be in flight"
PINGPONG = "if (warpGroup == 0) tlc::cuda::namedBarrierSync(2, 256); else tlc::cuda::namedBarrierSync(3, 256);"


def run(cmd, env):
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return proc.returncode, proc.stdout + proc.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--only", default="", help="run the cases whose name contains this")
    args = parser.parse_args()
    env = dict(os.environ, TLC_SIM_QUIET_INITCHECK="1")
    build = os.path.join(args.bin, "tlc-build")
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tlc-sim-ws-fa-") as work:
        cases = [c for c in CASES if args.only in c[0]]
        for name, program, kernel, defs in cases:
            cpu, ws = os.path.join(work, name, "cpu"), os.path.join(work, name, "ws")
            bad = None
            for cmd in ([build, program, "--target=cpu", "-o", cpu] + defs.split(),
                        [build, program, "--target=cuda:sm_90a", "--cuda-compiler=none",
                         "-o", ws] + defs.split()):
                rc, out = run(cmd, env)
                if rc != 0:
                    bad = f"build failed:\n{out}"
                    break
            if bad is None:
                src = open(os.path.join(ws, kernel + ".cu")).read()
                overlap = "_ov" in name or (name.endswith("_def") and "_d128_" in name)
                k, v = ("kStage", "vStage + ") if overlap else ("readStage", "readStage + ")
                if ("mbarrierWait(&empty[" not in src or
                        f"mbarrierArrive(&empty[{k}]);  // ring 0" not in src or
                        f"mbarrierArrive(&empty[{v}" not in src or
                        "tmaLoad<4>((K_shared + stage" not in src or
                        "tmaLoad<4>((V_shared + stage" not in src):
                    bad = "the kernel is not warp-specialised over its K and V loads"
                elif (PINGPONG in src) == (name.endswith("_nopp") or
                                           (name.endswith("_def") and "_fppp_" not in name)):
                    bad = "ping-pong " + ("not " if PINGPONG not in src else "") + "planned"
                elif (QTMA in src) != ("tlc.tma_once=True" in defs and
                                       "_pers_" not in name):
                    bad = "Q " + ("not " if QTMA not in src else "") + \
                          "loaded by the producer's TMA"
                elif (PERSISTENT in src) != ("_pers_" in name):
                    bad = "persistent tile loop " + ("not " if "_pers_" in name else "") + \
                          "planned"
                elif (OVERLAP in src) != overlap:
                    bad = "softmax overlap " + ("not " if overlap else "") + "planned"
                elif "_fp_" in name and ("break;  // not all true from here on" not in src or
                                         "scale-d = 0 clears C" not in src or
                                         " ? 0 : 1));" not in src or
                                         "setMaxNRegInc<240>" not in src):
                    bad = "masks not split into the gemm's scale-d or registers not 24 / 240"
                elif "_fpfill_" in name and ("// T.fill" not in src or "} else {" not in src):
                    bad = "masks not split (fill)"
                elif (name.startswith("causal_") and name.endswith("_def") and
                      "split_masks" not in defs and
                      "break;  // not all true from here on" not in src):
                    bad = "causal loop not split by default"
                elif "_fppp_" in name and "break;  // not all true from here on" not in src:
                    bad = "loop not split"
                elif "_fpbr_" in name and (" ? 0 : 1));" not in src or "break;" in src):
                    bad = "masks not split (branch)"
            if bad is None:
                rc, out = run([os.path.join(args.bin, "tlc-run"), ws, "--device", "sim",
                               "--verify", "--reference", cpu, "--seed", "5"], env)
                if rc != 0 or "verify Output: PASS" not in out:
                    bad = out
            if bad is None:
                print(f"PASS: {name}")
            else:
                print(f"FAIL: {name}: {bad}")
                failed += 1
    print(f"{len(cases) - failed}/{len(cases)} warp-specialised attention kernels verified on sim")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
