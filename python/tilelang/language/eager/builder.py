"""``tilelang.language.eager.builder``: ``OutTensor``, what ``T.empty``
declares in an eager kernel (an output the call allocates)."""

from ...utils.language import construct_strides
from .._objects import Placeholder as _Placeholder, TensorType


class OutTensor(TensorType):
    """An output tensor of ``shape`` and ``dtype``, allocated dense."""

    @property
    def strides(self):
        return construct_strides(self.shape)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(f"{__name__}.{name}")
