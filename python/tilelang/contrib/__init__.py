"""``tilelang.contrib``: the parts of TileLang's contrib helpers that
scripts call outside kernels (``nvcc.get_target_compute_version``)."""
