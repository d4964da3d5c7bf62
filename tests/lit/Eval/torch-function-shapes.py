# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: %python %S/Inputs/torch_function_shapes_numpy.py | FileCheck %s
# The shapes of torch's functions that are also tensor methods
# (torch.topk(x, k, -1), torch.sum(x, 2), torch.sort), of the named tuple
# they return (`.indices`, `.values`), of torch.einsum, torch.where,
# torch.nn.functional's softmax and pad, and of Tensor.as_strided: the
# chain MInference's vertical-slash example takes from its scores to the
# kernel's index sizes (`torch.topk(vertical, k, -1).indices`,
# `v_idx.shape[2]`). tlc knew only the method forms and a plain tuple, so
# every one of these was an unknown size. NumPy computes the same shapes
# with its equivalents (Inputs/torch_function_shapes_numpy.py).
import torch
import tilelang.language as T

B, H, S, D, LAST = 1, 2, 256, 64, 16
q = torch.randn(B, H, S, D, device="cuda", dtype=torch.float16)
k = torch.randn(B, H, S, D, device="cuda", dtype=torch.float16)
qk = torch.einsum("bhmk, bhnk -> bhmn", q[:, :, -LAST:, :], k)
qk = torch.nn.functional.softmax(qk, dim=-1, dtype=torch.float32)
vertical = qk.sum(-2, keepdim=True)
top = torch.topk(vertical, 40, -1)
diag = torch.cat((torch.zeros((B, H, LAST, LAST)), qk, torch.zeros((B, H, LAST, LAST))), -1)
strided = diag.as_strided((1, 1, LAST, LAST + S), (1, LAST * (2 * LAST + S), 2 * LAST + S + 1, 1))
slash = torch.sum(strided, 2)[:, :, 1:][..., :-LAST + 1]
slash = (S - 1) - torch.topk(slash, 24, -1).indices
v_idx = top.indices.to(torch.int32).reshape((B, H, -1)).sort(dim=-1, descending=False)[0]
srt = torch.sort(qk, dim=2)
padded = torch.nn.functional.pad(q, [0, 0, 0, 7])
chosen = torch.where(qk > 0, qk, torch.zeros(1, 1, 1, S))

SHAPES = [qk.shape, vertical.shape, top.values.shape, top.indices.shape,
          strided.shape, slash.shape, v_idx.shape, (v_idx.shape[2], slash.shape[-1]),
          srt.values.shape, srt.indices.shape, padded.shape, chosen.shape]

# CHECK: tile.func @shapes
# CHECK-SAME: %S0: !tile.buffer<[1, 2, 16, 256], f32, global>
# CHECK-SAME: %S1: !tile.buffer<[1, 2, 1, 256], f32, global>
# CHECK-SAME: %S2: !tile.buffer<[1, 2, 1, 40], f32, global>
# CHECK-SAME: %S3: !tile.buffer<[1, 2, 1, 40], f32, global>
# CHECK-SAME: %S4: !tile.buffer<[1, 1, 16, 272], f32, global>
# CHECK-SAME: %S5: !tile.buffer<[1, 1, 24], f32, global>
# CHECK-SAME: %S6: !tile.buffer<[1, 2, 40], f32, global>
# CHECK-SAME: %S7: !tile.buffer<[40, 24], f32, global>
# CHECK-SAME: %S8: !tile.buffer<[1, 2, 16, 256], f32, global>
# CHECK-SAME: %S9: !tile.buffer<[1, 2, 16, 256], f32, global>
# CHECK-SAME: %S10: !tile.buffer<[1, 2, 263, 64], f32, global>
# CHECK-SAME: %S11: !tile.buffer<[1, 2, 16, 256], f32, global>


@T.prim_func
def shapes(S0: T.Tensor(SHAPES[0], T.float32), S1: T.Tensor(SHAPES[1], T.float32),
           S2: T.Tensor(SHAPES[2], T.float32), S3: T.Tensor(SHAPES[3], T.float32),
           S4: T.Tensor(SHAPES[4], T.float32), S5: T.Tensor(SHAPES[5], T.float32),
           S6: T.Tensor(SHAPES[6], T.float32), S7: T.Tensor(SHAPES[7], T.float32),
           S8: T.Tensor(SHAPES[8], T.float32), S9: T.Tensor(SHAPES[9], T.float32),
           S10: T.Tensor(SHAPES[10], T.float32), S11: T.Tensor(SHAPES[11], T.float32)):
    with T.Kernel(1, threads=32):
        S0[0, 0, 0, 0] = 1.0


# A plain tuple has no torch fields: reading one is Python's AttributeError.
# CHECK: tile.func @plain_tuple(%P: !tile.buffer<[3], f32, global>)
def plain_tuple_size():
    try:
        return (q, k).indices.shape[0]
    except AttributeError:
        return 3


@T.prim_func
def plain_tuple(P: T.Tensor((plain_tuple_size(),), T.float32)):
    with T.Kernel(1, threads=32):
        P[0] = 1.0
