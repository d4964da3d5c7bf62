"""Calling built kernels: the CPU entry point and the CUDA and HIP C APIs
via ctypes.

A CPU artifact is ``NAME.so`` with ``int ENTRY(const tlc_cpu_args *)``
(``runtime/device/include/tlc_device/cpu.h``); a CUDA artifact is a cubin or
fatbin launched through ``libtlc_cuda.so`` (``runtime/cuda/include/
tlc_cuda.h``), which opens the CUDA driver itself and uses the device's
primary context, the one PyTorch uses, on the current torch stream. A HIP
artifact (ROCm torch) is launched through ``libtlc_hip.so``
(``runtime/hip/include/tlc_hip.h``), which opens libamdhip64 itself, on the
current torch stream; with ``TLC_HIP_DEVICE=sim`` it runs on tlc's sim
device with CPU tensors instead (a test and debug facility).
"""

import ctypes
import math
import os
import struct
import threading

from . import _ast_parse

_CPU_ABI_VERSION = 1


class _CpuArgs(ctypes.Structure):
    _fields_ = [
        ("abiVersion", ctypes.c_uint32),
        ("numParams", ctypes.c_uint32),
        ("params", ctypes.POINTER(ctypes.c_void_p)),
        ("numSymbols", ctypes.c_uint32),
        ("symbols", ctypes.POINTER(ctypes.c_int64)),
        ("numWorkers", ctypes.c_int32),
        ("error", ctypes.c_char_p),
        ("errorSize", ctypes.c_size_t),
    ]


class KernelRunError(RuntimeError):
    """A kernel failed while running (the message is the runtime's)."""


