# T.Kernel's CUDA Tile IR launch hints (num_ctas, occupancy,
# num_worker_warps, tileir_hints), as a kernel written for
# `target="tileir"` passes them: tlc has no Tile IR backend, so the file's
# target falls back to tlc's default and the hints, performance hints of
# the Tile IR compiler only, are checked and ignored. They were rejected
# ("T.Kernel() got an unexpected keyword argument 'num_ctas'"). The kernel
# (a masked gather-sum over top-k row indices, -1 for padding) is built for
# the CPU and run there; NumPy checks it (Inputs/tileir_hints_ref.py); its
# CUDA code is emitted for sm_90a. kernel-tileir-hints-errors.py has the
# hint values that are rejected or warned about.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s
# CHECK: __global__
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --fill 'Idx=randint(-1,64)' --seed 7 --save %t/out > /dev/null
# RUN: %python %S/Inputs/tileir_hints_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF-COUNT-2: PASS
# REF-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit(target="tileir", execution_backend="tileir",
              pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True})
def gather_sum(seq_len, seq_kv, dim, topk, block=16, threads=64,
               num_ctas=2, num_worker_warps=4, occupancy=8, hints=None):

    @T.prim_func
    def main(KV: T.Tensor([seq_kv, dim], T.float32),
             Idx: T.Tensor([seq_len, topk], T.int32),
             Out: T.Tensor([seq_len, dim], T.float32)):
        with T.Kernel(seq_len, threads=threads, num_ctas=num_ctas,
                      num_worker_warps=num_worker_warps, occupancy=occupancy,
                      tileir_hints=hints) as s:
            ids = T.alloc_shared([block], T.int32)
            rows = T.alloc_shared([block, dim], T.float32)
            valid = T.alloc_shared([block], T.bool)
            acc = T.alloc_fragment([dim], T.float32)
            T.fill(acc, 0)
            for i in T.Pipelined(T.ceildiv(topk, block), num_stages=2):
                T.copy(Idx[s, i * block:(i + 1) * block], ids)
                for j in T.Parallel(block):
                    valid[j] = ids[j] >= 0
                    ids[j] = T.max(ids[j], 0)
                for j, d in T.Parallel(block, dim):
                    rows[j, d] = KV[ids[j], d]
                for d in T.Parallel(dim):
                    for j in T.serial(block):
                        acc[d] += T.if_then_else(valid[j], rows[j, d], 0.0)
            T.copy(acc, Out[s, :])

    return main


gather_sum(4, 64, 32, 48)
gather_sum(3, 64, 32, 32, num_ctas=None, num_worker_warps=None,
           occupancy=None, hints={"sm_100": {"num_cta_in_cga": 2}})
