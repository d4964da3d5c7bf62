# Forms of @T.prim_func that TileLang accepts: options on the decorator
# (`@T.prim_func(generator=True)`, `@T.macro(...)`), parameter types given
# as defaults instead of annotations, `isinstance` against T.PrimExpr and
# T.PrimFunc, and T.alloc_var in a prim_func without a T.Kernel (host
# code: a scalar of the host function).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s

import tilelang
import tilelang.language as T


# CHECK-LABEL: tile.func @gen(
# CHECK-SAME: %A: !tile.buffer<[128], f32, global>
# CHECK-SAME: %B: !tile.buffer<[128], f32, global>
@T.prim_func(generator=True)
def gen(
        A=T.Tensor((128,), T.float32),  # noqa: B008
        B=T.Tensor((128,), T.float32),  # noqa: B008
):
    with T.Kernel(128) as tx:
        B[tx] = A[tx]


gen()


@T.macro(hygienic=False)
def double(x):
    return x * 2.0


@T.macro
def make_var(x):
    return T.alloc_var(T.float32, init=x)


def check(x, ty):
    assert isinstance(x, ty)


# CHECK-LABEL: tile.func @kinds(
@T.prim_func
def kinds(A: T.Tensor((4,), T.float32)):
    with T.Kernel(1, threads=4) as _:
        tx = T.get_thread_binding()
        v = make_var(3.0)
        check(v, T.PrimExpr)
        check(A[tx], T.PrimExpr)
        check(double(A[tx]), T.PrimExpr)
        check(tx + 1, (int, T.PrimExpr))
        check(4, int)
        assert not isinstance(4, T.PrimExpr)
        assert not isinstance(A, T.PrimExpr)
        # CHECK: tile.store
        A[tx] = v


assert isinstance(kinds, T.PrimFunc)
assert not isinstance(double, T.PrimFunc)


# CHECK-LABEL: tile.func @host(
# CHECK: %[[V:.*]] = tile.alloc init(%{{.*}} : i32) : !tile.buffer<[1], i32, local.var>
# CHECK: tile.load %[[V]][]
@T.prim_func
def host(B: T.Tensor((2,), "int32")):
    value = T.alloc_var("int32", init=3)
    values = [x + 1 for x in [value]]
    B[0] = values[0]
    B[1] = value
