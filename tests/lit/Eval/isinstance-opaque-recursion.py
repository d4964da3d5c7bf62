# isinstance of a node tlc does not model (the result of a TileLang pass
# over a module) is unknown, and an `if` on it assumes its branch; when
# following that assumption recurses without end (a recursive IR visitor
# on the opaque `.body`), the branch ends as not analysed (a warning at the
# condition), not with a "maximum call depth" error of the file. A real
# recursion that does not pass through an assumption is still an error.
# RUN: tlc-build --verify-diagnostics %s
import tilelang as tl
import tilelang.language as T
from tilelang import tvm as tvm
from tvm import tir


def count_lets(stmt):
    n = 0

    def visit(node):
        nonlocal n
        # expected-warning@+1 {{following the `if` branch assumed here recursed past the maximum call depth (200): what it does is not analysed}}
        if isinstance(node, tir.LetStmt):
            n += 1
            visit(node.body)

    visit(stmt)
    return n


@T.prim_func
def main(A: T.Tensor((16,), "float32")):
    with T.Kernel(1, threads=16) as bx:
        for i in T.serial(16):
            A[i] = 0.0


mod = tl.transform.LoopInvariantCodeMotion()(tvm.IRModule.from_expr(main))
count_lets(mod["main"].body)


def forever(k):
    # expected-error@+1 {{maximum call depth (200) exceeded}}
    return forever(k + 1)


forever(0)
