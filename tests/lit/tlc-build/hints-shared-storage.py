# The hint of every shared buffer says how the generated code stores it:
# each RUN pair feeds the hints and the generated source of one target to
# one FileCheck, which takes the index function from the hint
# ("stored by ... through F") and finds the buffer indexed through F in the
# code; a `linear` hint finds the buffer indexed row-major.
#
# RUN: tlc-build --target=cuda:sm_80 --emit=hints --format=json %S/Inputs/shared-storage.py > %t.sm80 2>/dev/null
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %S/Inputs/shared-storage.py >> %t.sm80
# RUN: FileCheck %s --check-prefix=SM80 < %t.sm80
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %S/Inputs/shared-storage.py > %t.sm90 2>/dev/null
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %S/Inputs/shared-storage.py >> %t.sm90
# RUN: FileCheck %s --check-prefix=SM90 < %t.sm90
# RUN: tlc-build --target=hip:gfx942 --emit=hints --format=json %S/Inputs/shared-storage.py > %t.cdna 2>/dev/null
# RUN: tlc-build --target=hip:gfx942 --emit=hip %S/Inputs/shared-storage.py >> %t.cdna 2>/dev/null
# RUN: FileCheck %s --check-prefix=CDNA < %t.cdna
# RUN: tlc-build --target=cuda:sm_100a --emit=hints --format=json %S/Inputs/shared-storage-tcgen05.py > %t.sm100 2>/dev/null
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda %S/Inputs/shared-storage-tcgen05.py >> %t.sm100
# RUN: FileCheck %s --check-prefix=SM100 < %t.sm100
# A padded staging tile is never swizzled: its code is row-major with the
# padded pitch (72), on every target.
# RUN: not grep "C_pad\[tlc" %t.sm80 %t.sm90 %t.cdna
# The CPU target stores every buffer row-major: its shared buffers say so.
# RUN: tlc-build --target=cpu --emit=hints --format=json %S/Inputs/shared-storage.py | FileCheck %s --check-prefix=CPU

# sm_80: T.gemm reads its shared operands with ldmatrix from tiles in the
# 16-byte chunk swizzle (swizzledIndex<chunks per row>); a row of 256
# bytes is XOR-ed per 128 bytes, which is not the two-panel layout
# TileLang's 128B swizzle would be. The staging tile of the accumulator
# (C_shared) is swizzled too, although inference chose linear for it.
# SM80: "name":"A_shared",{{.*}}"layout":"swizzle 64B",{{.*}}stored by the CUDA target through [[SM80_A:tlc::cuda::swizzledIndex<4>]] (
# SM80: "name":"B_shared",{{.*}}"layout":"swizzle 128B, 256B rows",{{.*}}through [[SM80_B:tlc::cuda::swizzledIndex<16>]] ({{.*}}layout inference chose swizzle 128B; the generated code stores it swizzle 128B, 256B rows instead
# SM80: "name":"C_shared",{{.*}}"layout":"swizzle 128B, 256B rows",{{.*}}through [[SM80_C:tlc::cuda::swizzledIndex<16>]] ({{.*}}layout inference chose linear;
# T.annotate_layout(make_swizzled_layout) of a 128-byte row: the row swizzle
# is that layout, so no note.
# SM80: "name":"A_ann",{{.*}}"layout":"swizzle 128B",{{.*}}through [[SM80_AANN:tlc::cuda::swizzledIndex<8>]] (the 16-byte chunk swizzle of ldmatrix operands and staging tiles)"
# SM80: "name":"C_pad",{{.*}}"layout":"linear",{{.*}}stored by the CUDA target row-major"
# SM80: "name":"A_scaled",{{.*}}"layout":"swizzle 64B",{{.*}}through [[SM80_AS:tlc::cuda::swizzledIndex<4>]] (
# SM80: "name":"B_wide",{{.*}}"layout":"swizzle 128B, 512B rows",{{.*}}through [[SM80_BW:tlc::cuda::swizzledIndex<32>]] (
# SM80: __global__
# SM80-DAG: {{A_shared\[}}[[SM80_A]](
# SM80-DAG: {{B_shared\[}}[[SM80_B]](
# SM80-DAG: {{C_shared\[}}[[SM80_C]](
# SM80: __global__
# SM80-DAG: {{A_ann\[}}[[SM80_AANN]](
# SM80-DAG: {{C_pad\[\(}}{{[a-z0-9_]+}}) * 72 +
# SM80: __global__
# SM80-DAG: {{A_scaled\[}}[[SM80_AS]](
# SM80-DAG: {{B_wide\[}}[[SM80_BW]](

