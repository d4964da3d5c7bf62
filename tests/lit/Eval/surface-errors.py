# RUN: tlc-build --verify-diagnostics %s
# The errors of the primitives added for the whole TileLang surface (warp
# specialisation, TIR frames, special allocations, views, vector builders)
# fire only on programs that are wrong; the valid forms next to each are
# accepted.
import tilelang
import tilelang.language as T


@tilelang.jit
def frames(N=256):
    A: T.Tensor((N,), T.float32)
    with T.Kernel(1, threads=256) as bx:
        tx = T.get_thread_binding()
        with T.ws(1):
            A[tx] = 1.0
        with T.ws(-1):
            A[tx] = 2.0
        # expected-error@+1 {{warp group 2 needs 384 threads, but the kernel has 256}}
        with T.ws(2):
            A[tx] = 3.0
        # expected-error@+1 {{T.ws takes integer warp-group ids, not 'a'}}
        with T.ws("a"):
            A[tx] = 4.0
        # expected-error@+1 {{T.Then must be directly inside `with T.If(...)`}}
        with T.Then():
            A[tx] = 5.0
        with T.If(tx < 4):
            with T.Then():
                A[tx] = 6.0
        # expected-error@+1 {{unknown thread tag 'warpIdx.x'; expected threadIdx.x/y/z or blockIdx.x/y/z}}
        w = T.launch_thread("warpIdx.x", 4)
        # expected-error@+1 {{assertion is always false: sizes}}
        with T.Assert(N < 0, "sizes"):
            A[tx] = 7.0


@tilelang.jit
def buffers(N=64):
    A: T.Tensor((N, N), T.float16)
    with T.Kernel(1, threads=128) as bx:
        S = T.alloc_shared((N, N), T.float16)
        flat = T.reshape(S, (N * N,))
        words = T.view(S, (N, N // 2), T.int32)
        # expected-error@+1 {{T.reshape of 'S' (4096 x float16) to 4000 x float16 changes the number of bytes}}
        bad = T.reshape(S, (4000,))
        # expected-error@+1 {{T.alloc_tmem needs a shape of rank 2 or more (rows, columns)}}
        tm = T.alloc_tmem((128,), T.float32)
        tm2 = T.alloc_tmem((128, 128), T.float32)
        # expected-error@+1 {{unknown reducer op 'mean'; expected sum, max, min, bitand, bitor or bitxor}}
        r = T.alloc_reducer((N,), T.float32, op="mean")
        # expected-error@+1 {{descriptor kind must be 'wgmma', 'tcgen05_smem' or 'tcgen05_instr'}}
        d = T.alloc_descriptor(kind="mma")
        # expected-error@+1 {{T.decl_buffer of a global buffer inside a T.Kernel needs data=; allocate global memory with T.alloc_global before the kernel}}
        g = T.decl_buffer((N,), T.float32)
        x = T.alloc_var(T.float32)
        v = T.Broadcast(x, 4)
        # expected-error@+1 {{lanes must be an integer from 2 to 64}}
        u = T.Broadcast(x, 1)
        w = v + T.Broadcast(T.float32(1.0), 4)
        # A scalar is broadcast to every lane (TVM's rule); vectors of
        # different lane counts do not combine.
        z = v + 1.0
        # expected-error@+1 {{arithmetic between float32x4 and float32x2 values (vectors of different lane counts)}}
        z2 = v + T.Broadcast(x, 2)
        T.copy(A, S)
