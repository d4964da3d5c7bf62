# What T.ptx_ldmatrix refuses (ptx-ldmatrix.py and ptx-ldmatrix-sub-byte.py
# have the accepted forms): a num other than 1, 2, 4, a trans that is not a
# constant bool, an unknown variant, the transposed sub-byte form (PTX's
# m8n16 has none), pointers that are not T.access_ptr / T.address_of
# values, a source outside shared memory, a destination outside the
# thread's local array (a fragment's registers belong to several threads),
# sub-byte variants on other than 8-bit elements, and the call inside
# T.Parallel (outside a kernel, TIR-level code, it is a warning). The CPU target checks each lane's addresses
# when it runs (a row outside its buffer or not 16-byte aligned).
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: ptx-ldmatrix-errors.py:[[# @LINE + 16]]:31: error: T.ptx_ldmatrix: num is the number of matrices, 1, 2 or 4 (.x1, .x2, .x4), not 3
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu --kernel=misaligned -o %t/cpu %s > /dev/null
# RUN: not tlc-run %t/cpu 2>&1 | FileCheck %s --check-prefix=EXEC
# EXEC: ptx-ldmatrix-errors.py:[[# @LINE + 50]]:9: error: T.ptx_ldmatrix: thread 0's row address at byte 8 of its buffer is not 16-byte aligned
import tilelang.language as T


@T.prim_func
def bad(A: T.Tensor((512,), "float16"), n: T.int32):
    with T.Kernel(1, threads=32):
        tx = T.get_thread_binding()
        s = T.alloc_shared((512,), "float16")
        f = T.alloc_fragment((32, 8), "float16")
        r = T.alloc_local((8,), "float16")
        r8 = T.alloc_local((16,), "uint8")
        # expected-error@+1 {{T.ptx_ldmatrix: num is the number of matrices, 1, 2 or 4 (.x1, .x2, .x4), not 3}}
        T.ptx_ldmatrix(False, 3, T.access_ptr(s[tx * 8], "r"), T.access_ptr(r[0], "w"))
        # expected-error@+1 {{T.ptx_ldmatrix: trans must be a constant bool (whether each 8x8 matrix is loaded transposed)}}
        T.ptx_ldmatrix(n > 0, 4, T.access_ptr(s[tx * 8], "r"), T.access_ptr(r[0], "w"))
        # expected-error@+1 {{T.ptx_ldmatrix: unknown variant 'su8'}}
        T.ptx_ldmatrix(False, 4, T.access_ptr(s[tx * 8], "r"), T.access_ptr(r[0], "w"), variant="su8")
        # expected-error@+1 {{T.ptx_ldmatrix: the 'su4' variant (ldmatrix .m8n16) has no transposed form}}
        T.ptx_ldmatrix(True, 4, T.access_ptr(s[tx * 8], "r"), T.access_ptr(r[0], "w"), variant="su4")
        # expected-error@+1 {{T.ptx_ldmatrix: src_access_ptr must be a pointer made by T.access_ptr(buffer[...], ...) (or T.address_of), not 'BufferRegion'}}
        T.ptx_ldmatrix(False, 4, s[tx * 8], T.access_ptr(r[0], "w"))
        # expected-error@+1 {{T.ptx_ldmatrix: src_access_ptr must point into shared memory (T.alloc_shared), not global}}
        T.ptx_ldmatrix(False, 4, T.access_ptr(A[tx * 8], "r"), T.access_ptr(r[0], "w"))
        # expected-error@+1 {{T.ptx_ldmatrix: dst_access_ptr must point into the thread's registers (T.alloc_local), not fragment (a fragment's elements are registers spread over the block's threads)}}
        T.ptx_ldmatrix(False, 4, T.access_ptr(s[tx * 8], "r"), T.access_ptr(f[tx, 0], "w"))
        # expected-error@+1 {{T.ptx_ldmatrix: the 'su6' variant moves packed bytes, so src_access_ptr must point at 8-bit elements (uint8), not float16}}
        T.ptx_ldmatrix(False, 4, T.access_ptr(s[tx * 8], "r"), T.access_ptr(r8[0], "w"), variant="su6")
        for i in T.Parallel(32):
            # expected-error@+1 {{T.ptx_ldmatrix}}
            T.ptx_ldmatrix(False, 4, T.access_ptr(s[i * 8], "r"), T.access_ptr(r[0], "w"))


@T.prim_func
def outside(A: T.Tensor((512,), "float16")):
    # expected-warning@+1 {{T.ptx_ldmatrix outside any T.Kernel, in a prim_func that launches none (TIR-level code)}}
    T.ptx_ldmatrix(False, 4, T.access_ptr(A[0], "r"), T.access_ptr(A[8], "w"))


@T.prim_func
def misaligned(A: T.Tensor((512,), "float16"), B: T.Tensor((32, 8), "float16")):
    with T.Kernel(1, threads=32):
        tx = T.get_thread_binding()
        s = T.alloc_shared((512,), "float16")
        r = T.alloc_local((8,), "float16")
        for i in T.serial(16):
            s[tx * 16 + i] = A[tx * 16 + i]
        T.sync_threads()
        # A row 4 elements (8 bytes) past a 16-byte boundary: ldmatrix needs
        # 16-byte aligned rows.
        T.ptx_ldmatrix(False, 4, T.access_ptr(s[tx * 8 + 4], "r"), T.access_ptr(r[0], "w"))
        for i in T.serial(8):
            B[tx, i] = r[i]
