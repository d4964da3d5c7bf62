#!/usr/bin/python3
"""Self-test of the NumPy references: the dtype rounding of ref_common.py
and every ref_<example>.py on tiny inputs whose results are worked out by
hand in this file. Exit status 0 when everything matches.

Run: /usr/bin/python3 tests/scripts/ref_selftest.py
"""

import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ref_common as rc  # noqa: E402

failures = []


def expect(name, got, want, tol=0.0):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    same_nan = np.array_equal(np.isnan(got), np.isnan(want))
    close = got.shape == want.shape and same_nan and np.allclose(
        np.nan_to_num(got), np.nan_to_num(want), rtol=tol, atol=tol)
    if not close:
        failures.append(f"{name}: got {got.tolist()}, want {want.tolist()}")


def run_ref(example, inputs, defines=(), expect_fail=False):
    """Runs ref_<example>.py on `inputs` and returns {name: array}."""
    with tempfile.TemporaryDirectory() as tmp:
        in_dir, out_dir = os.path.join(tmp, "in"), os.path.join(tmp, "out")
        os.makedirs(in_dir)
        for name, value in inputs.items():
            np.save(os.path.join(in_dir, name + ".npy"), value)
        cmd = [sys.executable, os.path.join(HERE, f"ref_{example}.py"), "--inputs", in_dir, "--out", out_dir]
        for define in defines:
            cmd += ["-D", define]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if expect_fail:
            if proc.returncode == 0:
                failures.append(f"ref_{example}.py {defines}: expected a failure")
            return {}
        if proc.returncode != 0:
            failures.append(f"ref_{example}.py failed: {proc.stderr.strip()}")
            return {}
        return {f[:-4]: np.load(os.path.join(out_dir, f)) for f in os.listdir(out_dir)}


def check_rounding():
    # bfloat16: 8 exponent bits, 7 mantissa bits, ties to even.
    expect("bf16", rc.round_bfloat16(np.array([1.0, 1 + 2**-8, 1 + 3 * 2**-8, 3.14159265, -2.5, 65504.0])),
           [1.0, 1.0, 1 + 2**-6, 3.140625, -2.5, 65536.0])
    # e4m3fn: bias 7, 3 mantissa bits, max 448, min subnormal 2^-9, no inf.
    expect("e4m3fn", rc.round_float8_e4m3fn(np.array(
        [1.0625, 1.1875, 448.0, 464.0, 1e6, -1e6, 2**-9, 2**-10, 3 * 2**-11, 0.0, np.inf])),
        [1.0, 1.25, 448.0, 448.0, 448.0, -448.0, 2**-9, 0.0, 2**-9, 0.0, 448.0])
    expect("e4m3fn nan", rc.round_float8_e4m3fn(np.array([np.nan])), [np.nan])
    # e5m2: bias 15, 2 mantissa bits, max 57344, saturating conversion.
    expect("e5m2", rc.round_float8_e5m2(np.array([1.125, 1.375, 57344.0, 61440.0, -np.inf, 2**-16])),
           [1.0, 1.5, 57344.0, 57344.0, -57344.0, 2**-16])
    # Storage dtypes.
    expect("float16 storage", rc.to_storage(np.array([1 + 2**-12]), "float16"), [1.0])
    if rc.to_storage(np.array([1.0]), "float16").dtype != np.float16:
        failures.append("float16 outputs must be stored as float16")
    if rc.to_storage(np.array([1.0]), "bfloat16").dtype != np.float32:
        failures.append("bfloat16 outputs must be stored as float32")


