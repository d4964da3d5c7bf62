"""Metadata sizes of 2:4 (and TF32's 1:2) structured sparsity, as
``T.gemm_sp`` reads them: a script sizes its metadata tensor ``E`` as
``(M, K // get_e_factor(a_dtype, meta_dtype))``.

Facts of the sparse MMA instructions: every group of ``group`` consecutive
K elements (4, or 2 for float32/TF32) keeps ``kept`` of them and spends 4
metadata bits on their positions, TF32 included; so one metadata element
of ``b`` bits covers ``b // 4`` groups.
"""

from ..._dtype import dtype as _dtype

# a dtype -> (elements kept, group size)
SPARSITY = {
    "float32": (1, 2),
    "float16": (2, 4),
    "bfloat16": (2, 4),
    "int8": (2, 4),
    "uint8": (2, 4),
    "float8_e4m3": (2, 4),
    "float8_e4m3fn": (2, 4),
    "float8_e5m2": (2, 4),
}
METADATA_BITS_PER_GROUP = 4


def _name(t):
    name = str(_dtype(str(t)))
    return "float32" if name == "float" else name


def sparsity(a_dtype):
    """``(kept, group)`` of ``a_dtype``; KeyError (TileLang's table lookup)
    for a type the sparse instructions do not take."""
    name = _name(a_dtype)
    if name not in SPARSITY:
        raise KeyError(f"structured sparsity is not defined for {name} "
                         f"(one of {', '.join(SPARSITY)})")
    return SPARSITY[name]


def get_e_factor(a_dtype, meta_dtype):
    """How many K elements of ``a_dtype`` one ``meta_dtype`` metadata
    element describes."""
    bits = _dtype(str(meta_dtype)).bits
    if bits % METADATA_BITS_PER_GROUP:
        raise ValueError(f"metadata dtype {meta_dtype} does not hold whole "
                         f"{METADATA_BITS_PER_GROUP}-bit groups")
    _, group = sparsity(a_dtype)
    return bits // METADATA_BITS_PER_GROUP * group


def get_e_replicate_factor(a_dtype):
    """How many consecutive threads of the instruction share one metadata
    value: 1 for 8-bit operands, 2 for wider ones."""
    sparsity(a_dtype)
    return 1 if _dtype(_name(a_dtype)).bits <= 8 else 2
