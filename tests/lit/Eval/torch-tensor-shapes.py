# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: %python %S/Inputs/torch_shapes_numpy.py | FileCheck %s
# The shapes of torch tensors a script makes before it calls a kernel:
# factories (linspace, arange, randperm, tensor, cat, stack, *_like, sizes
# read from data), reshaping methods (view / reshape with -1, expand,
# permute, transpose, unsqueeze, squeeze, flatten, repeat, sort, topk, a
# reduction over a dimension), indexing (ints, slices, None, an index
# tensor, a boolean mask) and broadcasting arithmetic. tlc knew only
# randn-style factories of int sizes and methods that keep the shape, so
# `q.shape` of these was unknown and each kernel below had a single
# dynamic dimension. NumPy computes the same shapes with its equivalents
# (Inputs/torch_shapes_numpy.py); both print them into one FileCheck.
import torch
import tilelang.language as T

C, H, D = 64, 4, 32
perm = torch.randperm(C, device="cuda")
q = (torch.linspace(0, 1, steps=C, dtype=torch.float16)[perm]
     .view(1, C, 1, 1).expand(1, C, H, D).clone().requires_grad_(True))
offsets = torch.cat([torch.tensor([0]), torch.arange(16, C)[torch.randperm(C - 1)[:3]],
                     torch.tensor([C])], 0).cuda().sort()[0]
x = torch.randn(2, 3, 4)
counts = torch.randint(1, 9, size=(5,))
total = 0
for i in range(5):
    total += counts[i]
ragged = torch.randn(total, H, D)

SHAPES = [
    q.shape, (len(offsets) - 1,), x.view(-1, 4).shape, x.reshape(6, -1).shape,
    x.transpose(0, 2).shape, x.permute(2, 0, 1).shape, x.unsqueeze(1).shape,
    x[:, 1].shape, (x.size(1), x.dim(), x.numel()), x[None, ..., 1:3].shape,
    x.flatten(1).shape, x.repeat(2, 1, 3).shape, x.sum(1, keepdim=True).shape,
    x.max(dim=-1)[0].shape, x.topk(2)[1].shape, torch.stack([x, x], 1).shape,
    torch.zeros_like(x).T.shape, (x[:, :, None] + x[:, None, :]).shape,
    torch.arange(3, 20, 4).shape, x.unsqueeze(0).squeeze(0).shape,
    torch.tensor([[1, 2, 3], [4, 5, 6]]).shape, x[x > 0].shape[1:],
    ragged.shape[1:],
]

# CHECK: tile.func @shapes
# CHECK-SAME: %S0: !tile.buffer<[1, 64, 4, 32], f32, global>
# CHECK-SAME: %S1: !tile.buffer<[4], f32, global>
# CHECK-SAME: %S2: !tile.buffer<[6, 4], f32, global>
# CHECK-SAME: %S3: !tile.buffer<[6, 4], f32, global>
# CHECK-SAME: %S4: !tile.buffer<[4, 3, 2], f32, global>
# CHECK-SAME: %S5: !tile.buffer<[4, 2, 3], f32, global>
# CHECK-SAME: %S6: !tile.buffer<[2, 1, 3, 4], f32, global>
# CHECK-SAME: %S7: !tile.buffer<[2, 4], f32, global>
# CHECK-SAME: %S8: !tile.buffer<[3, 3, 24], f32, global>
# CHECK-SAME: %S9: !tile.buffer<[1, 2, 3, 2], f32, global>
# CHECK-SAME: %S10: !tile.buffer<[2, 12], f32, global>
# CHECK-SAME: %S11: !tile.buffer<[4, 3, 12], f32, global>
# CHECK-SAME: %S12: !tile.buffer<[2, 1, 4], f32, global>
# CHECK-SAME: %S13: !tile.buffer<[2, 3], f32, global>
# CHECK-SAME: %S14: !tile.buffer<[2, 3, 2], f32, global>
# CHECK-SAME: %S15: !tile.buffer<[2, 2, 3, 4], f32, global>
# CHECK-SAME: %S16: !tile.buffer<[4, 3, 2], f32, global>
# CHECK-SAME: %S17: !tile.buffer<[2, 3, 3, 4], f32, global>
# CHECK-SAME: %S18: !tile.buffer<[5], f32, global>
# CHECK-SAME: %S19: !tile.buffer<[2, 3, 4], f32, global>
# CHECK-SAME: %S20: !tile.buffer<[2, 3], f32, global>
# CHECK-SAME: %S21: !tile.buffer<[], f32, global>
# CHECK-SAME: %S22: !tile.buffer<[4, 32], f32, global>


@T.prim_func
def shapes(S0: T.Tensor(SHAPES[0], T.float32), S1: T.Tensor(SHAPES[1], T.float32),
           S2: T.Tensor(SHAPES[2], T.float32), S3: T.Tensor(SHAPES[3], T.float32),
           S4: T.Tensor(SHAPES[4], T.float32), S5: T.Tensor(SHAPES[5], T.float32),
           S6: T.Tensor(SHAPES[6], T.float32), S7: T.Tensor(SHAPES[7], T.float32),
           S8: T.Tensor(SHAPES[8], T.float32), S9: T.Tensor(SHAPES[9], T.float32),
           S10: T.Tensor(SHAPES[10], T.float32), S11: T.Tensor(SHAPES[11], T.float32),
           S12: T.Tensor(SHAPES[12], T.float32), S13: T.Tensor(SHAPES[13], T.float32),
           S14: T.Tensor(SHAPES[14], T.float32), S15: T.Tensor(SHAPES[15], T.float32),
           S16: T.Tensor(SHAPES[16], T.float32), S17: T.Tensor(SHAPES[17], T.float32),
           S18: T.Tensor(SHAPES[18], T.float32), S19: T.Tensor(SHAPES[19], T.float32),
           S20: T.Tensor(SHAPES[20], T.float32), S21: T.Tensor(SHAPES[21], T.float32),
           S22: T.Tensor(SHAPES[22], T.float32)):
    with T.Kernel(1, threads=32):
        S18[0] = 1.0


# A size read from data stays unknown: the kernel's first dimension is
# dynamic, the others are the sizes the script gave.
# CHECK: tile.func @ragged_rows(%R: !tile.buffer<[R_shape0, 4, 32], f16, global>) symbols(R_shape0: dynamic)
@T.prim_func
def ragged_rows(R: T.Tensor(ragged.shape, T.float16)):
    with T.Kernel(1, threads=32):
        R[0, 0, 0] = T.float16(0)
