# RUN: tlc-build --verify-diagnostics %s
# tilelang.layout.make_{full,half,quarter}_bank_swizzled_layout take a
# buffer or its geometry (stride, continuous, element_size), as TileLang's
# plot_layout example calls them; another argument count is its ValueError.
import tilelang
import tilelang.language as T
from tilelang.layout import (
    make_full_bank_swizzled_layout,
    make_half_bank_swizzled_layout,
    make_quarter_bank_swizzled_layout,
)

q = make_quarter_bank_swizzled_layout(8, 16, 16)
h = make_half_bank_swizzled_layout(8, 32, 16)
f = make_full_bank_swizzled_layout(32, 64, 16)


@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=128):
        S = T.alloc_shared((64, 64), "float16")
        T.annotate_layout({S: make_full_bank_swizzled_layout(S)})
        T.copy(A, S)
        T.copy(S, B)


# expected-warning@+1 {{ValueError: tilelang.layout.make_half_bank_swizzled_layout: invalid arguments: expected a buffer or (stride, continuous, element_size), got 2 arguments}}
bad = make_half_bank_swizzled_layout(8, 32)
