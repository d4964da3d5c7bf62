"""``tilelang.cuda.intrinsics.macro.mma_macro_generator``: the MMA
emitter's type abbreviations (PTX ``mma`` type names); the emitter itself
is tlc's (a placeholder that tlc gives meaning inside kernels)."""

from ...._dtype import dtype as _dtype
from ....language._objects import Placeholder as _Placeholder


def _abbreviations():
    names = {
        "float16": "fp16", "bfloat16": "bf16", "float32": "fp32",
        "float64": "fp64", "int4": "int4", "int8": "int8", "uint8": "uint8",
        "int32": "int32", "float8_e4m3": "e4m3", "float8_e4m3fn": "e4m3",
        "float8_e4m3fnuz": "e4m3", "float8_e5m2": "e5m2",
        "float8_e5m2fnuz": "e5m2", "float6_e2m3fn": "e2m3",
        "float6_e3m2fn": "e3m2", "float4_e2m1fn": "e2m1",
    }
    # The shared-memory storage tags: the element type they hold, keyed by
    # their printed name (custom[...]8), as TileLang's table.
    for tag, abbrv in (("float4_e2m1_unpacked", "e2m1"),
                       ("float6_e2m3fn_unpacked", "e2m3"),
                       ("float6_e3m2fn_unpacked", "e3m2")):
        names[str(_dtype(tag))] = abbrv
    names["custom[tfloat32]"] = "tf32"
    return names


class _EmitterClass(_Placeholder):
    """The emitter class as module-level code sees it: a placeholder
    (calling it makes a placeholder tlc evaluates in the kernel) with the
    class attributes scripts read."""

    dtype_abbrv = _abbreviations()
    M_DIM = 16
    WARP_SIZE = 32


TensorCoreIntrinEmitter = _EmitterClass(f"{__name__}.TensorCoreIntrinEmitter")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(f"{__name__}.{name}")
