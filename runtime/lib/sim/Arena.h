//===- Arena.h - The sim device's global memory -----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Global memory of the `sim` device: one reserved address range, buffers
// bump-allocated with red zones, so memcheck knows every buffer and names
// it in reports.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_SIM_ARENA_H
#define TLC_RUNTIME_SIM_ARENA_H

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace tlc::runtime::sim {

/// Global memory: one reserved address range, bump-allocated, every buffer
/// followed by a red zone.
class Arena {
public:
  /// The process's arena (the kernels' checked range is fixed at bind).
  static Arena &get();
  ~Arena();
  Arena(const Arena &) = delete;
  Arena &operator=(const Arena &) = delete;

  /// \p bytes of zeroed memory, or null when the arena is exhausted.
  void *allocate(size_t bytes);
  /// Releases \p ptr (its range stays reserved and reported as freed).
  void release(void *ptr);
  /// Names the buffer at \p ptr for reports (`parameter 'A' float16[..]`).
  void setName(void *ptr, std::string name);

  struct Buffer {
    uintptr_t base = 0;
    size_t size = 0;
    bool live = false;
    std::string name;
  };
  /// The buffer whose range or red zone holds \p address (null if none).
  const Buffer *find(uintptr_t address) const;

  /// The contents of every live buffer, by index among the buffers.
  using Snapshot = std::vector<std::pair<size_t, std::vector<unsigned char>>>;
  Snapshot snapshot() const;
  /// Writes \p s back into its buffers.
  void restore(const Snapshot &s);
  const Buffer &buffer(size_t index) const { return buffers[index]; }

  /// The index of \p b among the arena's buffers (for per-buffer state).
  size_t indexOf(const Buffer *b) const { return size_t(b - buffers.data()); }
  size_t numBuffers() const { return buffers.size(); }

  /// The definedness shadow of the arena (a byte per byte, reserved on
  /// first use; null if it cannot be mapped), for kernels compiled with
  /// TLC_SIM_INITCHECK (tlc_sim/initcheck.h).
  unsigned char *shadow();
  /// Marks every byte of the arena defined (a launch's inputs are).
  void clearShadow();

  uintptr_t base() const { return reinterpret_cast<uintptr_t>(start); }
  size_t reserved() const { return size; }

private:
  Arena();
  mutable std::mutex mutex;
  char *start = nullptr;
  size_t size = 0;
  size_t used = 0;
  std::vector<Buffer> buffers; // sorted by base
  unsigned char *shadowBytes = nullptr;
};

} // namespace tlc::runtime::sim

#endif // TLC_RUNTIME_SIM_ARENA_H
