# Two builds of the same instance at once into one cache: one compiles it,
# the other waits on the cache entry's lock and then copies the published
# binary (the stand-in compiler logs each compilation and takes 1 s, so
# without the lock both would compile).
# RUN: rm -rf %t && mkdir -p %t
# RUN: printf '#!/bin/sh\necho compiled >> %t/compiles\nsleep 1\nexec c++ "$@"\n' > %t/cxx && chmod +x %t/cxx
# RUN: env TLC_NO_PCH=1 TLC_CACHE_DIR=%t/cache TLC_HOST_CXX=%t/cxx %python %S/Inputs/run-together.py %t/a.log %t/b.log -- tlc-build --target=cpu -o %t/a %s -- tlc-build --target=cpu -o %t/b %s
# RUN: cat %t/compiles | FileCheck --check-prefix=ONCE %s
# RUN: cat %t/a.log %t/b.log | FileCheck --check-prefix=BOTH %s
# RUN: cmp %t/a/scale.so %t/b/scale.so

# ONCE: compiled
# ONCE-NOT: compiled
# BOTH-DAG: wrote {{.*}}scale.so{{$}}
# BOTH-DAG: wrote {{.*}}scale.so (cached)

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
