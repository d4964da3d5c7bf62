# T.ptx_ldmatrix(trans, num, src_access_ptr, dst_access_ptr): TileLang's raw
# ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16, each lane giving
# one 16-byte row address (T.access_ptr into shared memory) and receiving
# num 32-bit registers (T.access_ptr into its T.alloc_local array). Each
# instance copies a tile into shared memory, lets lane l of warp w address
# row (5 l + 3) % 32 of its warp's 32 rows (so lanes and rows differ), and
# stores the registers. The CPU target's results are compared bit for bit
# with a NumPy model written from the PTX ISA's fragment table
# (Inputs/ldmatrix_ref.py, which scatters each matrix element to its lane,
# the inverse of the gather the CPU target does); CUDA for sm_80 runs on
# the sim device and gives the CPU target's bits; sm_80 CUDA calls the
# device header's ldmatrix forms. ptx-ldmatrix-sub-byte.py has the su4 /
# su6 variants, ptx-ldmatrix-errors.py the refused uses.
#
# The PTX ISA's table (8x8 matrix i of 16-bit elements, rows given by lanes
# 8i .. 8i + 7; lane l, register i):
#   lane  0: (0,0) (0,1)    lane  1: (0,2) (0,3)    lane  3: (0,6) (0,7)
#   lane  4: (1,0) (1,1)    lane 13: (3,2) (3,3)    lane 31: (7,6) (7,7)
#   .trans: lane 0: (0,0) (1,0)   lane 1: (2,0) (3,0)   lane 4: (0,1) (1,1)
#           lane 13: (2,3) (3,3)  lane 31: (6,7) (7,7)
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --fill 'SRC=randint(-128,128)' --save %t/out > /dev/null
# RUN: %python %S/Inputs/ldmatrix_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: ldmatrix num=1 trans=0 float16 PASS
# REF: ldmatrix num=2 trans=0 float16 PASS
# REF: ldmatrix num=4 trans=0 float16 PASS
# REF: ldmatrix num=1 trans=1 float16 PASS
# REF: ldmatrix num=2 trans=1 float16 PASS
# REF: ldmatrix num=4 trans=1 float16 PASS
# REF: ldmatrix num=4 trans=0 int8 PASS
# REF: ldmatrix num=4 trans=1 int8 PASS
# REF-NOT: FAIL
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA: tlc::cuda::ldmatrix<1, false>(reinterpret_cast<uint32_t *>(&
# CUDA: tlc::cuda::ldmatrix<4, true>(reinterpret_cast<uint32_t *>(&
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sim %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --verify --reference %t/cpu --seed 3 --fill 'SRC=randint(-128,128)' --rtol 0 --atol 0 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-8: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def ldmatrix(num=4, trans=False, dtype="float16", warps=2):
    per_row = 8 if dtype == "float16" else 16  # elements in a 16-byte row
    regs = num * 4 * per_row // 16  # elements in num 32-bit registers
    rows = warps * 32

    @T.prim_func
    def main(SRC: T.Tensor((rows * per_row,), dtype),
             OUT: T.Tensor((rows, regs), dtype)):
        with T.Kernel(1, threads=rows):
            tx = T.get_thread_binding()
            smem = T.alloc_shared((rows * per_row,), dtype)
            frag = T.alloc_local((regs,), dtype)
            for i in T.serial(per_row):
                smem[tx * per_row + i] = SRC[tx * per_row + i]
            T.sync_threads()
            row = tx // 32 * 32 + (tx % 32 * 5 + 3) % 32
            T.ptx_ldmatrix(trans, num,
                           T.access_ptr(smem[row * per_row], "r", extent=per_row),
                           T.access_ptr(frag[0], "w", extent=regs))
            for i in T.serial(regs):
                OUT[tx, i] = frag[i]

    return main


def main():
    for trans in [False, True]:
        for num in [1, 2, 4]:
            ldmatrix(num=num, trans=trans)
    ldmatrix(num=4, trans=False, dtype="int8")
    ldmatrix(num=4, trans=True, dtype="int8")


if __name__ == "__main__":
    main()
