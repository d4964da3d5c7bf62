# --replace-source=FILE compiles FILE in place of the generated source of a
# CUDA (or HIP) build of one instance, and the artifact's source is FILE's
# text: the Python package's post-processing callbacks
# (tilelang.engine.callback) go through it. Here the replacement changes
# the kernel's constant 2.5 into 3.5, and the sim device runs the replaced
# artifact against a CPU build of the same kernel with factor 3.5 (an
# artifact that still computed * 2.5 fails the verification).
# REQUIRES: sim-compiler
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --kernel=scale --defines-only -DM=200 -Dfactor=2.5 -o %t/orig | FileCheck %s --check-prefix=WROTE
# RUN: sed 's/(x \* 2\.5f)/(x * 3.5f)/' %t/orig/scale.cu > %t/post.cu
# RUN: not diff -q %t/orig/scale.cu %t/post.cu
# RUN: tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --kernel=scale --defines-only -DM=200 -Dfactor=2.5 --replace-source=%t/post.cu -o %t/post | FileCheck %s --check-prefix=WROTE
# RUN: diff %t/post.cu %t/post/scale.cu
# RUN: tlc-build %s --target=cpu --kernel=scale --defines-only -DM=200 -Dfactor=3.5 -o %t/cpu > /dev/null
# RUN: tlc-run %t/post --device sim --verify --reference %t/cpu | FileCheck %s --check-prefix=PASS
# RUN: not tlc-run %t/orig --device sim --verify --reference %t/cpu | FileCheck %s --check-prefix=FAIL
# WROTE: wrote {{.*}}scale.cu (no binary){{$}}
# PASS: verify B: PASS
# FAIL: verify B: FAIL
#
# Errors: a build of several instances (the replacement is one instance's
# source), a CPU build, a file that cannot be read.
# RUN: not tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --defines-only -DM=200 -Dfactor=2.5 --replace-source=%t/post.cu -o %t/two --no-source-lines 2>&1 | FileCheck %s --check-prefix=TWO
# TWO: error: a replacement source (--replace-source) is the source of one instance, but this build has several: name one with --kernel and -D bindings
# RUN: not tlc-build %s --target=cpu --kernel=scale --defines-only -DM=200 -Dfactor=2.5 --replace-source=%t/post.cu -o %t/c 2>&1 | FileCheck %s --check-prefix=CPU
# CPU: tlc-build: error: --replace-source replaces the generated source of a CUDA or HIP build (-o DIR with --target=cuda:... or hip:...)
# RUN: not tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --kernel=scale --defines-only -DM=200 -Dfactor=2.5 --replace-source=%t/nope.cu -o %t/x 2>&1 | FileCheck %s --check-prefix=MISSING
# MISSING: nope.cu: error: cannot read file:
import tilelang
import tilelang.language as T


@tilelang.jit
def scale(M, factor):

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, 128), threads=128) as bx:
            for i in T.Parallel(128):
                if bx * 128 + i < M:
                    B[bx * 128 + i] = A[bx * 128 + i] * factor

    return main


@tilelang.jit
def offset(M):

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, 128), threads=128) as bx:
            for i in T.Parallel(128):
                if bx * 128 + i < M:
                    B[bx * 128 + i] = A[bx * 128 + i] + 1.0

    return main
