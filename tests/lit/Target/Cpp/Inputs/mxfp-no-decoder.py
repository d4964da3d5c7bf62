# TileLang's get_mxfp_intrin_group has no plain (untwiddled) decoder
# outside gfx950 targets: KeyError, as there (../quantize-mxfp-decode.py).
from tilelang.quantize import get_mxfp_intrin_group

# The untwiddled decoder without a target.
info = get_mxfp_intrin_group(out_dtype="bfloat16", use_twiddling=False)
