# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group E (+A, C): pointer tables. int64 T.Tensor([G], T.ptr) tables hold one
# device pointer per group; T.make_tensor rebuilds typed per-group views
# selected through a T.alloc_var group index; grouped GEMM built by a plain
# factory with Python-side tile offsets and compiled with tilelang.compile.
import math

import tilelang
import tilelang.language as T


def grouped_matmul(group_rows, K, N, block_M=64, block_N=128, block_K=64, dtype=T.float16):
    groups = len(group_rows)
    max_rows = max(group_rows)
    tiles = [math.ceil(r / block_M) for r in group_rows]
    total_tiles = sum(tiles)
    accum_dtype = T.float32

    @T.prim_func
    def main(
        A_ptrs: T.Tensor([groups], T.ptr),
        B_ptrs: T.Tensor([groups], T.ptr),
        C_ptrs: T.Tensor([groups], T.ptr),
        tile_starts: T.Tensor([groups], T.int32),
    ):
        with T.Kernel(total_tiles, T.ceildiv(N, block_N), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            g = T.alloc_var(T.int32, init=0)
            for i in T.serial(groups):
                if bx >= tile_starts[i]:
                    g = i

            row0 = (bx - tile_starts[g]) * block_M
            A = T.make_tensor(A_ptrs[g], (max_rows, K), dtype)
            B = T.make_tensor(B_ptrs[g], (K, N), dtype)
            C = T.make_tensor(C_ptrs[g], (max_rows, N), dtype)

            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
                T.copy(A[row0, ko * block_K], A_shared)
                T.copy(B[ko * block_K, by * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[row0, by * block_N])

    return main


def main():
    program = grouped_matmul([64, 128, 256, 96], 4096, 4096)
    return tilelang.compile(program, pass_configs={"tl.disable_warp_specialized": True})


if __name__ == "__main__":
    main()

# CHECK: "name":"A_ptrs","kind":"tensor","shape":[4],"dtype":"int64","scope":"global","layout":null
# CHECK: "name":"tile_starts","kind":"tensor","shape":[4],"dtype":"int32","scope":"global"
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[9,32],{{.*}}"detail":"128 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_local","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 64 regs/thread"
# CHECK: "name":"g","kind":"buffer","shape":[1],"dtype":"int32","scope":"local.var","layout":null
