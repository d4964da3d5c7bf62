# T.rng_init(..., generator="curandStateXORWOW_t" / "curandStateMRG32k3a_t")
# on the CPU target: every thread's uint32 stream, uniform floats and
# doubles and Box-Muller normals against Inputs/rng_streams_ref.py (both
# generators in NumPy from their published definitions; skipping there is
# by GF(2) / mod-m matrix powers), for the default seq, an explicit seq and
# offset, seed 0 and draws in a T.Parallel of a one-thread block. Where
# libcurand and nvcc are installed, Inputs/curand_host.c (curand's host
# generators, default ordering: value j * T + q is draw j of subsequence q)
# checks the first draws of 64 subsequences too (the floats from offset 2). The CUDA code (and, with
# the HIP toolchain, the HIP code) of the same kernels, run on the sim
# device, computes the same values.
# RUN: tlc-build --check %s
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/rng_streams_ref.py tlc-run %t/cpu %t/w | FileCheck %s
# CHECK: streams_1d_xorwow ok
# CHECK: streams_1d_mrg ok
# CHECK: streams_seq_off_xorwow ok
# CHECK: streams_seq_off_mrg ok
# CHECK: streams_parallel_xorwow ok
# CHECK: streams_parallel_mrg ok
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/rng_streams_ref.py tlc-run %t/cuda %t/s --device sim | FileCheck %s %}
# RUN: %if hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain %{ %python %S/Inputs/rng_streams_ref.py tlc-run %t/hip %t/h --device sim | FileCheck %s %}
# RUN: %if curand-host %{ nvcc -x c %S/Inputs/curand_host.c -o %t/curand_host -lcurand %}
# RUN: %if curand-host %{ %python %S/Inputs/rng_streams_ref.py tlc-run %t/cpu %t/c --curand %t/curand_host | FileCheck %s --check-prefix=CURAND %}
# CURAND: curand xorwow ok
# CURAND: curand mrg ok
import tilelang
import tilelang.language as T


@tilelang.jit
def streams_1d(generator, M=64, threads=32, seed=1234):

    @T.prim_func
    def main(U: T.Tensor((3, M), "uint32"), F: T.Tensor((3, M), "float32"),
             D: T.Tensor((3, M), "float64")):
        with T.Kernel(T.ceildiv(M, threads), threads=threads) as bx:
            tx = T.get_thread_binding()
            T.rng_init(seed, generator=generator)
            i = bx * threads + tx
            U[0, i] = T.rng_rand()
            U[1, i] = T.rng_rand()
            F[0, i] = T.rng_rand_float()
            D[0, i] = T.rng_rand_float(bit=64)
            F[1, i] = T.rng_rand_float(dist="normal")
            F[2, i] = T.rng_rand_float(dist="normal")
            D[1, i] = T.rng_rand_float(bit=64, dist="normal")
            D[2, i] = T.rng_rand_float(bit=64, dist="normal")
            U[2, i] = T.rng_rand()

    return main


@tilelang.jit
def streams_seq_off(generator, seed=0x299F31D0A4093822):

    @T.prim_func
    def main(U: T.Tensor((8, 6), "uint32"), Z: T.Tensor((8, 2), "uint32")):
        with T.Kernel(1, threads=8):
            tx = T.get_thread_binding()
            T.rng_init(seed, seq=tx * 1000003 + 0xFFFFFFFF, off=tx * 977 + tx % 4,
                       generator=generator)
            for k in T.serial(6):
                U[tx, k] = T.rng_rand()
            T.rng_init(0, seq=tx, off=0, generator=generator)
            for k in T.serial(2):
                Z[tx, k] = T.rng_rand()

    return main


@tilelang.jit
def streams_parallel(generator, M=256, per_block=128, seed=42):

    @T.prim_func
    def main(U: T.Tensor((M,), "uint32"), F: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, per_block), threads=1) as bx:
            tx = T.get_thread_binding()
            T.rng_init(seed, 0, bx * per_block + tx * per_block, generator=generator)
            for i, j in T.Parallel(1, per_block):
                U[bx * per_block + j] = T.rng_rand()
            for i, j in T.Parallel(1, per_block):
                F[bx * per_block + j] = T.rng_rand_float()

    return main


@tilelang.jit
def streams_curand(generator, Q=64, J=4, seed=42):

    @T.prim_func
    def main(U: T.Tensor((J, Q), "uint32"), F: T.Tensor((J, Q), "float32")):
        with T.Kernel(1, threads=Q):
            tx = T.get_thread_binding()
            T.rng_init(seed, seq=tx, generator=generator)
            for j in T.serial(J):
                U[j, tx] = T.rng_rand()
            T.rng_init(seed, seq=tx, off=2, generator=generator)
            for j in T.serial(J):
                F[j, tx] = T.rng_rand_float()

    return main


# Instances KERNEL (XORWOW) and KERNEL_1 (MRG32k3a).
for g in ("curandStateXORWOW_t", "curandStateMRG32k3a_t"):
    streams_1d(g)
    streams_seq_off(g)
    streams_parallel(g)
    streams_curand(g)
