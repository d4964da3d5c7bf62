# tlc-build --environ-report=PATH writes which environment variables the
# evaluation of the file and of each kernel instance read (os.environ.get,
# os.getenv, os.environ[NAME], NAME in os.environ; a computed name as
# computed): an instance's are those read before it was complete (the
# module-level code, its factory, what ran before it). A use of os.environ
# other than by one name (dict(os.environ)) may read every variable: "all".
# With --kernel (the Python package's build of one instance), another
# kernel's factory does not run, so its reads are not this kernel's.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu --emit=cpp --environ=TLC_R_SECOND=64 \
# RUN:   --environ-report=%t/all.json %s > /dev/null
# RUN: FileCheck %s --check-prefix=ALL < %t/all.json
# RUN: tlc-build --target=cpu --emit=cpp --kernel=second --defines-only \
# RUN:   -Dn=128 --environ-report=%t/second.json %s > /dev/null
# RUN: FileCheck %s --check-prefix=SECOND < %t/second.json
# RUN: not tlc-build --target=cpu --emit=cpp \
# RUN:   --environ-report=%t/missing/r.json %s 2>&1 \
# RUN:   | FileCheck %s --check-prefix=BAD

# ALL: {"files":[{"all":true,"file":"{{.*}}environ-report.py",
# ALL-SAME: "instances":[{"all":false,"instance":"first(128)","kernel":"first","reads":["TLC_R_FIRST","TLC_R_MOD"]},
# ALL-SAME: {"all":false,"instance":"second(128)","kernel":"second","reads":["TLC_R_FIRST","TLC_R_MOD","TLC_R_SECOND","TLC_R_UNSET"]},
# ALL-SAME: {"all":true,"instance":"third(128)","kernel":"third","reads":["TLC_R_FIRST","TLC_R_MOD","TLC_R_SECOND","TLC_R_UNSET"]}],
# ALL-SAME: "reads":["TLC_R_FIRST","TLC_R_MOD","TLC_R_SECOND","TLC_R_UNSET"]}],"version":1}

# SECOND: {"files":[{"all":false,"file":"{{.*}}environ-report.py",
# SECOND-SAME: "instances":[{"all":false,"instance":"second(n=128)","kernel":"second","reads":["TLC_R_MOD","TLC_R_SECOND","TLC_R_UNSET"]}],
# SECOND-SAME: "reads":["TLC_R_MOD","TLC_R_SECOND","TLC_R_UNSET"]}],"version":1}

# BAD: tlc-build: error: cannot write '{{.*}}missing/r.json'
import os

import tilelang
import tilelang.language as T

SCALE = float(os.environ.get("TLC_R_MOD", "1"))


@tilelang.jit
def first(n):
    block = int(os.getenv("TLC_R_FIRST", "64"))

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32)):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                A[bx * block + i] = SCALE

    return main


@tilelang.jit
def second(n):
    kind = "SECOND"
    name = f"TLC_R_{kind}"
    block = int(os.environ[name]) if name in os.environ else 32
    if "TLC_R_UNSET" in os.environ:
        block = 16

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32)):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                A[bx * block + i] = 2.0

    return main


@tilelang.jit
def third(n):
    every = dict(os.environ)
    block = 32 + 0 * len(every)

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32)):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                A[bx * block + i] = 3.0

    return main


if __name__ == "__main__":
    first(128)
    second(128)
    third(128)