def check_references():
    f32 = np.float32
    a = np.array([[1, 2], [3, 4]], dtype=np.float16)
    b = np.array([[5, 6], [7, 8]], dtype=np.float16)
    out = run_ref("elementwise_add", {"A": a.astype(f32), "B": b.astype(f32)})
    expect("elementwise_add", out.get("C"), [[6, 8], [10, 12]])
    out = run_ref("gemm", {"A": a, "B": b})
    expect("gemm", out.get("C"), [[19, 22], [43, 50]])
    out = run_ref("gemm", {"A": a, "B": b}, ["M=3"], expect_fail=True)
    # relu(A @ B^T): B^T = [[5, 7], [6, 8]] -> [[17, 23], [39, 53]]; with -A all negative.
    out = run_ref("gemm_eager", {"A": a, "B": b})
    expect("gemm_eager", out.get("C"), [[17, 23], [39, 53]])
    out = run_ref("gemm_eager", {"A": -a, "B": b})
    expect("gemm_eager relu", out.get("C"), [[0, 0], [0, 0]])
    out = run_ref("gemm_splitk", {"A": a, "B": b, "C": np.ones((2, 2), f32)})
    expect("gemm_splitk", out.get("C"), [[20, 23], [44, 51]])
    out = run_ref("gemm_dynamic", {"A": a, "B": b}, ["trans_A=true"])
    expect("gemm_dynamic trans_A", out.get("C"), [[26, 30], [38, 44]])  # A^T @ B
    out = run_ref("gemm_dynamic", {"A": a, "B": b}, ["trans_B=1"])
    expect("gemm_dynamic trans_B", out.get("C"), [[17, 23], [39, 53]])
    out = run_ref("transpose", {"X": np.arange(6, dtype=f32).reshape(2, 3)})
    expect("transpose", out.get("Y"), [[0, 3], [1, 4], [2, 5]])
    # softmax([0, ln 3]) = [1/4, 3/4]; a constant row is uniform.
    out = run_ref("softmax", {"X": np.array([[0, np.log(3)], [2, 2]], dtype=np.float16)})
    expect("softmax", out.get("Y"), [[0.25, 0.75], [0.5, 0.5]], tol=1e-3)
    # softmax_rows: the same function, and [ln 2, ln 2, 0] -> [2/5, 2/5, 1/5].
    out = run_ref("softmax_rows", {"X": np.array([[0, np.log(3)], [np.log(2), np.log(2)]], dtype=np.float16)})
    expect("softmax_rows", out.get("Y"), [[0.25, 0.75], [0.5, 0.5]], tol=1e-3)
    out = run_ref("softmax_rows", {"X": np.array([[np.log(2), np.log(2), 0]], dtype=np.float16)})
    expect("softmax_rows 3 columns", out.get("Y"), [[0.4, 0.4, 0.2]], tol=1e-3)
    # rms([3, 4]) = sqrt(12.5); W = [1, 2].
    out = run_ref("rms_norm", {"X": np.array([[3, 4]], dtype=np.float16), "W": np.array([1, 2], dtype=np.float16)},
                  ["eps=0"])
    r = np.sqrt(12.5)
    expect("rms_norm", out.get("Y"), [[3 / r, 8 / r]], tol=1e-3)
    # layer_norm([1, 3]): mean 2, var 1 -> [-1, 1]; gamma [2, 2], beta [1, 0].
    out = run_ref("layer_norm", {"X": np.array([[1, 3]], dtype=np.float16), "gamma": np.array([2, 2], np.float16),
                                 "beta": np.array([1, 0], np.float16)}, ["eps=0"])
    expect("layer_norm", out.get("Y"), [[-1, 2]], tol=1e-3)
    # cumsum with chunk 2 over [1, 2, 3, 4, 5]: [1, 3, 3, 7, 5]; reverse: [3, 2, 7, 4, 5].
    x = np.array([1, 2, 3, 4, 5], dtype=f32).reshape(1, 5, 1)
    out = run_ref("cumsum", {"X": x}, ["chunk_size=2"])
    expect("cumsum", out.get("Y", np.zeros(0)).ravel(), [1, 3, 3, 7, 5])
    out = run_ref("cumsum", {"X": x}, ["chunk_size=2", "reverse=true"])
    expect("cumsum reverse", out.get("Y", np.zeros(0)).ravel(), [3, 2, 7, 4, 5])
    # Attention with identical keys averages the values; one key returns its value.
    q = np.zeros((1, 1, 2, 4), np.float16)
    k = np.ones((1, 1, 2, 4), np.float16)
    v = np.array([[[[1, 2, 3, 4], [3, 4, 5, 6]]]], np.float16)
    out = run_ref("flash_attention_fwd", {"Q": q, "K": k, "V": v})
    expect("flash_attention_fwd", out.get("Output"), [[[[2, 3, 4, 5], [2, 3, 4, 5]]]])
    bshd = {"Q": q.transpose(0, 2, 1, 3), "K": k.transpose(0, 2, 1, 3), "V": v.transpose(0, 2, 1, 3)}
    out = run_ref("flash_attention_causal", bshd)  # query 0 sees key 0 only
    expect("flash_attention_causal", out.get("Output"), [[[[1, 2, 3, 4]], [[2, 3, 4, 5]]]])
    out = run_ref("flash_attention_causal", bshd, ["is_causal=false"])
    expect("flash_attention_causal off", out.get("Output"), [[[[2, 3, 4, 5]], [[2, 3, 4, 5]]]])
    # GQA: 2 query heads share KV head 0; head 2, 3 use KV head 1 (one key each).
    q = np.zeros((1, 4, 2), np.float16)
    k = np.zeros((1, 1, 2, 2), np.float16)
    v = np.array([[[[1, 2], [5, 6]]]], np.float16)
    out = run_ref("gqa_decode", {"Q": q, "K": k, "V": v})
    expect("gqa_decode", out.get("Output"), [[[1, 2], [1, 2], [5, 6], [5, 6]]])
    # fp8 GEMM output rounded to bf16: 1 * (1 + 2^-7 + 2^-8) -> bf16 rounds up to 1 + 2^-6.
    out = run_ref("fp8_gemm", {"A": np.array([[1.0]], f32), "B": np.array([[1 + 2**-7 + 2**-8]], f32)})
    expect("fp8_gemm", out.get("C"), [[1 + 2**-6]])
    # int4: byte 0x9F -> even k: 15 - 8 = 7, odd k: 9 - 8 = 1; scale 0.5 -> W = [3.5, 0.5].
    out = run_ref("dequant_gemm", {"A": np.array([[2, 4]], np.float16), "B": np.array([[0x9F]], np.uint8),
                                   "Scale": np.array([[0.5]], np.float16)}, ["group_size=2"])
    expect("dequant_gemm", out.get("C"), [[2 * 3.5 + 4 * 0.5]])
    # per-token: row amax 2 -> scale 2/448, values x * 224 rounded to e4m3fn; zero row uses 1e-4.
    x = np.array([[2.0, -1.0, 0.01], [0.0, 0.0, 0.0]], f32)
    out = run_ref("per_token_quant", {"X": x})
    expect("per_token_quant scale", out.get("X_scale"), [np.float32(2) / np.float32(448),
                                                         np.float32(1e-4) / np.float32(448)], tol=1e-9)
    expect("per_token_quant fp8", out.get("X_fp8"), [[448, -224, 2.25], [0, 0, 0]])


def main():
    check_rounding()
    check_references()
    if failures:
        print("\n".join(failures))
        print(f"{len(failures)} failure(s)")
        return 1
    print("ref_selftest: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
