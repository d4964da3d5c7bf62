#!/bin/bash
# Stages fa_spread_probe.py (docs/perf/hopper.md, "where the attention
# timings' spread comes from") into OUT (default build-h200-spread): the
# record tilings of examples/flash_attention_causal.py at B8 H32 S4096
# (non-causal D128 as facn_d128, causal D64 as fac_d64), built here for
# cuda:sm_90a, with libtlc_cuda.so, python/tilelang/_runtime.py and the
# probe. On the GPU machine, from the repository root with the stage
# carried:
#   OUT=$OUT bash build-h200-spread/go.sh
# Usage: tests/bench/CUDA/fa_spread_stage.sh BUILD_DIR [OUT]
set -eu
build=${1:?build directory with bin/tlc-build and lib/libtlc_cuda.so}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build-h200-spread}
b=$root/tests/bench/CUDA
rm -rf "$out"; mkdir -p "$out"
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
"$build/bin/tlc-build" "$root/examples/flash_attention_causal.py" --target=cuda:sm_90a \
  -o "$out/facn_d128" $big -Ddim=128 -Dis_causal=False \
  $(python3 "$b/fa_tiling.py" --dim 128 --causal 0) > /dev/null
"$build/bin/tlc-build" "$root/examples/flash_attention_causal.py" --target=cuda:sm_90a \
  -o "$out/fac_d64" $big -Ddim=64 $(python3 "$b/fa_tiling.py" --dim 64 --causal 1) > /dev/null
cp "$build/lib/libtlc_cuda.so" "$root/python/tilelang/_runtime.py" "$b/fa_spread_probe.py" "$out/"
cat > "$out/go.sh" <<'RUN'
#!/bin/bash
S=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p "$O"
CLOCKS_LOG=$O/clocks.log timeout 200 python3 "$S/fa_spread_probe.py" "$S/libtlc_cuda.so" \
  "$S/_runtime.py" "$S/facn_d128" "$S/fac_d64" 2>&1 | tee "$O/spread.log"
RUN
du -sh "$out"
