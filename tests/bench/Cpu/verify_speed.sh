#!/bin/bash
# Times `tlc-run --verify` (the run on DEVICE, the CPU reference, and the
# host-side work around them: inputs, copies, comparison) of one artifact
# with two tlc-run binaries, alternating, and prints one line per run:
# user and wall seconds of the whole process and tlc-run's --timings
# phases. docs/perf/cpu-reference-speed.md (session 39) has the figures.
#
#   verify_speed.sh OLD_TLC_RUN NEW_TLC_RUN DEVICE ARTIFACT REFERENCE \
#                   [THREADS] [REPS] [TLC-RUN OPTIONS...]
#
# DEVICE cuda on the GPU host (ARTIFACT built for cuda:sm_90a, REFERENCE
# for cpu, as corpus_check.sh does); cpu here (ARTIFACT = REFERENCE: the
# reference then runs on one thread, the device run on THREADS).
# LIMIT (seconds, default 120) bounds each run.
OLD=$1 NEW=$2 DEV=$3 ART=$4 REF=$5 THREADS=${6:-16} REPS=${7:-1}
shift 7 2> /dev/null || shift $#
T=$(mktemp -d)
echo "# $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "# $(basename $ART) on $DEV, --threads $THREADS $*"
for r in $(seq $REPS); do
  for v in old new; do
    B=$OLD; [ $v = new ] && B=$NEW
    TIMEFORMAT="%U %S %R"
    { time timeout ${LIMIT:-120} $B --device $DEV --verify --threads $THREADS \
        --timings --reference $REF $ART "$@" > $T/log 2>&1; rc=$?; } 2> $T/t
    verdicts=$(grep -c "verify .*: PASS" $T/log)/$(grep -c "verify .*: \(PASS\|FAIL\)" $T/log)
    echo "$v rc=$rc pass=$verdicts user/sys/wall $(tail -1 $T/t)" \
      "$(grep -h timings: $T/log | tr -s ' ')"
  done
done
rm -rf $T
