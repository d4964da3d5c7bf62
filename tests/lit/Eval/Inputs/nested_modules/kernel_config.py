# Imported by tests/lit/Eval/nested-imports.py: a helper module that
# imports a module next to it and a package, as a project's kernel
# helpers do.
import tile_sizes
from tiles.shapes import block_shape
from tiles import dtypes as dt

BLOCK_M, BLOCK_N = block_shape(tile_sizes.SCALE)
DTYPE = dt.DEFAULT
