//===- device_headers.cu - Test kernels for tlc's CUDA device headers -===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Small kernels that exercise each helper of runtime/device/include/
// tlc_device/cuda and write everything observable (register contents, shared
// memory after a wait, reduced values) to global memory. DeviceHeadersTest.cpp
// compares the results with CPU loops written independently of the helpers.
// Built for sm_90a (cubin), sm_80 (cubin, must be rejected on sm_90) and
// compute_80 (PTX, JIT-compiled by the driver: the sm_80 code path on sm_90).
//
//===----------------------------------------------------------------------===//

#include "tlc_device/cuda.h"

using namespace tlc::cuda;

//===----------------------------------------------------------------------===//
// ldmatrix: `in` is 32 rows x 8 columns of 16-bit values (four 8x8
// matrices stacked); lane l passes the address of row l. out[l*4 + i] is
// register i of lane l.
//===----------------------------------------------------------------------===//

template <int N, bool Trans>
__device__ void ldmatrixProbe(const uint16_t *in, uint32_t *out) {
  __shared__ __align__(16) uint16_t tile[32 * 8];
  unsigned lane = threadIdx.x;
  for (int i = 0; i < 8; ++i)
    tile[lane * 8 + i] = in[lane * 8 + i];
  __syncwarp();
  uint32_t regs[4] = {0xdeadbeefu, 0xdeadbeefu, 0xdeadbeefu, 0xdeadbeefu};
  ldmatrix<N, Trans>(regs, &tile[lane * 8]);
  for (int i = 0; i < 4; ++i)
    out[lane * 4 + i] = regs[i];
}

#define TLC_LDMATRIX_KERNEL(name, n, trans)                                    \
  extern "C" __global__ void name(const uint16_t *in, uint32_t *out) {         \
    ldmatrixProbe<n, trans>(in, out);                                          \
  }
TLC_LDMATRIX_KERNEL(ldmatrix_x1, 1, false)
TLC_LDMATRIX_KERNEL(ldmatrix_x2, 2, false)
TLC_LDMATRIX_KERNEL(ldmatrix_x4, 4, false)
TLC_LDMATRIX_KERNEL(ldmatrix_x1_trans, 1, true)
TLC_LDMATRIX_KERNEL(ldmatrix_x2_trans, 2, true)
TLC_LDMATRIX_KERNEL(ldmatrix_x4_trans, 4, true)

//===----------------------------------------------------------------------===//
// One warp computes C[16][8] = A[16][K] * B[K][8] (f32 accumulate) with
// ldmatrix + mma.sync m16n8k16. transA: A is stored K x 16 (M contiguous);
// transB: B is stored 8 x K (K contiguous), else K x 8. Operands go to
// shared memory through cp.async 16-byte copies.
//===----------------------------------------------------------------------===//

template <typename AB>
__device__ void mmaTile(const uint16_t *a, const uint16_t *b, float *c, int k,
                        int transA, int transB) {
  extern __shared__ __align__(16) uint16_t smem[];
  uint16_t *sa = smem;          // 16 * k elements
  uint16_t *sb = smem + 16 * k; // 8 * k elements
  unsigned lane = threadIdx.x;
  for (int i = lane * 8; i < 16 * k; i += 32 * 8)
    cpAsync<16>(sa + i, a + i);
  for (int i = lane * 8; i < 8 * k; i += 32 * 8)
    cpAsync<16>(sb + i, b + i);
  cpAsyncCommit();
  cpAsyncWait<0>();
  __syncwarp();

  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  unsigned j = lane / 8, r = lane % 8;
  for (int k0 = 0; k0 < k; k0 += 16) {
    uint32_t fa[4], fb[2];
    if (!transA) // sa[m][k]: lane l addresses row l%16, column k0 + 8*(l/16).
      ldmatrixX4(fa[0], fa[1], fa[2], fa[3],
                 sa + (lane % 16) * k + k0 + 8 * (lane / 16));
    else // sa[k][m]: matrix j covers m0 = 8*(j%2), k = k0 + 8*(j/2).
      ldmatrixX4Trans(fa[0], fa[1], fa[2], fa[3],
                      sa + (k0 + 8 * (j / 2) + r) * 16 + 8 * (j % 2));
    if (transB) // sb[n][k]: matrix j%2 covers k0 + 8*(j%2).
      ldmatrixX2(fb[0], fb[1], sb + r * k + k0 + 8 * (j % 2));
    else // sb[k][n]: lane l addresses row k0 + l%16.
      ldmatrixX2Trans(fb[0], fb[1], sb + (k0 + lane % 16) * 8);
    mmaM16N8K16<AB>(acc, fa, fb);
  }
  unsigned g = lane / 4, t = lane % 4;
  c[g * 8 + 2 * t] = acc[0];
  c[g * 8 + 2 * t + 1] = acc[1];
  c[(g + 8) * 8 + 2 * t] = acc[2];
  c[(g + 8) * 8 + 2 * t + 1] = acc[3];
}

