# T.PersistentKernel(..., order=, panel_size=) swizzles the order in which
# the resident workers take the logical tiles (as T.use_swizzle does for a
# plain grid); each tile still sees its own (bx, by). tlc refused the two
# keywords ("unexpected keyword argument 'order'"). Every tile writes its
# linear id; checked against NumPy on the CPU target, and a bad order or
# panel size is an error at the keyword.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --kernel tiles --save %t/o > /dev/null
# RUN: %python -c "import numpy as np, sys; o = np.load(sys.argv[1]); print('OK' if np.array_equal(o, np.arange(o.size, dtype=np.int32).reshape(o.shape)) else 'FAIL', o.shape)" %t/o/O.npy | FileCheck %s
# CHECK: OK (3, 4)
# RUN: not tlc-build --check -D order=diagonal %s 2>&1 | FileCheck %s --check-prefix=ORDER
# ORDER: persistent-kernel-tile-order.py:[[# @LINE + 12]]:53: error: T.PersistentKernel(order=...) is 'row' or 'column', not 'diagonal'
# RUN: not tlc-build --check -D panel=0 %s 2>&1 | FileCheck %s --check-prefix=PANEL
# PANEL: persistent-kernel-tile-order.py:[[# @LINE + 10]]:{{[0-9]+}}: error: T.PersistentKernel(panel_size=...) must be positive
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[0])
def tiles(gx=4, gy=3, order="column", panel=2):

    @T.prim_func
    def main(O: T.Tensor((gy, gx), T.int32)):
        with T.PersistentKernel(gx, gy, threads=32, order=order, panel_size=panel) as (bx, by):
            tx = T.get_thread_binding()
            if tx == 0:
                O[by, bx] = by * gx + bx

    return main


tiles()
