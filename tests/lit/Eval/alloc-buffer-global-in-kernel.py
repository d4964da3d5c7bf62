# RUN: tlc-build --verify-diagnostics %s
# T.alloc_buffer takes TVM's default scope, 'global'. Inside a T.Kernel a
# global allocation reaches TileLang's device code generators, which refuse
# it for every GPU target ("Cannot allocate global memory when targeting
# CUDA. You must pass all global arrays as input instead"): a located error
# that says so, where tlc's op verifier used to report "invalid Tile IR".
# A global buffer allocated before the T.Kernel (a workspace, as
# T.alloc_global makes) and on-chip scopes inside it are accepted.
import tilelang
import tilelang.language as T


@tilelang.jit
def scratch(N=256):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
        W = T.alloc_buffer((N,), T.float32, scope="global")
        with T.Kernel(N // 128, threads=128) as bx:
            # expected-error@+1 {{T.alloc_buffer of a 'global' buffer inside T.Kernel: TileLang cannot allocate global memory in a kernel (its code generators ask to pass every global array as an input instead); make it a parameter of the prim_func, allocate it with T.alloc_global before the T.Kernel, or give it an on-chip scope (scope="shared", "local", "local.fragment")}}
            G = T.alloc_buffer((N,), T.float32, scope="global")
            # expected-error@+1 {{T.alloc_buffer of a 'global' buffer inside T.Kernel}}
            H = T.alloc_buffer((N,), T.float32)
            # expected-error@+1 {{T.alloc_global of a 'global' buffer inside T.Kernel}}
            K = T.alloc_global((N,), T.float32)
            S = T.alloc_buffer((128,), T.float32, scope="shared")
            L = T.alloc_buffer((4,), T.float32, scope="local")
            for i in T.Parallel(128):
                S[i] = A[bx * 128 + i]
                W[bx * 128 + i] = S[i]
                B[bx * 128 + i] = W[bx * 128 + i]

    return main


scratch(256)
