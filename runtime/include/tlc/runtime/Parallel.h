//===- Parallel.h - Chunked loops over host threads -------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The host-side work of tlc-run on large tensors (random inputs, poison,
// device copies, verification) split into fixed chunks run on every core.
// The chunks depend only on the element count, never on the number of
// cores, so a reduction that combines per-chunk results in chunk order
// gives the same answer on every host.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_PARALLEL_H
#define TLC_RUNTIME_PARALLEL_H

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace tlc::runtime {

/// Elements per chunk of parallelChunks.
constexpr int64_t kParallelChunk = int64_t(1) << 20;

/// The number of chunks of kParallelChunk elements [0, n) splits into.
inline int64_t numParallelChunks(int64_t n) {
  return n <= 0 ? 0 : (n + kParallelChunk - 1) / kParallelChunk;
}

/// Calls \p fn(chunk, begin, end) for every chunk of kParallelChunk
/// elements of [0, n) (the last one ragged), on up to the host's hardware
/// threads; in the calling thread alone when there is one chunk. The calls
/// may run in any order and at once: \p fn must touch only its chunk.
template <typename Fn> void parallelChunks(int64_t n, const Fn &fn) {
  const int64_t chunks = numParallelChunks(n);
  const int64_t workers = std::min<int64_t>(
      chunks, std::max(1u, std::thread::hardware_concurrency()));
  auto run = [&](int64_t c) {
    int64_t begin = c * kParallelChunk;
    fn(c, begin, std::min(n, begin + kParallelChunk));
  };
  if (workers <= 1) {
    for (int64_t c = 0; c < chunks; ++c)
      run(c);
    return;
  }
  std::atomic<int64_t> next{0};
  auto work = [&] {
    for (int64_t c = next++; c < chunks; c = next++)
      run(c);
  };
  std::vector<std::thread> pool;
  for (int64_t w = 1; w < workers; ++w)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
}

/// std::memcpy of \p bytes bytes, on every core when it is large.
inline void parallelCopy(void *dst, const void *src, size_t bytes) {
  auto *d = static_cast<uint8_t *>(dst);
  const auto *s = static_cast<const uint8_t *>(src);
  // Chunks of 16 MiB (kParallelChunk elements of 16 bytes).
  constexpr int64_t unit = 16;
  int64_t units = int64_t(bytes / unit);
  parallelChunks(units, [&](int64_t, int64_t begin, int64_t end) {
    std::copy(s + begin * unit, s + end * unit, d + begin * unit);
  });
  size_t done = size_t(units) * unit;
  std::copy(s + done, s + bytes, d + done);
}

} // namespace tlc::runtime

#endif // TLC_RUNTIME_PARALLEL_H
