# The carver's CDNA device (tilelang.carver.arch.CDNA): GEMM hints for
# gfx942 against limits this test computes itself from the CDNA3 ISA
# figures (64 KiB LDS per workgroup, 256 AGPRs and 512 VGPRs per lane, wave
# 64, 16 x 16 MFMA granularity), how they differ from an sm_90 part's,
# auto-inference under ROCm torch (faked: torch.version.hip and a gfx90a's
# properties on a CPU torch), and the two best hints of a ragged GEMM built
# for hip:gfx942 and run on the sim device against float64 (~10 s, most
# of it the sim interpreting two GEMMs lane by lane and three HIP builds).

import importlib.util
import os
import re
import subprocess

os.environ["TLC_HIP_DEVICE"] = "sim"

import numpy as np  # noqa: E402
import torch  # noqa: E402

import tilelang  # noqa: F401,E402
from tilelang.carver import CDNA, CUDA, MatmulTemplate  # noqa: E402
from tilelang.carver.arch import auto_infer_current_arch, driver  # noqa: E402

# From the CDNA3 ISA reference guide / MI300 white paper, not from the
# package: LDS a workgroup may allocate, AGPRs and VGPRs one wave may use.
LDS_BYTES = 64 * 1024
AGPRS_PER_LANE = 256
VGPRS_PER_LANE = 512
WAVE = 64


def hints(arch, M, N, K, dtype="float16", topk=40):
    return MatmulTemplate(M=M, N=N, K=K, in_dtype=dtype, out_dtype="float16",
                          accum_dtype="float").with_arch(arch).recommend_hints(topk=topk)


def lds(h, elem):
    return h.pipeline_stage * (h.block[0] + h.block[1]) * h.rstep[0] * elem