extern "C" __global__ void mma_f16(const uint16_t *a, const uint16_t *b,
                                   float *c, int k, int transA, int transB) {
  mmaTile<half>(a, b, c, k, transA, transB);
}
extern "C" __global__ void mma_bf16(const uint16_t *a, const uint16_t *b,
                                    float *c, int k, int transA, int transB) {
  mmaTile<bfloat16>(a, b, c, k, transA, transB);
}

/// 8-bit operands: C[16][8] = A[16][32] * B[32][8] with B stored 8 x 32
/// (K contiguous); ldmatrix works on 16-bit pairs of bytes.
template <int Kind>
__device__ void mma8bit(const uint8_t *a, const uint8_t *b, void *c) {
  __shared__ __align__(16) uint8_t sa[16 * 32];
  __shared__ __align__(16) uint8_t sb[8 * 32];
  unsigned lane = threadIdx.x;
  cpAsync<16>(sa + lane * 16, a + lane * 16);
  if (lane < 16)
    cpAsync<16>(sb + lane * 16, b + lane * 16);
  cpAsyncCommit();
  cpAsyncWait<0>();
  __syncwarp();
  uint32_t fa[4], fb[2];
  ldmatrixX4(fa[0], fa[1], fa[2], fa[3], sa + (lane % 16) * 32 + 16 * (lane / 16));
  ldmatrixX2(fb[0], fb[1], sb + (lane % 8) * 32 + 16 * ((lane / 8) % 2));
  unsigned g = lane / 4, t = lane % 4;
  if constexpr (Kind == 0) {
    int acc[4] = {0, 0, 0, 0};
    mmaM16N8K32S8S32(acc, fa, fb, acc);
    int *ci = static_cast<int *>(c);
    ci[g * 8 + 2 * t] = acc[0];
    ci[g * 8 + 2 * t + 1] = acc[1];
    ci[(g + 8) * 8 + 2 * t] = acc[2];
    ci[(g + 8) * 8 + 2 * t + 1] = acc[3];
  } else {
#if __CUDA_ARCH__ >= 890
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    if constexpr (Kind == 1)
      mmaM16N8K32E4M3F32(acc, fa, fb, acc);
    else
      mmaM16N8K32E5M2F32(acc, fa, fb, acc);
    float *cf = static_cast<float *>(c);
    cf[g * 8 + 2 * t] = acc[0];
    cf[g * 8 + 2 * t + 1] = acc[1];
    cf[(g + 8) * 8 + 2 * t] = acc[2];
    cf[(g + 8) * 8 + 2 * t + 1] = acc[3];
#endif
  }
}

extern "C" __global__ void mma_s8(const uint8_t *a, const uint8_t *b, int *c) {
  mma8bit<0>(a, b, c);
}
#if __CUDA_ARCH__ >= 890
extern "C" __global__ void mma_e4m3(const uint8_t *a, const uint8_t *b,
                                    float *c) {
  mma8bit<1>(a, b, c);
}
extern "C" __global__ void mma_e5m2(const uint8_t *a, const uint8_t *b,
                                    float *c) {
  mma8bit<2>(a, b, c);
}
#endif

