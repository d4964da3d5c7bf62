"""``T.Fragment.repeat(repeats, repeat_on_thread=False, lower_dim_first=
True)`` at Python level, TileLang's signature and meaning (tilelang/layout/
fragment.py, FragmentNode::Repeat): input dimension d grows to
``extent[d] * repeats[d]``; index i is copy ``i // extent`` of ``i %
extent``; the copies' mixed-radix number (last dimension fastest when
lower_dim_first) offsets the thread by the thread extent times it, or the
local index by the fragment's local length times it. The oracle computes
the repeated maps over whole index grids with NumPy from the base map's
formula, independently of the package's tables."""

import numpy as np

import tilelang.language as T
from tilelang.layout import Fragment

EXT = (4, 8)
THREADS = 16  # base: 32 elements on 16 threads, 2 each


def base_fn(i, j):
    return [i * 4 + j // 2, j % 2]


def base_fn_rep(i, j, rep):
    return [i * 4 + j // 2 + THREADS * rep, j % 2]


def oracle(counts, on_thread, lower_first, replicate=1):
    """[rep][array of thread, array of local] over the repeated grid."""
    I, J = np.meshgrid(np.arange(EXT[0] * counts[0]),
                       np.arange(EXT[1] * counts[1]), indexing="ij")
    ii, jj = I % EXT[0], J % EXT[1]
    ci, cj = I // EXT[0], J // EXT[1]
    number = cj + counts[1] * ci if lower_first else ci + counts[0] * cj
    thread_extent = THREADS * replicate
    out = []
    for rep in range(replicate):
        thread = ii * 4 + jj // 2 + THREADS * rep
        local = jj % 2
        if on_thread:
            thread = thread + thread_extent * number
        else:
            local = local + 2 * number
        out.append((thread, local))
    return out


def table_of(frag, counts, replicate=1):
    """The package's map as the same arrays (its integer calls)."""
    shape = (EXT[0] * counts[0], EXT[1] * counts[1])
    vals = np.array([[frag(i, j) for j in range(shape[1])]
                     for i in range(shape[0])])
    return [(vals[..., 2 * r], vals[..., 2 * r + 1])
            for r in range(replicate)]


def check(counts, on_thread, lower_first, replicate=1):
    base = T.Fragment(EXT, forward_fn=base_fn_rep if replicate > 1
                      else base_fn, replicate=replicate)
    frag = base.repeat(list(counts), repeat_on_thread=on_thread,
                       lower_dim_first=lower_first)
    assert isinstance(frag, Fragment)
    want = oracle(counts, on_thread, lower_first, replicate)
    got = table_of(frag, counts, replicate)
    for (wt, wl), (gt, gl) in zip(want, got):
        assert np.array_equal(wt, gt), (counts, on_thread, lower_first)
        assert np.array_equal(wl, gl), (counts, on_thread, lower_first)
    assert frag.get_input_shape() == [EXT[0] * counts[0],
                                      EXT[1] * counts[1]]
    threads = max(int(t.max()) for t, _ in want) + 1
    assert frag.get_thread_size() == threads
    assert frag.get_output_shape() == [max(int(v.max()) for _, v in want)
                                       + 1]
    return frag


for counts in ((2, 1), (1, 3), (2, 3)):
    for on_thread in (False, True):
        for lower_first in (True, False):
            check(counts, on_thread, lower_first)
            check(counts, on_thread, lower_first, replicate=2)

# The two orders differ once both dimensions repeat.
a = check((2, 3), True, True)
b = check((2, 3), True, False)
assert not a.is_equal(b)
assert a.get_thread_size() == THREADS * 6
# Default arguments: on registers, lower dimension first.
assert T.Fragment(EXT, forward_fn=base_fn).repeat([2, 3]).is_equal(
    check((2, 3), False, True))
# A 1-D fragment takes an int.
line = T.Fragment((8,), forward_fn=lambda i: [i // 2, i % 2])
assert line.repeat(3, repeat_on_thread=True)(13) == [(13 % 8) // 2 + 4, 1]
assert line.repeat([3])(13) == [2, 1 + 2]
assert line.repeat(1, True).is_equal(line)


def raises(exc, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        return str(e)
    raise AssertionError(f"no {exc.__name__}")


base = T.Fragment(EXT, forward_fn=base_fn)
assert "one repeat count per dimension: the fragment has 2, got 1" in \
    raises(ValueError, base.repeat, [2])
assert "positive integers" in raises(ValueError, base.repeat, [2, 0])
assert "positive integers" in raises(ValueError, base.repeat, [2, 1.5])
two_locals = T.Fragment(EXT, forward_fn=lambda i, j: [j, i, 0])
assert "one register index" in raises(ValueError, two_locals.repeat, [2, 1])
# On threads, more local indices are fine.
assert two_locals.repeat([2, 1], repeat_on_thread=True).get_thread_size() \
    == 16
print("fragment_repeat: ok")
