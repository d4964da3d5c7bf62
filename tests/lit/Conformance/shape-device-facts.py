# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Shape: grid from torch.cuda.get_device_properties(0).multi_processor_count and
# tilelang.carver.arch.driver.get_num_sms() (H100: 132). G: T.exp, T.atomic_add.
import torch

import tilelang
import tilelang.language as T
from tilelang.carver.arch import driver


@tilelang.jit(out_idx=[-1])
def logsumexp_persistent(N, num_ctas, block=1024, threads=256):
    tiles = T.ceildiv(N, block)

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Out: T.Tensor((1,), T.float32)):
        with T.Kernel(num_ctas, threads=threads) as cta:
            x = T.alloc_fragment((block,), T.float32)
            part = T.alloc_fragment((1,), T.float32)
            acc = T.alloc_var(T.float32, 0)
            for t in T.serial(T.ceildiv(tiles - cta, num_ctas)):
                tile = cta + t * num_ctas
                T.copy(X[tile * block], x)
                for i in T.Parallel(block):
                    x[i] = T.exp(x[i])
                T.reduce_sum(x, part, dim=0)
                acc += part[0]
            if T.get_thread_binding() == 0:
                T.atomic_add(Out[0], acc)

    return main


def main():
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    kernel = logsumexp_persistent(1 << 24, sms)
    kernel_2x = logsumexp_persistent(1 << 24, 2 * driver.get_num_sms(), block=2048)
    return kernel, kernel_2x


if __name__ == "__main__":
    main()

# CHECK: "instance":"logsumexp_persistent(16777216, 132)","name":"X","kind":"tensor","shape":[16777216],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"cta","kind":"kernel","shape":[132],"dtype":null,"scope":null,"layout":null
# CHECK: "name":"x","kind":"buffer","shape":[1024],"dtype":"float32","scope":"local.fragment","layout":"parallel · 4 regs/thread"
# CHECK: "name":"part","kind":"buffer","shape":[1],"dtype":"float32","scope":"local.fragment","layout":"replicated · 1 reg/thread · rep 256"
# CHECK: "name":"acc","kind":"buffer","shape":[1],"dtype":"float32","scope":"local.var","layout":null
# CHECK: "instance":"logsumexp_persistent(16777216, 264, block=2048)","name":"X"
# CHECK: "name":"cta","kind":"kernel","shape":[264],"dtype":null,"scope":null,"layout":null
# CHECK: "name":"x","kind":"buffer","shape":[2048],"dtype":"float32","scope":"local.fragment","layout":"parallel · 8 regs/thread"
