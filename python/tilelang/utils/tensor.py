"""``tilelang.utils.tensor``."""

from .. import _tensors as _tz
from ..profiler import TensorSupplyType  # noqa: F401
from ..testing import torch_assert_close  # noqa: F401


def map_torch_type(name):
    """The torch dtype for a TileLang dtype name (``"float16"``)."""
    from .._dtype import dtype
    return _tz.torch_dtype(str(dtype(name)))


def get_tensor_supply(supply_type=TensorSupplyType.Integer):
    """A function making one random input tensor for a
    :class:`~tilelang.engine.param.KernelParam` (on the current CUDA device,
    or the CPU where there is none), drawn as the profiler draws them; for
    a scalar parameter a Python ``bool`` / ``int`` / ``float`` (by the
    dtype's family) drawn the same way, on no device."""
    from ..profiler import supply_scalar, supply_tensor

    def get_tensor(param):
        if param.is_scalar():
            # A scalar parameter: a Python number drawn as one element of
            # a tensor would be (no device involved).
            return supply_scalar(param.manifest_param, supply_type)
        if any(not isinstance(e, int) for e in param.shape):
            raise ValueError(
                f"parameter '{param.name}' has the symbolic shape "
                f"{param.shape}: no random tensor can be made for it")
        device = "cpu"
        if _tz.torch is not None and _tz.torch.cuda.is_available():
            device = f"cuda:{_tz.torch.cuda.current_device()}"
        return supply_tensor(param.manifest_param, {}, supply_type, device)
    return get_tensor
