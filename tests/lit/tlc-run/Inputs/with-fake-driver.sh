#!/bin/bash
# Runs "$@" with TLC_CUDA_DRIVER pointing at the fake libcuda built by
# tests/unit/CUDA (found next to the build's bin directory).
bin=$(dirname "$(command -v tlc-run)")
driver=$(find "$bin/.." -name 'libtlc-fake-cuda-full.so' -print -quit 2>/dev/null)
if [ -z "$driver" ]; then
  echo "with-fake-driver: libtlc-fake-cuda-full.so not built" >&2
  exit 1
fi
TLC_CUDA_DRIVER=$driver exec "$@"
