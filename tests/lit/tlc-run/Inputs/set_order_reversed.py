# A kernel placing each row's 8 values in an order of its own (tlc-run
# --verify-as-set, set-order.test): reversed.
import tilelang
import tilelang.language as T


@tilelang.jit
def place():

    @T.prim_func
    def main(X: T.Tensor((4, 8), "int32"), Y: T.Tensor((4, 8), "int32")):
        with T.Kernel(4, threads=32) as b:
            for i in T.Parallel(8):
                Y[b, i] = X[b, 7 - i]

    return main


place()
