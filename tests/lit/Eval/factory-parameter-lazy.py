# A jitted function that returns a call of a factory it gets as a parameter
# (`def tuned(factory, block=None): return factory(N, block)`) is itself a
# lazy factory: TileLang calls it and finds a kernel. The Python package
# lifts a kernel defined inside another function this way, the enclosing
# function's factory becoming a parameter bound by `-D factory=NAME`
# (example_dequant_gemm_w4a8.py's autotuned closure). tlc took such a
# function for an eager kernel: the -D name of a jitted factory stayed a
# string ("'str' object is not callable"), a plain one traced no kernel,
# and under --kernel the inner factory's instance was filtered out. The
# instance is now the asked kernel's, built from the autotune config or
# -D block, and runs on the CPU target (checked against NumPy).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --check --defines-only --kernel=tuned -D factory=scale_kernel %s 2>&1 | count 0
# RUN: tlc-build --check --defines-only --kernel=tuned -D factory=via_plain %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --defines-only --kernel=tuned -D factory=scale_kernel -D block=64 %s | FileCheck %s
# RUN: tlc-build --emit=tile --defines-only --kernel=tuned -D factory=via_plain -D block=64 %s | FileCheck %s
# CHECK: tile.func @tuned(%A: !tile.buffer<[256], f32, global>, %B: !tile.buffer<[256], f32, global>)
# CHECK: tile.kernel (%bx) grid [4] threads [64]
# RUN: rm -rf %t && tlc-build --target=cpu --defines-only --kernel=tuned -D factory=via_plain -D block=32 -o %t/art %s > /dev/null
# RUN: tlc-run %t/art --seed 2 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np, sys; a = np.load(sys.argv[1] + '/inputs/A.npy'); print('exact', bool((np.load(sys.argv[1] + '/B.npy') == 3 * a).all()))" %t/out | FileCheck %s --check-prefix=OUT
# OUT: exact True
import tilelang
import tilelang.language as T
from tilelang.autotuner import autotune


@tilelang.jit(out_idx=[1])
def scale_kernel(N, block):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] * 3

    return main


def via_plain(N, block):
    return scale_kernel(N, block)


@autotune(configs=[{"block": 32}, {"block": 64}], warmup=1, rep=2)
@tilelang.jit(out_idx=[1])
def tuned(factory, N=256, block=None):
    return factory(N, block)


if __name__ == "__main__":
    kernel = tuned(scale_kernel)
