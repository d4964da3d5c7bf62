import tilelang.language as T

M, K, N = 64, 32, 64


@T.prim_func
def nested(P: T.Tensor((M, K), "float16"), V: T.Tensor((K, N), "float16"),
           S: T.Tensor((M,), "float32"), O: T.Tensor((M, N), "float32")):
    with T.Kernel(1, threads=128):
        P_shared = T.alloc_shared([M, K], "float16")
        V_shared = T.alloc_shared([K, N], "float16")
        acc_o = T.alloc_fragment([M, N], "float32")
        acc_v = T.alloc_fragment([M, N], "float32")
        T.copy(P, P_shared)
        T.copy(V, V_shared)
        T.clear(acc_v)
        T.gemm(P_shared, V_shared, acc_v)
        for i in T.Parallel(M):
            for j in T.Parallel(N):
                acc_o[i, j] = acc_v[i, j] * S[i] + j
        T.copy(acc_o, O)
