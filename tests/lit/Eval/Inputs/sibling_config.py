# A helper module next to a kernel script (tests/lit/Eval/sibling-module.py
# copies both into one directory): sizes, a config builder and a kernel of
# its own, which is analysed with this file, not with the importer.
import tilelang
import tilelang.language as T

BLOCK = 64
_PRIVATE = 7
DTYPE = "float16"


def make_sizes(rows, scale=2):
    assert rows % BLOCK == 0, f"rows must be a multiple of {BLOCK}"
    return {"rows": rows, "cols": BLOCK * scale, "name": __name__}


@tilelang.jit
def helper_kernel(N=128):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=N) as _:
            for i in T.Parallel(N):
                A[i] = 0.0
    return main


helper_kernel()
