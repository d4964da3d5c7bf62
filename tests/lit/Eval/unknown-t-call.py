# A call of a T.* name tlc does not know, inside a kernel: --check warns at
# the name (TileLang may have it), and building for any target refuses the
# kernel at the call. The call used to vanish from the kernel, so a build
# silently lost its effect (T.ld before it was known: outputs never
# written) or its value.
# RUN: tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=CHECKW --implicit-check-not=error:
# CHECKW: unknown-t-call.py:[[@LINE+16]]:13: warning: 'T.load_with_magic' is not a TileLang name known to tlc; a call of it in a kernel is not analysed, and no target can build that kernel while it is there
# CHECKW: unknown-t-call.py:[[@LINE+16]]:21: warning: 'T.magic_value' is not a TileLang name known to tlc
# RUN: not tlc-build --target=cpu --emit=cpp --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=BUILD
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=BUILD
# BUILD: unknown-t-call.py:[[@LINE+12]]:13: error: cannot build this kernel: it calls 'T.load_with_magic'
import tilelang
import tilelang.language as T


@tilelang.jit
def unknown_calls():
    @T.prim_func
    def main(x: T.Tensor((32,), "int32"), y: T.Tensor((32,), "int32")):
        with T.Kernel(1, threads=32):
            tx = T.get_thread_binding()
            reg = T.alloc_var("int32")
            T.load_with_magic(x[tx], reg)
            y[tx] = T.magic_value(reg)

    return main


unknown_calls()
