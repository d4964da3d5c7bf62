//===- BuilderTest.cpp - Tests for building Tile IR from C++ --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds Tile IR through the op builders the evaluator uses, verifies it and
// compares the printed IR with text written by hand.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <doctest/doctest.h>

#include <functional>
#include <string>

using namespace mlir;
using namespace tlc::tile;

namespace {

/// Builds a module with \p build, verifies it and compares its printed form
/// (NameLocs as SSA names) with \p expected. An \p expectedError checks that
/// verification fails with that message instead.
void checkBuild(const std::function<void(OpBuilder &, ModuleOp)> &build,
                const std::string &expected,
                const std::string &expectedError = "") {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostics += diag.str() + "\n";
    return success();
  });
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  build(builder, *module);
  if (!expectedError.empty()) {
    CHECK(failed(verify(*module)));
    CHECK(diagnostics.find(expectedError) != std::string::npos);
    CAPTURE(diagnostics);
    return;
  }
  REQUIRE(succeeded(verify(*module)));
  CHECK(diagnostics.empty());
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().printNameLocAsPrefix());
  CHECK(text == expected);
}

/// A NameLoc \p name.
Location named(OpBuilder &b, StringRef name) {
  return NameLoc::get(b.getStringAttr(name), b.getUnknownLoc());
}

/// A static or symbolic buffer type.
BufferType buffer(OpBuilder &b, ArrayRef<Dim> dims, Type element,
                  MemoryScope scope) {
  return BufferType::get(b.getContext(), dims, element, scope);
}

/// Creates `tile.func @name` with \p params and returns it with its entry
/// block created.
FuncOp makeFunc(OpBuilder &b, StringRef name, ArrayRef<Type> params,
                ArrayRef<StringRef> paramNames,
                ArrayRef<SymbolDeclAttr> symbols = {}) {
  auto func = FuncOp::create(b, b.getUnknownLoc(), name,
                             b.getFunctionType(params, {}), symbols);
  SmallVector<Location> locs;
  for (StringRef p : paramNames)
    locs.push_back(named(b, p));
  func.addEntryBlock(locs);
  return func;
}

} // namespace

TEST_CASE("build a GEMM kernel") {
  checkBuild(
      [](OpBuilder &b, ModuleOp) {
        MLIRContext *ctx = b.getContext();
        Type f16 = b.getF16Type(), f32 = b.getF32Type();
        Dim m = Dim::symbolic(ctx, "M");
        BufferType aType = buffer(b, {m, Dim(64)}, f16, MemoryScope::Global);
        BufferType bType =
            buffer(b, {Dim(64), Dim(64)}, f16, MemoryScope::Global);
        FuncOp func = makeFunc(
            b, "gemm", {aType, bType}, {"A", "B"},
            {SymbolDeclAttr::get(ctx, b.getStringAttr("M"), SymbolKind::Dynamic)});
        b.setInsertionPointToEnd(&func.getBody().front());
        Value mValue = SymbolOp::create(b, named(b, "M"), "M");
        Value c0 = arith::ConstantIndexOp::create(b, b.getUnknownLoc(), 0);
        Value c2 = arith::ConstantIndexOp::create(b, b.getUnknownLoc(), 2);
        Value c32 = arith::ConstantIndexOp::create(b, b.getUnknownLoc(), 32);
        auto kernel = KernelOp::create(b, named(b, "kernel"),
                                       {b.getIndexAttr(1), OpFoldResult(mValue)},
                                       {b.getIndexAttr(128)});
        CHECK(kernel.getStaticNumThreads() == std::optional<int64_t>(128));
        b.setInsertionPointToEnd(&kernel.getBody().front());
        Value by = kernel.getBlockIndices()[1];
        Value aShared = AllocOp::create(
            b, named(b, "A_shared"),
            buffer(b, {Dim(32), Dim(32)}, f16, MemoryScope::SharedDyn));
        Value bShared = AllocOp::create(
            b, named(b, "B_shared"),
            buffer(b, {Dim(32), Dim(64)}, f16, MemoryScope::SharedDyn));
        Value acc = AllocOp::create(
            b, named(b, "acc"),
            buffer(b, {Dim(32), Dim(64)}, f32, MemoryScope::Fragment));
        ClearOp::create(b, b.getUnknownLoc(), acc);
        auto loop = PipelinedOp::create(b, b.getUnknownLoc(), c0, c2, 3);
        loop.getBody().getArgument(0).setLoc(named(b, "ko"));
        b.setInsertionPointToEnd(&loop.getBody().front());
        Value k = arith::MulIOp::create(b, b.getUnknownLoc(),
                                        loop.getInductionVar(), c32);
        Value aTile = RegionOp::create(
            b, b.getUnknownLoc(),
            buffer(b, {Dim(32), Dim(32)}, f16, MemoryScope::Global),
            func.getArgument(0), ArrayRef<OpFoldResult>{by, k});
        CopyOp::create(b, b.getUnknownLoc(), aTile, aShared);
        Value bTile = RegionOp::create(
            b, b.getUnknownLoc(),
            buffer(b, {Dim(32), Dim(64)}, f16, MemoryScope::Global),
            func.getArgument(1), ArrayRef<OpFoldResult>{k, b.getIndexAttr(0)});
        CopyOp::create(b, b.getUnknownLoc(), bTile, bShared);
        auto gemm = GemmOp::create(b, b.getUnknownLoc(), aShared, bShared, acc);
        gemm.setPolicy(GemmWarpPolicy::FullRow);
      },
      R"(module {
  tile.func @gemm(%A: !tile.buffer<[M, 64], f16, global>, %B: !tile.buffer<[64, 64], f16, global>) symbols(M: dynamic) {
    %M = tile.symbol "M"
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    tile.kernel (%bx, %by) grid [1, %M] threads [128] {
      %A_shared = tile.alloc : !tile.buffer<[32, 32], f16, shared.dyn>
      %B_shared = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
      %acc = tile.alloc : !tile.buffer<[32, 64], f32, local.fragment>
      tile.clear %acc : !tile.buffer<[32, 64], f32, local.fragment>
      tile.pipelined %ko = %c0 to %c2 stages 3 {
        %0 = arith.muli %ko, %c32 : index
        %1 = tile.region %A[%by, %0] : !tile.buffer<[M, 64], f16, global> to !tile.buffer<[32, 32], f16, global>
        tile.copy %1 to %A_shared : !tile.buffer<[32, 32], f16, global> to !tile.buffer<[32, 32], f16, shared.dyn>
        %2 = tile.region %B[%0, 0] : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[32, 64], f16, global>
        tile.copy %2 to %B_shared : !tile.buffer<[32, 64], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
        tile.gemm %A_shared, %B_shared, %acc {policy = #tile<policy full_row>} : !tile.buffer<[32, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[32, 64], f32, local.fragment>
      }
    }
  }
}
)");
}

