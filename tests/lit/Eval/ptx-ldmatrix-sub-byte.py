# T.ptx_ldmatrix(..., variant='su4' | 'su6'): sm_100a's
# ldmatrix.sync.aligned.m8n16.x{num}.shared.b8x16.b4x16_p64 / .b6x16_p32
# (the loads of TileLang's sm_120 sub-byte MMA operands). A 16-byte row holds
# 16 unsigned 4- / 6-bit elements packed LSB first in its first 8 / 12 bytes
# (the rest is padding); each arrives zero-extended in its own byte, lane l
# receiving bytes 4 (l % 4) .. + 3 of unpacked row l // 4 of matrix i in
# register i, as for the 16-bit form. The kernel is TileLang's own probe
# (testing/python/language/test_tilelang_language_ldmatrix_sub_byte.py:
# lane l addresses row l % 8 of matrix l // 8) with 64 threads and lane l
# addressing row (5 l + 3) % 32 instead; random bytes fill the rows,
# padding included. The CPU target's results are compared with the NumPy
# model of Inputs/ldmatrix_ref.py (hand table below); sm_100a prints the
# inline PTX (ptx-ldmatrix-nvcc.test: ptxas assembles it), and an sm_90a
# build refuses it at the call.
#
#   su4, row bytes b0..b7: element 0 = b0 & 0xF, 1 = b0 >> 4, 2 = b1 & 0xF,
#     ... 15 = b7 >> 4; lane 0 register i = elements 0..3 of row 0,
#     lane 5 = elements 4..7 of row 1, lane 31 = elements 12..15 of row 7.
#   su6, row bytes b0..b11 as the 96-bit little-endian word W: element c =
#     (W >> 6 c) & 0x3F; element 1 = (b0 >> 6) | (b1 & 0xF) << 2.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 11 --fill 'SRC=randint(0,256)' --save %t/out > /dev/null
# RUN: %python %S/Inputs/ldmatrix_ref.py %t/out sub-byte | FileCheck %s --check-prefix=REF
# REF: ldmatrix su4 num=4 PASS
# REF: ldmatrix su6 num=4 PASS
# REF: ldmatrix su4 num=1 PASS
# REF: ldmatrix su6 num=2 PASS
# REF-NOT: FAIL
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA: asm volatile("ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b4x16_p64 {%0, %1, %2, %3}, [%4];" : "=r"([[W:ldm[_0-9]*]][0]), "=r"([[W]][1]), "=r"([[W]][2]), "=r"([[W]][3]) : "r"(tlc::cuda::sharedAddress(&
# CUDA: asm volatile("ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32 {%0, %1, %2, %3}, [%4];"
# CUDA: asm volatile("ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b4x16_p64 {%0}, [%1];"
# CUDA: asm volatile("ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b6x16_p32 {%0, %1}, [%2];"
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda --kernel=ldmatrix %s 2>&1 | FileCheck %s --check-prefix=SM90
# SM90: ptx-ldmatrix-sub-byte.py:[[# @LINE + 20]]:13: error: T.ptx_ldmatrix: the 'su4' variant is ldmatrix.m8n16 with .b8x16.b4x16_p64, which ptxas assembles only for the arch-specific targets of Blackwell (build for cuda:sm_100a or cuda:sm_120a)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def ldmatrix(variant="su4", num=4, warps=2):
    rows = warps * 32

    @T.prim_func
    def main(SRC: T.Tensor((rows * 16,), T.uint8),
             OUT: T.Tensor((rows, num * 4), T.uint8)):
        with T.Kernel(1, threads=rows) as _:
            tx = T.get_thread_binding()
            smem = T.alloc_shared((rows * 16,), T.uint8, scope="shared.dyn")
            regs = T.alloc_local((num * 4,), T.uint8)
            for i in T.serial(16):
                smem[tx * 16 + i] = SRC[tx * 16 + i]
            T.sync_threads()
            row = tx // 32 * 32 + (tx % 32 * 5 + 3) % 32
            T.ptx_ldmatrix(
                T.bool(False),
                num,
                T.access_ptr(smem[row * 16], "r", extent=16),
                T.access_ptr(regs[0], "w", extent=num * 4),
                variant=variant,
            )
            for i in T.serial(num * 4):
                OUT[tx, i] = regs[i]

    return main


def main():
    ldmatrix("su4", 4)
    ldmatrix("su6", 4)
    ldmatrix("su4", 1)
    ldmatrix("su6", 2)


if __name__ == "__main__":
    main()
