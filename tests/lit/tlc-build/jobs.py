# tlc-build -j N builds the instances of every file at once, one child
# build per instance: the artifacts are those of a sequential build, the
# output comes in instance order, warnings are printed once, and a file
# that cannot be read fails the build. The cache is shared: a second build
# into another directory compiles nothing, and neither does a build of the
# same kernels moved down the file (the key ignores the generated source's
# comments, which carry source locations), except for copy_rows, whose
# checked stores carry their location in string literals: it is compiled
# again, so its binary reports the lines of the edited file.
# RUN: rm -rf %t && mkdir -p %t
# RUN: env TLC_CACHE_DIR=%t/cache tlc-build --target=cpu -o %t/seq %s > %t/seq.out 2>%t/seq.err
# RUN: FileCheck %s --check-prefix=SEQ < %t/seq.out
# RUN: env TLC_CACHE_DIR=%t/cache tlc-build --target=cpu -j3 -o %t/par %s > %t/par.out 2>%t/par.err
# RUN: FileCheck %s --check-prefix=PAR < %t/par.out
# RUN: FileCheck %s --check-prefix=WARN < %t/par.err
# RUN: sed -e 's|.*/||' -e 's| (cached)||' %t/seq.out > %t/seq.names
# RUN: sed -e 's|.*/||' -e 's| (cached)||' %t/par.out > %t/par.names
# RUN: diff %t/seq.names %t/par.names
# RUN: ls %t/seq > %t/seq.ls && ls %t/par > %t/par.ls && diff %t/seq.ls %t/par.ls
# RUN: diff %t/seq/scale.json %t/par/scale.json && diff %t/seq/copy_rows.json %t/par/copy_rows.json
# RUN: sed -e '1i # two lines above every kernel\n' %s > %t/moved.py
# RUN: env TLC_CACHE_DIR=%t/cache tlc-build --target=cpu -j 2 -o %t/moved %t/moved.py 2>/dev/null | FileCheck %s --check-prefix=MOVED
# RUN: not env TLC_CACHE_DIR=%t/cache tlc-build --target=cpu -j2 -o %t/missing %s %t/missing.py 2>&1 | FileCheck %s --check-prefix=MISSING

# SEQ: wrote {{.*}}seq/scale.so{{$}}
# SEQ-NEXT: wrote {{.*}}seq/scale_1.so{{$}}
# SEQ-NEXT: wrote {{.*}}seq/copy_rows.so{{$}}
# PAR: wrote {{.*}}/scale.so (cached)
# PAR-NEXT: wrote {{.*}}/scale_1.so (cached)
# PAR-NEXT: wrote {{.*}}/copy_rows.so (cached)
# PAR-NOT: wrote
# MOVED: wrote {{.*}}/scale.so (cached)
# MOVED-NEXT: wrote {{.*}}/scale_1.so (cached)
# MOVED-NEXT: wrote {{.*}}/copy_rows.so{{$}}
# WARN-COUNT-1: warning: 'rows_split' is not built
# WARN-NOT: warning
# MISSING: missing.py: error: cannot read file

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale(N, block=64):
    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
            for i in T.Parallel(block):
                Y[bx * block + i] = X[bx * block + i] * 2
    return main


def copy_rows(M, N, blk):
    @T.prim_func
    def main(A: T.Tensor((M, N), T.float16), B: T.Tensor((M, N), T.float16)):
        with T.Kernel(T.ceildiv(M, blk), threads=128) as bx:
            S = T.alloc_shared((blk, N), T.float16)
            T.copy(A[bx * blk, 0], S)
            T.copy(S, B[bx * blk, 0])
    return main


def rows_split(M, N, blk_m, blk_k):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            S = T.alloc_shared((blk_m, blk_k), "float32")
            for k in T.serial(T.ceildiv(N, blk_k)):
                T.copy(A[bx * blk_m, k * blk_k], S)
                T.copy(S, B[bx * blk_m, k * blk_k])
    return main


k1 = scale(1000)
k2 = scale(4096, block=128)
copy = tilelang.compile(copy_rows(256, 64, 32))
