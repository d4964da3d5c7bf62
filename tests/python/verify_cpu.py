"""The differential mode (``TLC_VERIFY_CPU``, ``tilelang.tlc_verify_cpu``,
python/tilelang/_verify_cpu.py) without a GPU.

* The comparison against NumPy: for float16, bfloat16, float32 and float64
  with planted differences, the elements reported are exactly those NumPy's
  ``isclose(gpu, cpu, rtol, atol, equal_nan=True)`` rejects at tlc-run's
  tolerances (written here from runtime/lib/DType.cpp's table), with
  ``max_abs`` and ``rel_err`` as NumPy computes them; integers bit for bit
  (int64 values that float64 cannot tell apart); tlc-run's poison on one
  side is an unwritten element, on both an agreement.
* The whole path in the test mode (``check_cpu_target``): each kernel is
  built for ``cpu`` and checked against a second build of the same
  instance (the "twin"), run on host copies. A varlen kernel (cu_seqlens
  prefix sums, a T.dynamic total length bound from the call) agrees and
  its result matches NumPy; an in-place kernel updates the caller's tensor
  once; a change planted after the call is a DIFFER with the right count,
  and under ``strict`` an AssertionError naming the kernel and the first
  differing index; only the first TLC_VERIFY_CPU_CALLS calls are checked;
  a twin that cannot be built is reported and the call still runs.
* Order-free outputs (``TLC_VERIFY_CPU_SETS``, ``sets=``): a row permuted
  on the device side agrees as a multiset only when the tensor is named.
"""

import contextlib
import io
import os
import re

import numpy as np
import torch

import tilelang
import tilelang.language as T
from tilelang import _verify_cpu as V

# tlc-run --verify's tolerances (runtime/lib/DType.cpp), restated.
TOL = {torch.float16: ("float16", 1e-2, 1e-2),
       torch.bfloat16: ("bfloat16", 2e-2, 2e-2),
       torch.float32: ("float32", 1e-3, 1e-4),
       torch.float64: ("float64", 1e-7, 1e-9)}


@tilelang.jit(out_idx=[1], target="cpu")
def scale(M, N, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, 32), threads=128) as bx:
            for i, j in T.Parallel(32, N):
                B[bx * 32 + i, j] = A[bx * 32 + i, j] * 2
    return main


@tilelang.jit(target="cpu")
def accumulate(M, N):
    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), C: T.Tensor((M, N), T.float32)):
        with T.Kernel(M, threads=32) as bx:
            for j in T.Parallel(N):
                C[bx, j] = C[bx, j] + A[bx, j]
    return main


@tilelang.jit(out_idx=[1], target="cpu")
def first_half(M):
    @T.prim_func
    def main(A: T.Tensor((M,), T.float16), B: T.Tensor((M,), T.float16)):
        with T.Kernel(1, threads=32):
            for i in T.serial(M // 2):
                B[i] = A[i] + A[i]
    return main


@tilelang.jit(out_idx=[2], target="cpu")
def varlen_scale(batch):
    total = T.dynamic("total")

    @T.prim_func
    def main(X: T.Tensor((total,), T.float32),
             cu_seqlens: T.Tensor((batch + 1,), T.int32),
             Y: T.Tensor((total,), T.float32)):
        with T.Kernel(batch, threads=1) as b:
            start = cu_seqlens[b]
            for i in T.serial(cu_seqlens[b + 1] - start):
                Y[start + i] = X[start + i] * (b + 1)
    return main


@tilelang.autotune(configs=[dict(block=32), dict(block=64)], warmup=1,
                   rep=2)
@tilelang.jit(out_idx=[1], target="cpu")
def tuned_scale(M, block=32):
    @T.prim_func
    def main(A: T.Tensor((M,), T.float32), B: T.Tensor((M,), T.float32)):
        with T.Kernel(T.ceildiv(M, block), threads=32) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] * 3
    return main


