//===- CUDAEmitterAreaReuse.cpp - The printer's shared areas --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The reduction scratch and fragment exchange areas the printed code uses
// besides the planned buffers. Their sizes follow from the printer's
// fragment layouts: this file prepares kernels for the planning passes
// (the KernelPreparer registerScratchAreaMeasure sets), measuring the areas
// for tile-plan-scratch-areas, which places them and decides which uses
// end with a barrier (tile::placeScratchAreas); the printer reads that
// plan.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/Transforms/PreparedKernels.h"
#include "tlc/Layout/EnumerationLimit.h"
#include "tlc/Target/Artifact/SharedMemoryLimits.h"
#include "tlc/Target/CUDA/CUDATarget.h"
#include "tlc/Target/CUDA/PrinterFragmentLayouts.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

FailureOr<ScratchAreaNeeds> Emitter::measureScratchAreas(KernelOp kernel) {
  ScratchAreaNeeds needs;
  kernel.walk([&](Operation *site) {
    int64_t bytes = 0;
    if (auto red = dyn_cast<ReduceOp>(site))
      bytes = reduceScratchBytes(red);
    else
      bytes = finalizeScratchBytes(site); // T.finalize_reducer
    if (bytes)
      needs.scratch.push_back({site, bytes, false});
  });
  if (failed(planExchanges(kernel)))
    return failure();
  needs.exchange = exchangeUses;
  return needs;
}

int64_t Emitter::sharedMemoryBudget() const {
  return lang.isHip() ? artifact::getHipLdsPerWorkgroup(options.amdArch)
                      : artifact::getCudaSharedMemoryPerBlock(
                            options.minComputeCapability);
}

/// Whether \p a and \p b ask the same of the areas (ops and bytes).
static bool sameNeeds(ArrayRef<ScratchAreaNeeds::Use> a,
                      ArrayRef<ScratchAreaNeeds::Use> b) {
  llvm::DenseMap<Operation *, std::pair<int64_t, bool>> byOp;
  for (const ScratchAreaNeeds::Use &u : a)
    byOp[u.op] = {u.bytes, u.publishes};
  if (byOp.size() != b.size())
    return false;
  return llvm::all_of(b, [&](const ScratchAreaNeeds::Use &u) {
    auto it = byOp.find(u.op);
    return it != byOp.end() &&
           it->second == std::make_pair(u.bytes, u.publishes);
  });
}

LogicalResult Emitter::readScratchAreas(KernelOp kernel, int64_t &scratch,
                                        int64_t &exchange) {
  // The fragments each op exchanges, and what the areas must hold.
  FailureOr<ScratchAreaNeeds> measured = measureScratchAreas(kernel);
  if (failed(measured))
    return failure();
  ScratchAreaNeeds &needs = *measured;
  scratch = needs.scratchBytes();
  exchange = needs.exchangeBytes();
  ScratchAreaPlan plan;
  // tile-plan-scratch-areas' plan, where it measured what this printer
  // does (the same target); else (a module lowered without a GPU target)
  // the same placement, made here.
  ScratchAreaNeeds recorded = getScratchAreaNeeds(kernel);
  if (kernel->hasAttr("tile.areas_planned") &&
      sameNeeds(recorded.scratch, needs.scratch) &&
      sameNeeds(recorded.exchange, needs.exchange)) {
    auto offset = [&](StringRef name) -> int64_t {
      auto attr = kernel->getAttrOfType<IntegerAttr>(name);
      return attr ? attr.getInt() : -1;
    };
    plan.scratchOffset = offset("tile.scratch_offset");
    plan.exchangeOffset = offset("tile.exchange_offset");
    plan.totalBytes = offset("tile.area_bytes");
    kernel.walk([&](Operation *op) {
      if (op->hasAttr("tile.area_barrier"))
        plan.barrierAfter.insert(op);
    });
  } else {
    plan = placeScratchAreas(kernel, needs, sharedMemoryBudget());
  }
  scratchOffset = scratch ? plan.scratchOffset : -1;
  exchangeOffset = exchange ? plan.exchangeOffset : -1;
  sharedBytes = plan.totalBytes;
  areaBarrierAfter = std::move(plan.barrierAfter);
  return success();
}

void Emitter::endAreaUse(Operation *op) {
  if (areaBarrierAfter.contains(op))
    line(blockBarrier() + "  // the area's bytes belong to a buffer again");
}