//===----------------------------------------------------------------------===//
// cp.async: 3 groups of one 16 B, 8 B and 4 B chunk per thread (128 threads,
// 28 B each, group g at byte offset g * 128 * 28 ... ). Shared memory is
// poisoned with 0xAB first; after cpAsyncWait<2 - g> and a barrier, group g
// must have landed. `valid` bytes of the source are readable; later bytes
// are zero-filled (cpAsyncZfill).
//===----------------------------------------------------------------------===//

extern "C" __global__ void cp_async_groups(const uint8_t *src, uint8_t *out,
                                           unsigned valid) {
  __shared__ __align__(16) uint8_t buf[3 * 128 * 32];
  unsigned tid = threadIdx.x;
  for (unsigned i = tid; i < sizeof(buf); i += blockDim.x)
    buf[i] = 0xAB;
  __syncthreads();
  auto srcBytes = [&](unsigned offset, unsigned n) -> unsigned {
    return offset >= valid ? 0u : (valid - offset < n ? valid - offset : n);
  };
  for (unsigned g = 0; g < 3; ++g) {
    unsigned base = g * 128 * 32 + tid * 32; // 16 B at +0, 8 B at +16, 4 B at +24
    const uint8_t *s = src + base;
    if (g == 0) {
      cpAsync<16>(buf + base, s);
      cpAsync<8>(buf + base + 16, s + 16);
      cpAsync<4>(buf + base + 24, s + 24);
    } else {
      cpAsyncZfill<16>(buf + base, s, srcBytes(base, 16));
      cpAsyncZfill<8>(buf + base + 16, s + 16, srcBytes(base + 16, 8));
      cpAsyncPred<4>(buf + base + 24, s + 24, base + 24 + 4 <= valid);
    }
    cpAsyncCommit();
  }
  // Group g is complete once at most 2 - g groups are in flight.
  cpAsyncWait<2>();
  __syncthreads();
  for (unsigned i = tid; i < 128 * 32; i += blockDim.x)
    out[i] = buf[i];
  cpAsyncWait<1>();
  __syncthreads();
  for (unsigned i = tid; i < 128 * 32; i += blockDim.x)
    out[128 * 32 + i] = buf[128 * 32 + i];
  cpAsyncWaitAll();
  __syncthreads();
  for (unsigned i = tid; i < 128 * 32; i += blockDim.x)
    out[2 * 128 * 32 + i] = buf[2 * 128 * 32 + i];
}

//===----------------------------------------------------------------------===//
// Reductions, 256 threads; out[v * 256 + tid] is variant v's result.
//===----------------------------------------------------------------------===//

extern "C" __global__ void reductions(const float *in, const int *ints,
                                      float *out, int *outInts) {
  unsigned tid = threadIdx.x;
  float x = in[tid];
  out[0 * 256 + tid] = warpAllReduce<SumOp, 32>(x);
  out[1 * 256 + tid] = warpAllReduce<MaxOp, 8, 4>(x);
  out[2 * 256 + tid] = toFloat(warpAllReduce<MaxOp, 32>(toHalf(x)));
  out[3 * 256 + tid] = warpAllReduce<AbsMaxOp, 16, 2>(x);
  int v = ints[tid];
  outInts[0 * 256 + tid] = warpAllReduce<SumOp, 4, 8>(v);
  outInts[1 * 256 + tid] = warpAllReduce<BitXorOp, 16, 2>(v);
  outInts[2 * 256 + tid] = warpAllReduce<MinOp, 2, 16>(v);
}

//===----------------------------------------------------------------------===//
// Vector copies: thread i copies 16 bytes (plain, read-only path or
// predicated on i < validChunks), then 8- and 4-byte tails.
//===----------------------------------------------------------------------===//

