"""The package's source reading from several threads at once, as the
tuner's parallel configuration builds do: CPython 3.11's ast.parse keeps
its AST-constructor recursion depth in interpreter-wide state, so a thread
switch inside one parse (forced here from a garbage-collector callback)
made another thread's parse raise "SystemError: AST constructor recursion
depth mismatch" (python/cpython#106905; a configuration of
python-autotuner_jit_legacy failed to build that way). The package's
parses now take turns. No build: the line range builds look up, and
@tilelang.jit reading the factory's source when it decorates it."""

import gc
import threading
import time

import tilelang
import tilelang.language as T
from tilelang import _build


def factory(M, N, block=16):
    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), B: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(M, block), threads=32) as bx:
            for i, j in T.Parallel(block, N):
                B[bx * block + i, j] = ((((((A[bx * block + i, j] + 1) * 2) - 3) * 4) + 5) * 6)
    return main


def main():
    errors = []

    # The parse of a whole source file (the line range of a kernel's
    # function, as builds locate a kernel) and of a factory's source.
    big_file = tilelang._kernel.__file__

    def decorate():
        for _ in range(15):
            try:
                assert _build._function_lines(big_file, "_normalize_out_idx")
                tilelang.jit(out_idx=[-1], target="cpu")(factory)
            except SystemError as e:
                errors.append(e)
                return

    def yield_gil(phase, info):
        time.sleep(0)  # another thread runs in the middle of a collection

    threshold = gc.get_threshold()
    gc.callbacks.append(yield_gil)
    gc.set_threshold(5)
    try:
        threads = [threading.Thread(target=decorate) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        gc.callbacks.remove(yield_gil)
        gc.set_threshold(*threshold)
    assert not errors, errors[0]
    print("concurrent source reads: no SystemError")


if __name__ == "__main__":
    main()
