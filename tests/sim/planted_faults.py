#!/usr/bin/python3
"""Faults planted in generated CUDA must be caught by the sim device.

Builds examples/gemm.py for cuda:sm_80 (and the CPU reference) at a ragged
size, checks that the untouched NAME.cu runs clean and verifies, then edits
the generated source, one fault at a time, and runs it again on `sim`:

  barrier     the __syncthreads after the pipeline's cp.async wait removed
  guard       the row guard of A's tile load off by one (< M becomes <= M)
  mma-lane    two registers of an ldmatrix A fragment swapped, so mma.sync
              gets lanes' operands in the wrong places
  wait        the pipeline's cp.async.wait_group dropped
  wild-store  a store 2 GiB past C (faults: reported, not a crash)
  divergence  a __syncthreads at the end reached by warp 0 only
  acc-uninit  the accumulator's clear (T.clear) dropped: the fragment's
              registers are summed into and stored without ever being
              written (initcheck: an undefined value stored to C)

and, built for cuda:sm_90a where its stages are loaded by TMA (rows a
multiple of 16 bytes) from a producer warpgroup (tile-warp-specialize;
7 k-tiles through 3 stages, so the ring wraps):

  tma-expect     the stage's expected transaction bytes doubled, so its
                 mbarrier phase never completes (a deadlock, not a hang)
  tma-coord      A's box 8 columns off (the wrong part of A loaded)
  ws-full-wait   the consumers' wait on the stage's full barrier dropped:
                 wgmma reads stages the copy engine writes with nothing
                 ordering the two (racecheck)
  ws-empty-arrive  the consumers' arrival on the empty barrier dropped:
                 the producer waits for a release that never comes
  ws-empty-wait  the producer's wait on the empty barrier dropped: it
                 refills stages before they are released, and the full
                 barriers pass the parity the consumers wait for
  ws-release-early  the consumers release the stage of the wgmma group
                 they leave in flight (wait_group 1) instead of the previous
                 one: the producer refills it before the group has read it
                 (racecheck)

and, with 3 k-tiles (the ring does not wrap), where TMA copies are
asynchronous (they land later than their issue, at a point the simulator
chooses, and a wait on its own mbarrier is the only thing that orders a
copy's writes):

  ws-last-stage-wait  the consumers wait once, for the ring's last stage,
                 instead of for each stage: with copies performed at issue
                 (and completing in order) this ran clean and verified

and examples/flash_attention_fwd.py for cuda:sm_90a, whose P.V is a
wgmma with A from registers:

  wgmma-a-regs  one of P's A registers changed after the instruction and
                before the wait_group that covers it
  wgmma-a-lane  P's a2/a3 packed from the elements of a4/a5 (the wrong
                A placement)

and the same example warp-specialised (num_stages = 2, 7 key tiles through
the rings; K and V have a ring of full/empty mbarriers each; the two
consumer warpgroups ping-pong, tlc.ws_pingpong):

  ws-k-release-early  K's stage released before S = Q K^T reads it: the
                 producer refills it under the wgmma (racecheck)
  ws-v-full-wait  the consumers' wait on V's full barrier dropped: O += P V
                 reads a stage the copy engine may still write (racecheck)
  ws-v-empty-arrive  the consumers' release of V's stage dropped: the
                 producer waits for it forever (deadlock report)
  ws-pingpong-first-turn  warpgroup 1's opening hand-over of the tensor
                 cores dropped: both consumer warpgroups wait for their
                 turn forever (deadlock report at bar.sync 2)
  ws-pingpong-hand-over  the hand-over after a gemm's commit dropped: the
                 other warpgroup never gets its turn (deadlock report)

and examples/elementwise_add.py for cuda:sm_80 (4 blocks), whose global
accesses are checked for races between threads and between blocks:

  global-ww     the output tile's row offset halved (by / 2 * 32): blocks
                (0,0) and (0,1) write the same rows (write-after-write)
  global-war    thread 0 reads back an element of C that thread 1 writes,
                with no barrier (the values, and the verification, are
                unaffected)
  shared-uninit B's 16-byte vector loads into B_shared dropped: the sum
                of shared bytes no thread wrote is stored to C (initcheck,
                on by default: the ragged tiles of the untouched programs,
                which read unloaded rows and discard them, run clean)
  order-atomic  every block but (0,0) also adds 1 to C[0] with atomicAdd
  order-atomic-late  the same, block (0,0) busy before its store
                while block (0,0) stores C[0] plainly: C[0] depends on
                which block runs first (ordercheck, TLC_SIM_ORDERCHECK=1;
                the global racecheck does not see atomics)

and tests/lit/Target/Cpp's gemm-tf32.py / gemm-dtypes.py (f64) for
cuda:sm_80, whose 32/64-bit operands are one element per register:

  tf32-lane   A registers a1 and a2 of the first m16n8k8 swapped
  f64-lane    A registers a0 and a1 of the first 16 x 8 x 4 step swapped

Each must fail, with the checker (or the verification) that shows it.
Usage: planted_faults.py --bin BUILD/bin [--keep DIR]
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
SIZES = ["-DM=100", "-DN=70", "-DK=50"]

# name: (pattern, replacement, what the output must contain)
FAULTS = {
    "barrier": (r"(tlc::cuda::cpAsyncWait<1>\(\);[^\n]*\n\s*)__syncthreads\(\);",
                r"\1", "racecheck:"),
    "guard": (r"if \(\(t \+ i0\) < 100 &&", "if ((t + i0) <= 100 &&",
              "memcheck: out-of-bounds global load"),
    "mma-lane": (r"ldmatrixX4\(aFrag\[0\]\[0\], aFrag\[0\]\[1\], aFrag\[0\]\[2\]",
                 "ldmatrixX4(aFrag[0][0], aFrag[0][2], aFrag[0][1]",
                 "verify C: FAIL"),
    "wait": (r"tlc::cuda::cpAsyncWait<1>\(\);", "",
             "is still writing it"),
    "wild-store": (r"\n  const int t_16 = ", "\n  if (tid == 5) C[1 << 30] = tlc::cuda::toHalf(1.0f);"
                   "\n  const int t_16 = ", "memcheck: SIGSEGV at address"),
    "divergence": (r"\n}\n*$", "\n  if (tid < 32) __syncthreads();\n}\n",
                   "synccheck: the threads of block"),
    "acc-uninit": (r"for \(int r = 0; r < 128; \+\+r\) C_local\[r\] = 0;",
                   "for (int r = 0; r < 0; ++r) C_local[r] = 0;",
                   "initcheck: store of an undefined value to global memory "
                   "\\(byte \\d+ of 'parameter C"),
}
TMA_SIZES = ["-DM=100", "-DN=72", "-DK=200"]
_CPP = os.path.join(ROOT, "tests", "lit", "Target", "Cpp")
SWAP = r"(aFrag\[0\]\[{0}\]) = ([^\n]*)\n(\s*)(aFrag\[0\]\[{1}\]) = ([^\n]*)"
SCALAR_FAULTS = {
    "tf32": (os.path.join(_CPP, "gemm-tf32.py"), [], {
        "tf32-lane": (SWAP.format(1, 2), r"\1 = \5\n\3\4 = \2", "verify C: FAIL")}),
    "f64": (os.path.join(_CPP, "gemm-dtypes.py"), [], {
        "f64-lane": (SWAP.format(0, 1), r"\1 = \5\n\3\4 = \2", "verify C: FAIL")}),
}
TMA_FAULTS = {
    "tma-expect": (r"mbarrierArriveExpectTx\(&full\[stage\], 16384\)",
                   "mbarrierArriveExpectTx(&full[stage], 32768)",
                   "mbarrier wait for phase parity 0 that no thread or copy can complete"),
    "tma-coord": (r"(tmaLoad<2>\(\(A_shared \+ stage \* 4096\), &tmap0, &full\[stage\], "
                  r"int\(\w+\))", r"\1 + 8", "verify C: FAIL"),
    "ws-full-wait": (r"tlc::cuda::mbarrierWait\(&full\[readStage\], \w+\);",
                     "", "racecheck:"),
    "ws-empty-arrive": (r"if \(lastStage >= 0\) tlc::cuda::mbarrierArrive\(&empty\[lastStage\]\);", "",
                        "an mbarrier wait for phase parity"),
    "ws-empty-wait": (r"tlc::cuda::mbarrierWait\(&empty\[stage\], phase \^ 1\);",
                      "", "an mbarrier wait for phase parity|"
                      "mbarrier arrive on a phase with no pending arrival"),
    "ws-release-early": (r"if \(lastStage >= 0\) tlc::cuda::mbarrierArrive\(&empty\[lastStage\]\);",
                         "tlc::cuda::mbarrierArrive(&empty[readStage]);", "racecheck:"),
}

RING_SIZES = ["-DM=100", "-DN=72", "-DK=96"]
RING_FAULTS = {
    "ws-last-stage-wait": (r"(\n(\s*)for \(int (\w+) = 0; \3 < 3; \+\+\3\) \{\n)\s*"
                           r"tlc::cuda::mbarrierWait\(&full\[readStage\], \w+\);[^\n]*\n",
                           r"\n\2tlc::cuda::mbarrierWait(&full[2], 0);\1",
                           "after a write by the TMA copy engine"),
}

ADD_SIZES = ["-DM=100", "-DN=70"]
ADD_FAULTS = {
    "global-ww": (r"const int (\w+) = \(by \* 32\);\n(\s*)const int (\w+) = \(bx \* 128\);"
                  r"(\n\s*// T.copy  elementwise_add.py:31)",
                  r"const int \1 = (by / 2 * 32);\n\2const int \3 = (bx * 128);\4",
                  "racecheck: write of global memory .*blocks of one launch are ordered only by a __threadfence"),
    "global-war": (r"(\n\s*const int (\w+) = \(by \* 32\);\n\s*const int \w+ = \(bx \* 128\);"
                   r"\n\s*// T.copy  elementwise_add.py:31(.|\n)*)\n\}\n*$",
                   r"\1\n  if (tid == 0) { volatile float v = C[\2 * 70 + 4]; (void)v; }\n}\n",
                   "racecheck: write of global memory .* after a read by .*no barrier"),
    "shared-uninit": (r"tlc::cuda::copyVector<16>\(&B_shared\[[^\n]*\n", "\n",
                      "initcheck: store of an undefined value to global memory "
                      "\\(byte \\d+ of 'parameter C"),
    "order-atomic": (r"\n\}\n*$", "\n  if (tid == 0 && (bx | by)) atomicAdd(&C[0], 1.0f);\n}\n",
                     "ordercheck: byte \\d+ of 'parameter C[^']*' \\(and \\d+ more\\) differs "
                     "between the blocks run first to last and last to first"),
    # The same, with block (0,0) slow before its store: on several workers
    # the other blocks' adds used to land first in both orders.
    "order-atomic-late": (r"(\n\s*// T.copy  elementwise_add.py:31:9\n(.|\n)*)\n\}\n*$",
                          r"\n  if ((bx | by) == 0 && tid == 0) { for (volatile int d = 0; "
                          r"d < 4000000; ++d) {} }\1"
                          r"\n  if (tid == 0 && (bx | by)) atomicAdd(&C[0], 1.0f);\n}\n",
                          "ordercheck: byte \\d+ of 'parameter C[^']*' \\(and \\d+ more\\) "
                          "differs between the blocks run first to last and last to first"),
}

FA_SIZES = ["-Dbatch=1", "-Dheads=1", "-Dseq_len=100", "-Ddim=64"]
FA_FAULTS = {
    "wgmma-a-regs": (r"(tlc::cuda::wgmmaM64N\d+K16F32F16RS<\d>\(&\w+\[\d+\], (aFrag\w*)"
                     r"\[[^\n]*\n)(\s*)(tlc::cuda::wgmmaCommit\(\);)",
                     r"\1\3\2[0][0][0] ^= 1u;\n\3\4",
                     "wgmma A registers changed before the wait_group"),
    "wgmma-a-lane": (r"(aFrag\w*\[0\]\[0\]\[1\] = tlc::cuda::packPair\(&\w+\[)2\]",
                     r"\g<1>4]", "verify Output: FAIL"),
}

FA_WS_SIZES = ["-Dbatch=1", "-Dheads=1", "-Dseq_len=200", "-Ddim=64", "-Dblock_M=128",
               "-Dblock_N=32", "-Dthreads=256", "-Dnum_stages=2",
               "--pass-config=tlc.ws_pingpong=True"]
FA_WS_FAULTS = {
    "ws-k-release-early": (r"(tlc::cuda::mbarrierWait\(&full\[readStage\], \w+\);  // ring 0[^\n]*\n)"
                           r"((?:.*\n)*?)\s*tlc::cuda::mbarrierArrive\(&empty\[readStage\]\);  "
                           r"// ring 0[^\n]*\n",
                           r"\1tlc::cuda::mbarrierArrive(&empty[readStage]);\n\2", "racecheck:"),
    "ws-v-full-wait": (r"tlc::cuda::mbarrierWait\(&full\[readStage \+ 2\], \w+\);", "",
                       "racecheck:"),
    "ws-v-empty-arrive": (r"tlc::cuda::mbarrierArrive\(&empty\[readStage \+ 2\]\);", "",
                          "an mbarrier wait for phase parity"),
    "ws-pingpong-first-turn": (r"if \(warpGroup != 0\) tlc::cuda::namedBarrierArrive\(2, 256\);", "",
                               "bar.sync 2"),
    "ws-pingpong-hand-over": (r"if \(warpGroup == 0\) tlc::cuda::namedBarrierArrive\(3, 256\); "
                              r"else tlc::cuda::namedBarrierArrive\(2, 256\);", "",
                              "cannot all continue"),
}

# The softmax overlapped with the previous iteration's P V (tlc.ws_overlap,
# with ping-pong): the wait for S alone dropped (the softmax reads S while
# it is in flight), the wait for P V dropped (O rescaled and P rewritten
# while P V reads them).
FA_OV_SIZES = FA_WS_SIZES + ["--pass-config=tlc.ws_overlap=True"]
FA_OV_FAULTS = {
    "ws-overlap-s-wait": (r"tlc::cuda::wgmmaWait<1>\(\);", "", r"wgmma|verify Output: FAIL"),
    "ws-overlap-pv-wait": (r"tlc::cuda::wgmmaWait<0>\(\);  // P V is complete[^\n]*", "",
                           r"wgmma|verify Output: FAIL"),
}


def run(cmd, env):
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return proc.returncode, proc.stdout + proc.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--keep")
    parser.add_argument("--only", default="", help="the runs whose name contains this")
    args = parser.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="tlc-sim-faults-")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failed = 0
    total = 0
    gemm = (os.path.join(ROOT, "examples", "gemm.py"), "matmul", "C")
    fa = (os.path.join(ROOT, "examples", "flash_attention_fwd.py"), "flashattn",
          "Output")
    runs = [("sm_80", "sm_80", gemm, SIZES, FAULTS),
            ("sm_90a", "sm_90a", gemm, TMA_SIZES, TMA_FAULTS),
            ("sm_90a-ring", "sm_90a", gemm, RING_SIZES, RING_FAULTS),
            ("sm_90a-flash_attention_fwd", "sm_90a", fa, FA_SIZES, FA_FAULTS),
            ("sm_90a-flash_attention_ws", "sm_90a", fa, FA_WS_SIZES, FA_WS_FAULTS),
            ("sm_90a-flash_attention_ws_overlap", "sm_90a", fa, FA_OV_SIZES, FA_OV_FAULTS)]
    add = (os.path.join(ROOT, "examples", "elementwise_add.py"), "elementwise_add", "C")
    runs.append(("sm_80-elementwise_add", "sm_80", add, ADD_SIZES, ADD_FAULTS))
    for name, (program, sizes, faults) in SCALAR_FAULTS.items():
        runs.append((name, "sm_80", (program, "matmul", "C"), sizes, faults))
    for name, arch, example, sizes, faults in runs:
        if args.only not in name:
            continue
        f, n = plant(args, os.path.join(work, name), arch, sizes, faults,
                     example)
        failed += f
        total += n
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{total - failed}/{total} planted faults caught")
    return 1 if failed else 0


def plant(args, work, arch, sizes, faults, example):
    """Builds \p example (program path, kernel, output) for \p arch, checks
    it runs clean, plants \p faults."""
    gemm, kernel, output = example
    stem = os.path.splitext(os.path.basename(gemm))[0]
    os.makedirs(work)
    env = dict(os.environ, TLC_SIM_QUIET_INITCHECK="1")
    build = os.path.join(args.bin, "tlc-build")
    ref, clean = os.path.join(work, "cpu"), os.path.join(work, "clean")
    for cmd in ([build, gemm, "--target=cpu", "-o", ref] + sizes,
                [build, gemm, f"--target=cuda:{arch}", "--cuda-compiler=none",
                 "-o", clean] + sizes):
        rc, out = run(cmd, env)
        if rc != 0:
            print(out)
            print(f"FAIL: building {gemm}")
            return 1, 1

    def sim(art, extra_env=None):
        return run([os.path.join(args.bin, "tlc-run"), art, "--device", "sim", "--verify",
                    "--reference", ref, "--seed", "3"], dict(env, **(extra_env or {})))

    rc, out = sim(clean)
    if rc != 0 or f"verify {output}: PASS" not in out:
        print(out)
        print(f"FAIL: the untouched {arch} {stem} kernel does not run clean on sim")
        return 1, 1
    print(f"PASS: untouched {arch} {stem} kernel runs clean and verifies")
    source = os.path.join(clean, kernel + ".cu")
    text = open(source).read()
    failed = 0
    for name, (pattern, repl, expect) in faults.items():
        planted, n = re.subn(pattern, repl, text, count=1)
        if n != 1:
            print(f"FAIL: {name}: the generated source has no '{pattern}' to edit")
            failed += 1
            continue
        art = os.path.join(work, name)
        shutil.copytree(clean, art)
        with open(os.path.join(art, kernel + ".cu"), "w") as f:
            f.write(planted)
        rc, out = sim(art, {"TLC_SIM_ORDERCHECK": "1"} if "ordercheck" in expect else None)
        if rc != 0 and re.search(expect, out):
            line = next((l.strip() for l in out.splitlines() if re.search(expect, l)), "")
            print(f"PASS: {name}: caught: {line[:300]}")
        else:
            print(out)
            print(f"FAIL: {name}: not caught (exit {rc}; expected '{expect}')")
            failed += 1
    return failed, len(faults)


if __name__ == "__main__":
    sys.exit(main())
