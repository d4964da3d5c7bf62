# What tlc's package does not have because it has no TVM IR: importing
# TVMScript (tvm.script) or TileLang's TIR schedule (tilelang.schedule)
# raises an ImportError saying so; tilelang.engine.phase's lowering phases
# and tvm.ir's structural comparisons raise NotImplementedError naming
# what is missing; TileLang's execution backends (tilelang.jit.adapter)
# are refused at import too. tilelang.engine.lower and tilelang.jit are
# modules whose functions build the kernel (checked against NumPy), while
# tilelang.jit and tilelang.engine.lower stay the functions scripts call.

import importlib

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing


@pytest.mark.parametrize("name", ["tvm.script", "tvm.script.tir",
                                  "tvm.script.ir_builder.base",
                                  "tilelang.schedule"])
def test_import_refused(name):
    import tvm  # noqa: F401  (tilelang's tvm where none is installed)
    with pytest.raises(ImportError, match="has no TVM IR") as info:
        importlib.import_module(name)
    # The package refused (a submodule: at its refused parent).
    assert name.startswith(info.value.name)
    assert "ModuleNotFoundError" not in type(info.value).__name__


def test_from_import_refused():
    with pytest.raises(ImportError, match=r"TVMScript"):
        from tvm.script import tir  # noqa: F401
    with pytest.raises(ImportError, match=r"tilelang\.schedule"):
        from tilelang.schedule import Schedule  # noqa: F401


def test_jit_module():
    import torch
    module = importlib.import_module("tilelang.jit")
    assert callable(tilelang.jit) and tilelang.jit is module.jit
    assert module.compile is tilelang.compile
    from tilelang.jit import JITKernel
    kernel = module.compile(scale(16, -2.0), out_idx=[1])
    assert isinstance(kernel, JITKernel)
    a = np.linspace(-1.0, 1.0, 16).astype(np.float32)
    np.testing.assert_array_equal(kernel(torch.from_numpy(a)).numpy(),
                                  a.astype(np.float64) * -2.0)
    with pytest.raises(ImportError, match="execution backends") as info:
        importlib.import_module("tilelang.jit.adapter.cutedsl.adapter")
    assert info.value.name == "tilelang.jit.adapter"


def test_structural_equality_not_implemented():
    # A placeholder would return without comparing anything.
    import tvm
    from tilelang import tvm as tl_tvm
    for module in (tvm.ir, tl_tvm.ir):
        for name in ("assert_structural_equal", "structural_equal"):
            with pytest.raises(NotImplementedError, match="no TVM IR"):
                getattr(module, name)(scale(4, 1.0), scale(4, 1.0))


def test_phases_not_implemented():
    from tilelang.engine.phase import LowerAndLegalize, OptimizeForTarget
    for phase in (LowerAndLegalize, OptimizeForTarget):
        with pytest.raises(NotImplementedError, match=phase.__name__):
            phase(None, "cuda")


def scale(n, factor):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(n):
                B[i] = A[i] * factor

    return main


def test_engine_lower_module():
    import torch
    from tilelang.engine.lower import lower
    import tilelang.engine
    assert tilelang.engine.lower is lower        # the function, not the module
    assert importlib.import_module("tilelang.engine.lower").lower is lower
    artifact = lower(scale(40, 3.0))
    assert "scale" in artifact.kernel_source    # the instance's source
    a = np.arange(40, dtype=np.float32) - 7.0
    b = torch.zeros(40)
    artifact.rt_mod(torch.from_numpy(a), b)
    np.testing.assert_array_equal(b.numpy(), a.astype(np.float64) * 3.0)


if __name__ == "__main__":
    tilelang.testing.main()
