# What T.Kernel's CUDA Tile IR hints reject (kernel-tileir-hints.py has
# the accepted forms): a hint that is not an integer (TileLang's int()
# raises), tileir_hints that is not a dict of per-architecture dicts of
# integers; and what is only warned about, since tlc's targets ignore the
# hints: values outside Tile IR's ranges (num_ctas a power of two in
# [1, 16], occupancy in [1, 32], num_worker_warps 4 or 8) and tileir_hints
# given together with the scalar hints.
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: kernel-tileir-hints-errors.py:[[# @LINE + 7]]:35: error: T.Kernel's num_ctas must be an integer, not 'str'
import tilelang.language as T


@T.prim_func
def bad(A: T.Tensor((128,), "float32")):
    # expected-error@+1 {{T.Kernel's num_ctas must be an integer, not 'str'}}
    with T.Kernel(1, threads=128, num_ctas="2"):
        A[0] = 1.0
    # expected-error@+1 {{T.Kernel's occupancy must be an integer, not 'float'}}
    with T.Kernel(1, threads=128, occupancy=1.5):
        A[0] = 1.0
    # expected-error@+1 {{tileir_hints must be a dict of per-architecture hint dicts, not 'list'}}
    with T.Kernel(1, threads=128, tileir_hints=[2]):
        A[0] = 1.0
    # expected-error@+1 {{tileir_hints: each per-architecture value must be a dict of integer hint values}}
    with T.Kernel(1, threads=128, tileir_hints={"sm_100": 2}):
        A[0] = 1.0
    # expected-error@+1 {{tileir_hints: each per-architecture value must be a dict of integer hint values}}
    with T.Kernel(1, threads=128, tileir_hints={"sm_100": {"occupancy": "x"}}):
        A[0] = 1.0


@T.prim_func
def warned(A: T.Tensor((128,), "float32")):
    # expected-warning@+1 {{CUDA Tile IR takes num_ctas a power of two in [1, 16], not 3 (tlc's targets ignore this hint)}}
    with T.Kernel(1, threads=128, num_ctas=3):
        A[0] = 1.0
    # expected-warning@+1 {{CUDA Tile IR takes num_ctas a power of two in [1, 16], not 32}}
    with T.Kernel(1, threads=128, num_ctas=32):
        A[1] = 1.0
    # expected-warning@+1 {{CUDA Tile IR takes occupancy in [1, 32], not 0}}
    with T.Kernel(1, threads=128, occupancy=0):
        A[2] = 1.0
    # expected-warning@+1 {{CUDA Tile IR takes num_worker_warps 4 or 8, not 6}}
    with T.Kernel(1, threads=128, num_worker_warps=6):
        A[3] = 1.0
    # expected-warning@+1 {{tileir_hints cannot be combined with num_ctas, occupancy or num_worker_warps}}
    with T.Kernel(1, threads=128, num_ctas=2, tileir_hints={"sm_100": {"occupancy": 2}}):
        A[4] = 1.0
