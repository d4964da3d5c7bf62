"""Factory arguments that are builtins or any str (CPU target).

* ``loop=range`` / ``builtins.range`` / ``T.serial`` / ``T.unroll`` as the
  loop of a kernel (test_tilelang_language_pythonic.py): a builtin used to
  be a TypeError ("cannot pass loop=<class 'range'> to tlc"); the package
  names it in the copy of the script it builds. ``pick=min`` / ``max`` too.
* A str with a newline, quotes, a backslash and control characters
  (test_tilelang_language_import_source.py's preludes): it used to be a
  TypeError; it is passed as its repr(), which tlc-build decodes.

The kernels' results are compared with the same Python code run by CPython.
"""

import builtins

import torch

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[0], target="cpu")
def ramp(n, loop=range, pick=None):
    @T.prim_func
    def main(A: T.Tensor((n,), "int32")):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                A[i] = -1
            for i in loop(n):
                A[i] = i * 3
            if pick is not None:
                A[0] = pick(n, 5)
    return main


@tilelang.jit(out_idx=[0], target="cpu")
def text_stats(text):
    @T.prim_func
    def main(A: T.Tensor((6,), "int32")):
        with T.Kernel(1, threads=1):
            A[0] = len(text)
            A[1] = text.count("\n")
            A[2] = text.count("'")
            A[3] = text.count('"')
            A[4] = text.count("\\")
            A[5] = 1 if text.endswith("\n") else 0
    return main


def expect_ramp(n, pick=None):
    out = [i * 3 for i in range(n)]
    if pick is not None:
        out[0] = pick(n, 5)
    return out


def main():
    n = 9
    for loop in (range, builtins.range, T.serial, T.unroll):
        got = ramp(n, loop)().tolist()
        assert got == expect_ramp(n), (loop, got)
    for pick in (min, max):
        got = ramp(n, range, pick)().tolist()
        assert got == expect_ramp(n, pick), (pick, got)

    for text in ("int f(int x) { return x + 1; }",
                 "a\nb 'q' \"dq\" \\ end\n",
                 "__device__ int h() { return '\\n'; }\n#define X \"x\"",
                 "tab\there\x01\x7f"):
        want = [len(text), text.count("\n"), text.count("'"),
                text.count('"'), text.count("\\"),
                1 if text.endswith("\n") else 0]
        got = text_stats(text)().tolist()
        assert got == want, (text, got, want)
    # Each text is its own instance.
    assert text_stats("x\n")().tolist()[1] == 1
    assert text_stats("x'")().tolist()[1] == 0
    assert torch.equal(ramp(4)(), torch.tensor([0, 3, 6, 9],
                                               dtype=torch.int32))
    print("factory_builtins_strings: OK")


if __name__ == "__main__":
    main()
