# What the T.Fragment methods refuse (fragment-methods.py has the accepted
# forms): repeat counts that are not one positive integer per dimension,
# replicate(0), a bound thread range smaller than the fragment's threads
# or starting below 0, unknown keywords (TypeError, as Python raises), and
# Fragment's own methods on a T.Layout, which has none (AttributeError). Exceptions
# in module-level code are warnings (tlc reports and continues); the
# others are errors at the argument. fragment-bind-range-errors.py has
# a bound fragment used on other threads.
# RUN: tlc-build --verify-diagnostics %s
import tilelang.language as T
from tilelang.layout import Fragment, make_gemm_fragment_8x8

g = make_gemm_fragment_8x8()
# expected-error@+1 {{Fragment.repeat needs one repeat count per dimension: the fragment has 2, got 1}}
a = g.repeat([2])
# expected-error@+1 {{Fragment.repeat counts must be positive integers, got 0}}
b = g.repeat([0, 2])
# expected-error@+1 {{Fragment.replicate needs a positive integer, got 0}}
c = g.replicate(0)
# expected-error@+1 {{the fragment uses 64 threads, more than the bound range's 32}}
d = Fragment((64,), forward_thread_fn=lambda i: i).bind_thread_range(0, 32)
# expected-warning@+1 {{AttributeError: 'Layout' object has no attribute 'replicate' (it is a method of Fragment)}}
e = T.Layout((8, 8), lambda i, j: i * 8 + j).replicate(2)
# Layout's own repeat(dim, factor) (layout-methods.py), called as Fragment's.
# expected-warning@+1 {{TypeError: Layout.repeat() missing 1 required positional argument: 'factor'}}
e2 = T.Layout((8, 8), lambda i, j: i * 8 + j).repeat([2, 2])
# expected-warning@+1 {{TypeError: Fragment.repeat() got an unexpected keyword argument 'on_thread'}}
f = g.repeat([2, 2], on_thread=True)
# expected-error@+1 {{Fragment.bind_thread_range needs begin >= 0 and extent >= 1, got (-32, 32)}}
h = g.bind_thread_range(-32, 32)
