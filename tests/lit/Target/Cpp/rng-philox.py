# T.rng_init / T.rng_rand / T.rng_rand_float on the CPU target: every
# thread's uint32 stream, uniform floats and doubles and Box-Muller normals
# against Inputs/rng_philox_ref.py (Philox4x32-10 in NumPy, itself checked
# against Random123's known-answer vectors first), for the default seq of
# a 1-D and a 2-D launch, an explicit seq and offset, and draws in a
# T.Parallel of a one-thread block. The CUDA code of the same kernels, run
# on the sim device, computes the same values (uint32 bit for bit).
# RUN: tlc-build --check %s
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/rng_philox_ref.py tlc-run %t/cpu %t/w | FileCheck %s
# CHECK: kat ok
# CHECK: rng_1d ok
# CHECK: rng_2d ok
# CHECK: rng_seq_off ok
# CHECK: rng_parallel ok
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/rng_philox_ref.py tlc-run %t/cuda %t/s --device sim | FileCheck %s %}
import tilelang
import tilelang.language as T


@tilelang.jit
def rng_1d(M=64, threads=32, seed=1234):

    @T.prim_func
    def main(U: T.Tensor((3, M), "uint32"), F: T.Tensor((3, M), "float32"),
             D: T.Tensor((3, M), "float64")):
        with T.Kernel(T.ceildiv(M, threads), threads=threads) as bx:
            tx = T.get_thread_binding()
            T.rng_init(seed)
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
def rng_2d(seed=77):

    @T.prim_func
    def main(U: T.Tensor((2, 3, 2, 4), "uint32")):
        with T.Kernel(2, 3, threads=(4, 2)):
            bx = T.get_block_binding(0)
            by = T.get_block_binding(1)
            tx = T.get_thread_binding(0)
            ty = T.get_thread_binding(1)
            T.rng_init(seed)
            U[bx, by, ty, tx] = T.rng_rand()

    return main


@tilelang.jit
def rng_seq_off(seed=0x299F31D0A4093822):

    @T.prim_func
    def main(U: T.Tensor((8, 6), "uint32")):
        with T.Kernel(1, threads=8):
            tx = T.get_thread_binding()
            T.rng_init(seed, seq=tx * 1000003 + 0xFFFFFFFF, off=tx * 4 + tx % 4)
            for k in T.serial(6):
                U[tx, k] = T.rng_rand()

    return main


@tilelang.jit
def rng_parallel(M=256, per_block=128, seed=42):

    @T.prim_func
    def main(U: T.Tensor((M,), "uint32"), F: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, per_block), threads=1) as bx:
            tx = T.get_thread_binding()
            T.rng_init(seed, 0, bx * per_block + tx * per_block)
            for i, j in T.Parallel(1, per_block):
                U[bx * per_block + j] = T.rng_rand()
            for i, j in T.Parallel(1, per_block):
                F[bx * per_block + j] = T.rng_rand_float()

    return main


@tilelang.jit
def kat(seed=0):

    @T.prim_func
    def main(U: T.Tensor((4,), "uint32")):
        with T.Kernel(1, threads=1):
            T.rng_init(seed, 0, 0)
            for k in T.serial(4):
                U[k] = T.rng_rand()

    return main


rng_1d()
rng_2d()
rng_seq_off()
rng_parallel()
kat()
