# A float16 copy of X (accumulation.test): shifted.
import tilelang
import tilelang.language as T


@tilelang.jit
def sums():

    @T.prim_func
    def main(X: T.Tensor((64, 64), "float16"), Y: T.Tensor((64, 64), "float16")):
        with T.Kernel(64, threads=64) as b:
            for i in T.Parallel(64):
                Y[b, i] = X[b, i] + T.float16(0.02)

    return main


sums()
