# A reduction over a fragment with fewer elements than threads whose result
# is read as a scalar (a MoE gate's row maximum over 8 experts in a 32-thread
# block): the reduction lays `mx` out over the 8 threads that hold `lf`
# (replicated 8 times), while a scalar read alone would have every thread
# hold it whole. Layout inference used to pin the scalar read's layout first
# and report a layout conflict on this valid program; it now retries with
# such fragments laid out by their other uses first. The unguarded read
# builds for CUDA (an exchange through shared memory); the read guarded by
# `tid == 0` reads thread 0's own register (thread 0 holds replica 0 of
# mx[0]: no exchange, no barrier inside the guard; pick_lane reads element
# 37 of a fragment the T.Parallel spreads two a thread, under `tid == 18`:
# thread 18's register 1). All run on the sim
# device against the CPU target, whose outputs are compared with NumPy. A
# guard that leaves a thread holding no replica (tid == 20) cannot read
# a register and no block barrier can stand inside the guard: the GPU
# targets refuse it at the read (a back-end limit, reported only when
# building for them; --check and the CPU target accept it).
# RUN: tlc-build --check %s 2>&1 | not grep -E "(error|warning):"
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 4 --save %t/out
# RUN: %python %S/Inputs/reduce_scalar_read_ref.py %t/out | FileCheck %s
# CHECK: row_max True
# CHECK: row_max_lead True
# CHECK: row_max_other True
# CHECK: pick_lane True
# RUN: tlc-build --target=cuda:sm_90a --kernel=row_max_lead --emit=cuda %s | FileCheck %s --check-prefix=LEAD
# LEAD: const bool [[T:.*]] = ((int)threadIdx.x == 0);
# LEAD: if ([[T]]) {
# LEAD-NEXT: const float [[X:.*]] = mx[0];
# LEAD-NEXT: out_max[pid] = [[X]];
# RUN: tlc-build --target=hip:gfx942 --kernel=row_max_lead --emit=hip %s | FileCheck %s --check-prefix=LEAD
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --kernel=row_max --cuda-compiler=none -o %t/sim1 %s > /dev/null 2>&1 %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --kernel=row_max_lead --cuda-compiler=none -o %t/sim2 %s > /dev/null 2>&1 %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --kernel=pick_lane --cuda-compiler=none -o %t/sim3 %s > /dev/null 2>&1 %}
# RUN: %if sim-compiler %{ tlc-run %t/sim3 --device sim --verify --reference %t/art --seed 4 --rtol 0 --atol 0 | FileCheck %s --check-prefix=PICK %}
# PICK: verify out: PASS
# RUN: %if sim-compiler %{ tlc-run %t/sim1 --device sim --verify --reference %t/art --seed 4 --rtol 0 --atol 0 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-run %t/sim2 --device sim --verify --reference %t/art --seed 4 --rtol 0 --atol 0 | FileCheck %s --check-prefix=SIM %}
# SIM: verify out_max: PASS
# RUN: not tlc-build --target=cuda:sm_90a --kernel=row_max_other --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=GUARD
# GUARD: reduce-scalar-read-few-elements.py:[[@LINE+42]]:17: error: the CUDA target accesses fragments only inside a T.Parallel
import tilelang
import tilelang.language as T


@tilelang.jit
def row_max(n_tok=64, n_exp=8):
    @T.prim_func
    def kernel(logits: T.Tensor((n_tok, n_exp), T.float32), out_max: T.Tensor((n_tok,), T.float32)):
        with T.Kernel(n_tok, threads=32) as pid:
            lf = T.alloc_fragment(n_exp, T.float32)
            T.copy(logits[pid, 0], lf)
            mx = T.alloc_fragment(1, T.float32)
            T.reduce_max(lf, mx, dim=0)
            out_max[pid] = mx[0] * 2.0
    return kernel


@tilelang.jit
def row_max_lead(n_tok=64, n_exp=8):
    @T.prim_func
    def kernel(logits: T.Tensor((n_tok, n_exp), T.float32), out_max: T.Tensor((n_tok,), T.float32)):
        with T.Kernel(n_tok, threads=32) as pid:
            lf = T.alloc_fragment(n_exp, T.float32)
            T.copy(logits[pid, 0], lf)
            mx = T.alloc_fragment(1, T.float32)
            T.reduce_max(lf, mx, dim=0)
            if T.get_thread_binding() == 0:
                out_max[pid] = mx[0]
    return kernel


@tilelang.jit
def row_max_other(n_tok=64, n_exp=8):
    @T.prim_func
    def kernel(logits: T.Tensor((n_tok, n_exp), T.float32), out_max: T.Tensor((n_tok,), T.float32)):
        with T.Kernel(n_tok, threads=32) as pid:
            lf = T.alloc_fragment(n_exp, T.float32)
            T.copy(logits[pid, 0], lf)
            mx = T.alloc_fragment(1, T.float32)
            T.reduce_max(lf, mx, dim=0)
            if T.get_thread_binding() == 20:
                out_max[pid] = mx[0]
    return kernel


@tilelang.jit
def pick_lane(n=64):
    @T.prim_func
    def kernel(x: T.Tensor((4, n), T.float32), out: T.Tensor((4,), T.float32)):
        with T.Kernel(4, threads=32) as b:
            f = T.alloc_fragment(n, T.float32)
            for i in T.Parallel(n):
                f[i] = x[b, i] * 3.0
            if T.get_thread_binding() == 18:
                out[b] = f[37]
    return kernel


row_max()
row_max_lead()
row_max_other()
pick_lane()
