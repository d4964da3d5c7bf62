# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# RUN: tlc-build --emit=hip --target=hip:gfx942 %s | FileCheck %s --check-prefix=HIP
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a --kernel=vector_copy -o %t/n %s | FileCheck %s --check-prefix=NVCC %}
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a --kernel=staged -o %t/n %s | FileCheck %s --check-prefix=NVCC %}
# NVCC: wrote {{.*}}.cubin
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cu %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cu --device sim --verify --reference %t/cpu | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
# SIM: verify B: PASS
# T.copy's load_cache_policy / store_cache_policy (the PTX cache operators
# of ld.global.{ca,cg,cs,lu,cv} and st.global.{wb,cg,cs,wt}) on the copy's
# global side: its vector accesses become tlc::cuda::loadGlobalCached /
# storeGlobalCached (CUDA's __ldcg, __stwt, ...); a shared or fragment side
# keeps plain accesses, a copy without policies keeps copyVector, and HIP,
# which has no such operators, ignores them. nvcc accepts the code; the sim
# (where they are hints) copies as the CPU target does.
import tilelang
import tilelang.language as T


@tilelang.jit
def vector_copy(size=130, load_cache_policy="cg", store_cache_policy="wt"):

    @T.prim_func
    def main(A: T.Tensor((size,), T.float32), B: T.Tensor((size,), T.float32)):
        with T.Kernel(1, threads=32):
            # CHECK-LABEL: vector_copy_kernel
            # CHECK: tlc::cuda::storeGlobalCached<8, tlc::cuda::StoreCache::WT>(&B[{{.*}}], tlc::cuda::loadGlobalCached<8, tlc::cuda::LoadCache::CG>(&A[{{.*}}]));
            # HIP-LABEL: vector_copy_kernel
            # HIP-NOT: Cached
            # HIP: copyVector<8>
            T.copy(A, B, coalesced_width=2, load_cache_policy=load_cache_policy,
                   store_cache_policy=store_cache_policy, prefer_instruction="sync")

    return main


@tilelang.jit
def staged(M=64, N=64):

    @T.prim_func
    def main(A: T.Tensor((M, N), T.float16), B: T.Tensor((M, N), T.float16)):
        with T.Kernel(1, threads=128):
            s = T.alloc_shared((M, N), T.float16)
            # CHECK-LABEL: staged_kernel
            # CHECK: tlc::cuda::storeVector<16>(&s[{{.*}}], tlc::cuda::loadGlobalCached<16, tlc::cuda::LoadCache::CS>(&A[{{.*}}]));
            T.copy(A, s, load_cache_policy="cs")
            # CHECK: tlc::cuda::storeGlobalCached<16, tlc::cuda::StoreCache::CG>(&B[{{.*}}], tlc::cuda::loadVector<16>(&s[{{.*}}]));
            T.copy(s, B, store_cache_policy="cg")
            # CHECK-NOT: Cached

    return main


vector_copy()
staged()
