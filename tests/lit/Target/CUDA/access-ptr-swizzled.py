# T.access_ptr into a shared tile the CUDA target stores swizzled because
# a gemm reads it (issue 14; corpus44 G5, sparse_mla_fwd_seesaw's cp.async
# producer): the swizzles move whole 16-byte chunks, so a pointer to the
# swizzled address of the access's first element serves an access of at
# most 16 bytes that starts on a chunk (8 bf16 here). On sm_90a (wgmma's
# panels) and sm_80 (the XOR row swizzle), run on the sim device, O agrees
# with the CPU target. An access of 16 elements (32 bytes) would cross a
# chunk: refused, saying so.
# REQUIRES: sim-compiler
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: auto *const ptr = &k[tlc::cuda::panelSwizzledIndex<8, 8, 64, 64>(
# CHECK: tlc::cuda::wgmmaM64N64K16F32BF16
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null
# RUN: tlc-run %t/sm90 --device sim --verify --reference %t/cpu 2>&1 | FileCheck %s --check-prefix=SIM
# RUN: tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null
# RUN: tlc-run %t/sm80 --device sim --verify --reference %t/cpu 2>&1 | FileCheck %s --check-prefix=SIM
# SIM: verify O: PASS
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda -D n=16 %s 2>&1 | FileCheck %s --check-prefix=WIDE
# WIDE: error: T.access_ptr: cannot point into a shared tile that this target stores swizzled (it is a gemm operand) here: the swizzle keeps only 16-byte chunks whole, and the access (32 bytes) crosses a 16-byte chunk
import tilelang
import tilelang.language as T


@tilelang.jit
def access_ptr_swizzled(n=8):

    @T.prim_func
    def main(K: T.Tensor((64, 64), "bfloat16"),
             Q: T.Tensor((64, 64), "bfloat16"),
             O: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128):
            q = T.alloc_shared([64, 64], "bfloat16")
            k = T.alloc_shared([64, 64], "bfloat16")
            acc = T.alloc_fragment([64, 64], "float32")
            tx = T.get_thread_binding()
            T.copy(Q, q)
            # Row tx // 2, columns (tx % 2) * 32 + u * n, n at a time.
            for u in T.serial(32 // n):
                T.ptx_cp_async(
                    T.access_ptr(k[tx // 2, (tx % 2) * 32 + u * n], "w", n),
                    T.access_ptr(K[tx // 2, (tx % 2) * 32 + u * n], "r", n),
                    n * 2)
            T.ptx_commit_group()
            T.ptx_wait_group(0)
            T.sync_threads()
            T.gemm(q, k, acc, transpose_B=True, clear_accum=True)
            T.copy(acc, O)

    return main
