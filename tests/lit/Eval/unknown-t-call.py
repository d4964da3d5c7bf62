# A call of a T.* name TileLang does not have (none of tlc's builtins,
# which list TileLang's names) raises TileLang's AttributeError at the
# whole call, with the closest known name; --check reports it as an error
# of the program, with its Python category. It used to be a warning at the
# name while the call vanished from the kernel (T.ld before it was known:
# outputs never written).
# RUN: not tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
# RUN: not tlc-build --check --format=json %s 2>&1 | FileCheck %s --check-prefix=JSON
# RUN: not tlc-build --target=cpu --emit=cpp --no-source-lines %s 2>&1 | FileCheck %s
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s 2>&1 | FileCheck %s
# JSON: "category": "AttributeError"
import tilelang
import tilelang.language as T


@tilelang.jit
def unknown_calls():
    @T.prim_func
    def main(x: T.Tensor((32,), "int32"), y: T.Tensor((32,), "int32")):
        with T.Kernel(1, threads=32):
            tx = T.get_thread_binding()
            reg = T.alloc_var("int32")
            # CHECK: unknown-t-call.py:[[@LINE+1]]:13: error: AttributeError: module 'tilelang.language' has no attribute 'load_with_magic'{{$}}
            T.load_with_magic(x[tx], reg)
            y[tx] = reg

    return main


@tilelang.jit
def near_miss():
    @T.prim_func
    def main(x: T.Tensor((32,), "float32"), y: T.Tensor((32,), "float32")):
        with T.Kernel(1, threads=32):
            tx = T.get_thread_binding()
            # CHECK: unknown-t-call.py:[[@LINE+1]]:13: error: AttributeError: module 'tilelang.language' has no attribute 'atomic_ad'; did you mean 'T.atomic_add'?
            T.atomic_ad(y[tx], x[tx])

    return main


unknown_calls()
near_miss()
