//===- LruCache.h - A bounded, thread-safe cache of shared values -*- C++
//-*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A map from string keys to immutable shared values, bounded by a number of
// entries. Every lookup and record stamps the entry with a logical clock;
// when a record makes the cache exceed its bound, the least recently used
// fraction of the entries is dropped at once (one scan per eviction, so
// scans stay rare). The editor's caches of layouts (driver::LayoutCache)
// and of evaluated slices (lsp::SliceCache) are two instances.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SUPPORT_LRUCACHE_H
#define TLC_SUPPORT_LRUCACHE_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tlc {

/// A thread-safe cache of at most `maxEntries` values of type \p V (which
/// may be incomplete where the cache is declared).
template <typename V> class LruCache {
public:
  /// Creates a cache of at most \p maxEntries (at least one) entries that
  /// drops the least recently used 1/\p evictDivisor of them (at least one)
  /// when a record exceeds the bound.
  explicit LruCache(size_t maxEntries, unsigned evictDivisor = 2)
      : maxEntries(std::max<size_t>(maxEntries, 1)),
        evictDivisor(std::max(evictDivisor, 1u)) {}

  /// The value recorded under \p key (now the most recently used), or null.
  std::shared_ptr<const V> lookup(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = slots.find(key);
    if (it == slots.end())
      return nullptr;
    it->second.lastUse = ++clock;
    return it->second.value;
  }

  /// Records \p value under \p key, replacing what was there.
  void record(const std::string &key, std::shared_ptr<const V> value) {
    std::lock_guard<std::mutex> lock(mutex);
    slots[key] = Slot{std::move(value), ++clock};
    if (slots.size() <= maxEntries)
      return;
    // Stamps are distinct: the k-th smallest one bounds exactly the k
    // oldest entries.
    std::vector<uint64_t> uses;
    uses.reserve(slots.size());
    for (auto &entry : slots)
      uses.push_back(entry.second.lastUse);
    size_t drop = std::max<size_t>(uses.size() / evictDivisor, 1);
    std::nth_element(uses.begin(), uses.begin() + drop, uses.end());
    uint64_t cutoff = uses[drop];
    for (auto it = slots.begin(); it != slots.end();)
      it = it->second.lastUse < cutoff ? slots.erase(it) : std::next(it);
  }

  /// Number of recorded entries.
  size_t size() {
    std::lock_guard<std::mutex> lock(mutex);
    return slots.size();
  }

  /// Drops every entry.
  void clear() {
    std::lock_guard<std::mutex> lock(mutex);
    slots.clear();
  }

private:
  struct Slot {
    std::shared_ptr<const V> value;
    uint64_t lastUse = 0;
  };
  size_t maxEntries;
  unsigned evictDivisor;
  uint64_t clock = 0;
  std::mutex mutex;
  std::map<std::string, Slot> slots;
};

} // namespace tlc

#endif // TLC_SUPPORT_LRUCACHE_H
