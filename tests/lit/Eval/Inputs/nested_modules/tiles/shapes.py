from .dtypes import ALIGN
from . import dtypes


def block_shape(scale):
    return ALIGN * scale, dtypes.ALIGN * scale * 2
