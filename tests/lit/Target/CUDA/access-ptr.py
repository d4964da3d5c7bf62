# T.access_ptr / T.address_of: a typed pointer to the first element of a
# region (plus `offset` elements) in the buffer's own storage, passed to
# the program's device functions (T.call_extern). Shared tiles, local
# arrays and global tensors; the rw mask is what the barriers see (a
# read-only pointer after a read needs no barrier). The CPU target is
# checked against NumPy, CUDA and HIP code on the sim device against it.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: auto *const ptr = &row[((int)threadIdx.x) * 64 + 0];
# CHECK: row_sum(ptr, 64)
# CHECK: auto *const ptr_1 = &loc[0];
# CHECK: auto *const ptr_2 = &A[((t{{.*}}) * 64 + 0) + (2)];
# CHECK: store_pair(ptr_1, ptr_2);
# CHECK: auto *const addr{{.*}} = &loc[1];
# RUN: tlc-build --target=hip:gfx942 --emit=hip --no-source-lines %s | FileCheck %s --check-prefix=HIP
# HIP: auto *const ptr = &row[
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s --check-prefix=CPP
# CPP: auto *const ptr = &region{{.*}}.at({0, 0});
# CPP: auto *const ptr_2 = (&region{{.*}}.at({0, 0})) + (2);
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 7 --save %t/out | FileCheck %s --check-prefix=ROLES
# A read only through read-only pointers (and a copy) is an input only.
# ROLES: ran: A:in float32[100,64], S:out float32[100], G:out float32[100,4]
# RUN: %python %S/Inputs/access_ptr_check.py %t/out | FileCheck %s --check-prefix=REF
# REF: access_ptr OK
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-run %t/hip --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify S: PASS
# SIM: verify G: PASS
# A fragment has no address: an error at the call on every GPU target.
# RUN: not tlc-build --target=cuda:sm_80 --emit=cuda -Dbad=1 %s 2>&1 | FileCheck %s --check-prefix=ERR
# RUN: not tlc-build --target=hip:gfx942 --emit=hip -Dbad=1 %s 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: access-ptr.py:[[@LINE+36]]:48: error: T.access_ptr: cannot point into a fragment
import tilelang
import tilelang.language as T

SRC = """
__device__ float row_sum(const float* p, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}
__device__ void store_pair(float* dst, const float* src) { dst[0] = src[0]; dst[1] = src[1]; }
__device__ void fill3(float* p, float v) { p[0] = v; p[1] = v + 1.0f; p[2] = v + 2.0f; }
"""


@tilelang.jit
def pointers(m: int = 100, bad: int = 0):
    @T.prim_func
    def main(A: T.Tensor((m, 64), "float32"), S: T.Tensor((m,), "float32"),
             G: T.Tensor((m, 4), "float32")):
        with T.Kernel(T.ceildiv(m, 32), threads=32) as bx:
            T.import_source(SRC)
            row = T.alloc_shared((32, 64), "float32")
            loc = T.alloc_local((4,), "float32")
            T.copy(A[bx * 32, 0], row)
            tx = T.get_thread_binding()
            r = bx * 32 + tx
            if r < m:
                S[r] = T.call_extern("float32", "row_sum", T.access_ptr(row[tx, 0], "r", 64), 64)
                # loc[0:2] = A[r, 2:4] through a pointer offset by 2 elements
                T.call_extern("void", "store_pair", T.access_ptr(loc, "w"), T.access_ptr(A[r, 0], "r", 2, offset=2))
                T.call_extern("void", "fill3", T.address_of(loc[1]), A[r, 5])
                for k in T.serial(4):
                    G[r, k] = loc[k]
            if bad:
                frag = T.alloc_fragment((32,), "float32")
                T.call_extern("void", "fill3", T.access_ptr(frag[0], "w", 3), 0.0)

    return main


pointers()
