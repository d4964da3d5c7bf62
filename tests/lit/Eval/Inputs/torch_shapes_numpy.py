# NumPy's shapes for the torch expressions of ../torch-tensor-shapes.py,
# printed as the kernel signature FileCheck expects there (the oracle).
import numpy as np

rng = np.random.default_rng(0)
C, H, D = 64, 4, 32
q = np.broadcast_to(np.linspace(0, 1, C)[rng.permutation(C)].reshape(1, C, 1, 1), (1, C, H, D)).copy()
offsets = np.sort(np.concatenate([np.array([0]), np.arange(16, C)[rng.permutation(C - 1)[:3] % (C - 16)], np.array([C])], 0))
x = rng.standard_normal((2, 3, 4))
values = np.sort(x, axis=-1)[..., ::-1][..., :2]
shapes = [
    q.shape, (len(offsets) - 1,), x.reshape(-1, 4).shape, x.reshape(6, -1).shape,
    np.swapaxes(x, 0, 2).shape, x.transpose(2, 0, 1).shape, np.expand_dims(x, 1).shape,
    x[:, 1].shape, (x.shape[1], x.ndim, x.size), x[None, ..., 1:3].shape,
    x.reshape(2, -1).shape, np.tile(x, (2, 1, 3)).shape, x.sum(1, keepdims=True).shape,
    x.max(axis=-1).shape, values.shape, np.stack([x, x], 1).shape,
    np.zeros_like(x).T.shape, (x[:, :, None] + x[:, None, :]).shape,
    np.arange(3, 20, 4).shape, np.expand_dims(x, 0).squeeze(0).shape,
    np.array([[1, 2, 3], [4, 5, 6]]).shape, x[x > 0].shape[1:], (H, D),
]
print("tile.func @shapes(" + ", ".join(
    f"%S{i}: !tile.buffer<[{', '.join(str(d) for d in s)}], f32, global>"
    for i, s in enumerate(shapes)) + ")")
print("tile.func @ragged_rows(%R: !tile.buffer<[R_shape0, 4, 32], f16, global>) symbols(R_shape0: dynamic)")
