#!/usr/bin/python3
"""The sim device's cluster data primitives (tlc_device/cuda/cluster.h),
each probed by a hand-written kernel on clusters of 2 blocks of 32 threads
(grid 4, 512 bytes of shared memory a block) and checked against values
worked out here from the PTX ISA's definitions:

  st-ld        st.shared::cluster of (rank * 100 + lane) into the other
               block's S[lane]; after barrier.cluster arrive/wait each block
               reads S[lane] = other * 100 + lane, and ld.shared::cluster of
               the other block's S[lane] gives back rank * 100 + lane
  atom-red     every thread of both blocks adds 1.0 (atom, its old value
               kept) and 2 (red.u32) to block 0's counters: 64 and 128;
               the old values are a permutation of 0..63
  bulk-peer    block 0 doubles A into its S[0:32] and thread 0 arrives on
               block 1's mbarrier expecting 128 bytes
               (mbarrier.arrive.expect_tx ... shared::cluster) and copies
               them with cp.async.bulk.shared::cluster.shared::cta into
               block 1's S[32:64]; block 1 waits for the phase (parity 0)
               and writes what landed: 2 A
  parity       mbarrierCurrentParity: 0 after init, 1 after one completed
               phase, 0 after two

and the faults the ISA leaves undefined, which the sim must report with
the instruction's place:

  rank-outside   st.shared::cluster to rank 2 of a cluster of 2
  mapa-outside   mapa of byte 800 of a block of 512 bytes
  window         an 8-byte st.shared::cluster at byte 508: mapa maps the
                 address, but the store runs past the peer's window
  bulk-size      a bulk copy of 100 bytes (not a multiple of 16)
  bulk-barrier   a bulk copy whose mbarrier lies outside the shared memory
  exited-peer    a store into a block that has exited (no cluster barrier
                 keeps it)

Usage: cluster_primitives.py --bin BUILD/bin [--only NAME]...
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

TIMEOUT = 300

HEADER = r"""
#include "tlc_device/cuda.h"
#include "tlc_device/cuda/cluster.h"
extern "C" __global__ void __launch_bounds__(32) probe_kernel(
    const float *__restrict__ A, float *__restrict__ D) {
  extern __shared__ __align__(128) unsigned char smem[];
  float *S = reinterpret_cast<float *>(smem);
  const int lane = threadIdx.x;
  const uint32_t rank = tlc::cuda::clusterCtaRank();
  const uint32_t other = rank ^ 1u;
  float *out = D + blockIdx.x * 32;
"""

ST_LD = HEADER + r"""
  S[lane] = -1.0f;
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
  tlc::cuda::stSharedCluster(&S[lane], other, float(rank * 100 + lane));
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
  float mine = S[lane];
  float back = tlc::cuda::ldSharedCluster(&S[lane], other);
  out[lane] = mine + 1000.0f * back;
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
}
"""

ATOM_RED = HEADER + r"""
  uint32_t *U = reinterpret_cast<uint32_t *>(smem + 128);
  if (lane == 0) { S[0] = 0.0f; U[0] = 0u; }
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
  float old = tlc::cuda::atomAddSharedCluster(&S[0], 0u, 1.0f);
  tlc::cuda::redAddSharedCluster(&U[0], 0u, 2u);
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
  out[lane] = old;
  if (rank == 0 && lane == 0) { D[128 + blockIdx.x] = S[0]; D[136 + blockIdx.x] = float(U[0]); }
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
}
"""

BULK_PEER = HEADER + r"""
  uint64_t *bar = reinterpret_cast<uint64_t *>(smem + 256);
  if (lane == 0) tlc::cuda::mbarrierInit(bar, 1);
  S[32 + lane] = -1.0f;
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
  if (rank == 0) {
    S[lane] = 2.0f * A[lane];
    __syncthreads();
    if (lane == 0) {
      tlc::cuda::mbarrierArriveExpectTxCluster(bar, 1u, SIZE);
      tlc::cuda::bulkCopySharedCluster(&S[32], &S[0], SIZE, BAR, 1u);
    }
  } else {
    tlc::cuda::mbarrierWait(bar, 0);
    out[lane] = S[32 + lane];
  }
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
}
"""

PARITY = HEADER + r"""
  uint64_t *bar = reinterpret_cast<uint64_t *>(smem + 128);
  if (lane == 0) tlc::cuda::mbarrierInit(bar, 32);
  __syncthreads();
  float p0 = float(tlc::cuda::mbarrierCurrentParity(bar));
  __syncthreads();
  tlc::cuda::mbarrierArrive(bar);
  tlc::cuda::mbarrierWait(bar, 0);
  float p1 = float(tlc::cuda::mbarrierCurrentParity(bar));
  __syncthreads();
  tlc::cuda::mbarrierArrive(bar);
  tlc::cuda::mbarrierWait(bar, 1);
  float p2 = float(tlc::cuda::mbarrierCurrentParity(bar));
  out[lane] = p0 + 10.0f * p1 + 100.0f * p2;
}
"""

RANK_OUTSIDE = HEADER + r"""
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
  if (lane == 0) tlc::cuda::stSharedCluster(&S[lane], 2u, 1.0f);
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
}
"""

WINDOW = HEADER + r"""
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
  if (lane == 0) tlc::cuda::stSharedCluster(&S[200], other, 1.0f);
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
}
"""

WINDOW8 = HEADER + r"""
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
  if (lane == 0)
    tlc::cuda::stSharedCluster(reinterpret_cast<uint64_t *>(smem + 508), other, uint64_t(1));
  tlc::cuda::clusterArrive();
  tlc::cuda::clusterWait();
}
"""

EXITED = HEADER + r"""
  if (rank == 1) return;
  tlc::cuda::clusterArrive();  // returns once block 1 has exited
  tlc::cuda::clusterWait();
  if (lane == 0) tlc::cuda::stSharedCluster(&S[lane], 1u, 1.0f);
}
"""


def run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return -1, "TIMEOUT"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--only", action="append", default=[])
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="tlc-sim-cluster-prims-")
    lane = np.arange(32, dtype=np.float32)

    def st_ld(a, d):
        want = np.zeros(256, np.float32)
        for b in range(4):
            rank, other = b % 2, (b % 2) ^ 1
            want[b * 32:(b + 1) * 32] = (other * 100 + lane) + 1000 * (rank * 100 + lane)
        return np.array_equal(d[:128], want[:128])

    def atom_red(a, d):
        ok = True
        for c in range(2):  # per cluster: the old values, 64 and 128
            olds = np.sort(d[c * 64:(c + 1) * 64])
            ok &= np.array_equal(olds, np.arange(64, dtype=np.float32))
            ok &= d[128 + 2 * c] == 64.0 and d[136 + 2 * c] == 128.0
        return bool(ok)

    def bulk_peer(a, d):
        want = np.float32(2) * a[:32]
        return np.array_equal(d[32:64], want) and np.array_equal(d[96:128], want)

    def parity(a, d):
        return np.array_equal(d[:128], np.full(128, 10.0, np.float32))

    good = "bar"
    cases = [
        ("st-ld", ST_LD, st_ld, None),
        ("atom-red", ATOM_RED, atom_red, None),
        ("bulk-peer", BULK_PEER.replace("SIZE", "128u").replace("BAR", good), bulk_peer, None),
        ("parity", PARITY, parity, None),
        ("rank-outside", RANK_OUTSIDE, None,
         r"memcheck: mapa\.shared::cluster to block 2 of the cluster by .* at probe\.cu:\d+: "
         r"the cluster has 2 blocks"),
        ("mapa-outside", WINDOW, None,
         r"memcheck: mapa\.shared::cluster of an address outside the block's shared memory "
         r"by .* at probe\.cu:\d+"),
        ("window", WINDOW8, None,
         r"memcheck: out-of-bounds shared::cluster store of 8 bytes at offset .* of block [01] "
         r"of the cluster .* by .* at probe\.cu:\d+"),
        ("bulk-size", BULK_PEER.replace("SIZE", "100u").replace("BAR", good), None,
         r"cp\.async\.bulk\.shared::cluster with an address not 16-byte aligned or a size "
         r"not a positive multiple of 16 at probe\.cu:\d+"),
        ("bulk-barrier", BULK_PEER.replace("SIZE", "128u").replace(", BAR,", ", bar + 64,"),
         None, r"mapa\.shared::cluster of an address outside the block's shared memory"),
        ("exited-peer", EXITED, None,
         r"memcheck: mapa\.shared::cluster to block 1 of the cluster by .* at probe\.cu:\d+: "
         r"that block has exited"),
    ]
    results = []
    for name, source, check, want in cases:
        if args.only and name not in args.only:
            continue
        art = os.path.join(work, name)
        m = probe_artifact.manifest("cluster_primitives.py", 4, out_elems=160,
                                    shared=512)
        m["launches"][0]["cluster"] = [2, 1, 1]
        m["target"] = "cuda:sm_90a"
        probe_artifact.write(art, source, m)
        out = art + "-out"
        rc, text = run([os.path.join(args.bin, "tlc-run"), art, "--device", "sim",
                        "--seed", "5", "--save", out])
        if want is None:
            ok = rc == 0
            if ok:
                a = np.load(os.path.join(out, "inputs", "A.npy"))
                d = np.load(os.path.join(out, "D.npy"))
                ok = check(a, d)
            what = "matches the ISA's values" if ok else f"exit {rc} or wrong values"
        else:
            line = next((l.strip() for l in text.splitlines() if re.search(want, l)), "")
            ok = rc != 0 and bool(line)
            what = f"caught: {line[:160]}" if ok else f"not caught (exit {rc})"
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {what}")
        if not ok:
            print(text[-3000:])
        results.append(ok)
    shutil.rmtree(work, ignore_errors=True)
    print(f"{results.count(True)}/{len(results)} cluster primitive cases as expected")
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
