# Helpers scripts and autotuners call outside kernels:
# `tilelang.engine.param.KernelParam(dtype=, shape=)` and the tensor supply
# of a scalar parameter (`tilelang.utils.tensor.get_tensor_supply`: a
# Python bool / int / float drawn as one element of a tensor, on no
# device), and `tilelang.utils.device` (IS_CUDA / IS_MPS, Event,
# get_current_device, device_synchronize) with the profiler's timing going
# through it (`tilelang.profiler.bench` / `torch_bench`). Checked against
# the values TileLang's supply types define (written out here) and
# torch's own device flags; on a CPU-only host, with torch.cuda faked
# where a CUDA device is needed.

import collections
import math
import types

import pytest
import tilelang
import tilelang.testing
import torch
from tilelang import tvm
from tilelang.engine.param import KernelParam
from tilelang.profiler import bench, torch_bench
from tilelang.utils import device as device_utils
from tilelang.utils.tensor import TensorSupplyType, get_tensor_supply

FLOATS = ("float16", "bfloat16", "float32", "float64")
INTS = ("int8", "int32", "int64", "uint8")


def draws(dtype, supply_type, n=400):
    supply = get_tensor_supply(supply_type)
    param = KernelParam(dtype=tvm.DataType(dtype), shape=[])
    return [supply(param) for _ in range(n)]


def test_kernel_param_forms():
    p = KernelParam(dtype=tvm.DataType("float16"), shape=[])
    assert p.is_scalar() and p.shape == [] and str(p.dtype) == "float16"
    assert p.torch_dtype() is torch.float16
    q = KernelParam("int32", [4, 8])
    assert not q.is_scalar() and q.shape == [4, 8] and str(q.dtype) == "int32"
    t = get_tensor_supply(TensorSupplyType.One)(q)
    assert t.shape == (4, 8) and t.dtype is torch.int32 and bool((t == 1).all())
    with pytest.raises(TypeError):
        KernelParam()


def test_scalar_types_and_values():
    for supply_type in TensorSupplyType:
        for name in FLOATS:
            assert all(type(v) is float for v in draws(name, supply_type, 20))
        for name in INTS:
            assert all(type(v) is int for v in draws(name, supply_type, 20))
        assert all(type(v) is bool for v in draws("bool", supply_type, 20))
    # Zero / One: exactly 0 and 1 of every family.
    for name in FLOATS + INTS + ("bool",):
        assert set(draws(name, TensorSupplyType.Zero, 5)) == {0}
        assert set(draws(name, TensorSupplyType.One, 5)) == {1}
    # Integer: the integers -2..2 (0..2 unsigned), every one drawn.
    for name in ("float32", "int32", "int8"):
        assert set(draws(name, TensorSupplyType.Integer)) == {-2, -1, 0, 1, 2}
    assert set(draws("uint8", TensorSupplyType.Integer)) == {0, 1, 2}
    assert set(draws("bool", TensorSupplyType.Integer)) == {False, True}
    # Auto: uniform in [-1, 1) for 16/32-bit floats, integers otherwise.
    vals = draws("float32", TensorSupplyType.Auto)
    assert all(-1 <= v < 1 for v in vals) and len(set(vals)) > 300
    assert abs(sum(vals) / len(vals)) < 0.15
    assert set(draws("float64", TensorSupplyType.Auto)) == {-2, -1, 0, 1, 2}
    # Normal: mean -1, deviation 1; Randn: mean 0, deviation 1.
    for supply_type, mean in ((TensorSupplyType.Normal, -1.0),
                              (TensorSupplyType.Randn, 0.0)):
        vals = draws("float64", supply_type, 2000)
        m = sum(vals) / len(vals)
        sd = math.sqrt(sum((v - m) ** 2 for v in vals) / len(vals))
        assert abs(m - mean) < 0.1 and abs(sd - 1) < 0.1
    # int8 under Uniform / Normal is all ones (TileLang's rule).
    assert set(draws("int8", TensorSupplyType.Uniform, 20)) == {1}


