//===- CUDAEmitterAreaReuse.cpp - Printer areas over dead buffers ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The printer's own shared areas (reduction scratch, fragment exchange) go
// after the planned buffers. Where that passes the block's budget (CDNA's
// 64 KiB of LDS), they are placed over buffers whose contents are dead at
// every use of the area instead, as tile-plan-shared-memory lets buffers
// with disjoint live ranges share bytes: a buffer a loop iteration has
// finished with (it is written whole before it is read again) lends its
// bytes to the exchange of that iteration. Each use of the area already
// starts with a barrier; it then also ends with one, so that nobody writes
// the buffer again while another thread still reads the area.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

std::optional<int64_t> Emitter::placeAreasOverDeadBuffers(KernelOp kernel,
                                                          int64_t planned,
                                                          int64_t scratch,
                                                          int64_t exchange) {
  // Warp-specialised kernels: the areas' users do not run in program order
  // with the other threads' accesses.
  if (wsProducerThreads || kernel
                               .walk([](IntrinsicOp i) {
                                 return i.getCallee() == "T.ws"
                                            ? WalkResult::interrupt()
                                            : WalkResult::advance();
                               })
                               .wasInterrupted())
    return std::nullopt;
  Block &body = kernel.getBody().front();
  SmallVector<Operation *> reduceSites, exchangeSites;
  if (scratch)
    kernel.walk([&](Operation *site) {
      auto red = dyn_cast<ReduceOp>(site);
      if ((red && reduceScratchBytes(red)) || finalizeScratchBytes(site))
        reduceSites.push_back(site);
    });
  for (auto &[site, roots] : exchanges)
    exchangeSites.push_back(site);
  // Byte ranges of the buffers live at some use of an area.
  using Range = std::pair<int64_t, int64_t>;
  auto liveAt = [&](ArrayRef<Operation *> sites, bool anywhere) {
    SmallVector<Range> busy;
    for (auto &[alloc, slot] : sharedSlots) {
      if (!slot.bytes)
        continue;
      if (anywhere || llvm::any_of(sites, [&, a = alloc](Operation *site) {
            return !isBufferDeadAt(body, a, site);
          }))
        busy.push_back({slot.offset, slot.offset + slot.bytes});
    }
    return busy;
  };
  // The lowest 128-byte aligned offset of \p bytes free of \p busy.
  auto place = [](SmallVector<Range> busy, int64_t bytes) {
    llvm::sort(busy);
    int64_t offset = 0;
    for (auto [lo, hi] : busy) {
      if (offset + bytes <= lo)
        break;
      offset = std::max(offset, (hi + 127) / 128 * 128);
    }
    return offset;
  };
  int64_t total = planned;
  int64_t newScratch = -1, newExchange = -1;
  if (scratch) {
    newScratch = place(liveAt(reduceSites, false), scratch);
    total = std::max(total, newScratch + scratch);
  }
  if (exchange) {
    // Scalar code and T.cumsum read the area after its last barrier: the
    // bytes of every buffer stay out of it there.
    SmallVector<Range> busy = liveAt(exchangeSites, exchangePublishes);
    if (scratch)
      busy.push_back({newScratch, newScratch + scratch});
    newExchange = place(busy, exchange);
    total = std::max(total, newExchange + exchange);
  }
  scratchOffset = newScratch;
  exchangeOffset = newExchange;
  areasReuseBuffers =
      (scratch && newScratch < planned) || (exchange && newExchange < planned);
  return total;
}

void Emitter::endAreaUse() {
  if (areasReuseBuffers)
    line(blockBarrier() + "  // the area's bytes belong to a buffer again");
}
