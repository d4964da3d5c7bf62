"""An error TileLang raises where ``@T.prim_func`` defines a function
reaches the script with TileLang's exact text: ``str(e)`` is the message
alone (TileLang's test_tilelang_issue_3035.py compares it with ``==``),
and where tlc found it stays available (``e.location``, ``e.diagnostic``
and the exception's note). The k_pack texts are TileLang's
(tilelang/language/gemm_op.py): a ValueError for an int other than 1 and
2, a TypeError for any other value (bool included) with its repr and
type name.
"""

import inspect
import os

import numpy as np

import tilelang
import tilelang.language as T


def gemm_with(k_pack):
    @T.prim_func
    def main(A: T.Tensor((64, 64), T.float16),
             B: T.Tensor((64, 64), T.float16),
             C: T.Tensor((64, 64), T.float32)):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((64, 64), T.float16)
            B_s = T.alloc_shared((64, 64), T.float16)
            C_f = T.alloc_fragment((64, 64), T.float32)
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.gemm(A_s, B_s, C_f, k_pack=k_pack)  # the k_pack line
            T.copy(C_f, C)
    return main


def k_pack_line():
    lines, first = inspect.getsourcelines(gemm_with)
    for i, line in enumerate(lines):
        if "# the k_pack line" in line:
            return first + i
    raise AssertionError("no k_pack line")


def expect(exc_type, text, k_pack):
    try:
        gemm_with(k_pack)
    except exc_type as e:
        assert str(e) == text, (str(e), text)
        assert isinstance(e, tilelang.TLCBuildError), type(e).__mro__
        file, line, col = e.location.rsplit(":", 2)
        assert os.path.samefile(file, __file__), e.location
        assert int(line) == k_pack_line(), (e.location, k_pack_line())
        assert int(col) > 0, e.location
        # tlc's own line names the type before the text.
        assert e.diagnostic == \
            f"{e.location}: error: {exc_type.__name__}: {text}", e.diagnostic
        assert any(e.location in note
                   for note in getattr(e, "__notes__", [])), e.__notes__
        return
    raise AssertionError(f"k_pack={k_pack!r}: no {exc_type.__name__}")


def main():
    for good in (1, 2, np.int64(1), np.int64(2)):
        assert gemm_with(good) is not None
    for bad in (0, -1, 3, 4, 8, 16):
        expect(ValueError, f"T.gemm k_pack must be 1 or 2, got {bad}", bad)
    for bad in (True, 2.0, "2", None):
        expect(TypeError, "T.gemm k_pack must be an int equal to 1 or 2, "
               f"got {bad!r} ({type(bad).__name__})", bad)
    print("definition_error_text: ok")


if __name__ == "__main__":
    main()
