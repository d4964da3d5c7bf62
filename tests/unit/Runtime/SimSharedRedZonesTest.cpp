//===- SimSharedRedZonesTest.cpp - Red zones between shared buffers -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// placeSharedRedZones on kernels written in the printers' form: where a red
// zone goes (worked out by hand from the buffers' extents), the rewritten
// offsets, and the kernels it must leave as printed.
//
//===----------------------------------------------------------------------===//

#include "sim/SharedRedZones.h"

#include <doctest/doctest.h>

using namespace tlc::runtime::sim;

namespace {

const char *kTwoBuffers =
    R"(extern "C" __global__ void __launch_bounds__(64) two_kernel(const float *__restrict__ A)
{
  extern __shared__ __align__(128) unsigned char smem[];
  // T.alloc [64] shared.dyn  two.py:12:17
  float *s = reinterpret_cast<float *>(smem + 0);
  // T.alloc [4, 30] shared.dyn  two.py:13:17
  tlc::hip::half *t = reinterpret_cast<tlc::hip::half *>(smem + 256);
  // T.alloc [8] shared.dyn  two.py:14:17
  uint8_t *u = reinterpret_cast<uint8_t *>(smem + 512);
}
)";

SharedRedZoneSource place(const std::string &src, uint64_t shared = 1024,
                          const char *entry = "two_kernel") {
  return placeSharedRedZones(src, {{entry, shared}}, 232448);
}

} // namespace

TEST_CASE("a red zone before every buffer whose start nothing crosses") {
  SharedRedZoneSource out = place(kTwoBuffers);
  REQUIRE(out.plans.count("two_kernel") == 1);
  const SharedRedZonePlan &p = out.plans["two_kernel"];
  REQUIRE(p.zones.size() == 2);
  CHECK(p.extraBytes == 2 * kRedZoneBytes);
  // s: 64 floats, 256 bytes; t at 256 moves to 1280.
  CHECK(p.zones[0].begin == 256);
  CHECK(p.zones[0].end == 1280);
  CHECK(p.zones[0].belowBytes == 256);
  CHECK(p.zones[0].below == "'s'");
  CHECK(p.zones[0].above == "'t'");
  // t: 4 x 30 halves, 240 bytes, then padding (or further pipeline
  // stages) up to 512; u at 512 moves to 2560.
  CHECK(p.zones[1].begin == 1536);
  CHECK(p.zones[1].end == 2560);
  CHECK(p.zones[1].belowBytes == 256);
  CHECK(out.source.find("(smem + 0);") != std::string::npos);
  CHECK(out.source.find("(smem + 1280);") != std::string::npos);
  CHECK(out.source.find("(smem + 2560);") != std::string::npos);
  // Offsets in reports are the printed ones.
  CHECK(p.printedOffset(1284) == 260);
  CHECK(p.printedOffset(2561) == 513);
  CHECK(p.printedOffset(100) == 100);
}

TEST_CASE("an area of unknown extent stops the zones above it") {
  std::string src = kTwoBuffers;
  // The printer's staged epilogue over s and t: no size in the source.
  src.insert(src.rfind("}"), "  {\n    float *staged = reinterpret_cast<float "
                             "*>(smem + 0);\n  }\n");
  SharedRedZoneSource out = place(src);
  CHECK(out.plans.empty());
  CHECK(out.source == src);
  // An area at the end only closes the zone before it.
  std::string end = kTwoBuffers;
  end.insert(end.rfind("}"),
             "  float *scratch = reinterpret_cast<float *>(smem + 768);\n");
  out = place(end);
  REQUIRE(out.plans.count("two_kernel") == 1);
  CHECK(out.plans["two_kernel"].zones.size() == 3);
  CHECK(out.plans["two_kernel"].zones[2].above == "'scratch'");
}

TEST_CASE("a buffer across another's start keeps that start as printed") {
  // c (1024 bytes at 0) shares bytes with a and b (a loop's reuse).
  const char *src = R"(extern "C" __global__ void k(float *A)
{
  extern __shared__ __align__(128) unsigned char smem[];
  // T.alloc [128] shared.dyn  r.py:1:1
  float *a = reinterpret_cast<float *>(smem + 0);
  // T.alloc [128] shared.dyn  r.py:2:1
  float *b = reinterpret_cast<float *>(smem + 512);
  // T.alloc [256] shared.dyn  r.py:3:1
  float *c = reinterpret_cast<float *>(smem + 0);
}
)";
  SharedRedZoneSource out = place(src, 1024, "k");
  CHECK(out.plans.empty());
}

