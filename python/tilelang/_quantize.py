"""Host-side weight packing of ``tilelang.quantize.utils``.

The fast dequantizing decoders (``get_lop3_intrin_group``: LOP3 on CUDA,
tlc's portable C on the CPU target) read 4-, 2- or 1-bit fields from
32-bit words in an interleaved order, so that one mask-and-or turns two
fields into the two halves of a ``half2`` (or four into the bytes of an
``int8x4``). Scripts pack their weights with :func:`general_compress` and
reorder each word with :func:`interleave_weight` before the call.

Both work on torch tensors (any device) and NumPy arrays.
"""


def _is_numpy(x):
    return type(x).__module__.split(".")[0] == "numpy"


def _word_destinations(nbits, target_dtype):
    """Where each bit of a 32-bit word goes: ``dest[i]`` is the output bit
    of input bit ``i``.

    Field ``f`` (``nbits`` wide, counted from bit 0) of a word goes to lane
    ``f % lanes`` of the target type's ``32 // lanes``-bit lanes, at field
    position ``f // lanes`` inside the lane (round robin over the lanes).
    For float16 targets 2-bit fields then swap the middle two bytes, and
    1-bit fields spread nibbles 1-6 as 2, 4, 6, 1, 3, 5; for int8 targets
    1-bit fields swap nibbles 1<->4 and 3<->6."""
    lane_bits = 8 if target_dtype == "int8" else 16
    lanes = 32 // lane_bits
    dest = [0] * 32
    for field in range(32 // nbits):
        base = (field % lanes) * lane_bits + (field // lanes) * nbits
        for b in range(nbits):
            dest[field * nbits + b] = base + b
    nibble_moves = None
    if nbits == 1 and target_dtype == "int8":
        nibble_moves = {1: 4, 4: 1, 3: 6, 6: 3}
    elif nbits == 1 and target_dtype == "float16":
        nibble_moves = {1: 2, 2: 4, 3: 6, 4: 1, 5: 3, 6: 5}
    elif nbits == 2 and target_dtype == "float16":
        nibble_moves = {2: 4, 3: 5, 4: 2, 5: 3}  # bytes 1 <-> 2
    if nibble_moves:
        def move(bit):
            nib = nibble_moves.get(bit // 4, bit // 4)
            return nib * 4 + bit % 4
        dest = [move(d) for d in dest]
    assert sorted(dest) == list(range(32))
    return dest


def _dtype_name(dtype):
    name = str(dtype)
    return name.replace("torch.", "")


def interleave_weight(qweight, nbits=4, target_dtype="float16"):
    """Reorder the ``nbits``-bit fields of every 32-bit word of ``qweight``
    (packed by :func:`general_compress`; its bytes are read as int32 words,
    so its last extent's byte count must be a multiple of 4) into the order
    the ``target_dtype`` (``"float16"`` or ``"int8"``) decoders expect.
    Returns the words' bytes as an int8 tensor (array) of ``qweight``'s
    shape in bytes."""
    target = _dtype_name(target_dtype)
    if target not in ("float16", "int8"):
        raise ValueError(f"interleave_weight: target_dtype must be float16 "
                         f"or int8, got {target_dtype!r}")
    if nbits not in (1, 2, 4):
        raise ValueError(f"interleave_weight: nbits must be 1, 2 or 4, got "
                         f"{nbits!r}")
    dest = _word_destinations(nbits, target)
    if _is_numpy(qweight):
        import numpy as np
        words = np.ascontiguousarray(qweight).view(np.int32).astype(
            np.int64) & 0xFFFFFFFF
        out = np.zeros_like(words)
        for src, dst in enumerate(dest):
            out |= ((words >> src) & 1) << dst
        out = np.where(out >= 1 << 31, out - (1 << 32), out).astype(np.int32)
        return out.view(np.int8)
    import torch
    words = qweight.contiguous().view(torch.int32).to(torch.int64) \
        & 0xFFFFFFFF
    out = torch.zeros_like(words)
    for src, dst in enumerate(dest):
        out |= ((words >> src) & 1) << dst
    out = torch.where(out >= 1 << 31, out - (1 << 32), out).to(torch.int32)
    return out.view(torch.int8)


def general_compress(lowprecision_weight, source_bits=4, storage_dtype=None):
    """Pack ``source_bits``-bit values (the low bits of each element, last
    axis) into bytes, element ``k`` of each byte at bit ``source_bits * k``;
    the result is viewed as ``storage_dtype`` (int8 by default)."""
    if source_bits not in (1, 2, 4, 8):
        raise ValueError(f"general_compress: source_bits must be 1, 2, 4 or "
                         f"8, got {source_bits!r}")
    per_byte = 8 // source_bits
    w = lowprecision_weight
    if w.shape[-1] % per_byte:
        raise ValueError(f"general_compress: the last extent {w.shape[-1]} "
                         f"is not a multiple of {per_byte}")
    mask = (1 << source_bits) - 1
    if _is_numpy(w):
        import numpy as np
        w = w.astype(np.int64) & mask
        w = w.reshape(*w.shape[:-1], w.shape[-1] // per_byte, per_byte)
        packed = np.zeros(w.shape[:-1], np.int64)
        for k in range(per_byte):
            packed |= w[..., k] << (source_bits * k)
        packed = np.where(packed >= 128, packed - 256, packed).astype(np.int8)
        return packed.view(storage_dtype or np.int8)
    import torch
    w = w.to(torch.int64) & mask
    w = w.reshape(*w.shape[:-1], w.shape[-1] // per_byte, per_byte)
    packed = torch.zeros(w.shape[:-1], dtype=torch.int64, device=w.device)
    for k in range(per_byte):
        packed |= w[..., k] << (source_bits * k)
    packed = torch.where(packed >= 128, packed - 256, packed).to(torch.int8)
    return packed if storage_dtype is None else packed.view(storage_dtype)