TEST_CASE("build elementwise code, control flow and variables") {
  checkBuild(
      [](OpBuilder &b, ModuleOp) {
        Type f32 = b.getF32Type(), i32 = b.getI32Type();
        BufferType xType =
            buffer(b, {Dim(256)}, f32, MemoryScope::Global);
        FuncOp func = makeFunc(b, "axpy", {xType, f32}, {"X", "alpha"});
        b.setInsertionPointToEnd(&func.getBody().front());
        Location loc = b.getUnknownLoc();
        auto kernel = KernelOp::create(b, loc, {b.getIndexAttr(2)},
                                       {b.getIndexAttr(128)});
        b.setInsertionPointToEnd(&kernel.getBody().front());
        Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
        Value var = AllocOp::create(
            b, named(b, "count"),
            buffer(b, {Dim(1)}, i32, MemoryScope::LocalVar), zero);
        auto par = ParallelOp::create(b, loc, {b.getIndexAttr(128)});
        b.setInsertionPointToEnd(&par.getBody().front());
        Value i = par.getInductionVars()[0];
        Value x = LoadOp::create(b, loc, func.getArgument(0), ValueRange{i});
        Value y = arith::MulFOp::create(b, loc, x, func.getArgument(1));
        StoreOp::create(b, loc, y, func.getArgument(0), ValueRange{i});
        b.setInsertionPointAfter(par);
        Value tx = ThreadBindingOp::create(b, loc, 0);
        Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
        Value cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           tx, c0);
        auto ifOp = IfOp::create(b, loc, cond, /*withElse=*/true);
        b.setInsertionPointToEnd(ifOp.thenBlock());
        Value old = LoadOp::create(b, loc, var, ValueRange{});
        Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
        Value inc = arith::AddIOp::create(b, loc, old, one);
        StoreOp::create(b, loc, inc, var, ValueRange{});
        b.setInsertionPointToEnd(ifOp.elseBlock());
        SyncThreadsOp::create(b, loc);
        b.setInsertionPointAfter(ifOp);
        auto loop = ForOp::create(b, loc, c0, c0, c0, LoopKind::Unroll);
        (void)loop;
      },
      R"(module {
  tile.func @axpy(%X: !tile.buffer<[256], f32, global>, %alpha: f32) {
    tile.kernel (%bx) grid [2] threads [128] {
      %c0_i32 = arith.constant 0 : i32
      %count = tile.alloc init(%c0_i32 : i32) : !tile.buffer<[1], i32, local.var>
      tile.parallel (%i) in [128] {
        %1 = tile.load %X[%i] : !tile.buffer<[256], f32, global>
        %2 = arith.mulf %1, %alpha : f32
        tile.store %2, %X[%i] : !tile.buffer<[256], f32, global>
      }
      %tx = tile.thread_binding 0
      %c0 = arith.constant 0 : index
      %0 = arith.cmpi eq, %tx, %c0 : index
      tile.if %0 {
        %1 = tile.load %count[] : !tile.buffer<[1], i32, local.var>
        %c1_i32 = arith.constant 1 : i32
        %2 = arith.addi %1, %c1_i32 : i32
        tile.store %2, %count[] : !tile.buffer<[1], i32, local.var>
      } else {
        tile.sync_threads
      }
      tile.for %i = %c0 to %c0 step %c0 unroll {
      }
    }
  }
}
)");
}