def lines_of(fn, *args):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        result = fn(*args)
    return result, [ln for ln in err.getvalue().splitlines()
                    if ln.startswith("[tlc-verify-cpu]")]


def plant(where):
    """After the device call, adds 1 to tensor NAME at flat indices."""
    def hook(kernel, device):
        for name, idx in where.items():
            device[name].view(-1)[idx] += 1
    return hook


def check_comparison():
    rng = np.random.default_rng(7)
    for tdt, (name, rtol, atol) in TOL.items():
        ref = torch.from_numpy(rng.standard_normal(4000) * 3).to(tdt)
        r64 = ref.to(torch.float64).numpy()
        bound = atol + rtol * np.abs(r64)
        # Around the tolerance: 0.2 to 2 times it, so a tolerance off by a
        # little changes the count.
        delta = np.zeros(4000)
        delta[:2000] = rng.uniform(0.2, 2.0, 2000) * bound[:2000]
        out = torch.from_numpy(r64 + delta).to(tdt)
        out[2500] = float("nan")               # NaN where cpu has a number
        out[2501] = ref[2501] = float("nan")   # both computed NaN: agree
        out[2502] = ref[2502] = float("inf")   # equal infinities
        out[2503], ref[2503] = float("inf"), 1.0
        o64, r64 = out.to(torch.float64).numpy(), ref.to(torch.float64).numpy()
        want = ~np.isclose(o64, r64, rtol=rtol, atol=atol, equal_nan=True)
        c = V.compare("t", out, ref, name)
        assert c.bad == int(want.sum()) and 500 < c.bad < 1500, \
            (name, c.bad, want.sum())
        assert c.first == (int(np.argmax(want)),), (name, c.first)
        fin = np.isfinite(o64) & np.isfinite(r64)
        with np.errstate(invalid="ignore"):
            d = np.abs(o64 - r64)[fin]
        assert c.max_abs == d.max(), (name, c.max_abs, d.max())
        rel = np.sqrt((d * d).sum() / (r64[fin] ** 2).sum())
        assert abs(c.rel_err - rel) <= 1e-12 * rel, (name, c.rel_err, rel)
        # One element just inside / just outside the tolerance.
        r1 = torch.tensor([1.0], dtype=torch.float64)
        for factor, bad in ((0.5, 0), (3.0, 1)):
            o1 = r1 + factor * (atol + rtol)
            if tdt != torch.float64:
                o1, r1t = o1.to(tdt), r1.to(tdt)
            else:
                r1t = r1
            c = V.compare("t", o1, r1t, name)
            assert c.bad == bad, (name, factor, c.bad)
    # A float32 output computed from tf32 products (the manifest's
    # "precision") takes tfloat32's tolerances: 0.3% off passes there and
    # fails float32's.
    ref = torch.ones(4, dtype=torch.float32)
    out = ref * 1.003
    for param, bad in (({"dtype": "float32"}, 4),
                       ({"dtype": "float32", "precision": "tfloat32"}, 0)):
        c = V.compare("t", out, ref, "float32", *V.tolerances(param))
        assert c.bad == bad, (param, vars(c))
    assert V.tolerances({"dtype": "int32"}) == (None, None)
    # Poison (tlc-run's unwritten marker): one side only differs, both agree.
    for tdt, (name, _, _) in TOL.items():
        ref = torch.arange(100, dtype=tdt)
        out = ref.clone()
        V.poison(out[10:13], name)
        V.poison(ref[50:60], name)
        V.poison(out[50:55], name)
        c = V.compare("t", out, ref, name)
        assert (c.gpu_unwritten, c.cpu_unwritten, c.both_unwritten, c.bad) \
            == (3, 5, 5, 8), (name, vars(c))
        assert torch.isnan(out[10]), "the poison is a NaN"
    # tlc-run's poison bits (runtime/include/tlc/runtime/DType.h).
    for tdt, ints, bits in ((torch.float16, torch.int16, 0x7E5A),
                            (torch.bfloat16, torch.int16, 0x7FDA),
                            (torch.float32, torch.int32, 0x7FE5A5A5),
                            (torch.float64, torch.int64,
                             0x7FFA5A5A5A5A5A5A)):
        t = torch.zeros(3, dtype=tdt)
        V.poison(t, TOL[tdt][0])
        raw = t.view(ints).numpy().view(np.dtype(f"u{t.element_size()}"))
        assert (raw == bits).all(), (tdt, raw)
    t = torch.ones(3, dtype=torch.int32)
    V.poison(t, "int32")
    assert (t == 0).all()
    # Integers bit for bit: 2^53 + 1 and 2^53 are one double apart from
    # nothing (the same float64).
    ref = torch.full((64,), 2 ** 53, dtype=torch.int64)
    out = ref.clone()
    out[[3, 40]] += 1
    assert float(out[3]) == float(ref[3])
    c = V.compare("t", out, ref, "int64")
    assert (c.bad, c.first) == (2, (3,)), vars(c)
    ref = torch.from_numpy(rng.integers(-9, 9, size=(8, 8), dtype=np.int32))
    out = ref.clone()
    out[5, 6] -= 1
    c = V.compare("t", out, ref, "int32")
    assert (c.bad, c.first, c.max_abs) == (1, (5, 6), 1.0), vars(c)
    c = V.compare("t", ref[:4], ref, "int32")
    assert c.shape_error and not c.ok
    # NumPy arrays compare as torch tensors do.
    a = rng.standard_normal((5, 7)).astype(np.float16)
    b = a.copy()
    b[1, 2] += np.float16(1.0)
    c = V.compare("t", b, a, "float16")
    assert (c.bad, c.first) == (1, (1, 2)), vars(c)


