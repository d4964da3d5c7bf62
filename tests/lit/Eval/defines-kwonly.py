# -D binds keyword-only factory parameters (after `*`) as it binds the
# others, for plain prim_func factories and @tilelang.jit ones: TileLang's
# test_tilelang_language_copy_cache_policy.py builds
# `make_cache_policy_copy(size=130, *, load_cache_policy=None, ...)`, and the
# package passes `load_cache_policy` as a -D. Before, such a -D bound
# nothing ("binds nothing" warning) and the default was traced, so the
# invalid policy raised no ValueError.
# RUN: tlc-build --defines-only --kernel=plain -D scale=5 -D shift=7 --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=PLAIN --implicit-check-not="binds nothing"
# RUN: tlc-build --defines-only --kernel=lazy -D scale=3 --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=LAZY --implicit-check-not="binds nothing"
# RUN: tlc-build --defines-only --kernel=plain -D shift=1 --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
# RUN: not tlc-build --defines-only --kernel=checked -D "policy='wt'" --target=cpu -o %t %s 2>&1 | FileCheck %s --check-prefix=RAISE

import tilelang
import tilelang.language as T


def plain(n=64, *, scale=2, shift):
    @T.prim_func
    def main(A: T.Tensor((n,), "int32")):
        with T.Kernel(1, threads=64):
            for i in T.Parallel(n):
                A[i] = i * scale + shift

    return main


# PLAIN: const int t = (i0 * 5);
# PLAIN-NEXT: const int t_1 = (t + 7);
# DEFAULT: const int t = (i0 * 2);
# DEFAULT-NEXT: const int t_1 = (t + 1);


@tilelang.jit
def lazy(n=64, *, scale=2):
    @T.prim_func
    def main(A: T.Tensor((n,), "int32")):
        with T.Kernel(1, threads=64):
            for i in T.Parallel(n):
                A[i] = i * scale

    return main


# LAZY: const int t = (i0 * 3);


def checked(n=32, *, policy=None):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=32):
            T.copy(A, B, load_cache_policy=policy)

    return main


# RAISE: error: T.copy: load_cache_policy must be one of 'ca', 'cg', 'cs', 'lu', 'cv' or None, got 'wt'
