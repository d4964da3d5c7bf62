# RUN: tlc-build --target=cuda:sm_80 --emit=hints --format=json %examples/gemm.py | FileCheck %s --check-prefix=SM80
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %examples/gemm.py | FileCheck %s --check-prefix=SM90
# RUN: tlc-build --target=hip:gfx90a --emit=hints --format=json %examples/gemm.py | FileCheck %s --check-prefix=CDNA
# RUN: tlc-build --target=cuda:sm_80 --emit=tile %examples/gemm.py | FileCheck %s --check-prefix=TILE

# Layout hints of examples/gemm.py: A_shared [128, 32] f16 rows are 64 bytes
# (64B swizzle), B_shared [32, 128] rows 256 bytes: on sm_80 the ldmatrix
# tile's rows are XOR-swizzled per 128 bytes, on sm_90a the wgmma operand
# is two 128B panels (hints-shared-storage.py checks such labels against
# the generated code); C_local is the accumulator of 4 warps (128 f32 per
# thread).

# SM80: "name":"A_shared",{{.*}}"layout":"swizzle 64B","layoutDetail":"layout [128, 32] -> [4096] · swizzle 64B · 16-bit elements\noffset = 32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8
# SM80: "name":"B_shared",{{.*}}"layout":"swizzle 128B, 256B rows"
# SM80: "name":"C_local",{{.*}}"layout":"mma.C · 2×2 warps · 128 regs/thread","layoutDetail":"fragment [128, 128] · 128 threads · 128 regs/thread · replicate 1\nfrom mma.C, 2×2 warps\nthread = 64 * (j // 64) + 32 * (i // 64) + 4 * (i % 8) + (j // 2) % 4

# SM90: "name":"A_shared",{{.*}}"layout":"swizzle 64B"
# SM90: "name":"B_shared",{{.*}}"layout":"swizzle 128B, 2 panels"
# SM90: "name":"C_local",{{.*}}"layout":"wgmma.C · 4×1 warps · 128 regs/thread"

# CDNA: "name":"A_shared",{{.*}}"layout":"xor swizzle (runs of 4, 8 phases of 2 rows)"
# CDNA: "name":"B_shared",{{.*}}"layout":"xor swizzle (runs of 16, 4 phases of 1 row)"
# CDNA: "name":"C_local",{{.*}}"layout":"mfma32.C · 2×1 warps · 128 regs/thread"

# Tensors and launches have no layout.
# SM80-NOT: "kind":"tensor",{{.*}}"layout":"

# TILE: tile.alloc {layout = #tile.layout<[128, 32], map = [{{.*}}], kind = "swizzle 64B", bits = 16>}
# TILE: tile.alloc {layout = #tile.fragment<[128, 128], thread = {{.*}}, origin = "mma.C", warp_rows = 2, warp_cols = 2>}
