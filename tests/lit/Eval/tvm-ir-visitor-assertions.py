# Files that walk the TVM IR of a kernel with tvm.tir.stmt_functor's
# visitors and assert on what the callback collected: tlc builds no TVM IR,
# so the callback never runs, and such an assertion is not checked (a
# remark saying so at the assertion, naming the visitor's line) instead of
# failing as if the program's assertion were false. Unpacking what it
# collected (`(call,) = gemm_calls(main)`, upstream
# test_tilelang_language_gemm_blockscaled.py) is not checked either: it
# raised "ValueError: not enough values to unpack". An assertion or an
# unpacking in a test without a visitor still fails as before; the kernel
# is analysed either way.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not="error:" --implicit-check-not="AssertionError: assertion failed (raised while running module-level code)"
# CHECK: tvm-ir-visitor-assertions.py:51:8: remark: tlc cannot check this assertion (in module-level code): it may test what the TVM IR visitor called at line 50 collected, and tlc builds no TVM IR for it to walk, so its callback never ran
# CHECK: tvm-ir-visitor-assertions.py:68:12: remark: tlc cannot check this assertion (in test_no_copies_left): it may test what the TVM IR visitor called at line 62 collected
# CHECK: tvm-ir-visitor-assertions.py:73:12: warning: AssertionError: assertion failed (raised while running test_plain_assertion)
# CHECK: tvm-ir-visitor-assertions.py:78:5: remark: tlc cannot check this unpacking (in test_one_gemm): it may unpack what the TVM IR visitor called at line 62 collected, and tlc builds no TVM IR for it to walk, so its callback never ran
# CHECK: tvm-ir-visitor-assertions.py:83:5: warning: ValueError: not enough values to unpack (expected 1, got 0) (raised while running test_plain_unpacking)
import tilelang
import tilelang.language as T
import tilelang.testing
import tvm
from tvm import tir


def matmul(M, N, K, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, 64), T.ceildiv(M, 64), threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 32), dtype)
            B_s = T.alloc_shared((32, 64), dtype)
            acc = T.alloc_fragment((64, 64), "float32")
            T.clear(acc)
            for k in T.Pipelined(T.ceildiv(K, 32), num_stages=2):
                T.copy(A[by * 64, k * 32], A_s)
                T.copy(B[k * 32, bx * 64], B_s)
                T.gemm(A_s, B_s, acc)
            T.copy(acc, C[by * 64, bx * 64])

    return main


func = matmul(256, 256, 256)
calls = []


def visit(node):
    if isinstance(node, tir.Call):
        calls.append(node.op.name)


tvm.tir.stmt_functor.post_order_visit(func.body, visit)
assert len(calls) > 0
kernel = tilelang.compile(func, out_idx=[2])


def count_copies(f):
    found = [0]

    def visit_copy(node):
        if isinstance(node, tir.Call) and node.op.name == "tl.tileop.copy":
            found[0] += 1

    tir.stmt_functor.post_order_visit(f.body, visit_copy)
    return found[0]


def test_no_copies_left():
    f = matmul(128, 128, 128)
    assert count_copies(f) == 3


def test_plain_assertion():
    f = matmul(128, 128, 64)
    assert f is None


def test_one_gemm():
    f = matmul(128, 128, 64)
    (gemm,) = [f] * count_copies(f)
    assert gemm is not None


def test_plain_unpacking():
    (f,) = []


if __name__ == "__main__":
    tilelang.testing.main()
