# A host compilation that runs past $TLC_HOST_COMPILE_TIMEOUT seconds
# (default 600) is stopped, and the build fails with an error at the
# kernel instead of seeming to hang. The stand-in compiler is a driver
# that waits for a child of its own (as g++ waits for cc1plus) sleeping
# 30 s; two instances compile at once, each under its own limit, and each
# driver is stopped together with its child.
# RUN: rm -rf %t && mkdir -p %t
# RUN: printf '#!/bin/sh\nsleep 30 &\necho $! >> %t/children\nwait\n' > %t/cxx && chmod +x %t/cxx
# RUN: not env TLC_NO_PCH=1 TLC_NO_CACHE=1 TLC_COMPILE_JOBS=2 TLC_HOST_COMPILE_TIMEOUT=1 TLC_HOST_CXX=%t/cxx tlc-build --target=cpu -o %t/out %s 2>&1 | FileCheck %s
# RUN: not ls %t/out/scale.so
# RUN: %python %S/Inputs/none-running.py 2 %t/children

# CHECK: host-compile-timeout.py:[[@LINE+8]]:{{[0-9]+}}: error: cannot write the CPU artifact of 'scale': host compilation failed (stopped after 1 s; TLC_HOST_COMPILE_TIMEOUT=SECONDS sets the limit, 0 none)

import tilelang
import tilelang.language as T

@tilelang.jit
def scale(N):
    @T.prim_func
    def kernel(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, 64), threads=64) as bx:
            for i in T.Parallel(64):
                B[bx * 64 + i] = A[bx * 64 + i] * 2.0

    return kernel


scale(64)
scale(128)
