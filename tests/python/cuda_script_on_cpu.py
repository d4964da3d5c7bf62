"""Runs a TileLang script written for a CUDA GPU on the package's CPU target.

    /usr/bin/python3 tests/python/cuda_script_on_cpu.py SCRIPT [ARGS...]

Public TileLang scripts put their tensors on ``"cuda"`` and compare with
torch references in float16. This runner lets such a script run, unchanged,
with Debian's CPU-only torch (1.13):

* every kernel is built for tlc's ``cpu`` target (``target="cuda"``,
  ``"auto"`` and the default resolve to it);
* torch calls that name the CUDA device (``.cuda()``, ``device="cuda"``,
  ``.to("cuda")``) get the CPU; ``torch.cuda.synchronize`` / ``Event`` /
  ``current_stream`` / ``Stream`` / ``stream(s)`` / ``manual_seed`` work
  on the host clock (every stream is the host's one order of work), and
  ``torch.Generator(device="cuda")`` is a host generator;
* ``torch.cuda.is_available()`` is true and the device queries
  (``get_device_capability``, ``get_device_properties``, ``device_count``)
  describe an sm_90 device, for scripts that check for a GPU or size grids
  by its SM count;
* a torch operation that CPU torch 1.13 does not implement for float16 or
  bfloat16 ("... not implemented for 'Half'": matmul, softmax, exp, ...) is
  run on float32 copies of its 16-bit operands and its floating results are
  rounded back to the operands' dtype, as the GPU's half-precision kernels
  accumulate in float32 and round once;
* ``tilelang.testing.requires_cuda`` lets the test run;
* ``@torch.compile`` (torch >= 2) leaves what it decorates as it is;
* in a flat corpus (upstream's ``examples/DIR/FILE.py`` stored as
  ``DIR__FILE.py``) a script's sibling import ``FILE`` finds ``DIR__FILE.py``;
* ``TLC_STACKS_EVERY=S`` prints every thread's Python stack every S seconds
  (where a slow script's time goes).

The script's own checks decide the exit status. Nothing here changes what a
kernel computes: tlc's CPU target runs the same Tile IR instance that a CUDA
build would lower.
"""

import os
import runpy
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

try:
    import torch  # noqa: E402
except ImportError:
    print("SKIP: torch is not installed (Debian: apt-get install "
          "python3-torch)")
    sys.exit(77)
from torch.overrides import TorchFunctionMode  # noqa: E402

_LOW = (torch.float16, torch.bfloat16)


def _cpu_device(d):
    if isinstance(d, torch.device) and d.type == "cuda":
        return torch.device("cpu")
    if isinstance(d, str) and d.startswith("cuda"):
        return "cpu"
    if isinstance(d, int) and not isinstance(d, bool):
        return "cpu"
    return d


def _map(x, f):
    if isinstance(x, (list, tuple)):
        return type(x)(_map(v, f) for v in x)
    if isinstance(x, dict):
        return {k: _map(v, f) for k, v in x.items()}
    return f(x)


def _low_dtype(args, kwargs):
    found = []

    def see(x):
        if isinstance(x, torch.Tensor) and x.dtype in _LOW:
            found.append(x.dtype)
        return x
    _map(args, see)
    _map(kwargs, see)
    return found[0] if found else None