def test_scalar_supply_touches_no_device(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("the scalar supply asked torch.cuda")
    monkeypatch.setattr(torch.cuda, "is_available", refuse)
    monkeypatch.setattr(torch.cuda, "current_device", refuse)
    assert type(draws("float32", TensorSupplyType.Integer, 3)[0]) is float


def test_device_flags_on_this_host():
    assert device_utils.IS_CUDA is torch.cuda.is_available()
    mps = getattr(torch.backends, "mps", None)
    assert device_utils.IS_MPS is bool(mps is not None and mps.is_available())
    if not device_utils.IS_CUDA and not device_utils.IS_MPS:
        assert device_utils.Event is None
        assert device_utils.get_current_device() is None
        with pytest.raises(RuntimeError, match="No device is available"):
            device_utils.device_synchronize()


def test_explicit_devices(monkeypatch):
    calls = collections.Counter()

    def cuda_sync(*args):
        calls[("cuda",) + args] += 1
    monkeypatch.setattr(torch.cuda, "synchronize", cuda_sync)
    monkeypatch.setattr(torch, "mps", types.SimpleNamespace(
        synchronize=lambda *a: calls.update([("mps",) + a])), raising=False)
    for dev in (1, "cuda:1", torch.device("cuda:0"), torch.device("cuda")):
        device_utils.device_synchronize(dev)
        assert calls.pop(("cuda", dev)) == 1 and not calls
    for dev in ("mps", torch.device("mps:0")):
        device_utils.device_synchronize(dev)
        assert calls.pop(("mps",)) == 1 and not calls
    for dev in (torch.device("cpu"), "cpu", torch.device("meta")):
        with pytest.raises(ValueError, match="only supports CUDA/HIP or MPS"):
            device_utils.device_synchronize(dev)
    assert not calls


def test_profiler_times_through_the_device_helpers(monkeypatch):
    assert bench.Event is device_utils.Event is torch_bench.Event
    assert bench._cuda_synchronize is device_utils.device_synchronize
    assert torch_bench._cuda_synchronize is device_utils.device_synchronize
    assert bench.do_bench is tilelang.profiler.do_bench

    # do_bench's CUDA path records its events with device_utils.Event and
    # waits with device_synchronize: fake both and count.
    log = collections.Counter()

    class FakeEvent:
        def __init__(self, enable_timing=False):
            assert enable_timing
            log["event"] += 1

        def record(self):
            log["record"] += 1

        def elapsed_time(self, other):
            return 0.5

    monkeypatch.setattr(device_utils, "Event", FakeEvent)
    monkeypatch.setattr(device_utils, "device_synchronize",
                        lambda device=None: log.update(["sync"]))
    runs = []
    ms = tilelang.profiler.do_bench(lambda: runs.append(1), _n_warmup=2,
                                    _n_repeat=5, cuda=True)
    assert ms == 0.5
    assert log["event"] == 10 and log["record"] == 10 and log["sync"] >= 4
    assert len(runs) == 1 + 3 + 2 + 5


def test_do_bench_keywords(monkeypatch):
    # TileLang's do_bench keywords, honoured: device= picks the clock (CPU)
    # or the events (CUDA, faked and counted here), early_stop_baseline
    # returns the estimate when it is slower, grad_to_none clears .grad
    # before each timed run; bad values are ValueErrors before any run.
    log = collections.Counter()

    class FakeEvent:
        def __init__(self, enable_timing=False):
            log["event"] += 1

        def record(self):
            pass

        def elapsed_time(self, other):
            return 0.25

    monkeypatch.setattr(device_utils, "Event", FakeEvent)
    monkeypatch.setattr(device_utils, "device_synchronize",
                        lambda device=None: log.update(["sync"]))
    do_bench = tilelang.profiler.do_bench
    for dev in ("cpu", torch.device("cpu")):
        ms = do_bench(lambda: sum(range(1000)), _n_warmup=1, _n_repeat=4,
                      device=dev, return_mode="all")
        assert len(ms) == 4 and all(m > 0 and m != 0.25 for m in ms)
    assert not log
    for dev in (0, "cuda", "cuda:1", torch.device("cuda", 0)):
        assert do_bench(lambda: None, _n_warmup=1, _n_repeat=3,
                        device=dev) == 0.25
        assert log.pop("event") == 6 and log.pop("sync") >= 3
    for dev, msg in (("mps", "not supported on device mps"),
                     (torch.device("meta"), "not supported on device meta"),
                     (True, "must be an int, a str"),
                     ("gpu:0", "bad device")):
        with pytest.raises(ValueError, match=msg):
            do_bench(lambda: log.update(["ran"]), device=dev)
    with pytest.raises(ValueError, match="does not match"):
        do_bench(lambda: log.update(["ran"]), device="cuda", cuda=False)
    for kw, msg in ((dict(backend="perf"), "backend must be one of"),
                    (dict(cache_size=0), "cache_size must be a positive"),
                    (dict(early_stop_baseline="1"), "early_stop_baseline")):
        with pytest.raises(ValueError, match=msg):
            do_bench(lambda: log.update(["ran"]), cuda=False, **kw)
    assert not log
    assert do_bench(lambda: None, backend="wall", _n_repeat=2, cuda=False) > 0

    import time
    runs = []

    def slow():
        runs.append(1)
        time.sleep(0.003)
    est = do_bench(slow, early_stop_baseline=1.0, cuda=False)
    assert est >= 3 and len(runs) == 1 + 3  # the estimate only
    two = do_bench(slow, quantiles=[0.2, 0.8], early_stop_baseline=1.0,
                   cuda=False)
    assert len(two) == 2 and two[0] == two[1] >= 3
    runs.clear()
    assert do_bench(slow, early_stop_baseline=1e6, _n_warmup=1, _n_repeat=2,
                    cuda=False) >= 3
    assert len(runs) == 1 + 3 + 1 + 2

    x = torch.ones(3, requires_grad=True)
    seen = []

    def backward():
        seen.append(x.grad is None)
        x.grad = torch.ones(3)  # what a backward pass leaves
    x.grad = torch.ones(3)
    do_bench(backward, _n_warmup=2, _n_repeat=5, grad_to_none=[x],
             cuda=False)
    # The estimate and warm-up runs see the last run's gradient; each
    # timed run sees it cleared.
    assert seen == [False] * (1 + 3 + 2) + [True] * 5


if __name__ == "__main__":
    tilelang.testing.main()