# sm_90a: wgmma operands live in the panels of their descriptors'
# swizzle: B_shared's 256-byte rows are two 128B panels, which the TMA
# load fills as two boxes, the second 32 x 64 = 2048 elements on. The
# staging tile keeps the row swizzle (inference said TileLang's 128B).
# SM90: "name":"A_shared",{{.*}}"layout":"swizzle 64B",{{.*}}through tlc::cuda::panelSwizzledIndex<4, 8, 128, 32> (the panels its wgmma / tcgen05 descriptors read)"
# SM90: "name":"B_shared",{{.*}}"layout":"swizzle 128B, 2 panels",{{.*}}through tlc::cuda::panelSwizzledIndex<8, 8, 32, 128> (the panels its wgmma / tcgen05 descriptors read)"
# SM90: "name":"C_shared",{{.*}}"layout":"swizzle 128B, 256B rows",{{.*}}through [[SM90_C:tlc::cuda::swizzledIndex<16>]] ({{.*}}layout inference chose swizzle 128B; the generated code stores it swizzle 128B, 256B rows instead
# SM90: "name":"A_ann",{{.*}}"layout":"swizzle 128B",{{.*}}through tlc::cuda::panelSwizzledIndex<8, 8, 64, 64> (
# SM90: "name":"C_pad",{{.*}}"layout":"linear",{{.*}}row-major"
# SM90: "name":"A_scaled",{{.*}}"layout":"swizzle 64B",{{.*}}through [[SM90_AS:tlc::cuda::panelSwizzledIndex<4, 8, 64, 32>]] (
# SM90: "name":"B_wide",{{.*}}"layout":"swizzle 128B, 4 panels",{{.*}}through [[SM90_BW:tlc::cuda::panelSwizzledIndex<8, 8, 32, 256>]] (
# SM90: T.copy (TMA: cp.async.bulk.tensor, 64B swizzle)
# SM90-NEXT: tmaLoad<2>((A_shared + stage * 4096),
# SM90-NEXT: T.copy (TMA: cp.async.bulk.tensor, 128B swizzle)
# SM90-NEXT: tmaLoad<2>((B_shared + stage * 4096),
# SM90-NEXT: tmaLoad<2>(((B_shared + stage * 4096) + 2048),
# SM90: {{C_shared\[}}[[SM90_C]](
# SM90: {{C_pad\[\(}}{{[a-z0-9_]+}}) * 72 +
# SM90: {{A_scaled\[}}[[SM90_AS]](0,
# SM90: {{B_wide\[}}[[SM90_BW]](0,

# gfx942: MFMA operand tiles in the LDS swizzle chosen for their reads,
# whatever inference or the annotation said (B_shared and B_wide, N-contiguous
# and read as 4 x 16 blocks of 8-byte chunks, in runs of 16 by k % 4; a tile
# whose reads are conflict-free row-major stays row-major).
# CDNA: "name":"A_shared",{{.*}}"layout":"xor swizzle (runs of 4, 8 phases of 2 rows)",{{.*}}through [[CDNA_A:tlc::hip::xorSwizzledIndex<32, 4, 2, 8>]] (
# CDNA: "name":"B_shared",{{.*}}"layout":"xor swizzle (runs of 16, 4 phases of 1 row)",{{.*}}through [[CDNA_B:tlc::hip::xorSwizzledIndex<128, 16, 1, 4>]] (the swizzle chosen for its MFMA reads)\nlayout inference chose swizzle 128B; the generated code stores it xor swizzle (runs of 16, 4 phases of 1 row) instead"
# CDNA: "name":"C_shared",{{.*}}"layout":"swizzle 128B, 256B rows",{{.*}}through [[CDNA_C:tlc::hip::swizzledIndex<16>]] (
# CDNA: "name":"A_ann",{{.*}}"layout":"xor swizzle (runs of 4, 16 phases of 1 row)",{{.*}}through [[CDNA_AANN:tlc::hip::xorSwizzledIndex<64, 4, 1, 16>]] ({{.*}}T.annotate_layout asked for swizzle 128B; the generated code stores it xor swizzle (runs of 4, 16 phases of 1 row) instead"
# CDNA: "name":"A_scaled",{{.*}}"layout":"xor swizzle (runs of 4, 8 phases of 2 rows)",{{.*}}through [[CDNA_AS:tlc::hip::xorSwizzledIndex<32, 4, 2, 8>]] (
# CDNA: "name":"B_wide",{{.*}}"layout":"xor swizzle (runs of 16, 4 phases of 1 row)",{{.*}}through [[CDNA_BW:tlc::hip::xorSwizzledIndex<256, 16, 1, 4>]] (
# CDNA: __global__
# CDNA-DAG: storeXorRuns<16, 8>(A_shared, [[CDNA_A]](
# CDNA-DAG: {{B_shared\[}}[[CDNA_B]](
# CDNA-DAG: {{C_shared\[}}[[CDNA_C]](
# CDNA: __global__
# CDNA-DAG: storeXorRuns<16, 8>(A_ann, [[CDNA_AANN]](
# CDNA-DAG: {{C_pad\[\(}}{{[a-z0-9_]+}}) * 72 +
# CDNA: __global__
# CDNA-DAG: {{A_scaled\[}}[[CDNA_AS]](
# CDNA-DAG: {{B_wide\[}}[[CDNA_BW]](

# sm_100a: tcgen05 operands in descriptor panels (one 128B panel a row),
# the staging tile of the tensor memory accumulator row-swizzled.
# SM100: "name":"A_shared",{{.*}}"layout":"swizzle 128B",{{.*}}through [[SM100_A:tlc::cuda::panelSwizzledIndex<8, 8, 128, 64>]] (
# SM100: "name":"B_shared",{{.*}}"layout":"swizzle 128B",{{.*}}through [[SM100_B:tlc::cuda::panelSwizzledIndex<8, 8, 128, 64>]] (
# SM100: "name":"C_shared",{{.*}}"layout":"swizzle 128B, 256B rows",{{.*}}through [[SM100_C:tlc::cuda::swizzledIndex<16>]] ({{.*}}layout inference chose linear;
# SM100-DAG: {{A_shared\[}}[[SM100_A]](0,
# SM100-DAG: {{B_shared\[}}[[SM100_B]](0,
# SM100-DAG: {{C_shared\[}}[[SM100_C]](

# CPU: "name":"A_shared",{{.*}}"layout":"linear","layoutDetail":"{{.*}}stored by the CPU target row-major"
# CPU: "name":"C_local",{{.*}}"layout":null
# CPU: "name":"C_pad",{{.*}}"layout":"linear",
