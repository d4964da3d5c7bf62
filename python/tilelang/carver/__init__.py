"""``tilelang.carver``: tile-configuration hints for TileLang's templates.

TileLang's Carver ("roller") proposes block, warp and pipeline shapes for a
computation on a device. tlc's version is a plain heuristic over the same
interface (``MatmulTemplate(...).with_arch(CUDA("cuda"))
.recommend_hints(topk)``): it enumerates tile shapes that fit the device's
shared memory, scores them by wave quantisation, edge padding and
arithmetic intensity, and returns the best ``topk`` as :class:`Hint`
objects whose fields scripts turn into ``@autotune`` configurations.
GEMM-shaped templates (matmul, GEMV, convolution) are in ``template.py``;
element-wise maps, general reductions and flash attention in ``shapes.py``.
"""

from . import arch, roller, template  # noqa: F401
from .arch import CDNA, CUDA, auto_infer_current_arch  # noqa: F401
from .roller import Hint  # noqa: F401
from .template import ConvTemplate, GEMVTemplate, MatmulTemplate  # noqa: F401
from .shapes import (ElementwiseTemplate, FlashAttentionTemplate,  # noqa: F401
                     GeneralReductionTemplate)
from .shapes import (ElementwiseTemplate, FlashAttentionTemplate,  # noqa: F401
                     GeneralReductionTemplate)
