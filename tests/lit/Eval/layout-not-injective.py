# A T.Layout annotated on a shared buffer must be injective: one that maps
# two elements to one place (`[i, j // 2]`) is an error at the annotation,
# for a static shape and for a symbolic one, whose index function is then
# checked at sample extents (`[i % 8, j]` is injective only while M <= 8).
# Both were accepted before: the static one silently replaced by the linear
# layout, the symbolic one warned about as unused. An injective layout of
# symbolic shape keeps that warning (tlc does not apply it).
# RUN: not tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
# CHECK: layout-not-injective.py:26:13: error: the layout annotated for shared buffer `s` is not injective on its shape: it maps two elements of the buffer to one place (a buffer's layout must be injective)
# CHECK: layout-not-injective.py:40:13: error: the layout annotated for shared buffer `s` is not injective at M = 2: it maps two elements of the buffer to one place (a buffer's layout must be injective)
# CHECK: layout-not-injective.py:57:13: warning: the layout annotated for 's' is not used: its shape is not static
# CHECK: layout-not-injective.py:71:13: error: the layout annotated for shared buffer `s` is not injective at M = 64: it maps two elements of the buffer to one place (a buffer's layout must be injective)
# The same index function at a static extent where it is injective builds.
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --kernel=symbolic_wrap -D M=8 %s > /dev/null
import tilelang
import tilelang.language as T


@tilelang.jit
def static_bad(M=64, N=64):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=128) as _:
            s = T.alloc_shared((M, N), "float16")
            T.annotate_layout({s: T.Layout((M, N), lambda i, j: [i, j // 2])})
            T.copy(A, s)
            T.copy(s, B)

    return main


@tilelang.jit
def symbolic_bad(M, N=64):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=128) as _:
            s = T.alloc_shared((M, N), "float16")
            T.annotate_layout({s: T.Layout((M, N), lambda i, j: [i, j // 2])})
            T.copy(A, s)
            T.copy(s, B)

    return main


static_bad()


@tilelang.jit
def symbolic_ok(M, N=64):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=128) as _:
            s = T.alloc_shared((M, N), "float16")
            T.annotate_layout({s: T.Layout((M, N), lambda i, j: [i, (j // 8 ^ i % 8) * 8 + j % 8])})
            T.copy(A, s)
            T.copy(s, B)

    return main


@tilelang.jit
def symbolic_wrap(M, N=64):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=128) as _:
            s = T.alloc_shared((M, N), "float16")
            T.annotate_layout({s: T.Layout((M, N), lambda i, j: [i % 8, j])})
            T.copy(A, s)
            T.copy(s, B)

    return main