TEST_CASE("kernels left as printed") {
  // A symbolic size (no entry in the sizes), an offset placed at launch,
  // and zones that would not fit.
  CHECK(placeSharedRedZones(kTwoBuffers, {}, 232448).plans.empty());
  std::string launch = kTwoBuffers;
  launch.insert(launch.rfind("}"),
                "  float *d = reinterpret_cast<float *>(smem + off);  // "
                "placed at launch\n");
  CHECK(place(launch).plans.empty());
  CHECK(place(kTwoBuffers, 232448 - kRedZoneBytes).plans.empty());
  // Two kernels: each entry gets its own plan.
  std::string two = std::string(kTwoBuffers) + kTwoBuffers;
  size_t second = two.rfind("two_kernel");
  two.replace(second, 10, "other_kernel");
  SharedRedZoneSource out =
      placeSharedRedZones(two, {{"two_kernel", 1024}}, 232448);
  CHECK(out.plans.size() == 1);
  CHECK(out.source.find("(smem + 1280);") < second);
  CHECK(out.source.find("(smem + 256);") > second);
}

TEST_CASE("every element index of a buffer of known extent is checked") {
  std::string src = kTwoBuffers;
  src.insert(src.rfind("}"), "  // s[t] in a comment stays\n"
                             "  s[(int)threadIdx.x] = A[s[1]];\n"
                             "  t[3] += 1;\n"
                             "  float *p = &s[64];\n"
                             "  float x = u[t[(2)]] + s2[0] + q.s[1];\n"
                             "  printf(\"s[%d] \\\"t[1]\\\" = %g\\n\", 2, (double)s[2]);\n"
                             "  char c = 'u'; char d = '\\'';\n"
                             "  t[4] = 0;  // the tile's t[5] stays\n");
  SharedRedZoneSource out = place(src);
  // s: 256 bytes of floats at 0 (up to t); t: halves up to u at 512, 256
  // bytes; u: bytes from 512 to the end of the 1024 bytes of the launch.
  const std::string sArgs = R"(, "'s'", 4u, 256u, 0u, )";
  const std::string tArgs = R"(, "'t'", 2u, 256u, 256u, )";
  const std::string uArgs = R"(, "'u'", 1u, 512u, 512u, )";
  CHECK(out.source.find("  s[::tlc::sim::sharedIndex((int)threadIdx.x" + sArgs +
                        "1)] = A[s[::tlc::sim::sharedIndex(1" + sArgs +
                        "0)]];\n") != std::string::npos);
  CHECK(out.source.find("  t[::tlc::sim::sharedIndex(3" + tArgs +
                        "1)] += 1;\n") != std::string::npos);
  CHECK(out.source.find("= &s[::tlc::sim::sharedIndex(64" + sArgs + "3)];") !=
        std::string::npos);
  // Innermost first; other names (s2, a member s) are not the buffer.
  CHECK(out.source.find("u[::tlc::sim::sharedIndex(t[::tlc::sim::sharedIndex("
                        "(2)" +
                        tArgs + "0)]" + uArgs + "0)] + s2[0] + q.s[1];") !=
        std::string::npos);
  CHECK(out.source.find("// s[t] in a comment stays") != std::string::npos);
  // String and character literals (T.print's format) are left as printed.
  CHECK(out.source.find(R"(printf("s[%d] \"t[1]\" = %g\n", 2, (double)s[)"
                        "::tlc::sim::sharedIndex(2" +
                        sArgs + "0)]);") != std::string::npos);
  CHECK(out.source.find(R"(char c = 'u'; char d = '\'';)") != std::string::npos);
  CHECK(out.source.find("t[::tlc::sim::sharedIndex(4" + tArgs +
                        "1)] = 0;  // the tile's t[5] stays") !=
        std::string::npos);
  // The declarations are moved as before and not wrapped.
  CHECK(out.source.find("float *s = reinterpret_cast<float *>(smem + 0);") !=
        std::string::npos);
}

