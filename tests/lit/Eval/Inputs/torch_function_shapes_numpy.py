# NumPy's shapes for the torch expressions of ../torch-function-shapes.py,
# printed as the kernel signature FileCheck expects there (the oracle).
import numpy as np
from numpy.lib.stride_tricks import as_strided

rng = np.random.default_rng(0)
B, H, S, D, LAST = 1, 2, 256, 64, 16
q = rng.standard_normal((B, H, S, D))
k = rng.standard_normal((B, H, S, D))
qk = np.einsum("bhmk,bhnk->bhmn", q[:, :, -LAST:, :], k)
vertical = qk.sum(-2, keepdims=True)
top_idx = np.argsort(-vertical, axis=-1)[..., :40]
top_val = np.take_along_axis(vertical, top_idx, -1)
diag = np.concatenate((np.zeros((B, H, LAST, LAST)), qk, np.zeros((B, H, LAST, LAST))), -1)
item = diag.itemsize
strided = as_strided(diag, (1, 1, LAST, LAST + S),
                     tuple(s * item for s in (1, LAST * (2 * LAST + S), 2 * LAST + S + 1, 1)))
slash = strided.sum(2)[:, :, 1:][..., :-LAST + 1]
slash = (S - 1) - np.argsort(-slash, axis=-1)[..., :24]
v_idx = np.sort(top_idx.astype(np.int32).reshape((B, H, -1)), axis=-1)
srt = np.sort(qk, axis=2)
padded = np.pad(q, [(0, 0), (0, 0), (0, 7), (0, 0)])
chosen = np.where(qk > 0, qk, np.zeros((1, 1, 1, S)))
shapes = [qk.shape, vertical.shape, top_val.shape, top_idx.shape, strided.shape,
          slash.shape, v_idx.shape, (v_idx.shape[2], slash.shape[-1]), srt.shape,
          np.argsort(qk, axis=2).shape, padded.shape, chosen.shape]
print("tile.func @shapes(" + ", ".join(
    f"%S{i}: !tile.buffer<[{', '.join(str(d) for d in s)}], f32, global>"
    for i, s in enumerate(shapes)) + ")")
print("tile.func @plain_tuple(%P: !tile.buffer<[3], f32, global>)")
