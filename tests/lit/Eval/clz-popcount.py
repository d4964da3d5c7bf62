# T.clz(x) counts the leading zero bits of an integer in its own width (its
# width for 0) and T.popcount(x) its one bits, both as int32 (newer
# TileLang's tl.clz, testing/python/cpu's clz test; its math popcount test).
# The CPU target's results for 8- to 64-bit signed and unsigned values are
# compared with Python integers (int.bit_length, bin().count) on 0, -1,
# every power of two and its neighbours and random values; the CUDA
# code (__clz / __clzll / __popc / __popcll) runs on the sim device against
# the CPU target. A float operand is a TypeError.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: %python %S/Inputs/clz_popcount_ref.py inputs %t/in
# RUN: tlc-run %t/art --inputs %t/in --save %t/out
# RUN: %python %S/Inputs/clz_popcount_ref.py check %t/out | FileCheck %s --check-prefix=REF
# REF: bit_counts int8 clz ok popcount ok
# REF: bit_counts uint8 clz ok popcount ok
# REF: bit_counts int16 clz ok popcount ok
# REF: bit_counts uint16 clz ok popcount ok
# REF: bit_counts int32 clz ok popcount ok
# REF: bit_counts uint32 clz ok popcount ok
# REF: bit_counts int64 clz ok popcount ok
# REF: bit_counts uint64 clz ok popcount ok
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA-DAG: __clz(
# CUDA-DAG: __clzll(
# CUDA-DAG: __popc(
# CUDA-DAG: __popcll(
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --verify --reference %t/art --inputs %t/in | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-8: PASS
# RUN: not tlc-build --check -D bad=1 --kernel=bit_counts %s 2>&1 | FileCheck %s --check-prefix=ERR
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def bit_counts(N=512, dtype="int32", bad=0):

    @T.prim_func
    def main(
        A: T.Tensor((N,), "int64"),
        Z: T.Tensor((N,), "int32"),
        P: T.Tensor((N,), "int32"),
    ):
        with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
            for i in T.Parallel(128):
                g = bx * 128 + i
                # The low bits of A[g] (its value modulo 2^width).
                x = T.cast(A[g], dtype)
                if bad == 0:
                    Z[g] = T.clz(x)
                    P[g] = T.popcount(x)
                else:
                    # ERR: :[[@LINE+1]]:34: error: TypeError: T.clz expects an integer, got float32
                    Z[g] = T.clz(T.float32(x))

    return main


def main():
    for dtype in ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]:
        bit_counts(dtype=dtype)


if __name__ == "__main__":
    main()
