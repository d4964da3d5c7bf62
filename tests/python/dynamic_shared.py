"""A shared buffer whose shape is a symbol bound at the call
(test_tilelang_language_dynamic_shared_scan.py): one compiled kernel runs
at two lengths, against torch's cumsum. CPU target; for the CUDA target
(built without a compiler: no GPU here) the manifest's dynamic shared
memory is an expression of the symbols, which the package's launcher
evaluates and get_host_source() prints into the launch
(tests/lit/Target/CUDA/dynamic-shared-buffer.py runs the kernels on sim)."""

import json
import os
import subprocess
import tempfile

import torch

import tilelang
import tilelang.language as T
from tilelang._host_source import host_source
from tilelang._runtime import eval_extent

KERNEL = """
import tilelang.language as T

n = T.dynamic("n")


@T.prim_func
def scan_rows(A: T.Tensor((16, n), "int32"), B: T.Tensor((16, n), "int32")):
    with T.Kernel(1, threads=128):
        rows = T.alloc_shared((16, n), "int32")
        T.copy(A, rows, disable_tma=True)
        T.cumsum(rows, rows, dim=1)
        T.copy(rows, B, disable_tma=True)
"""


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
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "scan.py")
        with open(src, "w") as f:
            f.write(KERNEL)
        subprocess.run([os.environ.get("TLC_BUILD", "tlc-build"), src,
                        "--target=cuda:sm_90a", "--cuda-compiler=none",
                        "-o", os.path.join(tmp, "out")], check=True,
                       stdout=subprocess.DEVNULL)
        with open(os.path.join(tmp, "out", "scan_rows.json")) as f:
            manifest = json.load(f)
    assert manifest["version"] == 5, manifest["version"]
    smem = manifest["launches"][0]["dynamic_shared_memory"]
    for length in (7, 129):
        assert eval_extent(smem, {"n": length}) == 16 * length * 4, smem
    launch = [line for line in host_source(manifest).splitlines()
              if "tlc_cuda_kernel_launch_flags(" in line]
    assert len(launch) == 1 and "(unsigned)((4LL * 16LL) * n)" in launch[0], \
        launch
    print("dynamic_shared: OK")


if __name__ == "__main__":
    main()
