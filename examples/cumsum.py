# Chunked cumulative sum along the sequence: for X (batch, seq_len, heads) in
# float32, Y[b, t, h] = sum of X[b, s, h] over the positions s of t's chunk
# with s <= t (or s >= t when reverse=True). Chunks are chunk_size long, as
# in chunked linear-attention / gated delta-rule kernels.
#
# Lazy factory. Each block loads one (chunk_size, block_H) tile into shared
# memory, scans it in place with T.cumsum(dim=0) and stores it back.

import argparse

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def chunk_cumsum(batch, seq_len, heads, chunk_size=64, block_H=32, reverse=False, threads=128, dtype=T.float32):
    @T.prim_func
    def main(
        X: T.Tensor((batch, seq_len, heads), dtype),
        Y: T.Tensor((batch, seq_len, heads), dtype),
    ):
        with T.Kernel(T.ceildiv(seq_len, chunk_size), T.ceildiv(heads, block_H), batch, threads=threads) as (bs, bh, bb):
            x_shared = T.alloc_shared((chunk_size, block_H), dtype)
            T.copy(X[bb, bs * chunk_size:(bs + 1) * chunk_size, bh * block_H:(bh + 1) * block_H], x_shared)
            T.cumsum(x_shared, dim=0, reverse=reverse)
            T.copy(x_shared, Y[bb, bs * chunk_size:(bs + 1) * chunk_size, bh * block_H:(bh + 1) * block_H])

    return main


def ref_program(x, chunk_size, reverse):
    b, t, h = x.shape
    pad = (-t) % chunk_size
    xp = torch.nn.functional.pad(x, (0, 0, 0, pad)).view(b, -1, chunk_size, h)
    if reverse:
        y = xp.flip(2).cumsum(2).flip(2)
    else:
        y = xp.cumsum(2)
    return y.view(b, -1, h)[:, :t]


def main():
    parser = argparse.ArgumentParser(description="chunked cumsum")
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--seq_len", type=int, default=4096)
    parser.add_argument("--heads", type=int, default=64)
    parser.add_argument("--chunk_size", type=int, default=64)
    parser.add_argument("--reverse", action="store_true")
    args = parser.parse_args()

    kernel = chunk_cumsum(args.batch, args.seq_len, args.heads, chunk_size=args.chunk_size, reverse=args.reverse)
    x = torch.randn(args.batch, args.seq_len, args.heads, dtype=torch.float32, device="cuda")
    y = kernel(x)
    torch.testing.assert_close(y, ref_program(x, args.chunk_size, args.reverse), rtol=1e-4, atol=1e-4)
    print("cumsum: all checks passed")


if __name__ == "__main__":
    main()