/// The emit options of the GPU target \p gpuTarget (`cuda:sm_80,sm_90a`,
/// `hip:gfx942`) that decide fragment layouts and budgets.
static std::optional<CudaEmitOptions> optionsFor(StringRef gpuTarget) {
  CudaEmitOptions options;
  if (gpuTarget.consume_front("hip:")) {
    SmallVector<StringRef> archs;
    gpuTarget.split(archs, ',', -1, /*KeepEmpty=*/false);
    if (archs.empty())
      return std::nullopt;
    options.language = &GPULanguage::hip();
    // "gfx90a" < "gfx942" < "gfx950": the oldest sorts first.
    options.amdArch = llvm::min_element(archs)->str();
    return options;
  }
  if (!gpuTarget.consume_front("cuda:"))
    return std::nullopt;
  llvm::Expected<std::vector<std::string>> archs =
      parseCudaArchitectures(gpuTarget);
  if (!archs) {
    llvm::consumeError(archs.takeError());
    return std::nullopt;
  }
  if (unsigned cc = getOldestComputeCapability(*archs))
    options.minComputeCapability = cc;
  return options;
}

namespace {
/// A kernel prepared by an emitter of its target (its fragments laid out),
/// answering the planning passes quietly: the printer reports what it
/// cannot lay out or follow, once, when it prints the kernel.
class EmitterPreparedKernel final : public PreparedKernel {
public:
  EmitterPreparedKernel(KernelOp kernel, FuncOp func,
                        const CudaEmitOptions &options)
      : kernel(kernel), emitter(func, options) {}

  /// Prepares the kernel; false when the printer cannot lay it out.
  bool prepare() {
    ScopedDiagnosticHandler quiet(kernel.getContext(),
                                  [](Diagnostic &) { return success(); });
    emitter.chooseIndexWidth();
    return succeeded(emitter.prepareKernel(kernel));
  }

  std::optional<int64_t> measureScratchAreas() override {
    ScopedDiagnosticHandler quiet(kernel.getContext(),
                                  [](Diagnostic &) { return success(); });
    FailureOr<ScratchAreaNeeds> needs = emitter.measureScratchAreas(kernel);
    if (failed(needs))
      return std::nullopt; // a malformed exchange plan: the printer says so
    Builder b(kernel.getContext());
    for (const ScratchAreaNeeds::Use &u : needs->scratch)
      u.op->setAttr("tile.scratch_bytes", b.getI64IntegerAttr(u.bytes));
    for (const ScratchAreaNeeds::Use &u : needs->exchange) {
      u.op->setAttr("tile.exchange_bytes", b.getI64IntegerAttr(u.bytes));
      if (u.publishes)
        u.op->setAttr("tile.exchange_publishes", b.getUnitAttr());
    }
    return emitter.sharedMemoryBudget();
  }

  /// The layout the printer gave each fragment allocation of the kernel.
  std::vector<std::pair<AllocOp, layout::Fragment>> fragmentLayouts() {
    std::vector<std::pair<AllocOp, layout::Fragment>> out;
    kernel.walk([&](AllocOp alloc) {
      auto it = emitter.fragments.find(alloc.getResult());
      if (it != emitter.fragments.end())
        out.push_back({alloc, it->second.layout});
    });
    return out;
  }

private:
  KernelOp kernel;
  Emitter emitter;
};
} // namespace

/// \p kernel laid out by an emitter of the target \p gpuTarget; null when
/// the printer cannot lay it out.
static std::unique_ptr<EmitterPreparedKernel>
prepareWithEmitter(KernelOp kernel, StringRef gpuTarget) {
  auto func = kernel->getParentOfType<FuncOp>();
  std::optional<CudaEmitOptions> options = optionsFor(gpuTarget);
  if (!func || !options)
    return nullptr;
  // A register tile past what layouts enumerate (far past any block's
  // registers; fuzz inputs) is not laid out here: the editor's lowering
  // would spend minutes in the printer's fragment planning, and a build
  // reports it when it prints the kernel.
  bool huge = kernel
                  .walk([](AllocOp alloc) {
                    auto t = cast<BufferType>(alloc.getType());
                    bool registers = t.getScope() == MemoryScope::Fragment ||
                                     t.getScope() == MemoryScope::Local;
                    return registers && t.isStatic() &&
                                   layout::numElementsSaturated(
                                       t.getShape()) >
                                       layout::kMaxEnumeratedInputs
                               ? WalkResult::interrupt()
                               : WalkResult::advance();
                  })
                  .wasInterrupted();
  if (huge)
    return nullptr;
  auto prepared =
      std::make_unique<EmitterPreparedKernel>(kernel, func, *options);
  if (!prepared->prepare())
    return nullptr;
  return prepared;
}

/// The planning passes' preparation (KernelPreparer).
static std::unique_ptr<PreparedKernel> prepareForTarget(KernelOp kernel,
                                                        StringRef gpuTarget) {
  return prepareWithEmitter(kernel, gpuTarget);
}

std::optional<std::vector<std::pair<AllocOp, layout::Fragment>>>
tlc::target::getPrinterFragmentLayouts(KernelOp kernel, StringRef gpuTarget) {
  std::unique_ptr<EmitterPreparedKernel> prepared =
      prepareWithEmitter(kernel, gpuTarget);
  if (!prepared)
    return std::nullopt;
  return prepared->fragmentLayouts();
}

void tlc::target::registerScratchAreaMeasure() {
  tile::setKernelPreparer(&prepareForTarget);
}
