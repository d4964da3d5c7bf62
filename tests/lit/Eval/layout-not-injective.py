# A T.Layout annotated on a shared buffer must be injective: one that maps
# two elements to one place (`[i, j // 2]`) is an error at the annotation,
# for a static shape and for a symbolic one, whose index function is then
# checked at sample extents (`[i % 8, j]` is injective only while M <= 8;
# rows `i * (n - 1) + j` overlap, newer TileLang's dynamic_shared_scan test).
# The error names two elements that share a place.
# Both were accepted before: the static one silently replaced by the linear
# layout, the symbolic one warned about as unused. An injective layout of
# symbolic shape is not applied; in a factory nothing calls, whose shape
# only a call gives, that is no warning (uncalled-factory-quiet.py).
# RUN: not tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
# CHECK: layout-not-injective.py:29:13: error: the layout annotated for shared buffer `s` is not injective on its shape: elements (0, 0) and (0, 1) both map to (0, 0) (a buffer's layout must be injective: one place holds one element)
# CHECK: layout-not-injective.py:43:13: error: the layout annotated for shared buffer `s` is not injective at M = 2: elements (0, 0) and (0, 1) both map to (0, 0) (a buffer's layout must be injective: one place holds one element)
# CHECK: layout-not-injective.py:74:13: error: the layout annotated for shared buffer `s` is not injective at M = 64: elements (0, 0) and (8, 0) both map to (0, 0) (a buffer's layout must be injective: one place holds one element)
# CHECK: layout-not-injective.py:88:9: error: the layout annotated for shared buffer `s` is not injective at n = 2: elements (0, 1) and (1, 0) both map to 1 (a buffer's layout must be injective: one place holds one element)
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


n = T.dynamic("n")


@T.prim_func
def overlapping_rows(A: T.Tensor((16, n), "int32")):
    with T.Kernel(1, threads=128):
        s = T.alloc_shared((16, n), "int32")
        T.annotate_layout({s: T.Layout((16, n), lambda i, j: i * (n - 1) + j)})
        for i, j in T.Parallel(16, n):
            s[i, j] = A[i, j]
        for i, j in T.Parallel(16, n):
            A[i, j] = s[i, j]
