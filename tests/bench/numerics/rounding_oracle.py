"""Are two back ends' bf16 outputs both within the rounding bound of a
float64 oracle where they disagree? (issue 13: gdn chunk_o, gdn / KDA
wy_fast differ from the CPU target in a few elements of tens of millions.)

  rounding_oracle.py KIND INPUTS OUT_A OUT_B [--blocks N]

KIND: chunk_o (gdn/example_chunk_o, gdn/chunk_o), wy_fast (gdn
example_wy_fast: W_Beta = K beta exp(G), G per token) or wy_fast_kda
(KDA / kda wy_fast: exp2(G), G per channel; also KG). INPUTS holds the
inputs as `tlc-run --save` wrote them (DIR/inputs), OUT_A and OUT_B the two
runs' --save folders (same inputs: the second run with --inputs INPUTS).

Both kernels round an intermediate to bfloat16 before a gemm (chunk_o: the
masked, gated scores A = (Q K^T) exp(g_i - g_j); wy_fast: K beta exp(G) and
V beta), so an f32 difference of an ulp (exp against exp, or the order of
an f32 sum) can move that intermediate by a whole bf16 ulp (2^-8
relative), and the output by |A_ij| times it. The oracle computes each
output in float64 from the saved (already rounded) inputs without the
intermediate rounding, and a first-order bound on what a correct
implementation may differ from it by (u = 2^-8, bf16's unit roundoff):
  pre = 2 u sum_j |a_j| |b_j|      (every rounded intermediate: u for its
                                    rounding, u more for the f32 steps
                                    and exp ulps before it)
      + n 2^-24 sum_j |a_j| |b_j|  (f32 accumulation of n products)
  bound = pre + u (|oracle| + pre) (the bf16 output's rounding)
Each listed element also shows the kernel's roundings emulated in NumPy
(`emulated`: f32 arithmetic, bf16 intermediates, nearest-even), which
either back end matches up to the f32 order of its sums.
For every output element where the two back ends differ beyond bf16's
tolerance (2e-2 + 2e-2 |B|, tlc-run's), and for every element of N
further random blocks (default 8), it prints |X - oracle| / bound for both;
both <= 1 everywhere means neither back end is wrong there: the
disagreement is the rounding of the bf16 intermediate. Exit status 1 when
some ratio exceeds 1.
"""
import sys

import numpy as np

U = 2.0 ** -8  # bfloat16's unit roundoff (8 significant bits)
F32 = 2.0 ** -24


