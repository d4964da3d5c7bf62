# T.address_of(G[i]) of a global tensor element (issue 13, H7), passed to a
# T.call_extern statement: as TileLang's LegalizeSafeMemoryAccess, the call
# runs only where the element lies inside its tensor. Where the grid proves
# it (N a multiple of the block) the call is unguarded; at a ragged N it is
# guarded by the element's bounds (CUDA, HIP: `if (i < N) f(&Out[i], ...)`;
# CPU: Out.inBounds). The three targets used to refuse any such address.
# The CPU target against NumPy, the CUDA code on the sim device against the
# CPU target.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s -D N=100 | FileCheck %s --check-prefix=RAGGED
# RAGGED: auto *const [[ADDR:addr[_0-9]*]] = &Out[
# RAGGED: if ((
# RAGGED-SAME: < 100)) tl_user_store_plus_one([[ADDR]],
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s -D N=128 | FileCheck %s --check-prefix=WHOLE
# WHOLE: auto *const [[ADDR:addr[_0-9]*]] = &Out[
# WHOLE-NOT: if (
# WHOLE: {{^ *}}tl_user_store_plus_one([[ADDR]],
# RUN: tlc-build --target=hip:gfx942 --emit=hip --no-source-lines %s -D N=100 | FileCheck %s --check-prefix=RAGGED
# RUN: tlc-build --target=cpu --emit=cpp %s -D N=100 | FileCheck %s --check-prefix=CPP
# CPP: auto *const [[ADDR:addr[_0-9]*]] = &[[VIEW:[a-z_0-9]+]].at({0});
# CPP: if ([[VIEW]].inBounds({0})) tl_user_store_plus_one([[ADDR]],
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s -D N=100 > /dev/null
# RUN: tlc-run %t/cpu --seed 5 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy'); o=np.load(d+'Out.npy'); print(o.shape, bool((o == a + np.float32(1)).all()))" | FileCheck %s --check-prefix=REF
# REF: (100,) True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s -D N=100 > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify Out: PASS
# The address put to another use than a call statement (here a value the
# call returns) has no call to skip: a located error where the element may
# lie outside.
# The CPU target, which checks bounds at run time, fails the run there.
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s -D N=100 -D as_value=1 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: address-of-global.py:[[@LINE+22]]:79: error: T.address_of: takes the address of a global element that may lie outside its tensor, for a use other than a T.call_extern statement
# RUN: tlc-build --target=cpu -o %t/cpu_value %s -D N=100 -D as_value=1 > /dev/null
# RUN: not tlc-run %t/cpu_value 2>&1 | FileCheck %s --check-prefix=RUNERR
# RUNERR: address-of-global.py:[[@LINE+19]]:79: error: T.address_of of an element outside its tensor
import tilelang
import tilelang.language as T

SRC = """
__device__ __forceinline__ void tl_user_store_plus_one(float* dst, float v) { *dst = v + 1.0f; }
__device__ __forceinline__ float tl_user_read(float* src) { return *src; }
"""


@tilelang.jit
def add_one(N, block=64, as_value=0):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), Out: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            T.import_source(SRC)
            tx = T.get_thread_binding()
            if as_value:
                A[bx * block + tx] = T.call_extern("float32", "tl_user_read", T.address_of(Out[bx * block + tx]))
            else:
                T.call_extern("void", "tl_user_store_plus_one", T.address_of(Out[bx * block + tx]), A[bx * block + tx])

    return main


N = 128
as_value = 0
add_one(N, as_value=as_value)
