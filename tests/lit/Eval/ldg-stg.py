# T.ldg32/64/128/256(src, pred=None) and T.stg32/64/128/256(dst, value,
# pred=None), the kernels of TileLang's ldg test (eager, T.const N) and
# their stores: one to eight 32-bit words of global memory, as a uint32 or
# uint32xN value reinterpreted as float32 lanes. They were intrinsics no
# target generated ("'T.ldg32' is not supported by the CUDA target yet");
# now, after tracing, each word is a load (or store) of its elements: f32
# elements one per word, f16 two (low half first, as in memory). A false
# pred gives 0 words and skips a store. The CPU target against NumPy; the
# CUDA code on the sim device against the CPU target.
# RUN: tlc-build --check -DN=128 %s 2>&1 | count 0
# RUN: tlc-build --emit=tile -DN=128 --kernel=ldg128_pred %s | FileCheck %s --check-prefix=TILE
# TILE-COUNT-4: tile.load
# TILE-NOT: T.ldg128
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -DN=128 -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu -DN=128 --seed 5 --save %t/out > /dev/null
# RUN: %python %S/Inputs/ldg_stg_ref.py %t/out | FileCheck %s --check-prefix=NUMPY
# NUMPY: ldg32 True
# NUMPY: ldg64 True
# NUMPY: ldg256 True
# NUMPY: ldg128_pred True
# NUMPY: half_words True
# NUMPY: stg128_pred True
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda -DN=128 %s > /dev/null
# RUN: tlc-build --target=hip:gfx942 --emit=hip -DN=128 %s > /dev/null
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -DN=128 -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda -DN=128 --device sim --seed 5 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-6: verify {{Y|H}}: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit
def ldg32(X, Y):
    N = T.const("N")
    X: T.Tensor[[N], T.float32]
    Y: T.Tensor[[N], T.float32]
    with T.Kernel(N, threads=32) as pid:
        Y[pid] = T.reinterpret(T.float32, T.ldg32(X[pid]))


@tilelang.jit
def ldg64(X, Y):
    N = T.const("N")
    X: T.Tensor[[N], T.float32]
    Y: T.Tensor[[N], T.float32]
    with T.Kernel(N // 2, threads=32) as pid:
        Y[pid * 2:pid * 2 + 2] = T.reinterpret(
            T.float32x2, T.ldg64(X[pid * 2:pid * 2 + 2]))


@tilelang.jit
def ldg128_pred(X, Y):
    N = T.const("N")
    X: T.Tensor[[N], T.float32]
    Y: T.Tensor[[N], T.float32]
    with T.Kernel(N // 4, threads=32) as pid:
        Y[pid * 4:pid * 4 + 4] = T.reinterpret(
            T.float32x4, T.ldg128(X[pid * 4:pid * 4 + 4], pred=pid < N // 8))


@tilelang.jit
def ldg256(X, Y):
    N = T.const("N")
    X: T.Tensor[[N], T.float32]
    Y: T.Tensor[[N], T.float32]
    with T.Kernel(N // 8, threads=32) as pid:
        Y[pid * 8:pid * 8 + 8] = T.reinterpret(
            T.float32x8, T.ldg256(X[pid * 8:pid * 8 + 8]))


@tilelang.jit
def half_words(G, H):
    N = T.const("N")
    G: T.Tensor[[N], T.float16]
    H: T.Tensor[[N], T.float16]
    with T.Kernel(N // 2, threads=32) as pid:
        # Two halves per word, stored back swapped.
        w = T.ldg32(G[pid * 2:pid * 2 + 2])
        T.stg32(H[pid * 2:pid * 2 + 2], (w >> 16) | (w << 16))


@tilelang.jit
def stg128_pred(X, Y):
    N = T.const("N")
    X: T.Tensor[[N], T.float32]
    Y: T.Tensor[[N], T.float32]
    with T.Kernel(N // 4, threads=32) as pid:
        # Odd tiles copy their own words, even ones the first tile's.
        T.stg128(Y[pid * 4:pid * 4 + 4], T.ldg128(X[pid * 4:pid * 4 + 4]),
                 pred=pid % 2 == 1)
        T.stg128(Y[pid * 4:pid * 4 + 4], T.ldg128(X[0:4]), pred=pid % 2 == 0)
