"""A shared buffer whose shape is a symbol bound at the call
(test_tilelang_language_dynamic_shared_scan.py): one compiled kernel runs
at two lengths, against torch's cumsum. CPU target; the CUDA launch reads
the same manifest, whose dynamic shared memory is an expression of the
symbols (tests/lit/Target/CUDA/dynamic-shared-buffer.py)."""

import torch

import tilelang
import tilelang.language as T
from tilelang._runtime import eval_extent


def scan_rows():
    n = T.dynamic("n")

    @T.prim_func
    def kernel(A: T.Tensor((16, n), "int32"), B: T.Tensor((16, n), "int32")):
        with T.Kernel(1, threads=128):
            rows = T.alloc_shared((16, n), "int32")
            T.copy(A, rows, disable_tma=True)
            T.cumsum(rows, rows, dim=1)
            T.copy(rows, B, disable_tma=True)

    return kernel


def main():
    torch.manual_seed(0)
    compiled = tilelang.compile(scan_rows(), out_idx=[1], target="cpu")
    for length in (7, 129):
        a = torch.randint(-10, 11, (16, length), dtype=torch.int32)
        torch.testing.assert_close(compiled(a), a.cumsum(1, dtype=torch.int32),
                                   rtol=0, atol=0)
    # What the CUDA launcher evaluates for such a manifest entry.
    assert eval_extent("0 + 16 * (n) * 4", {"n": 129}) == 16 * 129 * 4
    print("dynamic_shared: OK")


if __name__ == "__main__":
    main()