def check_limits():
    arch = CDNA("hip:gfx942")
    assert arch.warp_size == WAVE and arch.smem_cap == LDS_BYTES and arch.compute_max_core == 304, arch
    for (M, N, K) in ((4096, 4096, 4096), (100, 70, 96), (8192, 256, 1024), (1, 4096, 4096)):
        for dtype, elem in (("float16", 2), ("int8", 1)):
            hs = hints(arch, M, N, K, dtype)
            assert hs, (M, N, K, dtype)
            for h in hs:
                (bm, bn), (wm, wn) = h.block, h.warp
                assert lds(h, elem) <= LDS_BYTES, (h, lds(h, elem))
                assert wm % 16 == 0 and wn % 16 == 0 and bm % wm == 0 and bn % wn == 0, h
                waves = (bm // wm) * (bn // wn)
                assert h.threads == waves * WAVE and h.threads % WAVE == 0 and h.threads <= 1024, h
                # f32 accumulator of the wave tile spread over 64 lanes.
                acc = wm * wn // WAVE
                assert acc <= AGPRS_PER_LANE, (h, acc)
                # With the operand fragments of one K step (32 bytes).
                assert acc + (wm + wn) * 32 // (4 * WAVE) <= VGPRS_PER_LANE, h
    # Flash attention: Q once, K and V per stage, in the LDS; waves of 64.
    from tilelang.carver import FlashAttentionTemplate
    fa = FlashAttentionTemplate(batch_size=2, num_heads=8, seq_length=1024, seq_kv_length=1024, head_dim=128,
                                in_dtype="float16").with_arch(arch).recommend_hints(topk=20)
    assert fa
    for h in fa:
        assert (h.block[0] + 2 * h.pipeline_stage * h.block[1]) * 128 * 2 <= LDS_BYTES, h
        assert h.threads % WAVE == 0 and h.threads == (h.block[0] // h.warp[0]) * WAVE, h
    print("gfx942 hints stay within 64 KiB LDS and the register file")


def check_differs_from_cuda():
    M = N = K = 4096
    cdna = hints(CDNA("hip:gfx942"), M, N, K, topk=200)
    cuda = hints(CUDA("cuda -arch=sm_90a"), M, N, K, topk=200)
    # sm_90's 227 KiB of shared memory admits deeper pipelines / larger
    # tiles than a CDNA workgroup's 64 KiB.
    assert any(lds(h, 2) > LDS_BYTES for h in cuda)
    assert not any(lds(h, 2) > LDS_BYTES for h in cdna)
    # 512 registers per lane hold a 128 x 64 f32 wave tile (128 AGPRs); a
    # CUDA thread's 255 registers do not hold its 32-lane share (256).
    assert any(h.warp[0] * h.warp[1] > 4096 for h in cdna)
    assert not any(h.warp[0] * h.warp[1] > 4096 for h in cuda)
    # Same block and warp grid: twice the threads on a wave64 device.
    same = [(a, b) for a in cdna for b in cuda if (a.block, a.warp) == (b.block, b.warp)]
    assert same and all(a.threads == 2 * b.threads for a, b in same)
    # gfx950's 160 KiB LDS admits what gfx942's 64 KiB does not.
    g950 = hints(CDNA("hip:gfx950"), M, N, K, topk=400)
    assert CDNA("gfx950").smem_cap == 160 * 1024
    assert any(lds(h, 2) > LDS_BYTES for h in g950)
    print("CDNA hints differ from sm_90's where the limits differ")


def check_occupancy():
    arch = CDNA("hip:gfx942")
    # 2 stages of 128 x 128 x 64 f16 = 64 KiB: one workgroup per CU.
    assert arch.blocks_per_cu(256, 65536, 128) == 1
    # 16 KiB and 128 registers: LDS allows 4, registers 4 SIMDs x 4 waves
    # = 16 waves = 4 workgroups of 4 waves.
    assert arch.blocks_per_cu(256, 16384, 128) == 4
    # 256 registers: 2 waves per SIMD, 8 per CU, 2 workgroups of 4 waves.
    assert arch.blocks_per_cu(256, 16384, 256) == 2
    assert arch.blocks_per_cu(256, 65537, 64) == 0
    assert arch.blocks_per_cu(1088, 1024, 64) == 0
    print("workgroups per CU from LDS and registers")


def check_auto_infer():
    class Props:
        name = "AMD Instinct MI250X"
        gcnArchName = "gfx90a:sramecc+:xnack-"

    saved = (torch.version.hip, torch.cuda.current_device, torch.cuda.get_device_properties)
    torch.version.hip = "6.2.41133"
    torch.cuda.current_device = lambda: 0
    torch.cuda.get_device_properties = lambda device=None: Props()
    try:
        arch = auto_infer_current_arch()
        assert isinstance(arch, CDNA) and arch.arch == "gfx90a" and arch.compute_max_core == 110, arch
        assert driver.get_num_sms() == 110 and driver.get_shared_memory_per_block() == LDS_BYTES
        Props.multi_processor_count = 104  # an MI210
        assert auto_infer_current_arch().compute_max_core == 104 and driver.get_num_sms() == 104
        # A template without an arch takes the current one.
        h = MatmulTemplate(M=512, N=512, K=512, in_dtype="float16", out_dtype="float16",
                           accum_dtype="float").recommend_hints(topk=1)[0]
        assert h.warp_size == WAVE and h.threads % WAVE == 0
    finally:
        torch.version.hip, torch.cuda.current_device, torch.cuda.get_device_properties = saved
    assert isinstance(auto_infer_current_arch(), CUDA)
    try:
        CDNA("hip:gfx1100")
    except ValueError as e:
        assert "gfx1100" in str(e)
    else:
        raise AssertionError("an unknown CDNA architecture was accepted")
    print("auto_infer_current_arch and driver pick CDNA under ROCm torch")


def code_object_registers(kernel):
    """(VGPRs + AGPRs, spilled VGPRs) from the code object's metadata, or
    None without llvm-readobj."""
    readobj = "/usr/lib/llvm-22/bin/llvm-readobj"
    if not os.path.exists(readobj):
        return None
    path = os.path.join(kernel.artifact_dir, kernel.manifest["binary"])
    notes = subprocess.run([readobj, "--notes", path], capture_output=True, text=True, check=True).stdout
    field = {k: int(v) for k, v in re.findall(r"\.(vgpr_count|agpr_count|vgpr_spill_count):\s*(\d+)", notes)}
    return field["vgpr_count"] + field.get("agpr_count", 0), field["vgpr_spill_count"]


def check_builds_and_runs():
    # examples/gemm.py with each hint's block, block_K, stages and threads,
    # built for hip:gfx942; the first best hint of a large problem and the
    # best of a small one run on the sim device at a size neither divides
    # (about 4 s of the test's ~12 s: the sim interprets every lane).
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "gemm.py")
    spec = importlib.util.spec_from_file_location("example_gemm", path)
    gemm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gemm)
    M, N, K = 260, 200, 96
    torch.manual_seed(0)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    ref = (a.double() @ b.double()).numpy()
    arch = CDNA("hip:gfx942")
    chosen = hints(arch, 4096, 4096, 4096, topk=2) + hints(arch, M, N, K, topk=1)
    for i, h in enumerate(chosen):
        prim = gemm.matmul.__wrapped__(M, N, K, block_M=h.block[0], block_N=h.block[1], block_K=h.rstep[0],
                                       num_stages=h.pipeline_stage, threads=h.threads)
        kernel = tilelang.compile(prim, out_idx=[-1], target="hip:gfx942")
        assert kernel.target == "hip:gfx942", kernel.target
        # The back end's own LDS figure for the workgroup.
        used = kernel.manifest["launches"][0]["dynamic_shared_memory"]
        assert used <= LDS_BYTES, (h, used)
        regs = code_object_registers(kernel)
        if regs is not None:
            # The compiler fitted the workgroup without spilling: its waves
            # share 4 SIMDs of 512 registers per lane.
            total, spilled = regs
            assert spilled == 0 and total <= VGPRS_PER_LANE, (h, regs)
            assert -(-h.threads // WAVE) * total <= 4 * VGPRS_PER_LANE * 8, (h, regs)
            print(f"{h}: code object uses {total} registers per lane, no spill")
        if i == 1:
            continue
        c = kernel(a, b)
        np.testing.assert_allclose(c.double().numpy(), ref, rtol=1e-2, atol=2e-2)
        print(f"{h} ({h.threads} threads): built for hip:gfx942, matches float64 on sim")
    # The limit is the back end's too: one buffer of 256 x 256 x 128 f16
    # tiles (128 KiB of LDS) does not build for gfx942. (Deeper pipelines
    # than the LDS holds are built with fewer buffers, so stages alone do
    # not show it.)
    prim = gemm.matmul.__wrapped__(M, N, 512, block_M=256, block_N=256, block_K=128, num_stages=1, threads=512)
    try:
        tilelang.compile(prim, out_idx=[-1], target="hip:gfx942")
    except RuntimeError as e:
        # TLCBuildError (or a subclass): its text carries the diagnostics.
        assert "exceeds the 64 KiB budget of hip:gfx942" in str(e), str(e)
        print("128 KiB of LDS refused by tlc-build for hip:gfx942")
    else:
        raise AssertionError("a workgroup with 128 KiB of LDS built for gfx942")


def main():
    check_limits()
    check_differs_from_cuda()
    check_occupancy()
    check_auto_infer()
    check_builds_and_runs()
    print("carver_cdna: all checks passed")


if __name__ == "__main__":
    main()
