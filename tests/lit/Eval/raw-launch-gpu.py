# A prim_func that launches its threads in raw TIR (T.launch_thread or a
# `for` over T.thread_binding outside a T.Kernel) is one launch: its first
# launched tag opens a tile.kernel that holds the rest of the function,
# with the grid and block of the tags launched (Target/Cpp/raw-launch.py
# runs such kernels). A launch nested in an IR loop, and a tag launched
# twice with different extents, are errors at the launch.
# RUN: tlc-build --emit=tile --kernel negate %s 2>&1 | FileCheck %s
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=ERR

import tilelang.language as T


@T.prim_func
def negate(A: T.Tensor((1024,), T.float32), B: T.Tensor((1024,), T.float32)):
    bx = T.launch_thread("blockIdx.x", 8)
    tx = T.launch_thread("threadIdx.x", 128)
    B[bx * 128 + tx] = -A[bx * 128 + tx]


# CHECK: tile.func @negate
# CHECK-NEXT: tile.kernel (%[[BX:[a-z0-9_]+]]) grid [8] threads [128]
# CHECK: tile.thread_binding 0


@T.prim_func
def in_loop(A: T.Tensor((64,), T.float32)):
    for k in T.serial(2):
        tx = T.launch_thread("threadIdx.x", 32)
        A[k * 32 + tx] = 1.0


# ERR: raw-launch-gpu.py:[[# @LINE - 4]]:14: error: a raw TIR launch (T.launch_thread / T.thread_binding outside a T.Kernel) must be at the top level of the function, not inside a loop or condition


@T.prim_func
def twice(A: T.Tensor((64,), T.float32)):
    for tx in T.thread_binding(32, thread="threadIdx.x"):
        A[tx] = 1.0
    for tx in T.thread_binding(64, thread="threadIdx.x"):
        A[tx] = 2.0


# ERR: raw-launch-gpu.py:[[# @LINE - 4]]:15: error: threadIdx.x is launched with 64 here and 32 before: one launch has one extent per tag
