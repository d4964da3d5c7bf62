# Refused T.tvm_access_ptr arguments (run by tvm-access-ptr.py).
import tilelang.language as T


@T.prim_func
def bad_mask(A: T.Tensor((64,), T.uint8)):  # expected-note {{in instance bad_mask}}
    with T.Kernel(1, threads=32):
        S = T.alloc_shared((64,), T.uint8)
        # expected-error@+1 {{T.tvm_access_ptr: rw_mask must be 1 (read), 2 (write) or 3 (read and write), not 4}}
        T.evaluate(T.call_extern("handle", "touch", T.tvm_access_ptr(T.type_annotation(T.uint8), S.data, 0, 16, 4)))
        A[0] = S[0]


@T.prim_func
def not_data(A: T.Tensor((64,), T.uint8)):  # expected-note {{in instance not_data}}
    with T.Kernel(1, threads=32):
        # expected-error@+1 {{T.tvm_access_ptr: data must be a buffer's data (buf.data), not 3}}
        T.evaluate(T.call_extern("handle", "touch", T.tvm_access_ptr(T.type_annotation(T.uint8), 3, 0, 16, 1)))