TEST_CASE("build reductions, scans, atomics and debug ops") {
  checkBuild(
      [](OpBuilder &b, ModuleOp) {
        Type f32 = b.getF32Type();
        BufferType outType = buffer(b, {Dim(64)}, f32, MemoryScope::Global);
        FuncOp func = makeFunc(b, "reduce", {outType}, {"Out"});
        b.setInsertionPointToEnd(&func.getBody().front());
        Location loc = b.getUnknownLoc();
        auto kernel = KernelOp::create(b, loc, {b.getIndexAttr(1)},
                                       {b.getIndexAttr(64)});
        b.setInsertionPointToEnd(&kernel.getBody().front());
        Value s = AllocOp::create(
            b, named(b, "S"),
            buffer(b, {Dim(64), Dim(32)}, f32, MemoryScope::Fragment));
        Value m = AllocOp::create(
            b, named(b, "m"), buffer(b, {Dim(64)}, f32, MemoryScope::Fragment));
        Value zero = arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                                    APFloat(0.0f));
        FillOp::create(b, loc, m, zero);
        ReduceOp::create(b, loc, ReduceKind::Max, s, m, 1, /*clear=*/true);
        ReduceOp::create(b, loc, ReduceKind::Sum, s, m, 1, /*clear=*/false);
        CumSumOp::create(b, loc, m, m, 0, /*reverse=*/true);
        AtomicAddOp::create(b, loc, func.getArgument(0), m);
        Value c3 = arith::ConstantIndexOp::create(b, loc, 3);
        AtomicAddOp::create(b, loc, func.getArgument(0), ValueRange{c3}, zero,
                            /*returnPrev=*/true);
        CopyOp::create(b, loc, m, func.getArgument(0));
        PrintOp::create(b, loc, "m", m);
        PrintOp::create(b, loc, "done");
        Value t = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
        DeviceAssertOp::create(b, loc, t, "ok");
        UseSwizzleOp::create(b, loc, 4, SwizzleOrder::Column, true);
      },
      R"(module {
  tile.func @reduce(%Out: !tile.buffer<[64], f32, global>) {
    tile.kernel (%bx) grid [1] threads [64] {
      %S = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
      %m = tile.alloc : !tile.buffer<[64], f32, local.fragment>
      %cst = arith.constant 0.000000e+00 : f32
      tile.fill %m, %cst : !tile.buffer<[64], f32, local.fragment>
      tile.reduce max %S to %m dim = 1 clear : !tile.buffer<[64, 32], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
      tile.reduce sum %S to %m dim = 1 : !tile.buffer<[64, 32], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
      tile.cumsum %m to %m dim = 0 reverse : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
      tile.atomic_add %Out, %m : !tile.buffer<[64], f32, global>, !tile.buffer<[64], f32, local.fragment>
      %c3 = arith.constant 3 : index
      %0 = tile.atomic_add %Out[%c3], %cst : !tile.buffer<[64], f32, global>, f32 -> f32
      tile.copy %m to %Out : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
      tile.print "m" %m : !tile.buffer<[64], f32, local.fragment>
      tile.print "done"
      %true = arith.constant true
      tile.device_assert %true, "ok"
      tile.use_swizzle 4 column
    }
  }
}
)");
}

TEST_CASE("builder-made IR that fails verification") {
  // A gemm whose K extents disagree.
  checkBuild(
      [](OpBuilder &b, ModuleOp) {
        Type f16 = b.getF16Type(), f32 = b.getF32Type();
        FuncOp func = makeFunc(b, "bad", {}, {});
        b.setInsertionPointToEnd(&func.getBody().front());
        Location loc = b.getUnknownLoc();
        auto kernel = KernelOp::create(b, loc, {b.getIndexAttr(1)},
                                       {b.getIndexAttr(128)});
        b.setInsertionPointToEnd(&kernel.getBody().front());
        Value a = AllocOp::create(
            b, loc, buffer(b, {Dim(64), Dim(32)}, f16, MemoryScope::SharedDyn));
        Value w = AllocOp::create(
            b, loc, buffer(b, {Dim(16), Dim(64)}, f16, MemoryScope::SharedDyn));
        Value c = AllocOp::create(
            b, loc, buffer(b, {Dim(64), Dim(64)}, f32, MemoryScope::Fragment));
        GemmOp::create(b, loc, a, w, c);
      },
      "", "K of A and K of B differ: 32 vs 16");
  // A shared allocation outside of the kernel of a function that launches
  // one (a function without kernels may hold any buffer).
  checkBuild(
      [](OpBuilder &b, ModuleOp) {
        FuncOp func = makeFunc(b, "bad", {}, {});
        b.setInsertionPointToEnd(&func.getBody().front());
        AllocOp::create(b, b.getUnknownLoc(),
                        buffer(b, {Dim(4)}, b.getF32Type(),
                               MemoryScope::Shared));
        KernelOp::create(b, b.getUnknownLoc(), {b.getIndexAttr(1)},
                         {b.getIndexAttr(32)});
      },
      "", "'shared' buffers must be allocated inside a tile.kernel");
}
