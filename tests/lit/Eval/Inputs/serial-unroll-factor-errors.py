# Refused T.serial unroll factors (run by serial-unroll-factor.py).
import tilelang.language.common as Tc
import tilelang.language as T


@T.prim_func
def negative(A: T.Tensor((16,), T.float32)):  # expected-note {{in instance negative}}
    with T.Kernel(1, threads=128):
        # expected-error@+1 {{T.serial: unroll_factor must be a non-negative integer constant, not -2}}
        for i in T.serial(16, unroll_factor=-2):
            A[i] = 0.0


@Tc.prim_func
def neutral(A: Tc.Tensor((16,), "float32")):  # expected-note {{in instance neutral}}
    with Tc.Kernel(1, threads=128):
        # expected-error@+1 {{TypeError: serial() got an unexpected keyword argument 'unroll_factor'}}
        for i in Tc.serial(16, unroll_factor=2):
            A[i] = 0.0


@T.prim_func
def explicit_and_factor(A: T.Tensor((16,), T.float32)):  # expected-note {{in instance explicit_and_factor}}
    with T.Kernel(1, threads=128):
        # expected-error@+1 {{T.unroll's explicit and unroll_factor params are mutually exclusive.}}
        for i in T.unroll(16, explicit=True, unroll_factor=2):
            A[i] = 0.0
