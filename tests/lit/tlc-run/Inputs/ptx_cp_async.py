# For ptx-cp-async-sim.test: hand-scheduled cp.async (upstream
# language/test_tilelang_language_access_ptr_codegen's T.ptx_cp_async of
# T.access_ptr operands). Each thread copies its `bytes`-byte chunk of A
# into shared memory, waits for its group and writes the chunk reversed.
import tilelang
import tilelang.language as T


@tilelang.jit
def ptx_cp_async(bytes=16, threads=32):
    n = bytes * threads

    @T.prim_func
    def main(A: T.Tensor((n,), "uint8"), B: T.Tensor((n,), "uint8")):
        with T.Kernel(1, threads=threads):
            S = T.alloc_shared((n,), "uint8")
            tx = T.get_thread_binding()
            T.ptx_cp_async(
                T.access_ptr(S[tx * bytes], "w", bytes),
                T.access_ptr(A[tx * bytes], "r", bytes), bytes)
            T.ptx_commit_group()
            T.ptx_wait_group(0)
            for j in T.serial(bytes):
                B[tx * bytes + j] = S[tx * bytes + bytes - 1 - j]

    return main
