# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=guarded %s | FileCheck %s
# RUN: tlc-build --emit=hip --target=hip:gfx942 --kernel=guarded %s | FileCheck %s --check-prefix=HIP
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none --kernel=xorwow -o %t/x %s 2>&1 | FileCheck %s --check-prefix=GEN
# RUN: not tlc-build --target=cpu --kernel=xorwow -o %t/c %s 2>&1 | FileCheck %s --check-prefix=GEN-CPU
# RUN: not tlc-build --target=cpu --kernel=parallel_threads -o %t/p %s 2>&1 | FileCheck %s --check-prefix=PAR
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=parallel_threads %s | FileCheck %s --check-prefix=LOOP
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=fragment_draws %s | FileCheck %s --check-prefix=FRAG
# The CUDA and HIP code of TileLang's random numbers: the thread's
# tlc::PhiloxState is declared at the top of the kernel (a T.rng_init under
# a branch reaches draws after it), T.rng_init's default seq is the
# thread's flat index over the launch (block y slowest, thread x fastest),
# and each draw is one call of tlc_device/philox.h. The other curand
# generators are --check clean but no target builds them. The values are
# checked in Target/Cpp/rng-philox.py (CPU and sim against NumPy). A
# T.Parallel whose body draws stays a loop (`#pragma unroll 1`): the draws
# run one after the other anyway, and ptxas took minutes over 128 unrolled
# slots of inlined Philox rounds and double-precision math (TileLang's
# test_tilelang_language_rand.py); other loops keep `#pragma unroll`.
import tilelang
import tilelang.language as T


@tilelang.jit
def guarded(M=64, seed=42):

    @T.prim_func
    def main(A: T.Tensor((M,), "uint32"), D: T.Tensor((M,), "float64"),
             n: T.int32):
        with T.Kernel(M, 2, threads=(16, 2)) as (bx, by):
            tx = T.get_thread_binding(0)
            # CHECK: __global__
            # CHECK-NEXT: {
            # CHECK-NEXT: tlc::PhiloxState [[RNG:rng[a-z0-9_]*]];
            # HIP: tlc::PhiloxState [[RNG:rng[a-z0-9_]*]];
            if bx < n:
                # CHECK: const int [[B:t_[0-9]+]] = (by * 64);
                # CHECK-NEXT: const int [[C:t_[0-9]+]] = ([[B]] + bx);
                # CHECK-NEXT: const int [[D:t_[0-9]+]] = ([[C]] * 2);
                # CHECK-NEXT: const int [[E:t_[0-9]+]] = ([[D]] + ((int)threadIdx.x / 16));
                # CHECK-NEXT: const int [[F:t_[0-9]+]] = ([[E]] * 16);
                # CHECK-NEXT: const int [[G:t_[0-9]+]] = ([[F]] + ((int)threadIdx.x % 16));
                # CHECK-NEXT: const int64_t [[SEQ:t_[0-9]+]] = (int64_t)([[G]]);
                # CHECK: [[RNG]].init((unsigned long long)(42ll), (unsigned long long)([[SEQ]]), (unsigned long long)(0ll));
                # HIP: [[RNG]].init(
                T.rng_init(seed)
            if tx == 0:
                # CHECK: = (int32_t)([[RNG]].next());
                A[bx] = T.rng_rand()
                # CHECK: = (double)([[RNG]].normalDouble());
                # HIP: [[RNG]].normalDouble()
                D[bx] = T.rng_rand_float(bit=64, dist="normal")

    return main


@tilelang.jit
def xorwow(seed=3):

    @T.prim_func
    def main(A: T.Tensor((8,), "uint32")):
        with T.Kernel(1, threads=8):
            tx = T.get_thread_binding()
            # GEN: error: the CUDA target implements T.rng_init's curandStatePhilox4_32_10_t generator only, not curandStateXORWOW_t
            # GEN-CPU: error: the CPU target implements T.rng_init's curandStatePhilox4_32_10_t generator only, not curandStateXORWOW_t
            T.rng_init(seed, generator="curandStateXORWOW_t")
            A[tx] = T.rng_rand()

    return main


@tilelang.jit
def parallel_threads(seed=3):

    @T.prim_func
    def main(A: T.Tensor((256,), "uint32")):
        with T.Kernel(1, threads=128):
            T.rng_init(seed, 0, 0)
            # LOOP: #pragma unroll 1  // draws random numbers
            # LOOP-NEXT: for (int r = 0; r < 2; ++r) {
            for i in T.Parallel(256):
                # PAR: error: the CPU target cannot emit T.rng_rand run once for a block of several threads
                A[i] = T.rng_rand()

    return main


@tilelang.jit
def fragment_draws(seed=5):

    @T.prim_func
    def main(A: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128):
            T.rng_init(seed)
            f = T.alloc_fragment((64, 64), "float32")
            # FRAG: T.Parallel
            # FRAG: #pragma unroll 1  // draws random numbers
            # FRAG-NEXT: for (int
            # FRAG: .uniform()
            for i, j in T.Parallel(64, 64):
                f[i, j] = T.rng_rand_float()
            # FRAG: T.copy
            # FRAG: #pragma unroll{{$}}
            T.copy(f, A)

    return main


guarded()
xorwow()
parallel_threads()
fragment_draws()