def eval_extent(expr, symbols):
    """Value of a manifest extent: an int or an expression over the
    symbols in Python syntax (``ceildiv(m, 128)``, ``(M) * 4``)."""
    if isinstance(expr, int):
        return expr
    env = {"ceildiv": lambda a, b: -(-a // b), "min": min, "max": max}
    env.update(symbols)
    try:
        return int(eval(expr, {"__builtins__": {}}, env))  # noqa: S307
    except NameError as e:
        raise ValueError(f"extent '{expr}' uses an unbound symbol: {e}") \
            from None


def extent_names(expr):
    """The symbol names a manifest extent expression reads (not the
    ``ceildiv`` / ``min`` / ``max`` it calls)."""
    if isinstance(expr, int):
        return set()
    import ast
    try:
        tree = _ast_parse.parse(expr, mode="eval")
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - \
        {"ceildiv", "min", "max"}


def solve_affine_extent(expr, name, value, symbols):
    """The integer ``v`` with ``eval_extent(expr, {name: v, **symbols})
    == value`` when ``expr`` is affine in ``name`` (``n * 4``, ``n + 1``,
    ``2 * (n - 1)``: checked on three points), else None. A dimension
    written over a symbol binds it as TileLang's does; the caller still
    checks every dimension against the bound values."""
    def at(v):
        try:
            return eval_extent(expr, {**symbols, name: v})
        except (ValueError, ZeroDivisionError, TypeError):
            return None
    f0, f1, f2 = at(0), at(1), at(2)
    if None in (f0, f1, f2) or f1 - f0 == 0 or f2 - f1 != f1 - f0:
        return None
    step = f1 - f0
    if (value - f0) % step:
        return None
    v = (value - f0) // step
    return v if at(v) == value else None


def _half_bits(v):
    """IEEE binary16 bits of float ``v``, rounded to nearest even
    (overflow to infinity, as a float16 cast does)."""
    try:
        return struct.unpack("<H", struct.pack("<e", v))[0]
    except OverflowError:
        return 0xFC00 if v < 0 else 0x7C00


def _bfloat16_bits(v):
    """bfloat16 bits of float ``v``: float32 rounded to nearest even."""
    try:
        bits = struct.unpack("<I", struct.pack("<f", v))[0]
    except OverflowError:
        bits = 0xFF800000 if v < 0 else 0x7F800000
    if math.isnan(v):
        return 0x7FC0
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def scalar_value(dtype, v):
    """A ctypes object holding scalar ``v`` as the kernel's ``dtype``
    stores it (16-bit floats as their bit patterns), or None when the
    package cannot pass that dtype."""
    if dtype == "float16":
        return ctypes.c_uint16(_half_bits(float(v)))
    if dtype == "bfloat16":
        return ctypes.c_uint16(_bfloat16_bits(float(v)))
    ctype = scalar_ctype(dtype)
    return None if ctype is None else ctype(v)


def scalar_ctype(dtype):
    """The ctypes type of a scalar parameter of manifest dtype ``dtype``."""
    return {
        "bool": ctypes.c_bool, "int8": ctypes.c_int8,
        "int16": ctypes.c_int16, "int32": ctypes.c_int32,
        "int64": ctypes.c_int64, "uint8": ctypes.c_uint8,
        "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32,
        "uint64": ctypes.c_uint64, "float32": ctypes.c_float,
        "float64": ctypes.c_double, "handle": ctypes.c_uint64,
    }.get(dtype)


class CpuLauncher:
    """Runs ``NAME.so`` of a ``--target=cpu`` artifact."""

    def __init__(self, out_dir, manifest):
        path = os.path.join(out_dir, manifest["binary"])
        self._lib = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
        self._entry = getattr(self._lib, manifest["entry"])
        self._entry.argtypes = [ctypes.POINTER(_CpuArgs)]
        self._entry.restype = ctypes.c_int
        self.name = manifest["name"]
        self.workers = int(os.environ.get("TLC_CPU_THREADS",
                                          os.cpu_count() or 1))

    def launch(self, pointers, symbols, stream=None):
        """``pointers``: one address per parameter (tensor data or the
        address of a scalar's value); ``symbols``: ints in manifest order."""
        params = (ctypes.c_void_p * max(1, len(pointers)))(*pointers)
        syms = (ctypes.c_int64 * max(1, len(symbols)))(*symbols)
        message = ctypes.create_string_buffer(2048)
        args = _CpuArgs(_CPU_ABI_VERSION, len(pointers), params, len(symbols),
                        syms, self.workers,
                        ctypes.cast(message, ctypes.c_char_p), len(message))
        if self._entry(ctypes.byref(args)) != 0:
            text = message.value.decode(errors="replace") or "unknown error"
            raise KernelRunError(f"kernel '{self.name}' failed: {text}")


# -- CUDA ---------------------------------------------------------------------

_cuda_lock = threading.Lock()
# tlc_cuda.h's TLC_CUDA_LAUNCH_COOPERATIVE.
_LAUNCH_COOPERATIVE = 1
_cuda_contexts = {}


def _find_runtime(kind):
    """The path of ``libtlc_<kind>.so``: ``$TLC_<KIND>_RUNTIME``, else the
    source tree's build, else the name for the loader's search."""
    env = os.environ.get(f"TLC_{kind.upper()}_RUNTIME")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    name = f"libtlc_{kind}.so"
    for candidate in (os.path.join(root, "build", "lib", name),
                      os.path.join(root, "build", "runtime", kind, name)):
        if os.path.exists(candidate):
            return candidate
    return name


_libraries = {}
_libraries_lock = threading.Lock()


def _open_runtime(kind, declare):
    """``libtlc_<kind>.so``, loaded once per process, with what the CUDA and
    HIP C APIs share declared (``lib.last_error`` is
    ``tlc_<kind>_last_error``; ``_context_create``, ``_module_load_file``,
    ``_module_get_kernel``) and the rest by ``declare(lib)``."""
    with _libraries_lock:
        lib = _libraries.get(kind)
        if lib is not None:
            return lib
        path = _find_runtime(kind)
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise RuntimeError(
                f"cannot load tlc's {kind.upper()} runtime '{path}' ({e}); "
                f"build the target tlc_{kind} (ninja -C build "
                f"lib/libtlc_{kind}.so) or set TLC_{kind.upper()}_RUNTIME") \
                from None
        vp = ctypes.c_void_p
        lib.last_error = getattr(lib, f"tlc_{kind}_last_error")
        lib.last_error.restype = ctypes.c_char_p
        getattr(lib, f"tlc_{kind}_context_create").argtypes = [
            ctypes.c_int, ctypes.POINTER(vp)]
        for name in ("module_load_file", "module_get_kernel"):
            getattr(lib, f"tlc_{kind}_{name}").argtypes = [
                vp, ctypes.c_char_p, ctypes.POINTER(vp)]
        declare(lib)
        _libraries[kind] = lib
        return lib


def _create_context(lib, kind, ordinal):
    """A new context of device ``ordinal`` (``tlc_<kind>_context_create``)."""
    handle = ctypes.c_void_p()
    _check(getattr(lib, f"tlc_{kind}_context_create")(
        ordinal, ctypes.byref(handle)),
        f"cannot open {kind.upper()} device {ordinal}", lib)
    return handle


def cuda_library():
    """The loaded ``libtlc_cuda.so`` with argument types declared."""
    return _open_runtime("cuda", _declare_cuda)


def _declare_cuda(lib):
    vp = ctypes.c_void_p
    lib.tlc_cuda_kernel_launch_flags.argtypes = [
        vp, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
        ctypes.c_uint, vp, ctypes.POINTER(vp), ctypes.c_uint]
    lib.tlc_cuda_module_destroy.argtypes = [vp]
    u64p = ctypes.POINTER(ctypes.c_uint64)
    lib.tlc_cuda_tensor_map_encode.argtypes = [
        vp, ctypes.c_char_p, ctypes.c_uint, ctypes.c_uint64, u64p, u64p,
        ctypes.POINTER(ctypes.c_uint), ctypes.c_int, ctypes.c_int, vp]


def _check(rc, what, lib=None):
    if rc != 0:
        lib = lib or cuda_library()
        msg = lib.last_error().decode(errors="replace")
        raise KernelRunError(f"{what}: {msg or f'error {rc}'}")


def _cuda_context(ordinal):
    lib = cuda_library()
    with _cuda_lock:
        ctx = _cuda_contexts.get(ordinal)
        if ctx is None:
            ctx = _cuda_contexts[ordinal] = _create_context(lib, "cuda",
                                                            ordinal)
        return ctx


class CudaLauncher:
    """Launches the kernels of a CUDA artifact, in manifest order, on a
    stream. Kernel arguments: the parameters, the launch's workspaces, the
    symbols as ``long long``, then the launch's TMA tensor maps (encoded
    over the call's tensors by ``tlc_cuda_tensor_map_encode``, by value)."""

    def __init__(self, out_dir, manifest, device_index):
        self.lib = cuda_library()
        self.name = manifest["name"]
        ctx = _cuda_context(device_index)
        self._ctx = ctx
        self._params = [p["name"] for p in manifest.get("params", [])]
        self._module = ctypes.c_void_p()
        path = os.path.join(out_dir, manifest["binary"])
        _check(self.lib.tlc_cuda_module_load_file(
            ctx, path.encode(), ctypes.byref(self._module)),
            f"cannot load '{path}'")
        self.launches = []
        for launch in manifest.get("launches", []):
            entry = launch.get("entry", manifest["entry"])
            kernel = ctypes.c_void_p()
            _check(self.lib.tlc_cuda_module_get_kernel(
                self._module, entry.encode(), ctypes.byref(kernel)),
                f"kernel '{entry}' not in '{path}'")
            self.launches.append((kernel, launch))
        self.workspace_names = [w["name"] for w in
                                manifest.get("workspaces", [])]

    def _tensor_map(self, tm, values_in, storage):
        """Encodes the manifest tensor map ``tm`` over the tensor argument it
        names; returns the address of the 128-byte map (kept in storage)."""
        address = values_in[self._params.index(tm["param"])].value
        rank = len(tm["dims"])
        buf = ctypes.create_string_buffer(128 + 64)
        aligned = (ctypes.addressof(buf) + 63) // 64 * 64
        storage.append(buf)
        l2 = {"none": 0, "64B": 64, "128B": 128, "256B": 256}[
            tm.get("l2_promotion", "128B")]
        _check(self.lib.tlc_cuda_tensor_map_encode(
            self._ctx, tm["dtype"].encode(), rank, address,
            (ctypes.c_uint64 * rank)(*tm["dims"]),
            (ctypes.c_uint64 * max(1, rank - 1))(*tm["strides"]),
            (ctypes.c_uint * rank)(*tm["box"]), tm.get("swizzle", 0), l2,
            ctypes.c_void_p(aligned)),
            f"kernel '{self.name}': tensor map of '{tm['param']}'")
        return ctypes.c_void_p(aligned)

    def launch(self, values_in, symbols, stream=None, workspaces=None,
               symbol_env=None):
        """``values_in``: one ctypes value per parameter (``c_uint64`` device
        addresses of tensors, scalars in their own type)."""
        workspaces = workspaces or {}
        storage = []
        for kernel, launch in self.launches:
            values = list(values_in)
            values += [ctypes.c_uint64(workspaces[w])
                       for w in launch.get("workspaces", [])]
            values += [ctypes.c_longlong(s) for s in symbols]
            storage.append(values)
            pointers = [ctypes.cast(ctypes.byref(v), ctypes.c_void_p)
                        for v in values]
            for tm in launch.get("tensor_maps", []):
                pointers.append(self._tensor_map(tm, values_in, storage))
            argv = (ctypes.c_void_p * max(1, len(pointers)))(*pointers)
            grid = [eval_extent(g, symbol_env or {}) for g in launch["grid"]]
            block = [eval_extent(b, symbol_env or {}) for b in launch["block"]]
            grid += [1] * (3 - len(grid))
            block += [1] * (3 - len(block))
            if min(grid) <= 0:
                continue  # an empty grid launches nothing
            g = (ctypes.c_uint * 3)(*grid)
            b = (ctypes.c_uint * 3)(*block)
            shared = eval_extent(launch.get("dynamic_shared_memory", 0),
                                 symbol_env or {})
            # T.sync_grid: every block resident at once (cooperative).
            flags = _LAUNCH_COOPERATIVE if launch.get("cooperative") else 0
            _check(self.lib.tlc_cuda_kernel_launch_flags(
                kernel, g, b, shared, ctypes.c_void_p(stream or 0), argv,
                flags),
                f"launch of kernel '{self.name}' failed")


# -- HIP ----------------------------------------------------------------------

_hip_lock = threading.Lock()
_hip_contexts = {}


class _HipDeviceInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 256), ("simulated", ctypes.c_int)]