TEST_CASE("indices are checked where no red zone can go") {
  // The staged epilogue over s and t (no size in the source) leaves the
  // layout as printed, but s's and u's indices are still checked; t, which
  // the area does not start inside, too.
  std::string src = kTwoBuffers;
  src.insert(src.rfind("}"), "  {\n    float *staged = reinterpret_cast<float "
                             "*>(smem + 0);\n  }\n  u[9] = s[300];\n");
  SharedRedZoneSource out = place(src);
  CHECK(out.plans.empty());
  CHECK(out.source.find(
            R"(u[::tlc::sim::sharedIndex(9, "'u'", 1u, 512u, 512u, 1)] = )"
            R"(s[::tlc::sim::sharedIndex(300, "'s'", 4u, 256u, 0u, 0)];)") !=
        std::string::npos);
  // A buffer another one starts inside is not checked (its extent is not
  // known): c below spans a and b.
  const char *shared = R"(extern "C" __global__ void k(float *A)
{
  extern __shared__ __align__(128) unsigned char smem[];
  // T.alloc [128] shared.dyn  r.py:1:1
  float *a = reinterpret_cast<float *>(smem + 0);
  // T.alloc [256] shared.dyn  r.py:3:1
  float *c = reinterpret_cast<float *>(smem + 0);
  // T.alloc [128] shared.dyn  r.py:2:1
  float *b = reinterpret_cast<float *>(smem + 512);
  c[1] = a[2] + b[3];
}
)";
  out = place(shared, 1024, "k");
  CHECK(out.source.find("  c[1] = a[::tlc::sim::sharedIndex(2") !=
        std::string::npos);
  CHECK(out.source.find("b[::tlc::sim::sharedIndex(3") != std::string::npos);
}

TEST_CASE("indices through pointer arithmetic are checked") {
  std::string src = kTwoBuffers;
  src.insert(src.rfind("}"),
             "  float x = (s + stage * 16)[(int)threadIdx.x % 16];\n"
             "  (s + 32)[t[1]] = x;\n"
             "  copy(&(s + k)[2 * i], (s + k * 4), s + 8, n * (s + 1)[0]);\n"
             "  *(s + (int)threadIdx.x - 2) = *(s + 1);\n"
             "  f<8>((s + g<4>(k))[0]);\n"
             "  float *p = s + 4;\n");
  SharedRedZoneSource out = place(src);
  const std::string sArgs = R"(, "'s'", 4u, 256u, 0u, )";
  const std::string tArgs = R"(, "'t'", 2u, 256u, 256u, )";
  auto has = [&](const std::string &text) {
    return out.source.find(text) != std::string::npos;
  };
  // (s + K)[I]: one index, K + I, a load or a store by what follows.
  CHECK(has("float x = s[::tlc::sim::sharedIndex((stage * 16) + ((int)"
            "threadIdx.x % 16)" +
            sArgs + "0)];"));
  CHECK(has("  s[::tlc::sim::sharedIndex((32) + (t[::tlc::sim::sharedIndex(1" +
            tArgs + "0)])" + sArgs + "1)] = x;"));
  // An address: `&(s + K)[I]`, and `s + K` as an argument (one past the
  // end allowed); a product's operand is a load.
  CHECK(has("copy(&s[::tlc::sim::sharedIndex((k) + (2 * i)" + sArgs +
            "3)], (s + ::tlc::sim::sharedIndex(k * 4" + sArgs +
            "3)), s + ::tlc::sim::sharedIndex(8" + sArgs +
            "3), n * s[::tlc::sim::sharedIndex((1) + (0)" + sArgs + "0)]);"));
  // *(s + K): element K.
  CHECK(has("  *(s + ::tlc::sim::sharedIndex((int)threadIdx.x - 2" + sArgs +
            "1)) = *(s + ::tlc::sim::sharedIndex(1" + sArgs + "0));"));
  // An addend this rewrite does not parse (a template argument list) and
  // a pointer assigned are left as printed.
  CHECK(has("  f<8>((s + g<4>(k))[0]);"));
  CHECK(has("  float *p = s + 4;"));
}
