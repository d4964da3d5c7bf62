# The keyword hints each TileLang language module declares (newer
# TileLang's per-backend dialects): the neutral modules
# (tilelang.language.common, tilelang.cpu.language, metal, webgpu) refuse
# the CUDA module's hints (copy: disable_tma, eviction_policy,
# prefer_instruction; im2col: eviction_policy; gemm: mbar; gemm_sp:
# wg_wait; atomic_add: use_tma; Parallel: prefer_async; unroll/Unroll:
# unroll_factor) and gemm's k_pack; tilelang.rocm.language is the neutral
# surface plus gemm's k_pack, which must be an int (TypeError otherwise,
# bool included) equal to 1 or 2 (ValueError otherwise), TileLang's two
# messages (issue 3035); a k_pack only known at run time is not judged;
# tilelang.cuda.language refuses k_pack. Each is Python's exception at the
# keyword, raised while the kernel is traced (one per kernel: the trace
# stops there). dialect-keyword-hints.py has the accepted forms.
# RUN: tlc-build --verify-diagnostics %s
import tilelang.cpu.language as Tcpu
import tilelang.cuda.language as Tcuda
import tilelang.language.common as Tc
import tilelang.metal.language as Tmetal
import tilelang.rocm.language as Trocm


@Tcpu.prim_func
def cpu_copy(A: Tcpu.Tensor((16,), "float32"), B: Tcpu.Tensor((16,), "float32")):  # expected-note {{in instance cpu_copy}}
    with Tcpu.Kernel(1):
        # expected-error@+1 {{TypeError: copy() got an unexpected keyword argument 'disable_tma'}}
        Tcpu.copy(A, B, disable_tma=True)


@Tcuda.prim_func
def cuda_gemm(A: Tcuda.Tensor((64, 64), "float16")):  # expected-note {{in instance cuda_gemm}}
    with Tcuda.Kernel(1):
        # expected-error@+1 {{TypeError: gemm() got an unexpected keyword argument 'k_pack'}}
        Tcuda.gemm(A, A, A, k_pack=2)


@Trocm.prim_func
def rocm_k_pack(A: Trocm.Tensor((64, 64), "float16")):  # expected-note {{in instance rocm_k_pack}}
    with Trocm.Kernel(1):
        # expected-error@+1 {{ValueError: T.gemm k_pack must be 1 or 2, got 3}}
        Trocm.gemm(A, A, A, k_pack=3)


@Trocm.prim_func
def rocm_k_pack_float(A: Trocm.Tensor((64, 64), "float16")):  # expected-note {{in instance rocm_k_pack_float}}
    with Trocm.Kernel(1):
        # expected-error@+1 {{TypeError: T.gemm k_pack must be an int equal to 1 or 2, got 2.0 (float)}}
        Trocm.gemm(A, A, A, k_pack=2.0)


@Trocm.prim_func
def rocm_copy(A: Trocm.Tensor((64,), "float16"), B: Trocm.Tensor((64,), "float16")):  # expected-note {{in instance rocm_copy}}
    with Trocm.Kernel(1):
        # expected-error@+1 {{TypeError: copy() got an unexpected keyword argument 'eviction_policy'}}
        Trocm.copy(A, B, eviction_policy="evict_first")


@Tc.prim_func
def common_parallel(A: Tc.Tensor((64,), "float32"), B: Tc.Tensor((64,), "float32")):  # expected-note {{in instance common_parallel}}
    with Tc.Kernel(1, threads=64):
        # expected-error@+1 {{TypeError: Parallel() got an unexpected keyword argument 'prefer_async'}}
        for i in Tc.Parallel(64, prefer_async=True):
            B[i] = A[i]


@Tc.prim_func
def common_unroll(A: Tc.Tensor((64,), "float32"), B: Tc.Tensor((64,), "float32")):  # expected-note {{in instance common_unroll}}
    with Tc.Kernel(1, threads=64):
        # expected-error@+1 {{TypeError: unroll() got an unexpected keyword argument 'unroll_factor'}}
        for j in Tc.unroll(4, unroll_factor=2):
            B[j] = A[j]


@Tmetal.prim_func
def metal_atomic(A: Tmetal.Tensor((64,), "float32"), B: Tmetal.Tensor((64,), "float32")):  # expected-note {{in instance metal_atomic}}
    with Tmetal.Kernel(1, threads=64):
        S = Tmetal.alloc_shared((64,), "float32")
        Tmetal.copy(A, S)
        # expected-error@+1 {{TypeError: atomic_add() got an unexpected keyword argument 'use_tma'}}
        Tmetal.atomic_add(B, S, use_tma=True)


@Tcpu.prim_func
def cpu_gemm_mbar(A: Tcpu.Tensor((64, 64), "float16")):  # expected-note {{in instance cpu_gemm_mbar}}
    with Tcpu.Kernel(1):
        # expected-error@+1 {{TypeError: gemm() got an unexpected keyword argument 'mbar'}}
        Tcpu.gemm(A, A, A, mbar=None)


import tilelang
import tilelang.language as T


@T.prim_func
def default_k_pack(A: T.Tensor((64, 64), "float16")):  # expected-note {{in instance default_k_pack}}
    with T.Kernel(1):
        # expected-error@+1 {{TypeError: T.gemm k_pack must be an int equal to 1 or 2, got True (bool)}}
        T.gemm(A, A, A, k_pack=True)



@T.prim_func
def default_k_pack_zero(A: T.Tensor((64, 64), "float16")):  # expected-note {{in instance default_k_pack_zero}}
    with T.Kernel(1):
        # expected-error@+1 {{ValueError: T.gemm k_pack must be 1 or 2, got -1}}
        T.gemm(A, A, A, k_pack=-1)


@T.prim_func
def default_k_pack_none(A: T.Tensor((64, 64), "float16")):  # expected-note {{in instance default_k_pack_none}}
    with T.Kernel(1):
        # expected-error@+1 {{TypeError: T.gemm k_pack must be an int equal to 1 or 2, got None (NoneType)}}
        T.gemm(A, A, A, k_pack=None)


@T.prim_func
def default_k_pack_str(A: T.Tensor((64, 64), "float16")):  # expected-note {{in instance default_k_pack_str}}
    with T.Kernel(1):
        # expected-error@+1 {{TypeError: T.gemm k_pack must be an int equal to 1 or 2, got '2' (str)}}
        T.gemm(A, A, A, k_pack="2")


# A factory never called: its default instance knows k_pack only as a
# symbol, an int whose value the call decides; nothing is reported.
@tilelang.jit
def gemm_with(k_pack):
    @T.prim_func
    def packed(A: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((64, 64), "float16")
            C_l = T.alloc_fragment((64, 64), "float32")  # expected-note {{is allocated here}}
            T.copy(A, A_s)
            T.gemm(A_s, A_s, C_l, k_pack=k_pack)  # expected-warning {{nothing has written yet}}
            T.copy(C_l, C)

    return packed
