# The index-map methods of T.Layout / T.Fragment values (tilelang.layout),
# with TileLang's semantics: map_forward_index(indices) and layout(*indices)
# give the list of forward expressions at the indices (one index per
# forward variable, a fragment's `_rep` first when it has replicas),
# map_forward_thread / `thread` a fragment's thread, get_forward_vars() /
# `index` the placeholders and the expressions over them, inverse() the
# inverse of a bijective affine layout (a fragment's as the layout
# (coordinate, replica) -> (register, thread)), expand(leading_shape) new
# leading inputs passed through to leading outputs, and reshape(shape,
# num, den) the same map over another shape (new flat position p reads old
# flat position p * den // num).
#
# Expected values are worked out by hand from those definitions and
# written as plain numbers or as the layout they must equal (the inverse of
# the digit permutation p = (i % 4) * 32 + j * 4 + i // 4 is read off its
# digits: i = (p % 4) * 4 + p // 32, j = (p // 4) % 8). A failed assertion
# or an uncaught exception is a warning, so `count 0` fails.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s
# CHECK-DAG: "name":"S_inv","kind":"buffer","shape":[128]
# CHECK-DAG: "name":"S_exp","kind":"buffer","shape":[2,16,8]
# CHECK-DAG: "name":"S_thr","kind":"buffer","shape":[4,32]
# CHECK-DAG: "name":"V1","kind":"tensor","shape":[53,13,6,5]
# CHECK-DAG: "name":"V2","kind":"tensor","shape":[13,53,5,10]
import tilelang
import tilelang.language as T
from tilelang.layout import Fragment, Layout

# Row-major: (3, 5) of a [8, 16] tile is 3 * 16 + 5 = 53.
rm = Layout([8, 16], lambda i, j: i * 16 + j)
assert rm.map_forward_index([3, 5]) == [53]
assert rm(3, 5) == [53]
assert rm(7, 15) == [127]
assert len(rm.get_forward_vars()) == 2
assert len(rm.index) == 1 and len(rm.get_forward_index()) == 1

# Two outputs: the transpose.
tr = Layout([4, 8], lambda i, j: [j, i])
assert tr(1, 6) == [6, 1]
tinv = tr.inverse()
assert list(tinv.get_input_shape()) == [8, 4]
assert tinv(6, 1) == [1, 6]
assert tinv.is_equal(Layout([8, 4], lambda a, b: [b, a]))

# A digit permutation of a [16, 8] tile onto 128 places.
perm = Layout([16, 8], lambda i, j: (i % 4) * 32 + j * 4 + i // 4)
assert perm(13, 6) == [59]  # 1 * 32 + 6 * 4 + 3
inv = perm.inverse()
assert list(inv.get_input_shape()) == [128]
assert list(inv.get_output_shape()) == [16, 8]
assert inv.is_equal(Layout([128], lambda p: [(p % 4) * 4 + p // 32, (p // 4) % 8]))
assert inv(59) == [13, 6]
for i in range(16):
    for j in range(8):
        assert inv(*perm(i, j)) == [i, j]
# The inverse of the inverse is the layout.
assert inv.inverse().is_equal(perm)

# What has no inverse raises, as TileLang's Layout.inverse does: a padded
# row pitch (not onto its box), a map that drops an input (not injective);
# a XOR swizzle (not affine) in the kernel below, where tlc evaluates
# bit operations of the index variables.
refused = []
for name, bad in [("padded", Layout([8, 32], lambda i, j: i * 40 + j)),
                  ("dropped", Layout([4, 4], lambda i, j: i))]:
    try:
        bad.inverse()
    except RuntimeError:
        refused.append(name)
assert refused == ["padded", "dropped"]

# A fragment: thread i, register j of a [32, 4] tile.
frag = Fragment([32, 4], forward_thread_fn=lambda i, j: i, forward_index_fn=lambda i, j: j)
assert frag.map_forward_thread([5, 3]) == [5]
assert frag.map_forward_index([5, 3]) == [3]
assert frag(5, 3) == [3]
assert len(frag.get_forward_vars()) == 2
# Its inverse maps (register, thread) to (coordinate, replica 0).
finv = frag.inverse()
assert list(finv.get_input_shape()) == [4, 32]
assert finv(3, 5) == [5, 3, 0]

# Two replicas: the forward variables are (_rep, _i); thread rep * 8 + i.
rep = Fragment([8], forward_thread_fn=lambda i, r: r * 8 + i, replicate=2,
               forward_index_fn=lambda i: 0)
assert len(rep.get_forward_vars()) == 2
assert rep.map_forward_thread([1, 5]) == [13]
assert rep.map_forward_thread([0, 5]) == [5]
try:
    rep(5)  # one index for two forward variables
    raise AssertionError("a call with too few indices was accepted")
except RuntimeError:
    pass

# expand: [a, j, k] -> [a, *rm(j, k)].
ex = rm.expand([2])
assert list(ex.get_input_shape()) == [2, 8, 16]
assert list(ex.get_output_shape()) == [2, 128]
assert ex(1, 3, 5) == [1, 53]
assert rm.expand([]) is rm
try:
    rm.expand([0])
    raise AssertionError("a zero leading extent was accepted")
except ValueError:
    pass

# reshape: position 13 of the flat [32] is (1, 5) of the [4, 8] tile.
flat = tr.reshape([32])
assert flat(13) == [5, 1]
# With a rescale: 8 new elements over 16 old ones, p reads old p * 2.
wide = Layout([16], lambda i: i).reshape([8], 1, 2)
assert wide(5) == [10]
assert list(wide.get_output_shape()) == [15]
try:
    rm.reshape([100])
    raise AssertionError("a reshape to another element count was accepted")
except RuntimeError:
    pass


@tilelang.jit
def tiles():

    @T.prim_func
    # Values the methods give, as the extents of two tensors: rm(3, 5),
    # inv(59), frag's thread of (5, 3); rep's thread of (rep 1, 5),
    # ex(1, 3, 5)[1], flat(13)[0], wide(5).
    def main(A: T.Tensor((16, 8), T.float16), B: T.Tensor((128,), T.float16),
             V1: T.Tensor((rm(3, 5)[0], *inv(59), frag.map_forward_thread([5, 3])[0]), T.float16),
             V2: T.Tensor((rep.map_forward_thread([1, 5])[0], ex(1, 3, 5)[1], flat(13)[0], wide(5)[0]),
                          T.float16)):
        with T.Kernel(1, threads=128):
            S_inv = T.alloc_shared(inv.get_input_shape(), T.float16)
            S_exp = T.alloc_shared([2, 16, 8], T.float16)
            S_thr = T.alloc_shared(finv.get_input_shape(), T.float16)
            # The layout at the loop variables: IR index arithmetic.
            for i, j in T.Parallel(16, 8):
                B[perm(i, j)[0]] = A[i, j]
            for i, j in T.Parallel(16, 8):
                S_exp[ex(1, i, j)[0], i, j] = A[i, j]
            S_thr[0, 0] = A[0, 0]
            swizzled = T.Layout([8, 8], lambda i, j: i * 8 + (j ^ i))
            try:
                swizzled.inverse()
                raise AssertionError("a XOR swizzle was inverted")
            except RuntimeError:
                pass
            T.copy(B, S_inv)

    return main


tiles()
