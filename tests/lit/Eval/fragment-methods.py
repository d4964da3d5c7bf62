# The methods of T.Fragment values a program calls at trace time, with
# TileLang's semantics: repeat(repeats, repeat_on_thread, lower_dim_first),
# replicate(n), condense_rep_var(), get_thread_size() and
# bind_thread_range(begin, extent); make_gemm_fragment_8x8(_transposed)
# are real fragments (they were opaque, so `.repeat` of them was ignored
# with a warning). Inputs/fragment_methods_ref.py checks the fragments
# tlc annotates (--emit=tile, in program order) against its own model of
# TileLang's definitions, and the CPU target's results against NumPy
# (thread sizes written by the kernel, region copies through the
# annotated fragments, the two warp-group halves of a 256-thread block
# whose fragments are bound to threads [0, 128) and [128, 256)).
# fragment-methods-sim.test runs the CUDA code on the sim device;
# fragment-methods-errors.py has what is refused.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | %python %S/Inputs/fragment_methods_ref.py layouts - | FileCheck %s --check-prefix=LAYOUT
# LAYOUT: 7 layouts PASS
# LAYOUT-NOT: FAIL
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python %S/Inputs/fragment_methods_ref.py outputs %t/out | FileCheck %s --check-prefix=OUT
# OUT-COUNT-4: PASS
# OUT-NOT: FAIL
import tilelang
import tilelang.language as T
from tilelang.layout import Fragment, make_gemm_fragment_8x8, make_gemm_fragment_8x8_transposed


def row_pairs(rows=64, cols=64):
    # 128 threads, two per row, 32 registers each.
    return Fragment((rows, cols),
                    forward_thread_fn=lambda i, j: (i // 16) * 32 + (i % 16) * 2 + j // 32,
                    forward_index_fn=lambda i, j: j % 32)


@tilelang.jit(out_idx=[1])
def halves(scale=3.0, shift=1.0):
    rows, cols = 128, 64
    lay = row_pairs()
    lo = lay.bind_thread_range(0, 128)
    hi = lay.bind_thread_range(128, 128)

    @T.prim_func
    def main(A: T.Tensor((rows, cols), T.float32), B: T.Tensor((rows, cols), T.float32)):
        with T.Kernel(1, threads=256) as _:
            tx = T.get_thread_binding()
            FA = T.alloc_fragment((rows // 2, cols), T.float32)
            FB = T.alloc_fragment((rows // 2, cols), T.float32)
            T.annotate_layout({FA: lo, FB: hi})
            if tx < 128:
                T.copy(A[0:64, :], FA)
                for i, j in T.Parallel(rows // 2, cols):
                    FA[i, j] = FA[i, j] * scale
                T.copy(FA, B[0:64, :])
            else:
                T.copy(A[64:128, :], FB)
                for i, j in T.Parallel(rows // 2, cols):
                    FB[i, j] = FB[i, j] - shift
                T.copy(FB, B[64:128, :])

    return main


@tilelang.jit(out_idx=[1])
def window(row, col, transposed=False, lower_dim_first=True):
    frag = make_gemm_fragment_8x8_transposed() if transposed else make_gemm_fragment_8x8()
    frag = frag.repeat([2, 2], repeat_on_thread=False, lower_dim_first=lower_dim_first)

    @T.prim_func
    def main(A: T.Tensor((32, 32), T.float16), C: T.Tensor((16, 16), T.float16)):
        with T.Kernel(1, threads=32):
            # Rows padded by 8 halves: the fragment's reads are then free of
            # bank conflicts.
            As = T.alloc_shared((32, 40), T.float16)
            Af = T.alloc_fragment((16, 16), T.float16)
            T.annotate_layout({Af: frag})
            T.copy(A, As[:, 0:32])
            T.copy(As[row:row + 16, col:col + 16], Af)
            T.copy(Af, C)

    return main


@tilelang.jit(out_idx=[1, 2])
def replicas():
    # 16 threads x 4 replicas; a degenerate fragment (replicas 2 and 3 on
    # the threads of 0 and 1) that condense_rep_var reduces to 2 replicas;
    # an 8x8 operand repeated on 64 threads.
    rep = Fragment((16,), forward_thread_fn=lambda i: i).replicate(4)
    deg = Fragment((16,), forward_thread_fn=lambda i, r: i + 16 * (r % 2),
                   forward_index_fn=lambda i: 0, replicate=4)
    con = deg.condense_rep_var()
    wide = make_gemm_fragment_8x8().repeat([2, 1], repeat_on_thread=True)

    @T.prim_func
    def main(A: T.Tensor((16,), T.float32), B: T.Tensor((16,), T.float32), S: T.Tensor((4,), T.int32)):
        with T.Kernel(1, threads=64):
            F = T.alloc_fragment((16,), T.float32)
            G = T.alloc_fragment((16,), T.float32)
            W = T.alloc_fragment((16, 8), T.float32)
            T.annotate_layout({F: rep, G: con, W: wide})
            T.copy(A, F)
            for i in T.Parallel(16):
                G[i] = F[i] + 1.0
            T.copy(G, B)
            S[0] = make_gemm_fragment_8x8().get_thread_size()
            S[1] = wide.get_thread_size()
            S[2] = rep.get_thread_size()
            S[3] = con.get_thread_size()

    return main


halves()
window(8, 16)
window(16, 8, transposed=True, lower_dim_first=False)
replicas()
