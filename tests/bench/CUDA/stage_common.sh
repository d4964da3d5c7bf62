#!/bin/bash
# Shared parts of the GPU stages of issue 14 (uniform_stage.sh, perf33 and
# later; uniform_run.sh keeps its own preamble). Sourced, not run.
#
# On the development machine, stage_pack NEW_BUILD OLD_TLC_BUILD OUT FILE...
# fills OUT with the new and old tlc-build and this tree's tlc-run
# (stripped, xz-compressed), libtlc_cuda.so, the Python package (tilelang,
# tvm), _runtime.py as py/tlc_runtime.py, the given bench files in py/ and
# this file.
#
# On the GPU machine, a go.sh in that folder sources it and calls
# stage_begin S W LIMIT: the binaries are unpacked into W/bin, the runtime
# and package are put on the environment, env.log is written, and step /
# late / left keep time against LIMIT seconds (the call's budget):
#   step MSG        appends "time seconds MSG" to $O/steps.log
#   late T WHAT     true (and logged) once more than T seconds are spent
#   left T          seconds left until T (at least 5), for `timeout`

stage_pack() {
  local build=$1 old=$2 out=$3; shift 3
  local root; root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
  rm -rf "$out"; mkdir -p "$out/bin" "$out/lib" "$out/py"
  cp "$build/bin/tlc-build" "$out/bin/tlc-build-new"
  cp "$old" "$out/bin/tlc-build-old"
  cp "$build/bin/tlc-run" "$out/bin/"
  strip "$out/bin/"*
  xz -T2 -6 "$out/bin/tlc-build-new" "$out/bin/tlc-build-old" "$out/bin/tlc-run"
  cp "$build/lib/libtlc_cuda.so" "$out/lib/"
  cp -r "$root/python/tilelang" "$root/python/tvm" "$out/"
  cp "$root/python/tilelang/_runtime.py" "$out/py/tlc_runtime.py"
  cp "$@" "$out/py/"
  cp "$root/tests/bench/CUDA/stage_common.sh" "$out/"
  find "$out" -name __pycache__ -prune -exec rm -rf {} +
}

stage_begin() {
  S=$1; W=$2; LIMIT=$3
  O=${OUT:-/tmp/out}; mkdir -p "$O"
  if [ -n "${STAGE_DRY_RUN:-}" ]; then
    RUN=$W/bin/tlc-run; P=$S/py
    echo "+ (unpack $S/bin/*.xz into $W/bin; TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so PYTHONPATH=$S; env.log)"
    return
  fi
  rm -rf "$W"; mkdir -p "$W/bin"
  local b
  for b in tlc-build-old tlc-build-new tlc-run; do
    xz -dc "$S/bin/$b.xz" > "$W/bin/$b"; chmod +x "$W/bin/$b"
  done
  export TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so PYTHONPATH=$S PYTHONUNBUFFERED=1
  RUN=$W/bin/tlc-run; P=$S/py
  step start
  { nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
    (command -v nvcc || echo /usr/local/cuda/bin/nvcc); nvcc --version 2>&1 | tail -2
    python3 -c "import torch; print('torch', torch.__version__)"; } > "$O/env.log" 2>&1
}

step() { echo "$(date +%T) ${SECONDS}s $*" >> "$O/steps.log"; }
late() { [ "$SECONDS" -gt "$1" ] && { step "skipped $2: ${SECONDS}s spent"; return 0; }; return 1; }
left() { local t=$(($1 - SECONDS)); [ "$t" -lt 5 ] && t=5; echo "$t"; }

# The bench steps a go.sh shares, over its array `kernels` of
# "name|file|bindings|builds[|tlc-run options]" entries (builds: old and/or
# new; a v_* entry is verified against the CPU target, with the options):
#   stage_build NPROC        builds each entry with each named build for
#                            sm_90a into $W/BUILD/NAME, NPROC at a time, and
#                            each v_* entry with the new build for the CPU
#                            target into $W/cpu/NAME; failures in verify.log
#   stage_verify T BUILD...  tlc-run --verify of each v_* entry of BUILD on
#                            the GPU against $W/cpu/NAME, skipped past T s
#   stage_sass RAW NAME...   sass_hot_loop.py (RAW=1: --raw first) of the
#                            old and new NAME's cubins into sass.log
#   stage_sanitize T L NAME...  compute-sanitizer memcheck and racecheck of
#                            the new NAME (verified), skipped past T s, each
#                            cut at L s, into sanitizer.log
#   stage_prebuild TAG N UNTIL ENV SHAPE...
#                            gemm_graph_bench.py --build-only of SHAPEs in N
#                            background shards (no --shard when N is 1) with
#                            the environment ENV (one word list: TLC_BUILD,
#                            TLC_CACHE_DIR, CONFIGS), each cut at UNTIL s,
#                            into $W/gemm-build-TAG-I.log (TAG empty:
#                            gemm-build-I.log); the caller `wait`s
# With STAGE_DRY_RUN=1, the stage_* functions print
# the commands they would run (prefixed "+ ") instead of running them, and
# so do a go.sh's own commands run as xl LOG CMD... (CMD > LOG 2>&1) and
# xa LOG CMD... (CMD >> LOG 2>&1).
xl() {
  local log=$1; shift
  if [ -n "${STAGE_DRY_RUN:-}" ]; then echo "+ $* > $log"; else "$@" > "$log" 2>&1; fi
}
xa() {
  local log=$1; shift
  if [ -n "${STAGE_DRY_RUN:-}" ]; then echo "+ $* >> $log"; else "$@" >> "$log" 2>&1; fi
}
# fa_tiling.py's tilings of attention, in m192 (non-causal D64), c64
# (causal D64), c128 (causal D128) and n128 (non-causal D128), also written
# to verify.log.
stage_fa_tilings() {
  m192=$(python3 "$P/fa_tiling.py" --dim 64 --causal 0)
  c64=$(python3 "$P/fa_tiling.py" --dim 64 --causal 1)
  c128=$(python3 "$P/fa_tiling.py" --dim 128 --causal 1)
  n128=$(python3 "$P/fa_tiling.py" --dim 128 --causal 0)
  echo "fa_tiling: non-causal D64 $m192 | causal D64 $c64 | causal D128 $c128 | non-causal D128 $n128" >> "$O/verify.log"
}

