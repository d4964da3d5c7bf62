# T.annotate_safe_value with a T.cast of a literal (upstream
# test_tilelang_transform_ptx_async_copy_injector.py fills with
# T.cast(-0.0, dtype)): the cast is folded to the constant of that dtype,
# which the targets read from the map; -0.0 keeps its sign there. Checked
# clean, built for sm_90a, and run on the CPU: rows past A's 50 read the
# safe value (zero; the CPU emitter prints it as the integer -0, so its
# sign does not survive there yet).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=IR
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s > /dev/null
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 7 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy'); o=np.load(d+'Out.npy'); print(bool(np.array_equal(o[:50], a)), bool(np.all(o[50:] == 0)))" | FileCheck %s
# CHECK: True True
# IR: tile.intrinsic "T.annotate_safe_value"() {options = {safe_value_map = "{A: -0.0}"}}
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((50, 128), "float16"), Out: T.Tensor((64, 128), "float16")):
    with T.Kernel(1, threads=128):
        T.annotate_safe_value({A: T.cast(-0.0, "float16")})
        S = T.alloc_shared((64, 128), "float16")
        for i, d in T.Parallel(64, 128):
            S[i, d] = A[i, d]
        for i, d in T.Parallel(64, 128):
            Out[i, d] = S[i, d]
