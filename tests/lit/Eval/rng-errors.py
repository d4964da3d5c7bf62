# What is wrong with a program's random numbers whatever the target: a draw
# with no T.rng_init before it in the kernel (each thread's generator
# starts there), a bit width or distribution T.rng_rand_float does not
# have, a generator TileLang does not know.
# RUN: tlc-build --verify-diagnostics %s

import tilelang.language as T


@T.prim_func
def no_init(Out: T.Tensor((8,), "uint32"), F: T.Tensor((8,), "float64")):
    with T.Kernel(1, threads=8):
        tx = T.get_thread_binding()
        # expected-error@+1 {{T.rng_rand requires a preceding `T.rng_init(...)` in the kernel}}
        Out[tx] = T.rng_rand()
        # expected-error@+1 {{T.rng_rand_float requires a preceding `T.rng_init(...)` in the kernel}}
        F[tx] = T.rng_rand_float(bit=64, dist="normal")


@T.prim_func
def bad_args(F: T.Tensor((8,), "float32")):
    with T.Kernel(1, threads=8):
        tx = T.get_thread_binding()
        # expected-error@+1 {{T.rng_init: unknown generator 'curandStateSobol32_t'}}
        T.rng_init(1, generator="curandStateSobol32_t")
        T.rng_init(1)
        # expected-error@+1 {{T.rng_rand_float: bit must be 32 or 64}}
        F[tx] = T.rng_rand_float(bit=16)
        # expected-error@+1 {{T.rng_rand_float: dist must be 'uniform' or 'normal'}}
        F[tx] = T.rng_rand_float(dist="poisson")
        # expected-error@+1 {{T.rng_init: seed must be an integer, not float32}}
        T.rng_init(1.5)


@T.prim_func
def init_in_other_kernel(Out: T.Tensor((8,), "uint32")):
    with T.Kernel(1, threads=8):
        T.rng_init(7)
    with T.Kernel(1, threads=8):
        tx = T.get_thread_binding()
        # expected-error@+1 {{T.rng_rand requires a preceding `T.rng_init(...)`}}
        Out[tx] = T.rng_rand()


@T.prim_func
def bound_init(Out: T.Tensor((8,), "uint32")):
    with T.Kernel(1, threads=8):
        tx = T.get_thread_binding()
        # expected-error@+1 {{T.rng_init is a value-less expression: it starts the thread's generator and cannot be bound to a variable}}
        _state = T.rng_init(1234)
        Out[tx] = T.rng_rand()
