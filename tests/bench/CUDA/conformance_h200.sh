#!/bin/bash
# The conformance programs this session made buildable for sm_90a, on the
# H200 (S holds bin/tlc-build, bin/tlc-run and prog/, the programs of
# tests/lit/Conformance named below): each built for cuda:sm_90a and cpu, run on the GPU and verified
# against the CPU target; l-wgmma-descriptors (no CPU build) against NumPy.
S=$(cd "$(dirname "$0")" && pwd); A=/tmp/raw; mkdir -p $A
export TLC_CACHE_DIR=/tmp/tlc-cache
for f in i-cp-async-groups i-wgmma-fence g-packed-ramp g-call-extern e-im2col-conv l-raw-tir-launch; do
  echo "=== $f"
  $S/bin/tlc-build --target=cuda:sm_90a -o $A/$f/cuda $S/prog/$f.py > $A/$f.b 2>&1 || { echo "cuda build failed"; tail -3 $A/$f.b; }
  $S/bin/tlc-build --target=cpu -o $A/$f/cpu $S/prog/$f.py >> $A/$f.b 2>&1 || { echo "cpu build failed"; tail -3 $A/$f.b; }
  timeout 60 $S/bin/tlc-run $A/$f/cuda --device cuda --verify --threads 16 --reference $A/$f/cpu 2>&1 | grep -E "^kernel|verify|error"
done
f=l-wgmma-descriptors; echo "=== $f"
$S/bin/tlc-build --target=cuda:sm_90a -o $A/$f/cuda $S/prog/$f.py > $A/$f.b 2>&1 || tail -3 $A/$f.b
timeout 60 $S/bin/tlc-run $A/$f/cuda --device cuda --save $A/$f/out 2>&1 | grep -E "^kernel|error"
python3 - $A/$f/out <<'PY'
import glob, sys
import numpy as np
# tlc-run --save writes DIR/NAME.npy (one kernel) or DIR/KERNEL/NAME.npy.
for c_path in sorted(glob.glob(sys.argv[1] + '/**/C.npy', recursive=True)):
    d = c_path[:-len('C.npy')]
    a = np.load(d + 'inputs/A.npy').astype(np.float64)
    b = np.load(d + 'inputs/B.npy').astype(np.float64)
    c = np.load(c_path).astype(np.float64)
    ref = a @ b.T
    ok = np.allclose(c, ref, rtol=1e-3, atol=1e-2)
    print(d, a.shape, b.shape, 'max |C - A B^T| =', np.abs(c - ref).max(),
          'PASS' if ok else 'FAIL')
PY
