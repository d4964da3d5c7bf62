# A factory called with 15 distinct argument lists gets 15 instances, however
# the calls are written (positional or keyword, defaults, dtypes, a call
# repeated, calls in loops, comprehensions, helpers and under __main__): the
# instance count equals the distinct calls CPython makes
# (Inputs/count_instances.py runs this file with a stand-in tilelang that
# keys calls as TileLang's JIT cache does). tlc-build once traced 8
# instances of a kernel and dropped the rest without a word.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu --emit=hints --format=json %s > %t/cpu.json
# RUN: %python %S/Inputs/count_instances.py %s %t/cpu.json | FileCheck %s
# RUN: tlc-build --target=hip:gfx942 --emit=hints --format=json %s > %t/hip.json
# RUN: %python %S/Inputs/count_instances.py %s %t/hip.json | FileCheck %s
# CHECK: CPython: 15 distinct calls; tlc-build: 15 instances
#
# Builds: one artifact per instance (CUDA sources without a device compiler).
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > %t/cuda.log
# RUN: ls %t/cuda | grep -c '\.json$' | FileCheck %s --check-prefix=BUILT
# RUN: grep -c '^wrote ' %t/cuda.log | FileCheck %s --check-prefix=BUILT
# BUILT: {{^}}15{{$}}
#
# A limit (--max-instances, the editor's 8) leaves an instance out only with
# a remark at its call site that names it.
# RUN: tlc-build --target=cpu --emit=hints --max-instances=11 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=LIMIT
# LIMIT: instances-many.py:[[# @LINE + 23]]:12: remark: instance 'scale(8192, block=32, dtype=bfloat16)' of kernel 'scale' is not analysed: the limit is 11 instances per kernel (tlc-build --max-instances)
# LIMIT: instances-many.py:[[# @LINE + 35]]:6: remark: instance 'scale(N=100)' of kernel 'scale'
# Once per instance, though the loop calls it twice.
# LIMIT: instances-many.py:[[# @LINE + 37]]:9: remark: instance 'scale(33, 32, float16)' of kernel 'scale'
# LIMIT: instances-many.py:[[# @LINE + 36]]:9: remark: instance 'scale(65, 32, float16)' of kernel 'scale'
# LIMIT-NOT: remark
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale(N, block=128, dtype=T.float32, factor=2):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < N:
                    B[bx * block + i] = A[bx * block + i] * factor

    return main


def make(n, **kw):
    return scale(n, **kw)


k0 = scale(1024)
k1 = scale(1024, 64)
k2 = scale(1024, block=64)  # the same kernel as k1 under another key
k3 = scale(1024)  # k0 again: no new instance
k4 = scale(2048, dtype=T.float16)
k5 = scale(512, 128, T.float64)
ks = [scale(n) for n in (256, 384, 640)]
for f in (3, 4, 5):
    make(4096, factor=f)
k7 = make(8192, block=32, dtype=T.bfloat16)
k8 = scale(N=100)

if __name__ == "__main__":
    for n in (33, 65):
        scale(n, 32, T.float16)
        scale(n, 32, T.float16)
