//===- LruCacheTest.cpp - LruCache unit tests -----------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Support/LruCache.h"

#include <doctest/doctest.h>

using namespace tlc;

namespace {

std::shared_ptr<const int> value(int v) { return std::make_shared<int>(v); }

} // namespace

TEST_CASE("LruCache drops the least recently used fraction when full") {
  // Eight entries, a quarter dropped: recording the ninth drops two.
  LruCache<int> cache(8, 4);
  for (int i = 0; i < 8; ++i)
    cache.record("k" + std::to_string(i), value(i));
  CHECK(cache.size() == 8);
  // A lookup makes k0 the most recently used.
  REQUIRE(bool(cache.lookup("k0")));
  CHECK(*cache.lookup("k0") == 0);
  cache.record("k8", value(8));
  // 9 / 4 = 2 dropped: the oldest, k1 and k2.
  CHECK(cache.size() == 7);
  CHECK(!cache.lookup("k1"));
  CHECK(!cache.lookup("k2"));
  for (const char *kept : {"k0", "k3", "k7", "k8"})
    CHECK(bool(cache.lookup(kept)));
  // Recording a key again replaces its value without growing.
  cache.record("k3", value(33));
  CHECK(*cache.lookup("k3") == 33);
  CHECK(cache.size() == 7);
  cache.clear();
  CHECK(cache.size() == 0);
  CHECK(!cache.lookup("k0"));
}

TEST_CASE("LruCache drops at least one entry, and holds at least one") {
  LruCache<int> tiny(0, 8);
  tiny.record("a", value(1));
  tiny.record("b", value(2));
  CHECK(tiny.size() == 1);
  CHECK(bool(tiny.lookup("b")));
  // The layout cache's half.
  LruCache<int> half(4, 2);
  for (int i = 0; i < 5; ++i)
    half.record(std::to_string(i), value(i));
  CHECK(half.size() == 3);
  CHECK(!half.lookup("0"));
  CHECK(!half.lookup("1"));
  CHECK(bool(half.lookup("2")));
}
