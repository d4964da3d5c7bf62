# str.split / str.rsplit with sep and maxsplit, as programs split dtype
# names (`"int8x2".rsplit("x", 1)`): CPython runs the assertions first
# (they are CPython's answers), then tlc must evaluate every
# assertion true (a failed one is a warning) and build the kernel that
# takes its lanes from the dtype name. tlc had no rsplit (an
# AttributeError) and ignored maxsplit.
# RUN: sed -n '/^# BEGIN-CPYTHON/,/^# END-CPYTHON/p' %s | %python
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s
# CHECK: "name":"s","kind":"buffer","shape":[4,8],"dtype":"float16x2"
import tilelang.language as T

# BEGIN-CPYTHON
assert "int8x2".rsplit("x", 1) == ["int8", "2"]
assert "float32x4".rsplit("x", maxsplit=1)[1] == "4"
assert "a,b,c".rsplit(",", 1) == ["a,b", "c"]
assert "a,b,c".split(",", 1) == ["a", "b,c"]
assert "a,b,c".split(sep=",") == ["a", "b", "c"]
assert "a,b,c".rsplit(",", 0) == ["a,b,c"]
assert "  a  b c ".split() == ["a", "b", "c"]
assert "  a  b c ".rsplit() == ["a", "b", "c"]
assert "  a  b c ".rsplit(None, 1) == ["  a  b", "c"]
assert "  a  b c ".split(maxsplit=1) == ["a", "b c "]
assert " a\tb\nc ".split() == ["a", "b", "c"]
assert "a,,b".split(",") == ["a", "", "b"]
assert ",a,".rsplit(",") == ["", "a", ""]
assert "a::b::c".rsplit("::", 1) == ["a::b", "c"]
assert "".split(",") == [""]
assert "".split() == []
assert "   ".rsplit() == []
# END-CPYTHON

element_type = "float16x2"
scalar, lanes = element_type.rsplit("x", 1)
lanes = int(lanes)


@T.prim_func
def main(A: T.Tensor((4, 8 * lanes), scalar), B: T.Tensor((4, 8 * lanes), scalar)):
    with T.Kernel(1, threads=32):
        s = T.alloc_shared((4, 8), element_type)
        for r, c in T.Parallel(4, 8):
            s[r, c] = A[r, T.Ramp(c * lanes, 1, lanes)]
        for r, c in T.Parallel(4, 8):
            B[r, T.Ramp(c * lanes, 1, lanes)] = s[r, c]
