# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# At 2 x 9 x 7 x 16 -> 40 filters, stride 2 (ragged pixel, k and filter
# tiles; padded borders): the CPU target against NumPy's direct
# convolution in float64, and the sim device (sm_80, sm_90a, gfx942)
# against the CPU target.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -D n=2 -D c=16 -D h=9 -D w=7 -D f=40 -D s=2 -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out | FileCheck %s --check-prefix=ROLES
# ROLES: ran: data:in float16[2,9,7,16], kernel:in float16[3,3,16,40], out:out float16[2,5,4,40]
# RUN: %python %S/Inputs/im2col_conv_check.py %t/out 3 2 1 1 | FileCheck %s --check-prefix=NUMPY
# NUMPY: im2col_conv (2, 5, 4, 40) OK
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -D n=2 -D c=16 -D h=9 -D w=7 -D f=40 -D s=2 -o %t/sm80 %s > /dev/null 2>&1 %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -D n=2 -D c=16 -D h=9 -D w=7 -D f=40 -D s=2 -o %t/sm90 %s > /dev/null 2>&1 %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-build --target=hip:gfx942 -D n=2 -D c=16 -D h=9 -D w=7 -D f=40 -D s=2 -o %t/hip %s > /dev/null 2>&1 %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-run %t/hip --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify out: PASS
# RUN: tlc-build --target=hip:gfx90a -D n=2 -D c=16 -D h=9 -D w=7 -D f=40 -D s=2 -o %t/gfx90a %s 2>&1 | FileCheck %s --check-prefix=BUILT
# BUILT: wrote {{.*}}conv2d.hsaco
# Group E (+F): convolution as implicit GEMM. T.im2col gathers NHWC input
# patches into a shared tile; T.Tensor(shape, dtype, buf.data) re-views the
# filter and output tensors as 2-D matrices; argparse defaults bind sizes.
import argparse

import tilelang
import tilelang.language as T


def out_size(x, k, stride, dilation, pad):
    return (x + 2 * pad - dilation * (k - 1) - 1) // stride + 1


@tilelang.jit(out_idx=[2])
def conv2d(N, C, H, W, F, K, S, D, P, block_M=64, block_N=128, block_K=32, num_stages=3, threads=128):
    OH = out_size(H, K, S, D, P)
    OW = out_size(W, K, S, D, P)
    dtype = T.float16
    accum_dtype = T.float32

    @T.prim_func
    def main(
        data: T.Tensor((N, H, W, C), dtype),
        kernel: T.Tensor((K, K, C, F), dtype),
        out: T.Tensor((N, OH, OW, F), dtype),
    ):
        with T.Kernel(T.ceildiv(F, block_N), T.ceildiv(N * OH * OW, block_M), threads=threads) as (bx, by):
            data_shared = T.alloc_shared((block_M, block_K), dtype)
            kernel_shared = T.alloc_shared((block_K, block_N), dtype)
            out_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            out_shared = T.alloc_shared((block_M, block_N), dtype)

            kernel_flat = T.Tensor((K * K * C, F), dtype, kernel.data)
            out_flat = T.Tensor((N * OH * OW, F), dtype, out.data)

            T.clear(out_local)
            for k_iter in T.Pipelined(T.ceildiv(K * K * C, block_K), num_stages=num_stages):
                T.im2col(data, data_shared, by, k_iter, K, S, D, P)
                T.copy(kernel_flat[k_iter * block_K, bx * block_N], kernel_shared)
                T.gemm(data_shared, kernel_shared, out_local)
            T.copy(out_local, out_shared)
            T.copy(out_shared, out_flat[by * block_M, bx * block_N])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=16)
    parser.add_argument("--c", type=int, default=128)
    parser.add_argument("--h", type=int, default=64)
    parser.add_argument("--w", type=int, default=64)
    parser.add_argument("--f", type=int, default=256)
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--s", type=int, default=1)
    parser.add_argument("--d", type=int, default=1)
    parser.add_argument("--p", type=int, default=1)
    args = parser.parse_args()
    return conv2d(args.n, args.c, args.h, args.w, args.f, args.k, args.s, args.d, args.p)


if __name__ == "__main__":
    main()

# CHECK: "name":"data","kind":"tensor","shape":[16,64,64,128],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"kernel","kind":"tensor","shape":[3,3,128,256],"dtype":"float16","scope":"global"
# CHECK: "name":"out","kind":"tensor","shape":[16,64,64,256],"dtype":"float16","scope":"global"
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[2,1024],{{.*}}"detail":"128 threads"
# CHECK: "name":"data_shared","kind":"buffer","shape":[64,32],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"kernel_shared","kind":"buffer","shape":[32,128],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B, 2 panels"
# CHECK: "name":"out_local","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 64 regs/thread"
# CHECK: "name":"k_iter","kind":"pipeline","shape":[36],{{.*}}"detail":"3 stages"
