#!/bin/sh
# A stand-in for nvcc (TLC_NVCC=this) in the sim suite: tlc-build writes
# NAME.cu, the tlc_device/ headers and NAME.json as with the real one, and
# this writes a placeholder where the cubin/fatbin would go. The sim device
# compiles NAME.cu itself and never reads the binary; without nvcc (CI) it
# is the only way to get the manifest, and with nvcc it saves its minutes.
out=
while [ $# -gt 0 ]; do
  if [ "$1" = -o ]; then out=$2; shift; fi
  shift
done
[ -n "$out" ] || { echo "nvcc-stand-in: no -o" >&2; exit 2; }
printf 'not a CUDA binary: written by tests/sim/nvcc-stand-in.sh for the sim device\n' > "$out"
