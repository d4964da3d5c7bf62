import tilelang
import tilelang.language as T


def reorder(dQ):
    return T.Layout(dQ.shape, lambda b, l, h, d: [b, l // 8, h, d // 8, (d % 2), 4 * (l % 8) + (d % 8) // 2])


@tilelang.jit(out_idx=[1])
def post(batch=8, seq=1024, heads=32, dim=64, blk=64):
    shape = [batch, seq, heads, dim]

    @T.prim_func
    def main(dQ: T.Tensor(shape, T.float32), dQ_out: T.Tensor(shape, T.float16)):
        with T.Kernel(T.ceildiv(seq, blk), heads, batch, threads=128) as (bx, by, bz):
            T.annotate_layout({dQ: reorder(dQ)})
            T.copy(dQ[bz, bx * blk:(bx + 1) * blk, by, :], dQ_out[bz, bx * blk:(bx + 1) * blk, by, :])

    return main


post()
