# A build compiles its kernel instances at the same time, up to the
# hardware threads or $TLC_COMPILE_JOBS (a script that calls its kernel at
# a dozen sizes took the sum of a dozen host compilations, past 300 s on a
# loaded host): the stand-in compiler waits until all three have started,
# so one at a time each would see only itself. The output keeps instance
# order and the artifacts are those of one at a time (TLC_COMPILE_JOBS=1).
# RUN: rm -rf %t && mkdir -p %t/starts
# RUN: printf '#!/bin/sh\nexec sh %S/Inputs/wait-for-peers-cxx.sh %t/starts 3 "$@"\n' > %t/cxx && chmod +x %t/cxx
# RUN: env TLC_NO_PCH=1 TLC_NO_CACHE=1 TLC_COMPILE_JOBS=3 TLC_HOST_CXX=%t/cxx tlc-build --target=cpu -o %t/par %s | FileCheck %s --check-prefix=PAR
# RUN: FileCheck %s --check-prefix=LOG < %t/starts.log
# RUN: env TLC_NO_PCH=1 TLC_NO_CACHE=1 TLC_COMPILE_JOBS=1 tlc-build --target=cpu -o %t/seq %s | FileCheck %s --check-prefix=SEQ
# RUN: cmp %t/par/scale_1.cpp %t/seq/scale_1.cpp && cmp %t/par/scale_2.json %t/seq/scale_2.json
# RUN: ls %t/par/scale.so %t/par/scale_1.so %t/par/scale_2.so

# PAR: wrote {{.*}}par/scale.so{{$}}
# PAR-NEXT: wrote {{.*}}par/scale_1.so{{$}}
# PAR-NEXT: wrote {{.*}}par/scale_2.so{{$}}
# LOG-COUNT-3: saw 3 of 3
# SEQ: wrote {{.*}}seq/scale.so{{$}}
# SEQ-NEXT: wrote {{.*}}seq/scale_1.so{{$}}
# SEQ-NEXT: wrote {{.*}}seq/scale_2.so{{$}}

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
scale(192)
