"""``tilelang.cuda.intrinsics``: the host-side facts of TileLang's CUDA
instruction helpers that scripts read while they set a kernel up (tlc
generates the instructions themselves)."""
