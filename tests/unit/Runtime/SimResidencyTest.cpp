//===- SimResidencyTest.cpp - Blocks a simulated GPU holds at once --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sim device's occupancy rule for cooperative launches
// (runtime/lib/sim/Residency.h), each bound in turn, worked out by hand
// from the parts' published figures: A100 (108 SMs, 2048 threads and
// 164 KB shared memory per SM, 32 resident blocks), H100 (132 SMs, 228 KB),
// RTX 4090 (128 SMs, 1536 threads, 24 resident blocks) and MI300X (304
// compute units, 32 wavefronts of 64, 64 KiB LDS, 16 multi-wavefront
// workgroups).
//
//===----------------------------------------------------------------------===//

#include "sim/Residency.h"

#include <doctest/doctest.h>

using tlc::runtime::sim::getResidency;
using tlc::runtime::sim::Residency;

namespace {

Residency of(const char *target, uint64_t threads, uint64_t shared) {
  std::optional<Residency> r = getResidency(target, threads, shared);
  REQUIRE(r.has_value());
  return *r;
}

} // namespace

TEST_CASE("sim residency: warps per multiprocessor") {
  Residency r = of("cuda:sm_80", 128, 0);
  CHECK(r.perMultiprocessor == 16); // 64 warps / 4
  CHECK(r.multiprocessors == 108);
  CHECK(r.total() == 1728);
  CHECK(r.limit == "threads");
  CHECK(r.device == "NVIDIA A100-SXM4-80GB (cuda:sm_80)");
  CHECK(of("cuda:sm_90a", 100, 0).perMultiprocessor == 16); // 4 warps
}

TEST_CASE("sim residency: shared memory with the driver's reserve") {
  // 228 KB / (100 KB + 1 KB) = 2 blocks.
  Residency r = of("cuda:sm_90a", 256, 100 * 1024);
  CHECK(r.perMultiprocessor == 2);
  CHECK(r.total() == 264);
  CHECK(r.limit == "shared memory");
  // 227 KB is the most one block may use: one fits.
  CHECK(of("cuda:sm_90a", 128, 227 * 1024).perMultiprocessor == 1);
}

TEST_CASE("sim residency: resident blocks per multiprocessor") {
  Residency h100 = of("cuda:sm_90a", 32, 0);
  CHECK(h100.perMultiprocessor == 32); // not 64 warps' worth
  CHECK(h100.limit == "blocks per multiprocessor");
  CHECK(of("cuda:sm_89", 32, 0).perMultiprocessor == 24);
}

TEST_CASE("sim residency: CDNA wavefronts, LDS and barriers") {
  Residency one = of("hip:gfx942", 64, 0); // single-wavefront workgroups
  CHECK(one.perMultiprocessor == 32);
  CHECK(one.total() == 9728);
  CHECK(one.amd);
  CHECK(of("hip:gfx942", 256, 0).perMultiprocessor == 8); // 32 / 4 waves
  Residency lds = of("hip:gfx942", 128, 32 * 1024);
  CHECK(lds.perMultiprocessor == 2);
  CHECK(lds.limit == "LDS");
  Residency barriers = of("hip:gfx942", 65, 0); // 2 wavefronts
  CHECK(barriers.perMultiprocessor == 16);
}

TEST_CASE("sim residency: several architectures, unknown ones") {
  Residency r = of("cuda:sm_80,sm_90a", 128, 0);
  CHECK(r.total() == 1728); // the A100 holds fewer than the H100's 2112
  CHECK(!getResidency("cuda:sm_60", 128, 0).has_value()); // no Pascal part
  CHECK(!getResidency("cpu", 128, 0).has_value());
}
