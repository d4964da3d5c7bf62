// A kernel with WORDS floats of LDS (compiled with -DWORDS=16384 for
// 64 KiB, -DWORDS=16385 for 4 bytes more); see lds-hardware-limit.test.
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
extern "C" __global__ void k(float *o) {
  __shared__ float s[WORDS];
  s[__builtin_amdgcn_workitem_id_x()] = 1.0f;
  __builtin_amdgcn_s_barrier();
  o[0] = s[(__builtin_amdgcn_workitem_id_x() * 7) % WORDS];
}
