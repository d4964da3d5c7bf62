# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=guarded %s | FileCheck %s
# RUN: tlc-build --emit=hip --target=hip:gfx942 --kernel=guarded %s | FileCheck %s --check-prefix=HIP
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=xorwow %s | FileCheck %s --check-prefix=GEN
# RUN: tlc-build --emit=hip --target=hip:gfx942 --kernel=mrg32k3a %s | FileCheck %s --check-prefix=GEN-MRG
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a --kernel=xorwow -o %t/n %s | FileCheck %s --check-prefix=NVCC %}
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a --kernel=mrg32k3a -o %t/n %s | FileCheck %s --check-prefix=NVCC %}
# NVCC: wrote {{.*}}.cubin
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none --kernel=two_generators -o %t/x %s 2>&1 | FileCheck %s --check-prefix=TWO
# RUN: not tlc-build --target=cpu --kernel=two_generators -o %t/c %s 2>&1 | FileCheck %s --check-prefix=TWO
# RUN: not tlc-build --target=cpu --kernel=parallel_threads -o %t/p %s 2>&1 | FileCheck %s --check-prefix=PAR
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=parallel_threads %s | FileCheck %s --check-prefix=LOOP
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=fragment_draws %s | FileCheck %s --check-prefix=FRAG
# The CUDA and HIP code of TileLang's random numbers: the thread's
# tlc::PhiloxState is declared at the top of the kernel (a T.rng_init under
# a branch reaches draws after it), T.rng_init's default seq is the
# thread's flat index over the launch (block y slowest, thread x fastest),
# and each draw is one call of tlc_device/philox.h, or of xorwow.h /
# mrg32k3a.h for the generator T.rng_init names (one per kernel). The
# values are checked in Target/Cpp/rng-philox.py and rng-streams.py (CPU
# and sim against NumPy, and libcurand's host generators). A
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
            # GEN: tlc::XorwowState [[R:rng[a-z0-9_]*]];  // T.rng_init: curandStateXORWOW_t
            # GEN: [[R]].init((unsigned long long)(3ll),
            T.rng_init(seed, generator="curandStateXORWOW_t")
            # GEN: = (int32_t)([[R]].next());
            A[tx] = T.rng_rand()

    return main


@tilelang.jit
def mrg32k3a(seed=3):

    @T.prim_func
    def main(A: T.Tensor((8,), "float32")):
        with T.Kernel(1, threads=8):
            tx = T.get_thread_binding()
            # GEN-MRG: tlc::Mrg32k3aState [[R:rng[a-z0-9_]*]];  // T.rng_init: curandStateMRG32k3a_t
            # GEN-MRG: [[R]].init(
            T.rng_init(seed, generator="curandStateMRG32k3a_t")
            # GEN-MRG: [[R]].normal()
            A[tx] = T.rng_rand_float(dist="normal")

    return main


@tilelang.jit
def two_generators(seed=3):

    @T.prim_func
    def main(A: T.Tensor((8,), "uint32")):
        with T.Kernel(1, threads=8):
            tx = T.get_thread_binding()
            T.rng_init(seed, generator="curandStateXORWOW_t")
            A[tx] = T.rng_rand()
            # TWO: [[@LINE+1]]:13: error: T.rng_init names curandStateMRG32k3a_t after an earlier T.rng_init of this kernel named curandStateXORWOW_t: one kernel's generator has one curand state type
            T.rng_init(seed, generator="curandStateMRG32k3a_t")
            A[tx] = A[tx] + T.rng_rand()

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
mrg32k3a()
two_generators()
parallel_threads()
fragment_draws()
