//===- DeviceQueries.cpp - Questions programs ask the machine -------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Programs size their launches from the device they run on:
// `tilelang.carver.arch.driver.get_num_sms()`,
// `torch.cuda.get_device_properties(0).multi_processor_count`,
// `torch.cuda.get_device_capability()`. tlc answers from the device table of
// the target (TargetInfo::device: the target's usual part, or --device), so
// such programs analyse to the instance that would run there.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

using namespace tlc;
using namespace tlc::eval;

/// The `torch.cuda.get_device_properties` object of \p d.
static Value deviceProperties(Interpreter &in, const lang::DeviceInfo &d) {
  auto *o = in.heap.make<NamespaceObj>();
  o->name = "_CudaDeviceProperties";
  auto num = [&](llvm::StringRef k, int64_t v) {
    o->set(k, Value::integer(v));
  };
  o->set("name", in.heap.str(d.fullName));
  num("major", d.major);
  num("minor", d.minor);
  num("multi_processor_count", d.numSMs);
  num("total_memory", d.globalMemoryBytes);
  num("L2_cache_size", d.l2Bytes);
  num("warp_size", d.warpSize);
  num("regs_per_multiprocessor", d.registersPerSM);
  num("max_threads_per_multi_processor", d.maxThreadsPerSM);
  num("shared_memory_per_block", 48 * 1024);
  num("shared_memory_per_block_optin", d.sharedMemoryPerBlock);
  num("shared_memory_per_multiprocessor", d.sharedMemoryPerSM);
  o->set("gcnArchName", in.heap.str(d.platform == "hip" ? d.arch : ""));
  return in.heap.obj(ObjKind::Namespace, o);
}

std::optional<Value> Interpreter::callDeviceQuery(llvm::StringRef qualified,
                                                  CallArgs &args, Node at) {
  const lang::DeviceInfo *d = target().device;
  llvm::StringRef name = qualified;
  // TVM's size variables (`tvm.te.var("m")`, `tvm.tir.Var("n", "int32")`)
  // are run-time extents, like T.dynamic.
  name.consume_front("tilelang.");
  if (name == "tvm.te.var" || name == "tvm.te.size_var" ||
      name == "tvm.tir.Var" || name == "tvm.tir.SizeVar" ||
      name == "tvm.tirx.Var" || name == "tvm.tirx.SizeVar") {
    Value n = args.positional(0, Value::none());
    if (const Value *kw = args.keyword("name"))
      n = *kw;
    if (!n.isStr())
      return std::nullopt;
    llvm::StringRef sym = heap.copyString(getStr(n));
    if (std::optional<Value> bound = defineFor(sym))
      return *bound;
    symbolKinds[sym] = /*Dynamic=*/0;
    return Value::sym(syms.symbol(sym));
  }
  // `tvm.DataType("float16")` (re-exported as `tilelang.DataType`): a
  // dtype, as T.dtype.
  if (name == "tvm.DataType" || name == "tvm.runtime.DataType" ||
      name == "DataType") {
    if (std::optional<lang::DType> t =
            toDType(args.positional(0, Value::none())))
      return Value::dtype(*t);
    return std::nullopt;
  }
  // The fp8 format of the target (e4m3, and its `fnuz` variant on CDNA3).
  // (`name` has lost its "tilelang." already.)
  if (name == "language.fp8.determine_fp8_type" ||
      name == "utils.determine_fp8_type") {
    bool fnuz = d && d->arch == "gfx942";
    return heap.str(fnuz ? "float8_e4m3fnuz" : "float8_e4m3fn");
  }
  if (name == "language.fp8.determine_torch_fp8_type") {
    bool fnuz = d && d->arch == "gfx942";
    return heap.opaque(fnuz ? "torch.float8_e4m3fnuz" : "torch.float8_e4m3fn");
  }
  // `tilelang.contrib.nvcc.get_target_compute_version()`: the target's
  // compute capability as the string "major.minor" ("9.0" on sm_90a);
  // `parse_compute_version` splits such a string into integers.
  if (name == "contrib.nvcc.get_target_compute_version" ||
      name == "tvm.contrib.nvcc.get_target_compute_version") {
    if (!d || d->platform == "hip")
      return std::nullopt;
    return heap.str(std::to_string(d->major) + "." + std::to_string(d->minor));
  }
  if (name == "contrib.nvcc.parse_compute_version" ||
      name == "tvm.contrib.nvcc.parse_compute_version") {
    Value v = args.positional(0, Value::none());
    if (!v.isStr())
      return std::nullopt;
    auto [major, minor] = getStr(v).split('.');
    int64_t ma = 0, mi = 0;
    if (major.getAsInteger(10, ma) || minor.getAsInteger(10, mi))
      return std::nullopt;
    return heap.tuple({Value::integer(ma), Value::integer(mi)});
  }
  // `tilelang.cuda.intrinsics.sparse_layout`: metadata sizes of the sparse
  // MMA instructions. A group of 4 K elements (2 for float32, TF32's 1:2)
  // spends 4 metadata bits, so a metadata element of b bits covers b / 4
  // groups (get_e_factor); 8-bit operands have one thread per metadata
  // value, wider ones two (get_e_replicate_factor).
  if (name.consume_front("cuda.intrinsics.sparse_layout.")) {
    bool eFactor = name == "get_e_factor";
    if (!eFactor && name != "get_e_replicate_factor")
      return std::nullopt;
    std::optional<lang::DType> a = toDType(args.positional(0, Value::none()));
    std::optional<lang::DType> meta =
        eFactor ? toDType(args.positional(1, Value::none())) : a;
    if (!a || !meta || a->isVector())
      return std::nullopt;
    using lang::ScalarType;
    ScalarType s = a->getScalarType();
    int64_t group = s == ScalarType::Float32 ? 2 : 4;
    std::string aName = a->getName();
    llvm::StringRef n = aName;
    bool fp8 = a->isFloat8() &&
               (n.starts_with("float8_e4m3") || n.starts_with("float8_e5m2"));
    if (s != ScalarType::Float32 && s != ScalarType::Float16 &&
        s != ScalarType::BFloat16 && s != ScalarType::Int8 &&
        s != ScalarType::UInt8 && !fp8)
      return raise("KeyError",
                   "structured sparsity is not defined for " + a->getName(),
                   at);
    if (!eFactor)
      return Value::integer(a->getBits() <= 8 ? 1 : 2);
    return Value::integer(int64_t(meta->getTotalBits() / 4) * group);
  }
  name = qualified;
  bool driver = name.consume_front("tilelang.carver.arch.driver.");
  bool torchCuda = !driver && name.consume_front("torch.cuda.");
  if (!driver && !torchCuda)
    return std::nullopt;
  if (torchCuda && name == "is_available")
    return Value::boolean(d != nullptr);
  if (torchCuda && name == "device_count")
    return Value::integer(d ? 1 : 0);
  if (!d)
    return std::nullopt;
  if (name == "get_num_sms")
    return Value::integer(d->numSMs);
  if (name == "get_max_dynamic_shared_size_bytes")
    return Value::integer(d->sharedMemoryPerBlock);
  if (name == "get_shared_memory_per_block")
    return Value::integer(d->platform == "hip" ? d->sharedMemoryPerBlock
                                               : 48 * 1024);
  if (name == "get_registers_per_block")
    return Value::integer(d->registersPerSM);
  if (name == "get_device_name")
    return heap.str(d->fullName);
  if (name == "get_device_properties" || name == "get_cuda_device_properties")
    return deviceProperties(*this, *d);
  if (name == "get_device_capability")
    return heap.tuple({Value::integer(d->major), Value::integer(d->minor)});
  if (name == "current_device")
    return Value::integer(0);
  return std::nullopt;
}

