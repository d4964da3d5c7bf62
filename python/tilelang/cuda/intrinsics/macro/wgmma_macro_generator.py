"""``tilelang.cuda.intrinsics.macro.wgmma_macro_generator``: the WGMMA
instruction width TileLang picks for a warp's column tile
(``select_wgmma_inst_n``); other names are placeholders."""

import math as _math

from ....language._objects import Placeholder as _Placeholder


def select_wgmma_inst_n(warp_col_tiles):
    """The N of the ``wgmma.m64nNk*`` instruction for a warp group's
    ``warp_col_tiles`` columns: the widest N that divides them, is a
    multiple of 16 and at most 256 (Hopper's widths are the multiples of 8
    in [8, 256]), so a legal width such as 96 or 176 is one instruction
    and 384 is two of 192 (TileLang issue 2928). Column tiles with
    ``N % 16 == 8`` keep TileLang's former choice, gcd(N, 256)."""
    n = int(warp_col_tiles)
    if n <= 0 or n % 8:
        raise ValueError(f"warp_col_tiles must be a positive multiple of 8, "
                         f"got {warp_col_tiles}")
    if n % 16:
        return _math.gcd(n, 256)
    for width in range(min(n, 256), 15, -16):
        if n % width == 0:
            return width
    return 16


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(f"{__name__}.{name}")
