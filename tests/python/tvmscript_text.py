# PrimFunc.script() / node.script(): TVMScript-shaped text of the
# TIR-shaped view of tlc's Tile IR (tilelang/_tir_script.py), and
# tvm.tirx.analysis.undefined_vars / Buffer.data over that view. The
# stored constants are checked against CPython's evaluation of the same
# expressions.

import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
from tvm import tirx

N = 8
CASES = {0: 100, 1: 200}


@T.prim_func
def branches(A: T.Tensor((N,), "int32"), B: T.Tensor((N,), "int32")):
    with T.Kernel(2, threads=4):
        if A[0] == 0:
            B[0] = CASES[0]
        elif A[0] == 1:
            B[0] = CASES[1]
        else:
            B[0] = sum(k * k for k in range(5))
        for i in T.serial(3):
            B[i + 1] = A[i]
        for i in T.serial(N):
            if A[i] < 0:
                T.loop_break()


def test_func_script():
    text = branches.script()
    assert text.startswith("# from tvm.script import tir as T\n"), text
    assert "@T.prim_func\ndef branches(" in text
    assert 'A: T.Buffer((8,), "int32")' in text
    assert 'B: T.Buffer((8,), "int32")' in text
    for value in (CASES[0], CASES[1], sum(k * k for k in range(5))):
        assert f"B[0] = {value}\n" in text, text
    assert "with T.Kernel(2, 4):" in text, text
    assert "for i in T.serial(3):" in text, text
    assert "if " in text and "else:" in text
    # Statements are indented under their parents, four spaces a level.
    lines = text.splitlines()
    kernel = next(k for k, l in enumerate(lines) if "with T.Kernel" in l)
    assert lines[kernel].startswith("    with") and \
        lines[kernel + 1].startswith("        ")


def test_node_script():
    loops = []
    tirx.stmt_functor.post_order_visit(
        branches.body, lambda n: loops.append(n) if isinstance(n, tirx.For)
        else None)
    assert len(loops) == 2
    assert "T.loop_break()" in loops[1].script()
    assert "break" not in loops[0].script()
    assert loops[0].script().startswith("for i in T.serial(3):\n")


def test_undefined_vars():
    body = branches.body
    params = {b.name: b for b in branches.buffer_map.values()}
    defined = [params["A"].data, params["B"].data]
    assert all(v.dtype == "handle" for v in defined)
    assert params["A"].data is params["A"].data
    assert tirx.analysis.undefined_vars(body, defined) == []
    # Without B's data pointer, B is what the body uses undefined.
    missing = tirx.analysis.undefined_vars(body, [params["A"].data])
    assert [(v.name, v.dtype) for v in missing] == [("B", "handle")]
    # Loop and kernel variables are bound by their statements.
    assert [v.name for v in tirx.analysis.undefined_vars(body, [])] == \
        ["A", "B"]


@pytest.mark.parametrize("loop", [range, T.serial])
def test_symbolic_loop_extent(loop):
    n = T.dynamic("n")

    @T.prim_func
    def main(B: T.Tensor((n,), "int32")):
        with T.Kernel(1, threads=1):
            for i in loop(n):
                B[i] = i

    # tlc, evaluating this test function, cannot evaluate this assert on
    # the view; the definition ignores errors outside the prim_func also
    # where the build's file is a copy of this one (a callable argument
    # appended to it).
    loops = []
    tirx.stmt_functor.post_order_visit(
        main.body, lambda n: loops.append(n) if isinstance(n, tirx.For)
        else None)
    assert len(loops) == 1
    assert main.buffer_map[main.params[0]].name == "B"
    assert loops[0].extent.same_as(main.buffer_map[main.params[0]].shape[0])
    assert not loops[0].extent.same_as(tirx.Var("m", "int32"))
    assert "for i in T.serial(n):" in main.script()


if __name__ == "__main__":
    tilelang.testing.main()
