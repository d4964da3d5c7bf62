# mismatch-allowance.test: a float16 copy of X whose first `bad` elements
# are moved by 1 (0 here; the test builds it again with -Dbad=4 and -Dbad=5).
import tilelang
import tilelang.language as T


@tilelang.jit
def copy_some_off(bad=0):

    @T.prim_func
    def main(X: T.Tensor((64, 64), "float16"), Y: T.Tensor((64, 64), "float16")):
        with T.Kernel(64, threads=64) as b:
            for i in T.Parallel(64):
                Y[b, i] = X[b, i] + T.if_then_else(b * 64 + i < bad, T.float16(1), T.float16(0))

    return main


copy_some_off()
