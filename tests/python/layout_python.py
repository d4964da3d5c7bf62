"""``T.Layout`` / ``T.Fragment`` at Python level (outside kernels), as
TileLang's test_tilelang_layout_repeat.py uses them: ``repeat``,
``get_input_shape``, ``get_output_shape``, ``is_equal``, calls on integer
indices. Expected maps are NumPy arrays over the whole index grid, written
from the definition of repeat (``L'(.., i, ..) = [i // extent] +
L(.., i % extent, ..)``), not from the package's evaluation."""

import numpy as np

import tilelang.language as T
from tilelang.layout import Fragment, Layout


def table(layout):
    """The layout's outputs at every index, as an array [*shape, outputs]."""
    shape = layout.get_input_shape()
    out = np.zeros(shape + [len(layout(*([0] * len(shape))))], np.int64)
    for idx in np.ndindex(*shape):
        out[idx] = layout(*idx)
    return out


def expect_raises(exc, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        return e
    raise AssertionError(f"no {exc.__name__}")


def main():
    atom = Layout([8, 64], lambda i, j: i * 64 + j)
    assert atom.get_input_shape() == [8, 64]
    assert atom.get_output_shape() == [512]
    i, j = np.meshgrid(np.arange(16), np.arange(64), indexing="ij")
    # repeat along dim 0: [i // 8, (i % 8) * 64 + j].
    r0 = atom.repeat(dim=0, factor=2)
    want = np.stack([i // 8, (i % 8) * 64 + j], axis=-1)
    assert np.array_equal(table(r0), want)
    assert r0.get_input_shape() == [16, 64]
    assert r0.get_output_shape() == [int(want[..., 0].max()) + 1,
                                     int(want[..., 1].max()) + 1] == [2, 512]
    assert r0.is_equal(Layout([16, 64], lambda a, b: [a // 8,
                                                      (a % 8) * 64 + b]))
    # A layout that differs at one index is not equal.
    assert not r0.is_equal(Layout(
        [16, 64], lambda a, b: [a // 8, (a % 8) * 64 + b + (a == 15 and
                                                           b == 63)]))
    assert not r0.is_equal(atom)  # another input shape
    # Along dim 1 (also as -1), factor 3: [j // 64, i * 64 + j % 64].
    i3, j3 = np.meshgrid(np.arange(8), np.arange(192), indexing="ij")
    want = np.stack([j3 // 64, i3 * 64 + j3 % 64], axis=-1)
    for dim in (1, -1):
        r1 = atom.repeat(dim=dim, factor=3)
        assert np.array_equal(table(r1), want), dim
        assert r1.get_output_shape() == [3, 512]
    # Several outputs: [i // 8, i % 8, j].
    multi = Layout([8, 64], lambda a, b: [a, b]).repeat(dim=0, factor=2)
    want = np.stack([i // 8, i % 8, j], axis=-1)
    assert np.array_equal(table(multi), want)
    assert multi.get_output_shape() == [2, 8, 64]
    # Repeats compose: repeating dim 0 twice by 2 is not dim 0 by 4 (the
    # group index of the first repeat stays an output).
    twice = r0.repeat(dim=0, factor=2)
    assert twice.get_input_shape() == [32, 64]
    assert twice.get_output_shape() == [2, 2, 512]
    # factor 1 is the layout itself; bad arguments are TileLang's errors.
    assert atom.repeat(dim=0, factor=1) is atom
    for dim, factor in ((0, 0), (0, -1), (2, 2), (-3, 2)):
        expect_raises(ValueError, atom.repeat, dim=dim, factor=factor)
    expect_raises(TypeError, atom.repeat, dim=0.5, factor=2)
    expect_raises(TypeError, atom.repeat, dim=0, factor=2.0)
    # T.* integer helpers work on Python ints inside the forward function.
    halves = T.Layout((6,), lambda a: T.floordiv(a, 2))
    assert halves.get_output_shape() == [3] and halves(5) == [2]
    # A forward function of TileLang expressions Python does not evaluate:
    # the object is made; its Python methods say why they cannot answer.
    symbolic = T.Layout((4,), lambda a: T.some_intrinsic(a))
    e = expect_raises(TypeError, symbolic.get_output_shape)
    assert "not an integer" in str(e), e
    # Fragments: the thread and local index of each index (and copy).
    def vec4(a, b, rep):
        elems = a * 32 + b
        return (elems // 4) % 64 + rep * 64, elems % 4 + (elems // 256) * 4
    frag = T.Fragment((128, 32), forward_fn=vec4, replicate=2)
    assert isinstance(frag, Fragment)
    a, b = np.meshgrid(np.arange(128), np.arange(32), indexing="ij")
    local = (a * 32 + b) % 4 + ((a * 32 + b) // 256) * 4
    assert frag.get_input_shape() == [128, 32]
    assert frag.get_output_shape() == [int(local.max()) + 1] == [64]
    assert frag.get_thread_size() == 128
    assert frag.is_equal(Fragment((128, 32), forward_fn=vec4, replicate=2))
    assert not frag.is_equal(Fragment((128, 32),
                                      forward_fn=lambda x, y: (x, y)))
    print("layout_python: ok")


if __name__ == "__main__":
    main()
