//===- Arena.cpp - The sim device's global memory -------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Arena.h"

#include <algorithm>
#include <cstring>
#include <sys/mman.h>

using namespace tlc::runtime::sim;

namespace {
constexpr size_t kArenaBytes = size_t(64) << 30;
constexpr size_t kPage = 4096;
/// Red zone after a buffer: at least 4 KiB, an eighth of its size up to
/// 1 MiB (a far overrun is still reported as in no buffer).
size_t redZone(size_t bytes) {
  size_t z = std::max<size_t>(kPage, std::min<size_t>(bytes / 8, 1 << 20));
  return (z + kPage - 1) / kPage * kPage;
}
} // namespace

Arena &Arena::get() {
  static Arena arena;
  return arena;
}

Arena::Arena() {
  void *m = mmap(nullptr, kArenaBytes, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m != MAP_FAILED) {
    start = static_cast<char *>(m);
    size = kArenaBytes;
  }
}

Arena::~Arena() {
  if (start)
    munmap(start, size);
  if (shadowBytes)
    munmap(shadowBytes, size);
}

unsigned char *Arena::shadow() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!shadowBytes && start) {
    void *m = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m != MAP_FAILED)
      shadowBytes = static_cast<unsigned char *>(m);
  }
  return shadowBytes;
}

void Arena::clearShadow() {
  std::lock_guard<std::mutex> lock(mutex);
  // Fresh zero pages: defined.
  if (shadowBytes && used)
    madvise(shadowBytes, used, MADV_DONTNEED);
}

void *Arena::allocate(size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  size_t rounded = (std::max<size_t>(bytes, 1) + kPage - 1) / kPage * kPage;
  // A leading red zone too, so underruns of the first buffer are seen.
  size_t offset = used + kPage;
  size_t end = offset + rounded + redZone(bytes);
  if (!start || end > size)
    return nullptr;
  if (mprotect(start + used, end - used, PROT_READ | PROT_WRITE) != 0)
    return nullptr;
  used = end;
  Buffer b;
  b.base = reinterpret_cast<uintptr_t>(start + offset);
  b.size = bytes;
  b.live = true;
  buffers.push_back(b);
  return start + offset;
}

void Arena::release(void *ptr) {
  std::lock_guard<std::mutex> lock(mutex);
  for (Buffer &b : buffers)
    if (b.base == reinterpret_cast<uintptr_t>(ptr) && b.live) {
      b.live = false;
      // The pages stay mapped: a stale pointer is reported, not a fault.
      std::memset(ptr, 0xFF, b.size);
    }
}

void Arena::setName(void *ptr, std::string name) {
  std::lock_guard<std::mutex> lock(mutex);
  for (Buffer &b : buffers)
    if (b.base == reinterpret_cast<uintptr_t>(ptr) && b.live)
      b.name = std::move(name);
}

Arena::Snapshot Arena::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex);
  Snapshot s;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].live) {
      auto *p = reinterpret_cast<const unsigned char *>(buffers[i].base);
      s.emplace_back(i, std::vector<unsigned char>(p, p + buffers[i].size));
    }
  return s;
}

void Arena::restore(const Snapshot &s) {
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto &[i, bytes] : s)
    if (i < buffers.size() && buffers[i].live && !bytes.empty())
      std::memcpy(reinterpret_cast<void *>(buffers[i].base), bytes.data(),
                  std::min(bytes.size(), buffers[i].size));
}

const Arena::Buffer *Arena::find(uintptr_t address) const {
  auto it =
      std::upper_bound(buffers.begin(), buffers.end(), address,
                       [](uintptr_t a, const Buffer &b) { return a < b.base; });
  // The buffer below (whose range or red zone may hold the address) or,
  // for an address in a leading red zone, the one above.
  if (it != buffers.begin()) {
    const Buffer &below = *(it - 1);
    if (address < below.base + below.size + redZone(below.size))
      return &below;
  }
  if (it != buffers.end() && it->base - address <= kPage)
    return &*it;
  return nullptr;
}
