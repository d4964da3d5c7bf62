# T.Pipelined(n, order=[...], stage=[...], group=[[...], ...]) with -1
# entries: TileLang's warp-specialised schedule (FlashAttention's wgmma
# pipeline). group= splits the body into consecutive runs scheduled as one
# statement each; a -1 run is a producer copy (global -> shared) that the
# producer warps issue ahead of the consumer's pipeline, which tlc runs in
# stage 0 before every other statement of its step. They kept the program
# order with a warning. Each kernel is built for the CPU and run against a
# NumPy float64 model of the schedule written from the rules
# (Inputs/pipelined_group_ref.py: step k runs producers(k), then the runs by
# order, run r for iteration k - stage[r]; a buffer written in one stage and
# read in a later one has a copy per iteration in flight):
#   ws_rotated   copy(-1) | acc += X_sh; acc += 1 (order 0, stage 3) |
#                acc *= 0.5 (order 1, stage 2): the adds meet one scaling
#                fewer than in program order (0.5^(n-1-t), not 0.5^(n-t))
#   ws_attention the FlashAttention shape: two producers, a run of two
#                statements in stage 0, the consumers of the second copy in
#                stage 1 ordered before the end of the stage-0 run
# sm_80 CUDA on the sim device gives the CPU target's results. A schedule
# tlc cannot follow is an error when building, at the loop; --check stays
# clean (TileLang accepts these lists).
#
# RUN: tlc-build --check %s 2>&1 | not grep -E ': (error|warning):'
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 4 --save %t/out > /dev/null
# RUN: %python %S/Inputs/pipelined_group_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: ws_rotated n=1: ok
# REF: ws_rotated_1 n=2: ok (program order differs)
# REF: ws_rotated_2 n=5: ok (program order differs)
# REF: ws_attention n=1: ok
# REF: ws_attention_1 n=3: ok
# REF: ws_attention_2 n=6: ok
# REF-NOT: WRONG
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sim %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --verify --reference %t/cpu --seed 4 --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-6: PASS
# SIM-NOT: FAIL
# RUN: tlc-build --check -D bad=1 --kernel=ws_rotated %s 2>&1 | not grep -E ': (error|warning):'
# RUN: not tlc-build --target=cpu -D bad=1 --kernel=ws_rotated -o %t/bad1 %s 2>&1 | FileCheck %s --check-prefix=BAD1
# BAD1: pipelined-group-producers.py:[[# @LINE + 23]]:22: error: cannot build this kernel: T.Pipelined: the schedule names 3 statements, but tlc's body of this loop has 4
# RUN: not tlc-build --target=cpu -D bad=2 --kernel=ws_rotated -o %t/bad2 %s 2>&1 | FileCheck %s --check-prefix=BAD2
# BAD2: error: cannot build this kernel: T.Pipelined: entry 1 is -1 (a producer of the warp-specialised schedule), but it is not one copy from global into shared memory
import tilelang
import tilelang.language as T


@tilelang.jit
def ws_rotated(n_tiles, bad=0):
    M, N = 32, 32
    groups = [[0], [1, 2], [3]]
    order, stage = [-1, 0, 1], [-1, 3, 2]
    if bad == 1:
        groups = [[0], [1], [2]]
    elif bad == 2:
        groups, order, stage = [[0], [1], [2], [3]], [-1, -1, 0, 1], [-1, -1, 3, 2]

    @T.prim_func
    def main(X: T.Tensor((M, N * n_tiles), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as _:
            X_sh = T.alloc_shared((M, N), "float32")
            acc = T.alloc_fragment((M, N), "float32")
            T.fill(acc, 1.0)
            for t in T.Pipelined(n_tiles, num_stages=4, order=order, stage=stage, group=groups):
                T.copy(X[0, t * N], X_sh)
                for i, j in T.Parallel(M, N):
                    acc[i, j] = acc[i, j] + X_sh[i, j]
                for i, j in T.Parallel(M, N):
                    acc[i, j] = acc[i, j] + 1.0
                for i, j in T.Parallel(M, N):
                    acc[i, j] = acc[i, j] * 0.5
            T.copy(acc, C)

    return main


@tilelang.jit
def ws_attention(n_tiles):
    M, N = 32, 32

    @T.prim_func
    def main(X: T.Tensor((M, N * n_tiles), "float32"), Y: T.Tensor((M, N * n_tiles), "float32"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as _:
            X_sh = T.alloc_shared((M, N), "float32")
            Y_sh = T.alloc_shared((M, N), "float32")
            S = T.alloc_fragment((M, N), "float32")
            acc = T.alloc_fragment((M, N), "float32")
            T.fill(acc, 1.0)
            for t in T.Pipelined(n_tiles, num_stages=2, order=[-1, 0, 2, -1, 1],
                                 stage=[-1, 0, 0, -1, 1], group=[[0], [1, 2], [3], [4], [5]]):
                T.copy(X[0, t * N], X_sh)
                for i, j in T.Parallel(M, N):
                    S[i, j] = X_sh[i, j] * 2.0
                for i, j in T.Parallel(M, N):
                    S[i, j] = S[i, j] + 1.0
                for i, j in T.Parallel(M, N):
                    acc[i, j] = acc[i, j] * 0.5
                T.copy(Y[0, t * N], Y_sh)
                for i, j in T.Parallel(M, N):
                    acc[i, j] = acc[i, j] + S[i, j] * Y_sh[i, j]
            T.copy(acc, C)

    return main


def main():
    for n in (1, 2, 5):
        ws_rotated(n)
    for n in (1, 3, 6):
        ws_attention(n)


if __name__ == "__main__":
    main()
