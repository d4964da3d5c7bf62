# A grid extent tlc cannot know (here from a torch tensor's data) is a
# run-time value; the warning is said at that extent and quotes it (before:
# at the T.Kernel call, as "the grid extent '<object>'"). A scalar from
# outside TileLang used in the kernel is named by the source where it is
# used (before: '<object>').
# RUN: tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --implicit-check-not="warning:" --implicit-check-not="error:"
# CHECK: grid-extent-opaque.py:[[@LINE+12]]:23: warning: tlc cannot evaluate the grid extent 'rows' (a value from outside TileLang); it is analysed as a run-time value
# CHECK: grid-extent-opaque.py:[[@LINE+13]]:17: warning: tlc cannot evaluate a value used at 'A[bx, j]' (a value from outside TileLang); it is analysed as an unknown floating-point value
import torch
import tilelang
import tilelang.language as T


@tilelang.jit
def fill(rows, fill_value, N=128):

    @T.prim_func
    def main(A: T.Tensor((4096, N), T.float32)):
        with T.Kernel(rows, threads=128) as bx:
            for j in T.Parallel(N):
                A[bx, j] = fill_value

    return main


sizes = torch.tensor([2048, 6144], dtype=torch.int32)
fill(int(sizes.max()), sizes.float().mean().item())