def check_calls():
    V.check_cpu_target(True)
    tilelang.tlc_verify_cpu(True, calls=1)
    V.reset()
    a = torch.randn(64, 16)
    k = scale(64, 16)
    b, lines = lines_of(k, a)
    assert torch.equal(b, a * 2)
    assert len(lines) == 1 and lines[0].endswith("agree"), lines
    assert "scale instance=scale" in lines[0] and "(B)" in lines[0], lines
    # The twin's build is not one of the script's (tilelang.build_stats).
    before = dict(tilelang.build_stats)
    _, lines = lines_of(scale(64, 8), torch.randn(64, 8))
    assert lines[0].endswith("agree"), lines
    assert tilelang.build_stats["builds"] == before["builds"] + 1, \
        (before, tilelang.build_stats)
    # The second call is past TLC_VERIFY_CPU_CALLS=1: not checked.
    b, lines = lines_of(k, a)
    assert lines == [] and V.report()["checked"] == 2, (lines, V.report())

    # A change planted after the call: a DIFFER with its count and index.
    V.reset()
    V.after_device_call.append(plant({"B": [5, 6, 7, 700]}))
    b, lines = lines_of(k, a)
    m = re.search(r"DIFFER (\d+) of (\d+) \(B: 4 of 1024, first at \[0, 5\]",
                  lines[0])
    assert m and m.group(1) == "4", lines
    assert V.report()["differ"] == 1, V.report()
    # The caller gets the device's result (with the planted change).
    assert torch.equal(b.view(-1)[[5, 700]], (a * 2).view(-1)[[5, 700]] + 1)
    # strict: an AssertionError naming the kernel and the first index.
    V.reset()
    tilelang.tlc_verify_cpu("strict", calls=2)
    try:
        lines_of(k, a)
    except AssertionError as e:
        assert "'scale'" in str(e) and "'B'" in str(e) and "[0, 5]" in str(e) \
            and "4 of 1024" in str(e), str(e)
    else:
        raise AssertionError("strict mode did not raise")
    V.after_device_call.clear()
    _, lines = lines_of(k, a)  # the second of calls=2, now agreeing
    assert lines and lines[0].endswith("agree"), lines
    _, lines = lines_of(k, a)
    assert lines == [], lines

    # In place: the caller's C is updated once (the twin ran on copies);
    # C and A are both compared.
    tilelang.tlc_verify_cpu(True, calls=1)
    V.reset()
    c0 = torch.randn(8, 40)
    c = c0.clone()
    a = torch.randn(8, 40)
    _, lines = lines_of(accumulate(8, 40), a, c)
    assert torch.equal(c, c0 + a), "the checked call ran twice on C"
    assert "(C) and 1 input(s)" in lines[0] and lines[0].endswith("agree"), \
        lines

    # Unwritten halves: poison on both sides agrees; poison planted on the
    # device side where the CPU wrote is reported.
    V.reset()
    a16 = torch.randn(64).to(torch.float16)
    k2 = first_half(64)
    b, lines = lines_of(k2, a16)
    assert lines[0].endswith("agree"), lines
    assert torch.equal(b[:32], a16[:32] + a16[:32])
    assert torch.isnan(b[32:]).all(), "the unwritten half keeps the poison"
    V.reset()
    V.after_device_call.append(lambda kern, d: V.poison(d["B"][3:5],
                                                        "float16"))
    _, lines = lines_of(k2, a16)
    V.after_device_call.clear()
    assert "DIFFER 2 of 128" in lines[0] and \
        "2 unwritten on the GPU" in lines[0], lines

    # Varlen: cu_seqlens prefix sums, T.dynamic total bound at the call.
    V.reset()
    seqlens = [3, 0, 7, 5]
    cu = torch.tensor(np.concatenate([[0], np.cumsum(seqlens)]),
                      dtype=torch.int32)
    x = torch.randn(int(cu[-1]))
    y, lines = lines_of(varlen_scale(4), x, cu)
    want = np.concatenate([x.numpy()[cu[b]:cu[b + 1]] * (b + 1)
                           for b in range(4)])
    np.testing.assert_array_equal(y.numpy(), want)
    assert lines[0].endswith("agree") and "(Y)" in lines[0], lines
    # NumPy arguments run the same way.
    V.reset()
    y, lines = lines_of(varlen_scale(4), x.numpy(), cu.numpy())
    np.testing.assert_array_equal(y, want)
    assert lines[0].endswith("agree"), lines

    # A twin that cannot be built: reported once per call, the call runs.
    V.reset()
    broken = scale(32, 8)
    broken.build_result = type(broken.build_result)(
        broken.build_result.out_dir, broken.build_result.manifests, "",
        [c.replace("--kernel=scale", "--kernel=no_such_kernel")
         for c in broken.build_result.command])
    a = torch.randn(32, 8)
    b, lines = lines_of(broken, a)
    assert torch.equal(b, a * 2)
    assert "could not build CPU twin" in lines[0] and \
        V.report()["no_twin"] == 1, (lines, V.report())

    # Inside a CUDA graph capture (simulated: the CPU target has none):
    # one note, no check, the call's check is left for a later call.
    V.reset()
    capturing = V._capturing
    V._capturing = lambda kernel: True
    try:
        k3 = scale(64, 16)
        _, lines = lines_of(k3, torch.randn(64, 16))
        _, again = lines_of(k3, torch.randn(64, 16))
    finally:
        V._capturing = capturing
    assert len(lines) == 1 and "not checked inside a CUDA graph capture" \
        in lines[0] and again == [], (lines, again)
    _, lines = lines_of(k3, torch.randn(64, 16))
    assert lines[0].endswith("agree"), lines

    # The autotuner's timing calls are not checked (a note per
    # configuration); the kernel it returns is, when the script calls it.
    V.reset()
    os.environ["TILELANG_DISABLE_CACHE"] = "1"  # tune in this process
    try:
        best, lines = lines_of(tuned_scale, 256)
    finally:
        del os.environ["TILELANG_DISABLE_CACHE"]
    assert len(lines) == 2 and all("while the autotuner" in ln
                                   for ln in lines), lines
    assert V.report()["checked"] == 0, V.report()
    a1 = torch.randn(256)
    b, lines = lines_of(best, a1)
    assert torch.equal(b, a1 * 3) and lines[0].endswith("agree"), lines

    # Off: nothing checked, nothing printed.
    tilelang.tlc_verify_cpu(False)
    V.reset()
    _, lines = lines_of(scale(64, 16), torch.randn(64, 16))
    assert lines == [] and not any(V.report().values())
    # The environment decides when the API leaves it in charge.
    tilelang.tlc_verify_cpu(None)
    os.environ["TLC_VERIFY_CPU"] = "strict"
    assert V.mode() == "strict"
    os.environ["TLC_VERIFY_CPU"] = "0"
    assert V.mode() is None
    tilelang.tlc_verify_cpu(True)
    V._api_calls[0] = None
    os.environ["TLC_VERIFY_CPU_CALLS"] = "3"
    V.reset()
    k4 = scale(64, 16)
    checked = [len(lines_of(k4, torch.randn(64, 16))[1]) for _ in range(5)]
    assert checked == [1, 1, 1, 0, 0], checked
    tilelang.tlc_verify_cpu(None)
    V.check_cpu_target(False)


