#!/bin/bash
# On the GPU machine, from the repository root: builds the benchmark
# kernels fa_build.sh listed (FA_BENCH_JOBS: name | program | -D bindings
# per line) with S's bin/tlc-build into S/bench/, JOBS at a time.
# Usage: bash fa_bench_jobs.sh S JOBS_FILE [JOBS]
S=${1:?}; F=${2:?}; J=${3:-16}
mkdir -p "$S/bench"
xargs -P "$J" -I{} bash -c 'IFS="|" read -r n f d <<< "{}"
  "'"$S"'/bin/tlc-build" "$f" --target=cuda:sm_90a -o "'"$S"'/bench/$n" $d > /dev/null &&
  rm -rf "'"$S"'/bench/$n/tlc_device" || echo "build failed: $n"' < "$F"
echo "built $(ls -d "$S"/bench/*/ | wc -l) benchmark kernels"