std::optional<Value> Interpreter::callTirBuilder(llvm::StringRef qualified,
                                                 CallArgs &args, Node at) {
  // TVM's expression builders (`from tvm import tir`, `tilelang.tvm.tir`)
  // that programs use inside kernels mean what their TileLang spellings
  // do: `tir.const(v, dtype)` is a value of dtype, `tir.reinterpret(dtype,
  // v)` is T.reinterpret(v, dtype), and `tir.Cast`, `tir.if_then_else`,
  // `tir.min`, ... are T.Cast, T.if_then_else, T.min, ...
  // TVM's newer namespace `tvm.tirx` (`from tvm import tirx`, which
  // TileLang's quantization helpers use) has the same builders.
  llvm::StringRef name = qualified;
  name.consume_front("tilelang.");
  if (!name.consume_front("tvm.tir.") && !name.consume_front("tvm.tirx."))
    return std::nullopt;
  name.consume_front("op.");
  if (name == "const" || name == "IntImm" || name == "FloatImm") {
    if (args.pos.empty())
      return std::nullopt;
    Value value = args.pos[0];
    Value dtype = args.positional(1, Value::none());
    if (const Value *kw = args.keyword("dtype"))
      dtype = *kw;
    // `IntImm(dtype, value)`, `FloatImm(dtype, value)`.
    if (name != "const") {
      std::swap(value, dtype);
      if (args.pos.size() < 2)
        return std::nullopt;
    }
    if (dtype.isNone())
      return value;
    CallArgs cast;
    cast.pos = {value, dtype};
    cast.posNodes = {args.posNodes.empty() ? at : args.posNodes[0],
                     args.posNodes.size() > 1 ? args.posNodes[1] : at};
    return callPrimitive(*lang::lookupBuiltin("T.cast"), cast, at);
  }
  if (name == "reinterpret") {
    if (args.pos.size() != 2)
      return std::nullopt;
    std::swap(args.pos[0], args.pos[1]);
    if (args.posNodes.size() == 2)
      std::swap(args.posNodes[0], args.posNodes[1]);
    return callPrimitive(*lang::lookupBuiltin("T.reinterpret"), args, at);
  }
  const lang::BuiltinInfo *info = lang::lookupBuiltin(("T." + name).str());
  if (!info || info->kind != lang::BuiltinKind::Function ||
      info->category != lang::BuiltinCategory::Math)
    return std::nullopt;
  return callPrimitive(*info, args, at);
}