def swap(name, row, i, j):
    """After the device call, swaps elements i and j of row ``row``."""
    def hook(kernel, device):
        t = device[name]
        a, b = t[row, i].clone(), t[row, j].clone()
        t[row, i], t[row, j] = b, a
    return hook


def check_sets():
    """Order-free outputs: a row permuted on the device side differs
    element by element and agrees as a multiset (only when named); a
    changed value differs either way; another kernel's name does not
    apply."""
    V.check_cpu_target(True)
    tilelang.tlc_verify_cpu(True, calls=1, sets=[])
    a = torch.randn(64, 16)
    k = scale(64, 16)
    V.reset()
    V.after_device_call.append(swap("B", 3, 0, 7))
    _, lines = lines_of(k, a)
    assert "DIFFER 2 of 2048 (B: 2 of 1024, first at [3, 0]" in lines[0], \
        lines
    for sets in (["B"], ["scale:B"]):
        tilelang.tlc_verify_cpu(True, calls=1, sets=sets)
        V.reset()
        _, lines = lines_of(k, a)
        assert lines[0].endswith("agree"), (sets, lines)
    tilelang.tlc_verify_cpu(True, calls=1, sets=["other_kernel:B"])
    V.reset()
    _, lines = lines_of(k, a)
    assert "DIFFER 2 of 2048" in lines[0], lines
    V.after_device_call.append(plant({"B": [100]}))
    tilelang.tlc_verify_cpu(True, calls=1, sets=["B"])
    V.reset()
    _, lines = lines_of(k, a)
    assert "B (as sets per row): " in lines[0] and "DIFFER" in lines[0], lines
    V.after_device_call.clear()
    # The environment names them when the API does not.
    V._api_sets[0] = None
    os.environ["TLC_VERIFY_CPU_SETS"] = "Idx, scale:B"
    assert V.set_names() == {"Idx", "scale:B"}
    del os.environ["TLC_VERIFY_CPU_SETS"]
    assert V.set_names() == set()
    # NumPy rows sort the same way, NaNs last.
    r = V.sorted_rows(np.array([[3.0, np.nan, 1.0], [2.0, 0.0, 5.0]]))
    assert r[0, 0] == 1.0 and r[0, 1] == 3.0 and np.isnan(r[0, 2]) and \
        r[1].tolist() == [0.0, 2.0, 5.0], r
    tilelang.tlc_verify_cpu(None)
    V.check_cpu_target(False)


def main():
    check_comparison()
    check_calls()
    check_sets()
    V.reset()
    print("verify_cpu: OK")


if __name__ == "__main__":
    main()
