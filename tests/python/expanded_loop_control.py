# Python loops tlc expands at trace time (`for v in [0, 1]`) have no
# run-time loop: a `break`/`continue` under a condition on kernel data
# there is a NotImplementedError where the prim_func is defined (tlc
# reported "'break'/'continue' outside a loop", or, with a kernel loop
# around the Python loop, silently left that kernel loop instead); a
# comprehension filtered by kernel data is a TypeError (tlc kept every
# element: a silent wrong answer). Trace-time conditions and kernel loops
# inside Python loops still work, checked against NumPy on the CPU target.

import numpy as np
import pytest
import torch
import tilelang
import tilelang.language as T
import tilelang.testing


@pytest.mark.parametrize("word", ["break", "continue"])
def test_runtime_control_in_expanded_loop(word):
    with pytest.raises(NotImplementedError,
                       match=f"'{word}' .* expanded loop has no runtime "
                             "control-flow target"):

        @T.prim_func
        def main(X: T.Tensor((4,), "int32")):
            for v in (1, 2, 3):
                if X[0] > v:
                    if word == "break":
                        break
                    else:
                        continue
                X[v] = v


def test_runtime_break_in_expanded_loop_inside_kernel_loop():
    with pytest.raises(NotImplementedError,
                       match="expanded loop has no runtime control-flow"):

        @T.prim_func
        def main(X: T.Tensor((8,), "int32")):
            with T.Kernel(1, threads=1):
                for i in T.serial(4):
                    for v in [0, 1]:
                        if X[i] == v:
                            break
                        X[4 + i] += 1


def test_runtime_comprehension_filter():
    with pytest.raises(TypeError, match="Comprehension filters must be "
                                        "evaluable at trace time"):

        @T.prim_func
        def main(X: T.Tensor((2,), "int32")):
            kept = [k for k in range(5) if X[0] > k]
            X[1] = len(kept)


def test_trace_time_control_and_kernel_loops_still_work():
    @tilelang.jit(out_idx=[1])
    def mixed(n=6):
        @T.prim_func
        def main(X: T.Tensor((n,), "int32"), Y: T.Tensor((3, n), "int32")):
            with T.Kernel(1, threads=1):
                for row in [0, 1, 2, 5]:
                    if row == 5:
                        break
                    for i in T.serial(n):
                        Y[row, i] = 0
                    for i in T.serial(n):
                        if X[i] > row:
                            break
                        Y[row, i] = X[i] + row * 10
                evens = [k for k in range(n) if k % 2 == 0]
                for k in evens:
                    Y[0, k] += 100
        return main

    x = np.array([0, 1, 2, 3, 1, 0], dtype=np.int32)
    y = mixed()(torch.from_numpy(x)).numpy()
    want = np.zeros((3, 6), dtype=np.int64)
    for row in range(3):
        for i in range(6):
            if x[i] > row:
                break
            want[row, i] = x[i] + row * 10
    want[0, 0::2] += 100
    np.testing.assert_array_equal(y, want)


if __name__ == "__main__":
    tilelang.testing.main()