def hip_library():
    """The loaded ``libtlc_hip.so`` with argument types declared."""
    return _open_runtime("hip", _declare_hip)


def _declare_hip(lib):
    vp = ctypes.c_void_p
    lib.tlc_hip_device_count.argtypes = [ctypes.POINTER(ctypes.c_int)]
    lib.tlc_hip_context_info.argtypes = [vp, ctypes.POINTER(_HipDeviceInfo)]
    lib.tlc_hip_kernel_launch.argtypes = [
        vp, ctypes.POINTER(vp), ctypes.c_size_t,
        ctypes.POINTER(ctypes.c_int64), ctypes.c_size_t, ctypes.POINTER(vp),
        vp]


def hip_context(ordinal):
    """``(handle, simulated)`` of HIP device ``ordinal``, opened once per
    process; a ``KernelRunError`` says why when there is no HIP runtime
    or no AMD GPU (and is raised again by the next call)."""
    lib = hip_library()
    with _hip_lock:
        ctx = _hip_contexts.get(ordinal)
        if ctx is None:
            handle = _create_context(lib, "hip", ordinal)
            info = _HipDeviceInfo()
            _check(lib.tlc_hip_context_info(handle, ctypes.byref(info)),
                   f"HIP device {ordinal}", lib)
            ctx = _hip_contexts[ordinal] = (handle, bool(info.simulated))
        return ctx