def bf16(x):
    """x (float32) rounded to bfloat16, nearest-even, as float64."""
    b = np.ascontiguousarray(x, np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000
    return b.astype(np.uint32).view(np.float32).astype(np.float64)


def load(d, name):
    return np.load(f"{d}/{name}.npy", mmap_mode="r")


def mismatch(a, b):
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    return np.abs(a - b) > 2e-2 + 2e-2 * np.abs(b)


def chunk_o_block(inp, bb, bs, bh, bc=64):
    """O[bb, bs*64 : +64, bh, :], its bound (scale from the kernel: DK^-0.5)."""
    q = np.asarray(load(inp, "Q")[bb, bs * bc:(bs + 1) * bc, bh], np.float64)
    k = np.asarray(load(inp, "K")[bb, bs * bc:(bs + 1) * bc, bh], np.float64)
    v = np.asarray(load(inp, "V")[bb, bs * bc:(bs + 1) * bc, bh], np.float64)
    h = np.asarray(load(inp, "HIDDEN")[bb, bs, bh], np.float64)
    g = np.asarray(load(inp, "G")[bb, bs * bc:(bs + 1) * bc, bh], np.float32)
    scale = q.shape[-1] ** -0.5
    dg = (g[:, None] - g[None, :])  # f32, as the kernel compares it
    keep = (dg <= 0) & np.tril(np.ones((bc, bc), bool))
    a = np.where(keep, (q @ k.T) * np.exp(dg.astype(np.float64)), 0.0)
    qh = (q @ h) * np.exp(g.astype(np.float64))[:, None]
    o = scale * (qh + a @ v)
    mag = np.abs(q) @ np.abs(h) * np.exp(g.astype(np.float64))[:, None] + np.abs(a) @ np.abs(v)
    pre = scale * (np.abs(a) @ np.abs(v) * 2 * U + (q.shape[-1] + bc) * F32 * mag)
    # The kernel's own roundings (f32 scores times f32 exp, rounded to bf16;
    # f32 sums; bf16 output): what either back end computes up to f32 order.
    a32 = np.where(keep, (q.astype(np.float32) @ k.T.astype(np.float32))
                   * np.exp(dg).astype(np.float32), 0).astype(np.float32)
    emu = bf16((np.float32(scale) * ((q.astype(np.float32) @ h.astype(np.float32))
                                     * np.exp(g)[:, None] + bf16(a32).astype(np.float32)
                                     @ v.astype(np.float32))).astype(np.float32))
    return o, pre + U * (np.abs(o) + pre), emu


def wy_block(inp, bb, bs, bh, kda, bc=64):
    """W, U (and KG for kda) of chunk bs, head bh, with bounds."""
    sl = slice(bs * bc, (bs + 1) * bc)
    a = np.asarray(load(inp, "A")[bb, sl, bh], np.float64)
    k = np.asarray(load(inp, "K")[bb, sl, bh], np.float64)
    v = np.asarray(load(inp, "V")[bb, sl, bh], np.float64)
    beta = np.asarray(load(inp, "Beta")[bb, sl, bh], np.float64)
    g = np.asarray(load(inp, "G")[bb, sl, bh], np.float64)
    gate = np.exp2(g) if kda else np.exp(g)[:, None]
    wb = k * beta[:, None] * gate
    ub = v * beta[:, None]
    g32 = (np.exp2(g) if kda else np.exp(g)[:, None]).astype(np.float32)
    # K_shared * Beta_shared is a bf16 product (rounded), then times the f32 gate.
    emus = {"W": bf16(bf16((k * beta[:, None]).astype(np.float32)).astype(np.float32) * g32),
            "U": bf16((v * beta[:, None]).astype(np.float32))}
    out = {}
    for name, x in (("W", wb), ("U", ub)):
        y = a @ x
        mag = np.abs(a) @ np.abs(x)
        pre = mag * (2 * U + bc * F32)
        emu = bf16(a.astype(np.float32) @ emus[name].astype(np.float32))
        out[name] = (y, pre + U * (np.abs(y) + pre), emu)
    if kda:
        kg = k * np.exp2(g[-1][None, :] - g)
        out["KG"] = (kg, 2 * U * np.abs(kg),  # f32 product and exp2, one bf16 rounding
                     bf16((k.astype(np.float32) * np.exp2((g[-1][None, :] - g).astype(np.float32)))))
    return out


def main(argv):
    if len(argv) < 4 or argv[0] not in ("chunk_o", "wy_fast", "wy_fast_kda"):
        sys.exit(__doc__)
    kind, inp, da, db = argv[:4]
    nrand = int(argv[argv.index("--blocks") + 1]) if "--blocks" in argv else 8
    names = ["O"] if kind == "chunk_o" else (["W", "U", "KG"] if kind == "wy_fast_kda" else ["W", "U"])
    rng = np.random.default_rng(1)
    worst = 0.0
    for name in names:
        xa, xb = load(da, name), load(db, name)
        bsz, s, h, d = xa.shape
        bad = []
        for bb in range(bsz):  # chunk by chunk of rows: bounded memory
            for r0 in range(0, s, 4096):
                m = mismatch(xa[bb, r0:r0 + 4096], xb[bb, r0:r0 + 4096])
                for t, hh, dd in zip(*np.nonzero(m)):
                    bad.append((bb, r0 + t, hh, dd))
        blocks = sorted({(bb, t // 64, hh) for bb, t, hh, _ in bad})
        extra = [(int(rng.integers(bsz)), int(rng.integers(s // 64)), int(rng.integers(h)))
                 for _ in range(nrand)]
        print(f"{name}: {len(bad)} of {xa.size} elements differ beyond bf16's tolerance "
              f"(in {len(blocks)} chunk/head blocks); oracle on those blocks and {nrand} random ones")
        ratios = {"A": 0.0, "B": 0.0}
        same = {"A": 0, "B": 0}
        total = 0
        for blk in blocks + extra:
            bb, bs, hh = blk
            if kind == "chunk_o":
                o, bound, emu = chunk_o_block(inp, bb, bs, hh)
            else:
                o, bound, emu = wy_block(inp, bb, bs, hh, kind == "wy_fast_kda")[name]
            total += o.size
            for side, x in (("A", xa), ("B", xb)):
                got = np.asarray(x[bb, bs * 64:(bs + 1) * 64, hh], np.float64)
                ratios[side] = max(ratios[side], float(np.max(np.abs(got - o) / bound)))
                same[side] += int(np.sum(got == emu))
        for bb, t, hh, dd in bad[:20]:
            if kind == "chunk_o":
                o, bound, emu = chunk_o_block(inp, bb, t // 64, hh)
            else:
                o, bound, emu = wy_block(inp, bb, t // 64, hh, kind == "wy_fast_kda")[name]
            i = t % 64
            print(f"  [{bb},{t},{hh},{dd}] A {float(xa[bb, t, hh, dd]):.6g}  B {float(xb[bb, t, hh, dd]):.6g}"
                  f"  emulated {emu[i, dd]:.6g}  oracle {o[i, dd]:.6g}  bound {bound[i, dd]:.3g}"
                  f"  |A-o|/bound {abs(float(xa[bb, t, hh, dd]) - o[i, dd]) / bound[i, dd]:.2f}"
                  f"  |B-o|/bound {abs(float(xb[bb, t, hh, dd]) - o[i, dd]) / bound[i, dd]:.2f}")
        print(f"  max |A - oracle| / bound {ratios['A']:.3f}, max |B - oracle| / bound "
              f"{ratios['B']:.3f} over {len(blocks) + len(extra)} blocks; equal to the emulation: "
              f"A {same['A']}, B {same['B']} of {total}")
        worst = max(worst, ratios["A"], ratios["B"])
    print("both within the rounding bound of the float64 oracle" if worst <= 1
          else "a back end is OUTSIDE the rounding bound")
    return 0 if worst <= 1 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
