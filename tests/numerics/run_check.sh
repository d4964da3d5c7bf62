#!/bin/sh
# run_check.sh TLC_BUILD WORKDIR PROGRAM CHECK_COMMAND...
# Builds PROGRAM for the CPU target into WORKDIR/art, then runs
# CHECK_COMMAND with every argument ARTIFACT replaced by that directory;
# its exit status is the test's.
set -e
tlc_build=$1 work=$2 program=$3
shift 3
rm -rf "$work"
mkdir -p "$work"
"$tlc_build" --target=cpu --no-cache -o "$work/art" "$program" > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; exit 1; }
for a in "$@"; do
  shift
  if [ "$a" = ARTIFACT ]; then set -- "$@" "$work/art"; else set -- "$@" "$a"; fi
done
exec "$@"