class HipLauncher:
    """Launches the kernel instance of a HIP artifact (every launch of its
    manifest: grid, block and LDS from it) through ``tlc_hip.h`` on a
    stream. ``simulated``: the context is the sim device, which takes
    host (CPU tensor) addresses and runs to completion."""

    def __init__(self, out_dir, manifest, device_index):
        self.lib = hip_library()
        self.name = manifest["name"]
        ctx, self.simulated = hip_context(device_index)
        self._module = ctypes.c_void_p()
        path = os.path.join(out_dir, manifest["name"] + ".json")
        _check(self.lib.tlc_hip_module_load_file(
            ctx, path.encode(), ctypes.byref(self._module)),
            f"cannot load '{path}'", self.lib)
        self._kernel = ctypes.c_void_p()
        _check(self.lib.tlc_hip_module_get_kernel(
            self._module, self.name.encode(), ctypes.byref(self._kernel)),
            f"cannot load kernel '{self.name}'", self.lib)
        self._tensor = [p["kind"] == "tensor"
                        for p in manifest.get("params", [])]
        self.workspace_names = [w["name"] for w in
                                manifest.get("workspaces", [])]

    def launch(self, values_in, symbols, stream=None, workspaces=None,
               symbol_env=None):
        """``values_in`` as for :class:`CudaLauncher` (``c_uint64`` device
        addresses of tensors, scalars in their own type); ``workspaces``:
        name -> device address (None: the runtime allocates them and
        waits)."""
        params = [ctypes.c_void_p(v.value) if tensor else
                  ctypes.cast(ctypes.byref(v), ctypes.c_void_p)
                  for v, tensor in zip(values_in, self._tensor)]
        argv = (ctypes.c_void_p * max(1, len(params)))(*params)
        syms = (ctypes.c_int64 * max(1, len(symbols)))(*symbols)
        spaces = None
        if workspaces is not None and self.workspace_names:
            spaces = (ctypes.c_void_p * len(self.workspace_names))(
                *[workspaces[n] for n in self.workspace_names])
        _check(self.lib.tlc_hip_kernel_launch(
            self._kernel, argv, len(params), syms, len(symbols), spaces,
            ctypes.c_void_p(stream or 0)),
            f"launch of kernel '{self.name}' failed", self.lib)
