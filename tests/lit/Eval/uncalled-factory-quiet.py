# A jit factory that nothing calls is analysed with its parameters as
# symbols (hints for the editor), but TileLang traces a factory only when it
# is called: its instance does not warn about what only a call supplies, an
# unbound dtype parameter (analysed as float32) or a layout annotated on a
# buffer whose shape is one of those parameters. --kernel asking for it
# gets the warnings (-D gives the values), and a called kernel whose shape
# is a T.dynamic symbol keeps the unused-layout warning.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=QUIET --implicit-check-not=warning:
# RUN: tlc-build --check --kernel=uncalled %s 2>&1 | FileCheck %s --check-prefix=ASKED
import tilelang
import tilelang.language as T

# QUIET: uncalled-factory-quiet.py:[[@LINE+26]]:13: warning: the layout annotated for 's' is not used: its shape is not static

# ASKED-DAG: uncalled-factory-quiet.py:[[@LINE+6]]:34: warning: dtype 'in_dtype' has no value in this instance; analysed as float32
# ASKED-DAG: uncalled-factory-quiet.py:[[@LINE+6]]:34: warning: dtype 'out_dtype' has no value in this instance; analysed as float32
# ASKED-DAG: uncalled-factory-quiet.py:[[@LINE+8]]:13: warning: the layout annotated for 'dQ' is not used: its shape is not static
@tilelang.jit
def uncalled(M, N, in_dtype, out_dtype, block=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), in_dtype), dQ: T.Tensor((M, N), "float32"),
             B: T.Tensor((M, N), out_dtype)):
        with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
            s = T.alloc_shared((block, N), in_dtype)
            T.annotate_layout({dQ: T.Layout((M, N), lambda i, j: [j, i])})
            T.copy(A[bx * block, 0], s)
            T.copy(s, B[bx * block, 0])
    return main


@tilelang.jit
def dynamic_rows(N=64):
    M = T.dynamic("M")

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=128):
            s = T.alloc_shared((M, N), "float16")
            T.annotate_layout({s: T.Layout((M, N), lambda i, j: [i, j])})
            T.copy(A[0:M, 0:N], s)
            T.copy(s, B[0:M, 0:N])
    return main


dynamic_rows()
