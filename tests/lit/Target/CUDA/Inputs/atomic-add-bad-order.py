# A memory order T.atomic_add does not know (atomic-add-memory-order.py).
import tilelang
import tilelang.language as T


@tilelang.jit
def bad_order(Count):
    Count: T.Tensor((4,), T.int32)
    with T.Kernel(1, threads=32) as bx:
        # BAD: atomic-add-bad-order.py:[[@LINE+1]]:{{[0-9]+}}: error: T.atomic_add: memory_order must be one of 'relaxed', 'consume', 'acquire', 'release', 'acq_rel', 'seq_cst' or None
        T.atomic_add(Count[0], 1, memory_order="strong")
