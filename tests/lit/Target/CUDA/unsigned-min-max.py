# T.max / T.min / T.clamp of unsigned integers compare unsigned: they were
# lowered to signed max/min, so uint8 200 was "less" than 100 (and uint32
# values from 2^31 on were negative). reduce_max / reduce_min of uint8 and
# uint32 fragments start from the unsigned identities. Inputs cover the
# whole unsigned range; the CPU target and the CUDA code on the sim device
# are checked against NumPy.
# RUN: tlc-build --target=cpu --emit=cpp --no-source-lines %s | FileCheck %s --check-prefix=CPP
# CPP: = int8_t(std::max<uint8_t>({{.*}}, int8_t(100)));
# CPP-NEXT: = int8_t(std::min<uint8_t>({{.*}}, int8_t(-56)));
# CPP: = int32_t(std::max<uint32_t>({{.*}}, 1000));
# CPP-NEXT: = int32_t(std::min<uint32_t>({{.*}}, -1294967296));
# RUN: rm -rf %t && mkdir -p %t && %python %S/Inputs/unsigned_min_max_inputs.py %t/in
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --inputs %t/in --save %t/out > /dev/null
# RUN: %python %S/Inputs/unsigned_min_max_check.py %t/out | FileCheck %s
# CHECK: max8 OK min8 OK clamp8 OK max32 OK min32 OK clamp32 OK
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --inputs %t/in --save %t/sm80out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/unsigned_min_max_check.py %t/sm80out | FileCheck %s %}
import tilelang
import tilelang.language as T


@tilelang.jit
def unsigned_reduce(M=8, N=64):

    @T.prim_func
    def main(X8: T.Tensor((M, N), "uint8"), Max8: T.Tensor((M,), "uint8"),
             Min8: T.Tensor((M,), "uint8"), Clamp8: T.Tensor((M, N), "uint8"),
             X32: T.Tensor((M, N), "uint32"), Max32: T.Tensor((M,), "uint32"),
             Min32: T.Tensor((M,), "uint32"),
             Clamp32: T.Tensor((M, N), "uint32")):
        with T.Kernel(1, threads=128) as _:
            x8 = T.alloc_fragment((M, N), "uint8")
            max8 = T.alloc_fragment((M,), "uint8")
            min8 = T.alloc_fragment((M,), "uint8")
            x32 = T.alloc_fragment((M, N), "uint32")
            max32 = T.alloc_fragment((M,), "uint32")
            min32 = T.alloc_fragment((M,), "uint32")
            T.copy(X8, x8)
            T.copy(X32, x32)
            T.reduce_max(x8, max8, dim=1)
            T.reduce_min(x8, min8, dim=1)
            T.reduce_max(x32, max32, dim=1)
            T.reduce_min(x32, min32, dim=1)
            T.copy(max8, Max8)
            T.copy(min8, Min8)
            T.copy(max32, Max32)
            T.copy(min32, Min32)
            for i, j in T.Parallel(M, N):
                Clamp8[i, j] = T.min(T.max(X8[i, j], T.uint8(100)), T.uint8(200))
                Clamp32[i, j] = T.clamp(X32[i, j], T.uint32(1000), T.uint32(3000000000))

    return main


unsigned_reduce()
