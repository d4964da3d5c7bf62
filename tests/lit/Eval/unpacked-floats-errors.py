# What the unpacked 4/6-bit float dtypes refuse (unpacked-floats.py has
# what they accept): TileLang's custom storage tags have no arithmetic, no
# comparison and no implicit conversion, so tlc reports each where it is
# written: `+`, unary `-`, `<`, a float32 value stored into an unpacked
# tile, an unpacked value stored into a uint8 tensor without
# T.reinterpret, a converting T.copy in either direction, a reinterpret to
# a type of another width, a cast to a vector dtype, a T.copy of packed
# codes into unpacked storage (TileLang's SIMT copy refuses it; a TMA copy
# of the pair is accepted: unpacked-floats-tma.py), a T.tma_copy between
# an unpacked dtype and anything but its packed form, and the tile ops that
# compute with element values (T.gemm, reductions, T.fill: tlc has no
# f8f6f4 MMA reading unpacked codes, and bytes would be summed as
# integers).
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: unpacked-floats-errors.py:[[# @LINE + 22]]:17: error: arithmetic of a float4_e2m1_unpacked value: unpacked float codes are storage only; T.Cast them to float32 first

import tilelang.language as T


@T.prim_func
def bad(X: T.Tensor((64,), "float32"), OUT: T.Tensor((64,), "uint8"),
        Y: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64):
        tx = T.get_thread_binding()
        q = T.alloc_shared((64,), T.float4_e2m1_unpacked)
        e = T.alloc_shared((64,), T.float6_e2m3fn_unpacked)
        f = T.alloc_shared((64,), "float32")
        q[tx] = T.Cast(T.float4_e2m1_unpacked, X[tx])
        e[tx] = T.Cast(T.float6_e2m3fn_unpacked, X[tx])
        f[tx] = X[tx]
        T.sync_threads()
        # Accepted: a number is encoded, a float32 value converts to the
        # codes with T.Cast and a code reads back as a float with T.Cast.
        q[tx] = 1.5
        Y[tx] = T.Cast(T.float32, q[tx]) + T.Cast(T.float32, e[tx])
        # expected-error@+1 {{arithmetic of a float4_e2m1_unpacked value: unpacked float codes are storage only; T.Cast them to float32 first}}
        Y[tx] = q[tx] + 1.0
        # expected-error@+1 {{arithmetic of a float6_e2m3fn_unpacked value: unpacked float codes are storage only; T.Cast them to float32 first}}
        Y[tx] = -e[tx]
        # expected-error@+1 {{comparison of a float6_e2m3fn_unpacked value: unpacked float codes are storage only; T.Cast them to float32 first}}
        Y[tx] = T.if_then_else(e[tx] < X[tx], 1.0, 0.0)
        # expected-error@+1 {{cannot store a float32 value into 'q' of float4_e2m1_unpacked: unpacked float codes convert only with T.Cast or T.reinterpret}}
        q[tx] = X[tx]
        # expected-error@+1 {{cannot store a float4_e2m1_unpacked value into 'OUT' of uint8: unpacked float codes convert only with T.Cast or T.reinterpret}}
        OUT[tx] = q[tx]
        # expected-error@+1 {{T.copy from float32 to float6_e2m3fn_unpacked: unpacked float codes are copied only between buffers of their own dtype (convert element by element with T.Cast)}}
        T.copy(f, e)
        # expected-error@+1 {{T.copy from float4_e2m1_unpacked to float6_e2m3fn_unpacked: unpacked float codes are copied only between buffers of their own dtype (convert element by element with T.Cast)}}
        T.copy(q, e)
        # expected-error@+1 {{T.reinterpret needs types of the same width}}
        Y[tx] = T.Cast(T.float32, T.reinterpret(T.uint16, q[tx]))
        # expected-error@+1 {{cannot cast float4_e2m1_unpacked to float32x2 (unpacked float codes are scalars)}}
        Y[tx] = T.extract_lane(T.Cast(T.float32x2, q[tx]), 0)


@T.prim_func
def bad_copies(P: T.Tensor((64, 128), T.float4_e2m1fn), F: T.Tensor((64, 128), "float16")):
    with T.Kernel(1, threads=128):
        a = T.alloc_shared((64, 128), T.float4_e2m1_unpacked)
        e = T.alloc_shared((64, 128), T.float6_e2m3fn_unpacked)
        mbar = T.alloc_barrier(128)
        # expected-error@+1 {{T.copy from float4_e2m1fn to float4_e2m1_unpacked: unpacked float codes are copied only between buffers of their own dtype (convert element by element with T.Cast)}}
        T.copy(P, a)
        # expected-error@+1 {{T.tma_copy from float16 to float4_e2m1_unpacked: unpacked float codes are copied only between buffers of their own dtype (convert element by element with T.Cast)}}
        T.tma_copy(F, a, barrier=mbar)
        # expected-error@+1 {{T.tma_copy from float4_e2m1fn to float6_e2m3fn_unpacked: unpacked float codes are copied only between buffers of their own dtype (convert element by element with T.Cast)}}
        T.tma_copy(P, e, barrier=mbar)


@T.prim_func
def bad_tile_ops(A: T.Tensor((64, 64), "uint8"), C: T.Tensor((64, 64), "int32")):
    with T.Kernel(1, threads=128):
        a = T.alloc_shared((64, 64), T.float4_e2m1_unpacked)
        b = T.alloc_shared((64, 64), T.float4_e2m1_unpacked)
        c = T.alloc_fragment((64, 64), "int32")
        s = T.alloc_fragment((64,), "int32")
        # Accepted: T.clear writes code 0 (+0.0).
        T.clear(a)
        for i, k in T.Parallel(64, 64):
            a[i, k] = T.reinterpret(T.float4_e2m1_unpacked, A[i, k])
            b[i, k] = T.reinterpret(T.float4_e2m1_unpacked, A[k, i])
        # expected-error@+1 {{T.gemm of 'a' (float4_e2m1_unpacked): unpacked float codes are storage only (T.copy, T.reinterpret, T.Cast); convert them to a float tile first}}
        T.gemm(a, b, c, transpose_B=True, clear_accum=True)
        # expected-error@+1 {{T.reduce_sum of 'a' (float4_e2m1_unpacked): unpacked float codes are storage only}}
        T.reduce_sum(a, s, dim=1)
        # expected-error@+1 {{T.fill of 'b' (float4_e2m1_unpacked): unpacked float codes are storage only}}
        T.fill(b, 1.0)
        T.copy(c, C)
