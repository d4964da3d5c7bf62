# Misuses of the cluster queries (run by cluster-queries.py).
import tilelang.language as T


@T.prim_func
def bad_dim(A: T.Tensor((4,), "int32")):  # expected-note {{in instance bad_dim}}
    with T.Kernel(4, threads=32, cluster_dims=2) as bx:
        # expected-error@+1 {{IndexError: T.get_cluster_id: dim must be 0, 1 or 2, not 3}}
        A[bx] = T.get_cluster_id(3)


@T.prim_func
def outside(A: T.Tensor((4,), "int32")):  # expected-note {{in instance outside}}
    # expected-error@+1 {{T.get_cluster_size can only be used inside a T.Kernel region}}
    n = T.get_cluster_size()
    with T.Kernel(4, threads=32) as bx:
        A[bx] = n
