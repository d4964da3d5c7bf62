# Device queries on the CPU target: the CPU target is the reference the GPU
# builds are verified against, so `driver.get_num_sms()` answers with the
# part of `cuda:sm_90a` (an H100-class part, 132 SMs) and the CPU build
# traces the same persistent instance as the GPU one; `--device=` picks
# another part (a100: 108 SMs) while the budgets stay the CPU's. The
# kernel runs on the CPU and is checked against Python.
# RUN: tlc-build --check --target=cpu %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --target=cpu %s | FileCheck %s --check-prefix=H100
# RUN: tlc-build --emit=tile --target=cpu --device=a100 %s | FileCheck %s --check-prefix=A100
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/h100 %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py persistent-h100 tlc-run %t/h100 %t/h | FileCheck %s --check-prefix=RUN-H100
# RUN: tlc-build --target=cpu --device=a100 -o %t/a100 %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py persistent-a100 tlc-run %t/a100 %t/a | FileCheck %s --check-prefix=RUN-A100

import tilelang
import tilelang.language as T
from tilelang.carver.arch import driver


@tilelang.jit
def persistent_scale(N=128 * 300, block=128):
    sm_num = driver.get_num_sms()
    tiles = T.ceildiv(N, block)
    waves = T.ceildiv(tiles, sm_num)

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32)):
        with T.Kernel(sm_num, threads=128) as bid:
            for w in T.serial(waves):
                t = w * sm_num + bid
                if t < tiles:
                    for i in T.Parallel(block):
                        Y[t * block + i] = X[t * block + i] * 2.0 + w

    return main


persistent_scale()

# H100: tile.kernel (%bid) grid [132] threads [128]
# H100: tile.for %w = %c0 to %c3
# A100: tile.kernel (%bid) grid [108] threads [128]
# A100: tile.for %w = %c0 to %c3
# RUN-H100: persistent-h100 ok
# RUN-A100: persistent-a100 ok
