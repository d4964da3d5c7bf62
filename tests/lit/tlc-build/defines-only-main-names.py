# With --defines-only the module is imported, not run as a script (what the
# Python package does): a name bound only in its `if __name__ ==
# "__main__":` block is not defined when the kernel reads it. tlc resolved
# such names lazily from every top-level binding, the __main__ block's
# included, so `dtype` was its end-of-file value "float16" and the kernel
# a float16 one the package never asked for. Run as a script, the block
# binds it as before.
# RUN: tlc-build --emit=tile --kernel=scale %s | FileCheck %s --check-prefix=SCRIPT
# SCRIPT: tile.func @scale(%A: !tile.buffer<[256], f16, global>
# RUN: tlc-build --emit=tile --defines-only --kernel=scale -D N=256 %s 2>&1 | FileCheck %s
# CHECK: warning: tlc cannot evaluate dtype 'dtype'
# CHECK-NOT: f16
# CHECK: tile.func @scale(%A: !tile.buffer<[256], f32, global>
# CHECK-NOT: f16
import tilelang
import tilelang.language as T


@tilelang.jit
def scale(N, block=128):

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] * 2

    return main


if __name__ == "__main__":
    dtype = "float16"
    scale(256)
