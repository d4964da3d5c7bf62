# The methods of T.Layout values (tilelang.layout.Layout) a program calls at
# trace time, with TileLang's semantics: repeat(dim, factor) tiles the
# layout along one input dimension, the copy number becoming a new leading
# output (L'(idx) = [idx[dim] // e] + L(idx with idx[dim] % e)); is_equal,
# get_input_shape and get_output_shape. The expected layouts are written
# out from that formula (as TileLang's test_tilelang_layout_repeat.py
# does) and compared element by element; the shapes size shared tiles,
# whose hints FileCheck reads; the errors TileLang raises are ValueError /
# TypeError, caught here as Python catches them (an uncaught one, or a
# failed assertion, is a warning: `count 0` fails).
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s
# CHECK-DAG: "name":"S_in","kind":"buffer","shape":[16,64]
# CHECK-DAG: "name":"S_out","kind":"buffer","shape":[2,512]
# CHECK-DAG: "name":"S_multi","kind":"buffer","shape":[2,8,64]
# CHECK-DAG: "name":"S_neg","kind":"buffer","shape":[8,192]
# CHECK-DAG: "name":"S_frag","kind":"buffer","shape":[64,32]
import tilelang
import tilelang.language as T
from tilelang.layout import Fragment, Layout

atom = Layout([8, 64], lambda i, j: i * 64 + j)

rows = atom.repeat(dim=0, factor=2)
assert rows.is_equal(Layout([16, 64], lambda i, j: [i // 8, (i % 8) * 64 + j]))
assert not rows.is_equal(Layout([16, 64], lambda i, j: [i % 2, (i // 2) * 64 + j]))
assert list(rows.get_input_shape()) == [16, 64]
assert list(rows.get_output_shape()) == [2, 512]

# Positional arguments and a negative dimension (-1 is the last).
cols = atom.repeat(-1, 3)
assert cols.is_equal(Layout([8, 192], lambda i, j: [j // 64, i * 64 + j % 64]))
assert list(cols.get_output_shape()) == [3, 512]

# Several outputs: the copy number goes in front of them all.
multi = Layout([8, 64], lambda i, j: [i, j]).repeat(dim=0, factor=2)
assert multi.is_equal(Layout([16, 64], lambda i, j: [i // 8, i % 8, j]))
assert list(multi.get_output_shape()) == [2, 8, 64]

# A swizzled atom stays swizzled inside each copy.
swz = Layout([8, 8], lambda i, j: i * 8 + (j ^ i)).repeat(dim=1, factor=2)
assert swz.is_equal(Layout([8, 16], lambda i, j: [j // 8, i * 8 + ((j % 8) ^ i)]))

# factor 1 is the layout itself.
assert atom.repeat(dim=0, factor=1) is atom

raised = []
for dim, factor in [(0, 0), (0, -1), (2, 2), (-3, 2)]:
    try:
        atom.repeat(dim=dim, factor=factor)
    except ValueError:
        raised.append((dim, factor))
assert raised == [(0, 0), (0, -1), (2, 2), (-3, 2)]
try:
    atom.repeat(dim=0.5, factor=2)
    raise AssertionError("a float dim was accepted")
except TypeError:
    pass

# A Fragment is a Layout: its shapes are its element and register shapes.
frag = Fragment((64, 32), forward_thread_fn=lambda i, j: i, forward_index_fn=lambda i, j: j)
assert list(frag.get_input_shape()) == [64, 32]
assert list(frag.get_output_shape()) == [32]
assert frag.is_equal(Fragment((64, 32), forward_thread_fn=lambda i, j: i, forward_index_fn=lambda i, j: j))
assert not frag.is_equal(atom)


@tilelang.jit
def tiles():

    @T.prim_func
    def main(A: T.Tensor((16, 64), T.float16)):
        with T.Kernel(1, threads=128):
            S_in = T.alloc_shared(rows.get_input_shape(), T.float16)
            S_out = T.alloc_shared(rows.get_output_shape(), T.float16)
            S_multi = T.alloc_shared(multi.get_output_shape(), T.float16)
            S_neg = T.alloc_shared(cols.get_input_shape(), T.float16)
            S_frag = T.alloc_shared(frag.get_input_shape(), T.float16)
            T.copy(A, S_in)
            S_out[0, 0] = S_in[0, 0]
            S_multi[0, 0, 0] = S_in[0, 0]
            S_neg[0, 0] = S_in[0, 0]
            S_frag[0, 0] = S_in[0, 0]

    return main


tiles()
