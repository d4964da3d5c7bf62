#!/bin/bash
# TMA GEMMs timed by tlc-run --bench (median of 30) next to torch.matmul
# (cuBLAS) on the same shapes, same run.
S=build/h200-hopper; O=${OUT:-/tmp/out}
export TLC_CACHE_DIR=/tmp/tlc-cache
for d in $S/bench/nn_* $S/bench/tn_*; do
  t=$($S/bin/tlc-run $d --device cuda --bench --bench-runs 30 2>&1 | grep -iE "median|ms" | tail -1)
  echo "$(basename $d) | $t"
done > $O/tma-tlc.log 2>&1
python3 - $S/bench/nn_* $S/bench/tn_* > $O/tma-torch.log 2>&1 <<'PY'
import json, os, sys, torch, statistics
dt = {"float16": torch.float16, "bfloat16": torch.bfloat16}
for d in sys.argv[1:]:
    m = json.load(open([os.path.join(d, f) for f in os.listdir(d) if f.endswith(".json")][0]))
    p = {q["name"]: q for q in m["params"]}
    A, B = p["A"]["shape"], p["B"]["shape"]; t = dt[p["A"]["dtype"]]
    a = torch.randn(*A, dtype=t, device="cuda"); b = torch.randn(*B, dtype=t, device="cuda")
    tn = os.path.basename(d).startswith("tn_")
    f = (lambda: a @ b.t()) if tn else (lambda: a @ b)
    for _ in range(5): f()
    ts = []
    for _ in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); f(); e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
    print(f"{os.path.basename(d)} A{A} B{B} torch.matmul median {statistics.median(ts):.4f} ms")
PY
