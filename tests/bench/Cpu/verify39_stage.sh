#!/bin/bash
# Stages session 39's GPU-host checks (docs/perf/corpus-h200.md "Run 16",
# docs/perf/cpu-reference-speed.md) into DIR (default
# /work/main/build-h200-verify39), run there with `OUT=$OUT bash DIR/go.sh`
# (at most ~290 s):
#  * bin/tlc-run-old (OLD, default main's build) and bin/tlc-run (this
#    tree's), xz-compressed;
#  * progs/NAME/{cuda,cpu}: PROGS (linear_attn_bwd/fwd) built by this tree's
#    tlc-build for cuda:sm_90a and cpu at their own sizes, and speed.sh,
#    which times each program's verify with the old and the new tlc-run
#    (verify_speed.sh, reference on 16 threads, this tree's runargs);
#  * topk3/: topk_selector_3stages' artifacts and corpus_inputs.py's inputs;
#  * laf/: linear_attn_fwd at -DB=1 -DH=1 for cuda and linear_attn_fwd_model.py;
#  * check/NAME/{cuda,cpu}: CHECKS (mha_bwd_bhsd, gqa_bwd) at their own
#    sizes, with scripts/corpus_inputs.py and runargs.txt.
set -e
R=$(cd "$(dirname "$0")/../../.." && pwd)
D=${1:-/work/main/build-h200-verify39}
OLD=${OLD:-/work/main/build/bin/tlc-run}
C=${CORPUS:-/work/main/build-h200-verify37/corpus}
PROGS=${PROGS:-"examples__linear_attention__example_linear_attn_bwd
examples__linear_attention__example_linear_attn_fwd"}
CHECKS=${CHECKS:-"examples__flash_attention__example_mha_bwd_bhsd
examples__flash_attention__example_gqa_bwd"}
TB=$R/build/bin/tlc-build
PY=${PYTHON:-/usr/bin/python3}
mkdir -p $D/bin $D/progs
xz -T2 -6 -c $OLD > $D/bin/tlc-run-old.xz
xz -T2 -6 -c $R/build/bin/tlc-run > $D/bin/tlc-run.xz
cp $R/tests/bench/Cpu/verify_speed.sh $D/
cp $R/tests/bench/numerics/corpus-runargs.txt $D/runargs.txt
export TLC_CACHE_DIR=/tmp/verify39-stage-cache
# NAME.py of the corpus built into DIR/{cuda,cpu} (-D bindings after DIR),
# generated sources left out.
both() {
  local n=$1 out=$2; shift 2; rm -rf $out
  $TB --target=cuda:sm_90a --no-cache -o $out/cuda "$@" $C/$n.py > /dev/null 2>&1
  $TB --target=cpu --no-cache -o $out/cpu "$@" $C/$n.py > /dev/null 2>&1
  rm -rf $out/*/*.cpp $out/*/*.cu $out/*/tlc_cpu.h $out/*/tlc_device
}
for n in $PROGS; do both $n $D/progs/$n; done
for n in $CHECKS; do both $n $D/check/$n; done
both examples__deepseek_v32__topk_selector_3stages $D/topk3
$PY $R/tests/bench/numerics/corpus_inputs.py \
  examples__deepseek_v32__topk_selector_3stages $D/topk3/cpu $D/topk3/inputs
both examples__linear_attention__example_linear_attn_fwd $D/laf -DB=1 -DH=1
rm -rf $D/laf/cpu
mkdir -p $D/scripts
cp $R/tests/bench/numerics/corpus_inputs.py $D/scripts/
cp $R/tests/bench/numerics/linear_attn_fwd_model.py $D/laf/
cat > $D/speed.sh <<'RUN'
#!/bin/bash
# Old and new tlc-run --device cuda --verify --threads 16 --timings of each
# staged program (verify_speed.sh), 120 s a run at most.
S=$(cd "$(dirname "$0")" && pwd)
for b in tlc-run tlc-run-old; do
  [ -f $S/bin/$b ] || xz -dc $S/bin/$b.xz > $S/bin/$b; chmod +x $S/bin/$b
done
for d in $S/progs/*/; do
  n=$(basename $d)
  extra=$(awk -v n=$n '$1 == n { $1 = ""; print }' $S/runargs.txt)
  LIMIT=120 bash $S/verify_speed.sh $S/bin/tlc-run-old $S/bin/tlc-run cuda \
    $d/cuda $d/cpu 16 1 $extra
done
RUN
chmod +x $D/speed.sh
cp $R/tests/bench/Cpu/verify39_go.sh $D/go.sh
du -sh $D
