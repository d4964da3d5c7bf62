# RUN: tlc-build --verify-diagnostics %s
# Undefined names are reported where they are read, once, and evaluation
# continues with the rest of the kernel and of the file.
import tilelang
import tilelang.language as T


@tilelang.jit
def scale(N=1024, block=256):
    A: T.Tensor((N,), T.float32)
    B: T.Tensor((N,), T.float32)
    with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
        for i in T.Parallel(block):
            # expected-error@+1 {{undefined name 'factor'}}
            B[bx * block + i] = A[bx * block + i] * factor


def helper(x):
    # expected-error@+1 {{undefined name 'undefined_helper_value'}}
    return x + undefined_helper_value


helper(1)
# Names defined later in the module resolve lazily.
later = LATER_CONSTANT * 2
LATER_CONSTANT = 21


def never_called(flag):
    if flag:
        # Reported although no instance runs this code: a warning, since
        # Python only raises if it runs (an error where evaluation reaches).
        # expected-warning@+1 {{undefined name 'typo_name'}}
        return typo_name
    squares = [v * v for v in range(flag)]
    return [w for w in squares if w > flag], (lambda q: q + flag)(1)


class Config:
    size = 4
    doubled = size * 2
