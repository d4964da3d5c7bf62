"""Torch tensors and NumPy arrays as kernel arguments."""

try:
    import torch
except ImportError:  # NumPy-only use on the CPU target
    torch = None
try:
    import numpy
except ImportError:
    numpy = None

# Manifest dtype -> the torch dtype attribute that stores it.
_TORCH_NAMES = {
    "bool": "bool", "int8": "int8", "int16": "int16", "int32": "int32",
    "int64": "int64", "uint8": "uint8", "uint16": "uint16",
    "uint32": "uint32", "uint64": "uint64", "float16": "float16",
    "bfloat16": "bfloat16", "float32": "float32", "float64": "float64",
    "float8_e4m3": "float8_e4m3fn", "float8_e4m3fn": "float8_e4m3fn",
    "float8_e5m2": "float8_e5m2", "float8_e4m3fnuz": "float8_e4m3fnuz",
    "float8_e5m2fnuz": "float8_e5m2fnuz", "handle": "int64",
    "tfloat32": "float32", "float4_e2m1fn": "float4_e2m1fn_x2",
    "int4": "int8", "uint4": "uint8",
}

# Dtypes stored two elements a byte (element 2k in the low nibble): the
# caller's tensor holds the bytes, its last extent half the kernel's, as
# torch.float4_e2m1fn_x2 or uint8 (a NumPy uint8 array on the CPU target);
# int4 in int8 bytes and uint4 in uint8 bytes, as TileLang's T.empty gives.
PACKED = {"float4_e2m1fn", "int4", "uint4"}

_NUMPY_NAMES = {
    "bool": "bool_", "int8": "int8", "int16": "int16", "int32": "int32",
    "int64": "int64", "uint8": "uint8", "uint16": "uint16",
    "uint32": "uint32", "uint64": "uint64", "float16": "float16",
    "float32": "float32", "float64": "float64", "handle": "int64",
    "float4_e2m1fn": "uint8", "int4": "int8", "uint4": "uint8",
}


def storage_shape(shape, name):
    """The shape of the tensor holding a kernel tensor of ``shape`` and
    manifest dtype ``name``: packed dtypes halve the last extent (which must
    be even, as torch's float4_e2m1fn_x2 packs along it; int4 likewise)."""
    if name not in PACKED or not shape:
        return list(shape)
    if shape[-1] % 2:
        raise ValueError(f"a {name} tensor's last extent must be even "
                         f"(two elements a byte), got {shape[-1]}")
    return list(shape[:-1]) + [shape[-1] // 2]


def torch_dtype(name):
    """The torch dtype of manifest dtype ``name`` (TypeError if none)."""
    if torch is None:
        raise TypeError("torch is not installed")
    attr = _TORCH_NAMES.get(name)
    result = getattr(torch, attr, None) if attr else None
    if result is None and name in PACKED:
        result = torch.uint8  # a torch without float4_e2m1fn_x2
    if result is None:
        raise TypeError(f"torch {torch.__version__} has no dtype for the "
                        f"kernel's '{name}'")
    return result


def numpy_dtype(name):
    if numpy is None or name not in _NUMPY_NAMES:
        raise TypeError(f"NumPy has no dtype for the kernel's '{name}'")
    return numpy.dtype(getattr(numpy, _NUMPY_NAMES[name]))


def is_torch(x):
    return torch is not None and isinstance(x, torch.Tensor)


def is_numpy(x):
    return numpy is not None and isinstance(x, numpy.ndarray)


def describe_dtype(x):
    return str(x.dtype).replace("torch.", "")


def matches_dtype(x, name):
    if is_torch(x):
        attr = _TORCH_NAMES.get(name)
        if name in PACKED and x.dtype == torch.uint8:
            return True
        return attr is not None and getattr(torch, attr, None) == x.dtype
    return name in _NUMPY_NAMES and x.dtype == numpy_dtype(name)


def device_of(x):
    """``"cpu"`` or ``"cuda:N"``."""
    if is_torch(x):
        if x.device.type == "cuda":
            return f"cuda:{x.device.index or 0}"
        return x.device.type
    return "cpu"


def is_contiguous(x):
    if is_torch(x):
        return x.is_contiguous()
    return x.flags["C_CONTIGUOUS"]


def contiguous(x):
    if is_torch(x):
        return x.contiguous()
    return numpy.ascontiguousarray(x)


def copy_into(view, dense):
    """Writes ``dense`` (a contiguous copy of ``view``) back into ``view``;
    on CUDA torch orders it after the launch on the current stream."""
    if is_torch(view):
        view.copy_(dense)
    else:
        view[...] = dense


def shares_memory(a, b):
    """Whether tensors (torch or NumPy) ``a`` and ``b`` may share memory:
    their storages' address ranges overlap."""
    def span(x):
        if is_torch(x):
            if x.numel() == 0:
                return None
            lo = hi = x.data_ptr()
            for n, s in zip(x.shape, x.stride()):
                d = (n - 1) * s * x.element_size()
                lo, hi = (lo + d, hi) if d < 0 else (lo, hi + d)
            return lo, hi + x.element_size()
        if x.size == 0:
            return None
        lo, hi = numpy.byte_bounds(x)
        return lo, hi
    sa, sb = span(a), span(b)
    return sa is not None and sb is not None and sa[0] < sb[1] and \
        sb[0] < sa[1]


def strides_of(x):
    """The element strides of a torch tensor or NumPy array."""
    if is_torch(x):
        return list(x.stride())
    return [st // x.itemsize for st in x.strides]


def empty_strided(shape, strides, name, like_numpy, device):
    """An output tensor of manifest dtype ``name`` with element ``strides``
    (a parameter the manifest gives strides)."""
    if like_numpy or torch is None:
        dt = numpy.dtype(numpy_dtype(name))
        span = 1 + sum(max(e - 1, 0) * st for e, st in zip(shape, strides))
        flat = numpy.empty(span if all(shape) else 0, dtype=dt)
        return numpy.lib.stride_tricks.as_strided(
            flat, shape=shape, strides=[st * dt.itemsize for st in strides])
    return torch.empty_strided(shape, strides, dtype=torch_dtype(name),
                               device=device)


def data_ptr(x):
    if is_torch(x):
        return x.data_ptr()
    return x.ctypes.data


def empty(shape, name, like_numpy, device):
    """An output tensor of manifest dtype ``name``."""
    shape = storage_shape(shape, name)
    if like_numpy or torch is None:
        return numpy.empty(shape, dtype=numpy_dtype(name))
    return torch.empty(shape, dtype=torch_dtype(name), device=device)
