# The targets a file asks for in TileLang's spellings (`cuda -arch=sm_70`,
# `cuda:sm_75`, the sm_86 / sm_89 parts, `hip`, `hip -mcpu=gfx90a`): --check
# accepts each with no diagnostic, and each instance is analysed for its
# target's part, seen through `driver.get_num_sms()` (the device table:
# V100 80 SMs, T4 40, A10 72, RTX 4090 128, MI300X 304, MI250X 110). What a
# back end cannot generate for such a part (Volta and Turing have no
# cp.async or ldmatrix; tlc's CUDA target starts at sm_80) is said only
# when building for it.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: not tlc-build --target=cuda:sm_70 -o %t %s 2>&1 | FileCheck %s --check-prefix=BUILD
# CHECK: tile.func @volta
# CHECK: grid [80]
# CHECK: tile.func @turing
# CHECK: grid [40]
# CHECK: tile.func @ampere_a10
# CHECK: grid [72]
# CHECK: tile.func @ada
# CHECK: grid [128]
# CHECK: tile.func @mi300
# CHECK: grid [304]
# CHECK: tile.func @mi250
# CHECK: grid [110]
# BUILD: error: -o: --target=cuda:sm_70: unknown CUDA architecture 'sm_70' (sm_80,
import tilelang
import tilelang.language as T
from tilelang.carver.arch import driver


@tilelang.jit(target="cuda -arch=sm_70")
def volta(N=1024):
    sms = driver.get_num_sms()

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32)):
        with T.Kernel(sms, threads=128) as bid:
            for i in T.Parallel(128):
                X[(bid * 128 + i) % N] = 1.0

    return main


@tilelang.jit(target="cuda:sm_75")
def turing(N=1024):
    sms = driver.get_num_sms()

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32)):
        with T.Kernel(sms, threads=128) as bid:
            for i in T.Parallel(128):
                X[(bid * 128 + i) % N] = 1.0

    return main


@tilelang.jit(target="cuda -arch=sm_86")
def ampere_a10(N=1024):
    sms = driver.get_num_sms()

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32)):
        with T.Kernel(sms, threads=128) as bid:
            for i in T.Parallel(128):
                X[(bid * 128 + i) % N] = 1.0

    return main


@tilelang.jit(target="cuda -arch=sm_89")
def ada(N=1024):
    sms = driver.get_num_sms()

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32)):
        with T.Kernel(sms, threads=128) as bid:
            for i in T.Parallel(128):
                X[(bid * 128 + i) % N] = 1.0

    return main


@tilelang.jit(target="hip")
def mi300(N=1024):
    sms = driver.get_num_sms()

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32)):
        with T.Kernel(sms, threads=256) as bid:
            for i in T.Parallel(256):
                X[(bid * 256 + i) % N] = 1.0

    return main


@tilelang.jit(target="hip -mcpu=gfx90a")
def mi250(N=1024):
    sms = driver.get_num_sms()

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32)):
        with T.Kernel(sms, threads=256) as bid:
            for i in T.Parallel(256):
                X[(bid * 256 + i) % N] = 1.0

    return main
