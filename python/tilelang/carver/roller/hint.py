"""A tile configuration proposed by :mod:`tilelang.carver`."""

from .rasterization import NoRasterization


class Hint:
    """``block`` = [block_M, block_N], ``warp`` = [warp_M, warp_N] (the
    block is split into (block_M // warp_M) x (block_N // warp_N) warps),
    ``rstep`` = [block_K], ``pipeline_stage``, ``rasterization_plan``."""

    def __init__(self, block, warp, rstep, pipeline_stage=2,
                 rasterization_plan=None, use_tc=True, score=0.0,
                 thread=None, warp_size=32):
        self.block = list(block)
        # Threads along each axis, where a template sets them (element-wise
        # and reduction tiles; tilelang/carver/shapes.py).
        self.thread = list(thread) if thread is not None else None
        self.warp = list(warp)
        self.rstep = list(rstep)
        self.pipeline_stage = pipeline_stage
        self.rasterization_plan = rasterization_plan or NoRasterization()
        self.use_tc = use_tc
        self.score = score
        # Lanes of a warp: 32 on CUDA, 64 (a wavefront) on CDNA.
        self.warp_size = warp_size

    @property
    def threads(self):
        if self.thread is not None:
            n = 1
            for t in self.thread:
                n *= t
            return n
        return (self.block[0] // self.warp[0]) * \
            (self.block[1] // self.warp[1]) * self.warp_size

    def to_dict(self):
        return {"block": self.block, "warp": self.warp, "rstep": self.rstep,
                "thread": self.thread,
                "pipeline_stage": self.pipeline_stage,
                "rasterization_plan": repr(self.rasterization_plan)}

    def __repr__(self):
        return (f"Hint(block={self.block}, warp={self.warp}, "
                f"rstep={self.rstep}, stages={self.pipeline_stage}, "
                f"{self.rasterization_plan!r})")
