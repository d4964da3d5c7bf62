# RUN: tlc-build --verify-diagnostics %s
# A prim_func that launches no kernel (TIR-level code: the functions
# TileLang's pass unit tests build and run one pass on, or a body an
# intrinsic emitter fills) may allocate, copy, pipeline and use atomics at
# its top level, as TileLang parses them: one warning per function says tlc
# does not analyse its tile code, and building it is refused. In a
# prim_func that launches a kernel, an allocation before it stays an
# error (scope.py). Building one: tir-level-prim-func-build.py.
import tilelang
import tilelang.language as T


@T.prim_func
def tir_only():
    # expected-warning@+1 {{T.alloc_local outside any T.Kernel, in a prim_func that launches none (TIR-level code): tlc does not analyse this function's tile code}}
    a_local = T.alloc_local((8,), "float16")
    c_local = T.alloc_fragment((16,), "float32")


@T.prim_func
def pass_test(A: T.Tensor((32,), "float32")):
    # expected-warning@+1 {{T.alloc_fragment outside any T.Kernel}}
    frag_buf = T.alloc_fragment((1,), "float32")
    for ko in T.Pipelined(32, num_stages=3):
        frag_buf[0] = A[ko]


@T.prim_func
def atomics(A: T.Tensor((4,), T.float32)):
    shared = T.alloc_buffer((4,), "float32", scope="shared")
    for i in T.vectorized(4):
        # expected-warning@+1 {{T.atomic_add outside any T.Kernel}}
        T.atomic_add(shared[i], A[i])


@T.prim_func
def pipelined_first(A: T.Tensor((32,), "float32"), B: T.Tensor((32,), "float32")):
    # expected-warning@+1 {{T.Pipelined outside any T.Kernel}}
    for ko in T.Pipelined(32, num_stages=2):
        B[ko] = A[ko]


@T.prim_func
def launched(A: T.Tensor((8,), "float16")):
    # expected-error@+1 {{T.alloc_local can only be used inside a T.Kernel region}}
    early = T.alloc_local((8,), "float16")
    with T.Kernel(1, threads=8) as bx:
        A[0] = 0
