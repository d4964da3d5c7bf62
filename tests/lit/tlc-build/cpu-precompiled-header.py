# The CPU target's device header is precompiled into the build cache once
# the cache holds four shared objects (four stand-ins here), by the build
# that finds it missing, and later host compiles load it with -include
# (the compiler wrapper logs the command). The binary is the one compiled
# without it (TLC_NO_PCH=1, another cache) byte for byte, and the flag is
# not in the cache key: an instance compiled before the header was
# precompiled is still a cache hit. A fresh cache precompiles nothing.
# RUN: rm -rf %t && mkdir -p %t/cache/kernels
# RUN: printf '#!/bin/sh\necho "$*" >> %t/cxx.log\nexec c++ "$@"\n' > %t/cxx && chmod +x %t/cxx
# RUN: env TLC_HOST_CXX=%t/cxx TLC_CACHE_DIR=%t/cache tlc-build --target=cpu -DN=64 -o %t/first %s | FileCheck %s --check-prefix=FIRST
# RUN: not ls %t/cache/pch
# RUN: touch %t/cache/kernels/a.so %t/cache/kernels/b.so %t/cache/kernels/c.so
# RUN: env TLC_HOST_CXX=%t/cxx TLC_CACHE_DIR=%t/cache tlc-build --target=cpu -DN=128 -o %t/pch %s | FileCheck %s --check-prefix=PCH
# RUN: ls %t/cache/pch/*/ready %t/cache/pch/*/tlc_cpu.h.gch
# RUN: FileCheck %s --check-prefix=LOG < %t/cxx.log
# RUN: env TLC_HOST_CXX=%t/cxx TLC_CACHE_DIR=%t/cache tlc-build --target=cpu -DN=64 -o %t/again %s | FileCheck %s --check-prefix=AGAIN
# RUN: env TLC_NO_PCH=1 TLC_HOST_CXX=%t/cxx TLC_CACHE_DIR=%t/other tlc-build --target=cpu -DN=128 -o %t/plain %s
# RUN: cmp %t/pch/scale.so %t/plain/scale.so

# FIRST: wrote {{.*}}first/scale.so{{$}}
# PCH: wrote {{.*}}pch/scale.so{{$}}
# AGAIN: wrote {{.*}}again/scale.so (cached)

# The first compile reads the header; then the header is precompiled, a
# probe checks that the compiler loads it, and the kernel includes it.
# LOG: {{^}}-std=c++17 {{.*}} -I{{.*}}first {{.*}}first/scale.cpp -o
# LOG-NOT: -include
# LOG: -x c++-header {{.*}}tlc_cpu.h -o {{.*}}tlc_cpu.h.gch
# LOG-NEXT: -Werror=invalid-pch -include {{.*}}probe.cpp
# LOG-NEXT: -include {{.*}}/pch/{{[0-9a-f]+}}/tlc_cpu.h -I{{.*}}pch {{.*}}pch/scale.cpp -o

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
