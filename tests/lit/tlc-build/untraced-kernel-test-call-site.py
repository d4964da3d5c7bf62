# A kernel only a test function calls, in a script that does not run its
# tests (TileLang's dequantising GEMM examples: `test_convert` checks its
# dtype with an assert in its body and is called by `test_..._close()` alone). tlc ran
# it without a call site, its dtype a symbol: the assert failed, and every
# build refused the kernel ("tracing its body raised here"). The test that
# calls it now runs first and gives the instance its arguments; what the
# test itself raises afterwards (its torch checks) stays a warning. The CPU
# build of that instance checked against Python.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# DIAG-NOT: error
# DIAG-NOT: AssertionError
# RUN: tlc-build --emit=hints %s | FileCheck %s
# CHECK: "instance":"scale_test(256, 64, 'float32')"
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s > /dev/null
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/../Eval/Inputs/lang_eval_run.py double tlc-run %t/cpu %t/w | FileCheck %s --check-prefix=OUT
# OUT: double ok

import torch
import tilelang
import tilelang.language as T


def twice(x, dtype):
    assert dtype == "float32"
    return x * 2.0


@tilelang.jit(out_idx=[1])
def scale_test(N, block, dtype):

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = twice(A[bx * block + i], dtype)

    return main


def test_scale_close():
    kernel = scale_test(256, 64, "float32")
    a = torch.randn(256, device="cuda")
    torch.testing.assert_close(kernel(a), a * 2)


if __name__ == "__main__":
    print("run the tests with pytest")
