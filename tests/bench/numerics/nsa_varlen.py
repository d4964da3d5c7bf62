"""NSA varlen forward (examples/deepseek_nsa/example_tilelang_nsa_fwd_varlen):
valid inputs and a float64 NumPy oracle of the kernel's math.

  nsa_varlen.py make DIR          writes DIR/{Q,K,V,BlockIndices,BlockCounts,
                                  Offsets,TokenIndices}.npy for tlc-run --inputs
  nsa_varlen.py check DIR OUT...  compares each OUT/O_slc.npy (tlc-run --save)
                                  with the oracle

The instance the script builds: 2 sequences in C_SEQ_LEN = 64 tokens,
HQ = 16 query heads on H = 1 KV head, D = 64, S = 1 selected block of
BS = 32 keys per token, causal. Valid inputs are what the script's own
construction guarantees and tlc-run's random ones do not: Offsets a prefix
sum ending at 64, TokenIndices[c] = (sequence, position) of token c, each
selected block at or before the token's own position. The oracle: for
token c of sequence n at position t, scores q.k / sqrt(D) over the keys of
the selected block that are at or before t, softmax, times V (float64
throughout; the kernel rounds the probabilities to f16 before the second
product, well inside f16's tolerance).
"""
import sys

import numpy as np

T_, HQ, H, D, S, BS = 64, 16, 1, 64, 1, 32
OFFSETS = [0, 30, 64]


def make(d):
    rng = np.random.default_rng(0)
    tok = np.zeros((T_, 2), np.int32)
    for n in range(len(OFFSETS) - 1):
        for c in range(OFFSETS[n], OFFSETS[n + 1]):
            tok[c] = (n, c - OFFSETS[n])
    bi = np.array([[[rng.integers(0, t // BS + 1)] for _ in range(H)]
                   for _, t in tok], np.int32)
    np.save(f"{d}/Q.npy", rng.standard_normal((T_, HQ, D)).astype(np.float16))
    np.save(f"{d}/K.npy", rng.standard_normal((T_, H, D)).astype(np.float16))
    np.save(f"{d}/V.npy", rng.standard_normal((T_, H, D)).astype(np.float16))
    np.save(f"{d}/BlockIndices.npy", bi)
    np.save(f"{d}/BlockCounts.npy", np.full((T_, H), S, np.int32))
    np.save(f"{d}/Offsets.npy", np.array(OFFSETS, np.int32))
    np.save(f"{d}/TokenIndices.npy", tok)


def oracle(d):
    q, k, v = (np.load(f"{d}/{n}.npy").astype(np.float64) for n in "QKV")
    bi = np.load(f"{d}/BlockIndices.npy")
    tok = np.load(f"{d}/TokenIndices.npy")
    off = np.load(f"{d}/Offsets.npy")
    o = np.zeros((T_, HQ, D))
    for c in range(T_):
        n, t = tok[c]
        bos = off[n]
        keys = [bos + bi[bos + t, 0, s] * BS + j for s in range(S)
                for j in range(BS) if bi[bos + t, 0, s] * BS + j <= t]
        sc = q[bos + t] @ k[keys, 0].T / np.sqrt(D)  # [HQ, keys]
        p = np.exp(sc - sc.max(axis=1, keepdims=True))
        o[bos + t] = (p / p.sum(axis=1, keepdims=True)) @ v[keys, 0]
    return o


def main():
    if sys.argv[1] == "make":
        make(sys.argv[2])
        return
    ref = oracle(sys.argv[2])
    for out in sys.argv[3:]:
        got = np.load(f"{out}/O_slc.npy").astype(np.float64)
        err = np.abs(got - ref)
        bad = ~(err <= 1e-2 + 1e-2 * np.abs(ref))
        print(f"{out}: max |O - oracle| {np.nanmax(err):.3g}, "
              f"{int(np.isnan(got).sum())} NaN, {int(bad.sum())} of "
              f"{bad.size} outside f16's tolerance")


if __name__ == "__main__":  # corpus_inputs.py imports make()
    main()