class _CudaOnCpu(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        name = getattr(func, "__name__", "")
        if name == "cuda":           # Tensor.cuda(): stays on the host
            return args[0]
        if "device" in kwargs:
            kwargs["device"] = _cpu_device(kwargs["device"])
        if name == "to":
            args = (args[0],) + tuple(_cpu_device(a) for a in args[1:])
        try:
            return func(*args, **kwargs)
        except RuntimeError as e:
            low = _low_dtype(args, kwargs)
            if low is None or "not implemented for" not in str(e):
                raise

        def up(x):
            if isinstance(x, torch.Tensor) and x.dtype in _LOW:
                return x.float()
            return x

        def down(x):
            if isinstance(x, torch.Tensor) and x.dtype == torch.float32:
                return x.to(low)
            return x
        return _map(func(*_map(args, up), **_map(kwargs, up)), down)


class _Event:
    """torch.cuda.Event on the host clock."""

    def __init__(self, enable_timing=False, **_):
        self.t = None

    def record(self, stream=None):
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return (end.t - self.t) * 1e3


class _Stream:
    """torch.cuda.Stream on the host: work runs in order, as on one
    stream (``torch.cuda.Stream()`` and ``with torch.cuda.stream(s):``)."""
    cuda_stream = 0

    def __init__(self, *args, **kwargs):
        pass

    def synchronize(self):
        pass

    def wait_stream(self, other):
        pass

    def wait_event(self, event):
        pass

    def record_event(self, event=None):
        event = event or _Event()
        event.record()
        return event


class _StreamContext:
    def __init__(self, stream=None):
        self.stream = stream

    def __enter__(self):
        return self.stream

    def __exit__(self, *exc):
        return False


class _DeviceProperties:
    """torch.cuda.get_device_properties() of the stand-in device: an H100
    SXM's figures (the GPU the public scripts are staged for)."""
    name = "tlc CPU target (as sm_90)"
    major, minor = 9, 0
    multi_processor_count = 132
    total_memory = 80 * 2**30
    shared_memory_per_block = 48 * 1024
    shared_memory_per_block_optin = 227 * 1024
    regs_per_multiprocessor = 65536
    L2_cache_size = 50 * 2**20
    warp_size = 32


def _install():
    os.environ.setdefault("TILELANG_DEFAULT_TARGET", "cpu")
    cuda = torch.cuda
    cuda.synchronize = lambda *a, **k: None
    cuda.Event = _Event
    cuda.current_stream = lambda *a, **k: _Stream()
    cuda.default_stream = lambda *a, **k: _Stream()
    cuda.Stream = _Stream
    cuda.stream = _StreamContext
    cuda.manual_seed = lambda *a, **k: None
    cuda.manual_seed_all = lambda *a, **k: None
    cuda.empty_cache = lambda *a, **k: None
    # The device a script prints or picks paths by: the H100/H200 the
    # public scripts are staged for.
    cuda.get_device_name = lambda *a, **k: "tlc CPU target (as sm_90)"
    cuda.get_device_capability = lambda *a, **k: (9, 0)
    # Scripts that check for a device before they start
    # (``if not torch.cuda.is_available(): raise``) or size their grids by
    # its SM count see one: the CPU stands in for it.
    cuda.is_available = lambda: True
    cuda.device_count = lambda: 1
    cuda.current_device = lambda: 0
    cuda.set_device = lambda *a, **k: None
    cuda.device = _StreamContext
    cuda.get_device_properties = lambda *a, **k: _DeviceProperties()
    if not hasattr(torch, "compile"):
        # torch >= 2's compiler (``@torch.compile`` on a function or an
        # autograd.Function class): it only makes the same computation
        # faster, so 1.13 runs the code as it is.
        def compile(model=None, **_):
            return model if model is not None else (lambda m: m)
        torch.compile = compile
    host_generator = torch.Generator

    class _Generator(host_generator):
        """torch.Generator(device="cuda"): the host's generator."""

        def __new__(cls, device="cpu"):
            return host_generator(device=_cpu_device(device))
    torch.Generator = _Generator

    import tilelang  # noqa: F401
    from tilelang import _jit, _target_resolve, autotuner, testing
    resolve = _jit.resolve_target

    def to_cpu(target):
        # Every spelling of a CUDA target (a string, a dict such as
        # {"kind": "cuda", "arch": "sm_90"}, a tvm.target.Target, "auto")
        # resolves to a cuda: target first, then to the CPU.
        resolved = resolve(target if target is not None else "cpu")
        return "cpu" if resolved.startswith("cuda") else resolved
    _jit.resolve_target = to_cpu
    _target_resolve.resolve_target = to_cpu  # what the compilers call
    autotuner.resolve_target = to_cpu
    testing.requires_cuda = testing._Requirement(lambda: True,
                                                 "runs on the CPU target")
    mode = _CudaOnCpu()
    mode.__enter__()


class _FlatSiblings:
    """Sibling imports of a script of a flat corpus: /work/corpus holds
    upstream's ``examples/flash_decoding/example_gqa_decode.py`` as
    ``flash_decoding__example_gqa_decode.py``; a script of that folder
    (``flash_decoding__test_example_flash_decoding.py``) imports
    ``example_gqa_decode``, which is then that file, as upstream's folder
    layout makes it. Only a module no other path has."""

    def __init__(self, directory, prefix):
        self.directory = directory
        self.prefix = prefix

    def find_spec(self, name, path=None, target=None):
        import importlib.util
        if path is not None or "." in name:
            return None
        candidate = os.path.join(self.directory,
                                 f"{self.prefix}__{name}.py")
        if not os.path.isfile(candidate):
            return None
        return importlib.util.spec_from_file_location(name, candidate)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    script = os.path.abspath(sys.argv[1])
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(script))
    stem = os.path.basename(script)
    if "__" in stem.strip("_"):
        sys.meta_path.append(_FlatSiblings(os.path.dirname(script),
                                           stem.rsplit("__", 1)[0]))
    _install()
    every = os.environ.get("TLC_STACKS_EVERY")
    if every:
        # Where a slow script spends its time: every S seconds, the Python
        # stacks of all threads on stderr (a tlc-build wait, a kernel's
        # ctypes call, a torch reference, the package's own loops).
        import faulthandler
        faulthandler.dump_traceback_later(float(every), repeat=True)
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
