# The oracle of ../quantize-mxfp-decode.py. Twiddled decoder: NumPy
# emulating the PTX of TileLang's decode_fp4_to_bf16_twiddling on each group
# of 4 bytes: prmt.b32 with selector 0x0123 (byte reversal), the and/shl/shr
# masks, and mul.bf16x2 by 0x7e80 (2^126) on both halves; output j is the
# high half of result j, output 4 + j its low half. Plain decoder: the OCP
# MX spec's E2M1 table on each nibble, the low one first. The scaled GEMM:
# the decoded weights times 2^Scale, then A @ B^T in float64.
# Usage: mxfp_decode_check.py twiddled|plain DIR
#        mxfp_decode_check.py gemm DIR block_K
import sys

import numpy as np

E2M1 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], dtype=np.float64)
E2M1 = np.concatenate([E2M1, -E2M1])


def bf16_bits_to_f32(bits):
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def mul_bf16x2(word, bias_half):
    """mul.bf16x2 of word by (bias_half, bias_half): two float32 products,
    exact here, rounded back to bfloat16 bits (truncation is exact too)."""
    out = []
    for shift in (16, 0):
        half = (word >> np.uint32(shift)) & np.uint32(0xFFFF)
        prod = bf16_bits_to_f32(half) * bf16_bits_to_f32(np.array(bias_half))
        out.append(prod)
    return out  # [high, low] as float32


def decode_twiddled(groups):
    """groups: (n, 4) uint8 -> (n, 8) float32."""
    w = (groups[:, 0].astype(np.uint32) | groups[:, 1].astype(np.uint32) << 8
         | groups[:, 2].astype(np.uint32) << 16 | groups[:, 3].astype(np.uint32) << 24)
    # prmt.b32 tmp, w, 0, 0x0123: byte i of tmp is byte 3 - i of w.
    tmp = np.zeros_like(w)
    for i in range(4):
        tmp |= ((w >> np.uint32(8 * (3 - i))) & np.uint32(0xFF)) << np.uint32(8 * i)
    mask = np.uint32(0b10000001110000001000000111000000)
    d = [tmp & mask,
         (tmp << np.uint32(3)) & mask,
         (tmp << np.uint32(6)) & mask]
    t1 = (tmp << np.uint32(1)) & np.uint32(0x80008000)
    t2 = (tmp >> np.uint32(3)) & np.uint32(0x01800180)
    t3 = (tmp >> np.uint32(7)) & np.uint32(0x00400040)
    d.append(t1 | t2 | t3)
    out = np.zeros((groups.shape[0], 8), dtype=np.float32)
    for j in range(4):
        hi, lo = mul_bf16x2(d[j], np.uint16(0x7E80))
        out[:, j] = hi
        out[:, 4 + j] = lo
    return out


def decode_plain(groups):
    out = np.zeros((groups.shape[0], 8), dtype=np.float64)
    for b in range(4):
        out[:, b] = E2M1[groups[:, b] & 15]
        out[:, 4 + b] = E2M1[groups[:, b] >> 4]
    return out


def load_bf16(path):
    a = np.load(path)
    if a.dtype == np.uint16:  # bfloat16 saved as its bits
        return bf16_bits_to_f32(a)
    return a.astype(np.float32)


mode, d = sys.argv[1], sys.argv[2]
if mode in ("twiddled", "plain"):
    b = np.load(d + "/inputs/B.npy").astype(np.uint8)
    want = (decode_twiddled if mode == "twiddled" else decode_plain)(b.reshape(-1, 4))
    got = load_bf16(d + "/C.npy").reshape(-1, 8).astype(np.float64)
    same = np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))
    print(mode, "exact" if same else f"differs at {np.argwhere(got != want)[:4].tolist()}")
else:
    block_K = int(sys.argv[3])
    a = load_bf16(d + "/inputs/A.npy").astype(np.float64)
    b = np.load(d + "/inputs/B.npy").astype(np.uint8)
    scale = np.load(d + "/inputs/Scale.npy").astype(np.int64)
    n, qk = b.shape
    w = decode_twiddled(b.reshape(-1, 4)).astype(np.float64).reshape(n, 2 * qk)
    # Scale[n, k // 32] multiplies weight (n, k) by 2^Scale.
    w *= np.exp2(np.repeat(scale, 32, axis=1))
    want = a @ w.T
    got = load_bf16(d + "/C.npy").astype(np.float64)
    err = np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)
    print("gemm", "close" if err < 1e-2 else f"relative error {err}")
