"""Kernel timing for the H200 benches that call kernels through the Python
package: each call is captured in a CUDA graph and the graph replayed, so
the host's launch cost (Python, ctypes, tensor-map encoding) is left out;
CUDA events around each replay, a 256 MiB write before each run to evict
L2, 10 warm-up runs, the median of 30. A call that cannot be captured is
timed directly and recorded in DIRECT."""

import statistics

import torch

FLUSH = None
DIRECT = []  # why calls could not be captured


def captured(fn):
    """fn replayed from a CUDA graph, or fn itself if capture fails."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            fn()
    except Exception as e:  # noqa: BLE001 (reported, then timed directly)
        DIRECT.append(f"{type(e).__name__}: {str(e)[:120]}")
        torch.cuda.synchronize()
        return fn
    return graph.replay


def bench(fn, runs=30, warmup=10):
    """Median milliseconds of fn (replayed from a graph where possible)."""
    global FLUSH
    if FLUSH is None:
        FLUSH = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    fn = captured(fn)
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        FLUSH.fill_(1)
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)