extern "C" __global__ void vector_copy(const uint8_t *src, uint8_t *dst,
                                       uint8_t *dstPred, uint8_t *dstRO,
                                       unsigned chunks, unsigned validChunks) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= chunks)
    return;
  copyVector<16>(dst + 16 * i, src + 16 * i);
  copyVectorPred<16>(dstPred + 16 * i, src + 16 * i, i < validChunks);
  storeVector<8>(dstRO + 16 * i, loadGlobalReadOnly<8>(src + 16 * i));
  storeVector<4>(dstRO + 16 * i + 8, loadGlobalReadOnly<4>(src + 16 * i + 8));
  storeVector<4>(dstRO + 16 * i + 12, loadVector<4>(src + 16 * i + 12));
}

/// Grid-stride 16-byte copy for the bandwidth measurement.
extern "C" __global__ void copy_bandwidth(const uint4 *__restrict__ src,
                                          uint4 *__restrict__ dst,
                                          unsigned long long n) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x +
                              threadIdx.x;
       i < n; i += stride)
    storeVector<16>(dst + i, loadGlobalReadOnly<16>(src + i));
}

//===----------------------------------------------------------------------===//
// Conversions: for each input float, the f16, bf16 (16 bits), e4m3, e5m2
// (8 bits) encodings and the round trip back to f32.
//===----------------------------------------------------------------------===//

extern "C" __global__ void conversions(const float *in, uint16_t *f16,
                                       uint16_t *bf16, uint8_t *e4m3,
                                       uint8_t *e5m2, float *back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  half h = cast<half>(x);
  bfloat16 b = cast<bfloat16>(x);
  f16[i] = bitCast<uint16_t>(h);
  bf16[i] = bitCast<uint16_t>(b);
  uint8_t q4 = toFp8E4M3(x), q5 = toFp8E5M2(x);
  e4m3[i] = q4;
  e5m2[i] = q5;
  back[4 * i + 0] = cast<float>(h);
  back[4 * i + 1] = cast<float>(b);
  back[4 * i + 2] = fp8E4M3ToFloat(q4);
  back[4 * i + 3] = fp8E5M2ToFloat(q5);
  if (i == 0) { // Packed pairs: low half is the first value.
    uint32_t p = packHalf2(in[0], in[1]), q = packBFloat162(in[0], in[1]);
    f16[n] = p & 0xffff;
    f16[n + 1] = p >> 16;
    bf16[n] = q & 0xffff;
    bf16[n + 1] = q >> 16;
  }
}

//===----------------------------------------------------------------------===//
// Atomics: thread i adds to sums[i % 7] (f32), halves[i % 8] (1.0 each),
// bf16s[i % 64] (2.0 each), ints[i % 11] (i), and folds in[i] into max/min.
//===----------------------------------------------------------------------===//

extern "C" __global__ void atomics(const float *in, float *sums, half *halves,
                                   bfloat16 *bf16s, int *ints, float *maxMin,
                                   int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAddTo(&sums[i % 7], in[i]);
  atomicAddTo(&halves[i % 8], toHalf(1.0f));
  atomicAddTo(&bf16s[i % 64], toBFloat16(2.0f));
  atomicAddTo(&ints[i % 11], i);
  atomicMaxOf(&maxMin[0], in[i]);
  atomicMinOf(&maxMin[1], in[i]);
}

//===----------------------------------------------------------------------===//
// Runtime checks: a kernel that needs > 48 KB of dynamic shared memory, and
// one that faults.
//===----------------------------------------------------------------------===//

extern "C" __global__ void big_shared(unsigned *out, unsigned words) {
  extern __shared__ unsigned big[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
    big[i] = i * 2654435761u;
  __syncthreads();
  unsigned acc = 0;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
    acc ^= big[words - 1 - i];
  atomicXor(out, acc);
}

extern "C" __global__ void faulting(int *p) {
  if (threadIdx.x == 0)
    p[1ll << 40] = 1; // Far outside any allocation.
}
