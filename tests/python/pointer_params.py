"""`T.ptr` parameters (manifest `pointer`) and int64 pointer tables
(manifest `pointee`) through the package on the CPU target: an eager
kernel whose pointer parameters are annotated in its body takes tensors or
their addresses (data_ptr()); a grouped kernel takes an int64 tensor of
addresses. Results against torch."""

import torch

import tilelang
import tilelang.language as T


@tilelang.jit(target="cpu")
def scale(X, Y, rows, cols, factor, block_R: int = 32, block_C: int = 32):
    X: T.ptr
    Y: T.ptr
    rows: T.int32
    cols: T.int32
    factor: T.float32
    src = T.make_tensor(X, (rows, cols), T.float32)
    dst = T.make_tensor(Y, (rows, cols), T.float32)
    with T.Kernel(T.ceildiv(cols, block_C), T.ceildiv(rows, block_R),
                  threads=128) as (bx, by):
        for i, j in T.Parallel(block_R, block_C):
            r = by * block_R + i
            c = bx * block_C + j
            if r < rows and c < cols:
                dst[r, c] = src[r, c] * factor


@tilelang.jit(target="cpu")
def grouped_axpy(groups, N, block=64):
    @T.prim_func
    def main(X_ptrs: T.Tensor([groups], T.ptr), Y_ptrs: T.Tensor([groups], T.ptr),
             alpha: T.Tensor([groups], T.float32)):
        with T.Kernel(groups, T.ceildiv(N, block), threads=64) as (g, bx):
            X = T.make_tensor(X_ptrs[g], (N,), T.float32)
            Y = T.make_tensor(Y_ptrs[g], (N,), T.float32)
            for i in T.Parallel(block):
                if bx * block + i < N:
                    Y[bx * block + i] = Y[bx * block + i] + alpha[g] * X[bx * block + i]
    return main


def main():
    torch.manual_seed(0)
    x = torch.randn(70, 45)
    y = torch.full((70, 45), float("nan"))
    scale(x, y, 70, 45, 1.5)
    torch.testing.assert_close(y, x * 1.5, rtol=0, atol=0)
    # Addresses instead of tensors.
    y2 = torch.full((70, 45), float("nan"))
    scale(x.data_ptr(), y2.data_ptr(), 70, 45, -2.0)
    torch.testing.assert_close(y2, x * -2.0, rtol=0, atol=0)

    kernel = grouped_axpy(3, 150)
    xs = [torch.randn(150) for _ in range(3)]
    ys = [torch.randn(150) for _ in range(3)]
    want = [y.clone() for y in ys]
    alpha = torch.tensor([0.5, -1.0, 2.0])
    table_x = torch.tensor([t.data_ptr() for t in xs], dtype=torch.int64)
    table_y = torch.tensor([t.data_ptr() for t in ys], dtype=torch.int64)
    kernel(table_x, table_y, alpha)
    for g in range(3):
        torch.testing.assert_close(ys[g], want[g] + alpha[g] * xs[g],
                                   rtol=1e-6, atol=1e-6)
    print("pointer_params: OK")


if __name__ == "__main__":
    main()