stage_prebuild() {
  local tag=$1 n=$2 until=$3 env=$4 i shard log; shift 4
  for i in $(seq 0 $((n - 1))); do
    shard=(); [ "$n" -gt 1 ] && shard=(--shard "$i/$n")
    log=$W/gemm-build${tag:+-$tag}$([ "$n" -gt 1 ] && echo "-$i").log
    if [ -n "${STAGE_DRY_RUN:-}" ]; then
      echo "+ env $env timeout $(left "$until") python3 $P/gemm_graph_bench.py --build-only ${shard[*]} $* > $log 2>&1 &"
      continue
    fi
    # shellcheck disable=SC2086  # ENV is a word list
    env $env timeout "$(left "$until")" python3 "$P/gemm_graph_bench.py" --build-only "${shard[@]}" "$@" > "$log" 2>&1 &
  done
}

stage_build() {
  local jobs=() v name file defs builds which
  for v in "${kernels[@]}"; do
    IFS='|' read -r name file defs builds _ <<< "$v"
    for which in $builds; do jobs+=("$W/$which/$name|$which|$file|--target=cuda:sm_90a $defs"); done
    [[ $name == v_* ]] && jobs+=("$W/cpu/$name|new|$file|--target=cpu --layouts-of=cuda:sm_90a $defs")
  done
  if [ -n "${STAGE_DRY_RUN:-}" ]; then
    local j o w f d
    for j in "${jobs[@]}"; do
      IFS='|' read -r o w f d <<< "$j"
      echo "+ $W/bin/tlc-build-$w $f -o $o $d"
    done
    return
  fi
  printf '%s\n' "${jobs[@]}" | xargs -P "$1" -I{} bash -c 'IFS="|" read -r o w f d <<< "{}"; mkdir -p "$(dirname "$o")"; "'"$W"'/bin/tlc-build-$w" "$f" -o "$o" $d > /dev/null 2> "$o.err" || echo "BUILD FAILED: $o: $(head -c 400 "$o.err")"' >> "$O/verify.log" 2>&1
}

# Whether each named kernel's generated CUDA changed between the old and
# new builds (a line each in verify.log).
stage_cuda_changed() {
  local name a b
  for name in "$@"; do
    a=$(ls "$W/old/$name/"*.cu 2>/dev/null | head -1); b=$(ls "$W/new/$name/"*.cu 2>/dev/null | head -1)
    if [ -z "$a" ] || [ -z "$b" ]; then echo "$name: not built" >> "$O/verify.log"
    elif cmp -s "$a" "$b"; then echo "$name: old and new CUDA identical" >> "$O/verify.log"
    else echo "$name: old and new CUDA DIFFER" >> "$O/verify.log"; fi
  done
}

stage_verify() {
  local deadline=$1 which v name builds vargs; shift
  for which in "$@"; do
    for v in "${kernels[@]}"; do
      IFS='|' read -r name _ _ builds vargs <<< "$v"
      [[ $name == v_* && " $builds " == *" $which "* ]] || continue
      late "$deadline" "verify $which $name" && continue
      echo "=== $which $name" >> "$O/verify.log"
      # shellcheck disable=SC2086  # vargs: the entry's tlc-run options
      xa "$O/verify.log" timeout 60 "$RUN" "$W/$which/$name" --device cuda --verify --reference "$W/cpu/$name" --seed 7 $vargs
      echo "rc=$?" >> "$O/verify.log"
    done
  done
}

stage_sass() {
  local raw=$1 which name; shift
  for which in old new; do
    for name in "$@"; do
      if [ -n "${STAGE_DRY_RUN:-}" ]; then
        echo "+ python3 $P/sass_hot_loop.py $W/$which/$name/*.cubin >> $O/sass.log"; continue
      fi
      [ -d "$W/$which/$name" ] || continue
      [ "$raw" = 1 ] && python3 "$P/sass_hot_loop.py" --raw "$W/$which/$name/"*.cubin 2>&1 | sed "s|^|$which $name: |" >> "$O/sass.log"
      python3 "$P/sass_hot_loop.py" "$W/$which/$name/"*.cubin 2>&1 | sed "s|^== |== $which $name |" >> "$O/sass.log"
    done
  done
}

stage_sanitize() {
  local deadline=$1 limit=$2 name tool; shift 2
  for name in "$@"; do
    for tool in memcheck racecheck; do
      late "$deadline" "sanitizer $tool $name" && continue
      echo "=== compute-sanitizer --tool $tool new $name" >> "$O/sanitizer.log"
      if [ -n "${STAGE_DRY_RUN:-}" ]; then
        echo "+ compute-sanitizer --tool $tool $RUN $W/new/$name --device cuda --verify --reference $W/cpu/$name >> $O/sanitizer.log"; continue
      fi
      timeout $(left "$limit") compute-sanitizer --tool $tool "$RUN" "$W/new/$name" --device cuda --verify --reference "$W/cpu/$name" 2>&1 | tail -4 >> "$O/sanitizer.log"
    done
  done
}
