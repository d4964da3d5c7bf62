"""``tilelang.cuda.intrinsics.macro``: TileLang's CUDA instruction
emitters' modules (``mma_macro_generator``, ``wgmma_macro_generator``,
...). Their host-side facts that scripts compute with at module level are
Python here (``select_wgmma_inst_n``, ``TensorCoreIntrinEmitter.
dtype_abbrv``); any other name is a placeholder, as in
``tilelang.intrinsics`` (tlc generates the instructions itself)."""

from ...language._objects import Placeholder as _Placeholder


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(f"{__name__}.{name}")
