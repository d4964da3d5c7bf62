# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cu %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cu --device sim --verify --reference %t/cpu | FileCheck %s --check-prefix=SIM %}
# RUN: not tlc-build --check -D bad=1 %s 2>&1 | FileCheck %s --check-prefix=ERR1
# RUN: not tlc-build --check -D bad=2 %s 2>&1 | FileCheck %s --check-prefix=ERR2
# RUN: not tlc-build --check -D bad=3 %s 2>&1 | FileCheck %s --check-prefix=ERR3
# RUN: not tlc-build --check -D bad=4 %s 2>&1 | FileCheck %s --check-prefix=ERR4
# T.clone_buffer (a new buffer of the source's shape, dtype and scope,
# filled by T.copy) and T.load_buffer (the tile at `offsets` of a tensor,
# copied into a new buffer of the target scope): the sim runs the CUDA
# build against the CPU target's (python-clone_load_buffer checks the CPU
# target against NumPy). Bad arguments are errors at the call.
# SIM: verify B: PASS
import tilelang
import tilelang.language as T


@tilelang.jit
def tiles(M=64, N=96, bm=16, bn=32, bad=0):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(N // bn, M // bm, threads=64) as (bx, by):
            if bad == 0:
                t = T.load_buffer(A, offsets=(by * bm, bx * bn),
                                  shape=(bm, bn), target="shared")
                f = T.clone_buffer(t)
                for i, j in T.Parallel(bm, bn):
                    t[i, j] = t[i, j] * 2
                for i, j in T.Parallel(bm, bn):
                    B[by * bm + i, bx * bn + j] = f[i, j] + t[i, j]
            elif bad == 1:
                # ERR1: :[[@LINE+1]]:17: error: T.load_buffer: buffer 'A' has 2 dimensions; got 1 offsets and 2 extents
                T.load_buffer(A, offsets=(0,), shape=(bm, bn))
            elif bad == 2:
                # ERR2: :[[@LINE+1]]:66: error: T.load_buffer loads into on-chip memory ('shared', 'shared.dyn', 'local', 'local.fragment'), not 'global'
                T.load_buffer(A, offsets=(0, 0), shape=(bm, bn), target="global")
            elif bad == 3:
                # ERR3: :[[@LINE+1]]:32: error: T.clone_buffer expects a buffer, not 'int'
                T.clone_buffer(3)
            else:
                # ERR4: :[[@LINE+1]]:32: error: T.clone_buffer copies a buffer in on-chip memory ('shared', 'shared.dyn', 'local', 'local.fragment'); 'A' is in 'global'
                T.clone_buffer(A)

    return main
