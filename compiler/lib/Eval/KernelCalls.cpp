//===- KernelCalls.cpp - Calls of a compiled kernel from Python -----------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A script calls the kernel a jit factory or `tilelang.compile` returns
// with torch tensors: `kernel(a, b)`. The parameters `out_idx` names are
// outputs the call allocates and returns (one tensor, or a list in
// out_idx's order); the others are the call's inputs, by position or by
// name. The caller may give the outputs instead, every parameter
// positionally (the "full ABI" call) or with `out=` (the buffer, or a
// sequence of one per output); the call then returns those buffers. What
// the call raises for a wrong one is what the tlc Python package raises,
// with its types and texts, so a script's `pytest.raises` or `try` around
// a bad call sees what it expects and a correct call raises nothing:
//   - by position alone, a count that is neither the inputs' nor all the
//     parameters': ValueError "Kernel expected N inputs, but M are
//     provided. (kernel 'K' takes N argument(s) (A, B)[, or all P
//     parameters with the output buffers])";
//   - with keywords, too many positional arguments: TypeError "kernel 'K'
//     takes N argument(s) ..., got M"; an input missing: TypeError "kernel
//     'K' is missing argument(s) ...";
//   - `out=` without out_idx, given with every parameter, not a sequence
//     for several outputs or of another length: ValueError;
//   - a tensor argument that is a Python scalar or str, or an output given
//     as None (an input's None is TileLang's null tensor): TypeError "...
//     must be a tensor"; for a parameter of a dtype torch stores as such
//     (not packed, sub-byte or float8), a torch tensor whose dtype a
//     factory's `dtype=` gave and differs: TypeError "... must have dtype
//     D"; one whose known sizes differ from the parameter's constant ones:
//     ValueError "... must have shape (...)".
// TileLang's own adapters raise a ValueError "Kernel expected N inputs, but
// M are provided." for a positional call of another count: so does this
// model (its text then names both forms); with keywords, a count or name
// error is a TypeError, as Python's for a call of a function. A call with a
// keyword that is neither an input nor `out` is not modelled (its result is
// opaque).
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "llvm/ADT/StringExtras.h"

using namespace tlc;
using namespace tlc::eval;

void Interpreter::recordPrimFuncSig(PrimFuncObj *pf, FunctionObj *fn,
                                    llvm::ArrayRef<Value> types,
                                    llvm::ArrayRef<std::string> names,
                                    llvm::StringRef kernel) {
  auto sig = std::make_unique<KernelSig>();
  sig->kernel = kernel.empty() ? fn->name.str() : kernel.str();
  size_t count = names.empty() ? fn->params.size() : names.size();
  for (size_t i = 0; i < count; ++i) {
    KernelParamSig p;
    p.name = names.empty() ? fn->params[i].identifier().str() : names[i];
    Value t = i < types.size() ? types[i] : Value::none();
    if (t.isObj(ObjKind::TensorType)) {
      auto *b = t.as<BufferObj>();
      p.tensor = true;
      p.dtype = b->dtype;
      p.assumedDType =
          assumedDTypeTensors.contains(b) || anyDTypeTensors.contains(b);
      for (const SymExpr &e : b->shape)
        p.shape.push_back(e.getConstant());
    }
    sig->params.push_back(std::move(p));
  }
  primFuncSigs[pf] = sig.get();
  kernelSigs.push_back(std::move(sig));
}

Value Interpreter::compiledKernel(Value primFunc, Value outIdx,
                                  llvm::StringRef name) {
  Value kernel = heap.opaque("JITKernel");
  if (!primFunc.isObj(ObjKind::PrimFunc))
    return kernel;
  auto it = primFuncSigs.find(primFunc.as<PrimFuncObj>());
  if (it == primFuncSigs.end())
    return kernel;
  const KernelSig &traced = *it->second;
  auto sig = std::make_unique<KernelSig>(traced);
  if (!name.empty())
    sig->kernel = name.str();
  // out_idx: an index or a sequence of them, negative from the end. One
  // tlc cannot read (or out of range: TileLang refuses it when compiling)
  // leaves the call unmodelled.
  llvm::SmallVector<Value, 2> indices;
  if (outIdx.isIntLike() && !outIdx.isBool())
    indices.push_back(outIdx);
  else if (outIdx.isSequence())
    indices.append(getElems(outIdx).begin(), getElems(outIdx).end());
  else if (!outIdx.isNone())
    return kernel;
  int64_t n = int64_t(sig->params.size());
  for (Value v : indices) {
    if (!v.isIntLike() || v.isBool())
      return kernel;
    int64_t i = v.getInt() < 0 ? v.getInt() + n : v.getInt();
    if (i < 0 || i >= n || llvm::is_contained(sig->outputs, unsigned(i)))
      return kernel;
    sig->outputs.push_back(unsigned(i));
  }
  compiledKernels[kernel.as<OpaqueObj>()] = sig.get();
  kernelSigs.push_back(std::move(sig));
  return kernel;
}

/// A dtype torch has under the same name, one element per element.
static bool isPlainTorchDType(lang::DType t) {
  static const llvm::StringLiteral names[] = {
      "float16", "bfloat16", "float32", "float64", "int8",
      "int16",   "int32",    "int64",   "uint8",   "bool"};
  std::string name = t.getName();
  return llvm::is_contained(names, llvm::StringRef(name));
}

/// `(64,)`, `(2, 3)`, `(?, 3)`: a shape as Python prints a tuple.
static std::string formatShape(llvm::ArrayRef<std::optional<int64_t>> dims) {
  std::string s = "(";
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (i)
      s += ", ";
    s += d ? std::to_string(*d) : "?";
  }
  return s + (dims.size() == 1 ? ",)" : ")");
}

std::optional<Value> Interpreter::callCompiledKernel(OpaqueObj *callee,
                                                     CallArgs &args, Node at) {
  auto it = compiledKernels.find(callee);
  if (it == compiledKernels.end())
    return std::nullopt;
  const KernelSig &sig = *it->second;
  const std::string what = "kernel '" + sig.kernel + "'";
  llvm::SmallVector<unsigned, 4> inputs;
  llvm::SmallVector<std::string, 4> inputNames;
  for (unsigned i = 0; i < sig.params.size(); ++i)
    if (!llvm::is_contained(sig.outputs, i)) {
      inputs.push_back(i);
      inputNames.push_back(sig.params[i].name);
    }
  bool outIsInput = llvm::is_contained(inputNames, "out");
  for (auto &kv : args.kw)
    if (kv.first != "out" && !llvm::is_contained(inputNames, kv.first))
      return std::nullopt;
  auto nodeOf = [&](size_t pos) {
    return pos < args.posNodes.size() ? args.posNodes[pos] : at;
  };

  // The output buffers the caller gives: parameter index -> buffer.
  llvm::SmallVector<std::pair<unsigned, Value>, 2> provided;
  llvm::SmallVector<Value, 4> pos(args.pos.begin(), args.pos.end());
  llvm::SmallVector<Node, 4> posNodes;
  for (size_t i = 0; i < pos.size(); ++i)
    posNodes.push_back(nodeOf(i));
  const Value *out = outIsInput ? nullptr : args.keyword("out");
  if (sig.outputs.empty()) {
    if (out)
      return raiseDefinite("ValueError",
                           what + ": output buffers can only be given "
                                  "(out=) when out_idx is set",
                           at);
  } else if (out) {
    if (pos.size() == sig.params.size())
      return raiseDefinite("ValueError",
                           what + ": output buffers were given both "
                                  "positionally and with out=",
                           at);
    llvm::SmallVector<Value, 2> buffers;
    if (sig.outputs.size() == 1) {
      buffers.push_back(*out);
    } else if (out->is(ValueKind::List) || out->is(ValueKind::Tuple)) {
      auto elems = getElems(*out);
      if (elems.size() != sig.outputs.size())
        return raiseDefinite("ValueError",
                             what + " has " + llvm::Twine(sig.outputs.size()) +
                                 " outputs, but out= gives " +
                                 llvm::Twine(elems.size()),
                             at);
      buffers.append(elems.begin(), elems.end());
    } else if (out->isPoison() ||
               (out->is(ValueKind::Opaque) && !out->as<OpaqueObj>()->hasShape &&
                !torchDTypes.count(out->as<OpaqueObj>()))) {
      return std::nullopt; // a sequence or not: unknown
    } else {
      // A torch tensor (type name Tensor) or another non-sequence.
      llvm::StringRef type =
          out->is(ValueKind::Opaque) ? "Tensor" : out->getTypeName();
      return raiseDefinite(
          "ValueError",
          what + " has " + llvm::Twine(sig.outputs.size()) +
              " outputs; out= must be a sequence of them, got " + type,
          at);
    }
    for (auto [i, b] : llvm::enumerate(buffers))
      provided.push_back({sig.outputs[i], b});
  } else if (pos.size() == sig.params.size()) {
    // The full-ABI call: every parameter, outputs in their places.
    llvm::SmallVector<Value, 4> ins;
    llvm::SmallVector<Node, 4> insNodes;
    for (unsigned i = 0; i < pos.size(); ++i) {
      if (llvm::is_contained(sig.outputs, i)) {
        provided.push_back({i, pos[i]});
      } else {
        ins.push_back(pos[i]);
        insNodes.push_back(posNodes[i]);
      }
    }
    pos = ins;
    posNodes = insNodes;
  }

  // The inputs, by position then by name. A call by position alone with
  // another count raises what TileLang's adapters raise for it (a
  // ValueError "Kernel expected N inputs, but M are provided."), so a
  // `pytest.raises(ValueError)` around it holds; tlc's text follows.
  std::string full = sig.outputs.empty()
                         ? ""
                         : ", or all " + std::to_string(sig.params.size()) +
                               " parameters with the output buffers";
  std::string takes = what + " takes " + std::to_string(inputs.size()) +
                      " argument(s) (" + llvm::join(inputNames, ", ") + ")" +
                      full;
  if (args.kw.empty() && pos.size() != inputs.size())
    return raiseDefinite("ValueError",
                         "Kernel expected " + llvm::Twine(inputs.size()) +
                             " inputs, but " + llvm::Twine(pos.size()) +
                             " are provided. (" + takes + ")",
                         at);
  if (pos.size() > inputs.size())
    return raiseDefinite("TypeError",
                         takes + ", got " + llvm::Twine(pos.size()), at);
  llvm::SmallVector<std::optional<std::pair<Value, Node>>, 4> values(
      inputs.size());
  for (size_t i = 0; i < pos.size(); ++i)
    values[i] = std::make_pair(pos[i], posNodes[i]);
  for (auto [k, kv] : llvm::enumerate(args.kw)) {
    if (kv.first == "out" && !outIsInput)
      continue;
    size_t i = llvm::find(inputNames, kv.first) - inputNames.begin();
    if (values[i])
      return raiseDefinite(
          "TypeError", what + ": argument '" + kv.first.str() + "' given twice",
          at);
    values[i] = std::make_pair(kv.second,
                               k < args.kwNodes.size() ? args.kwNodes[k] : at);
  }
  llvm::SmallVector<std::string, 2> missing;
  for (auto [i, v] : llvm::enumerate(values))
    if (!v)
      missing.push_back(inputNames[i]);
  if (!missing.empty()) {
    llvm::SmallVector<std::string, 2> outs;
    for (unsigned o : sig.outputs)
      outs.push_back(sig.params[o].name);
    std::string hint = outs.empty() ? ""
                                    : "; outputs " + llvm::join(outs, ", ") +
                                          " are allocated by the kernel";
    return raiseDefinite(
        "TypeError",
        what + " is missing argument(s) " + llvm::join(missing, ", ") +
            " (inputs: " + llvm::join(inputNames, ", ") + hint + ")",
        at);
  }

  // Each tensor argument, inputs then given outputs, as far as tlc knows
  // it: not a tensor at all, another dtype, other known sizes.
  auto check = [&](const KernelParamSig &p, Value v, Node n,
                   bool output) -> bool {
    if (!p.tensor)
      return true;
    std::string arg = "argument '" + p.name + "' of " + what;
    // None for an input is TileLang's null tensor (a null pointer), which
    // is accepted; an output buffer must be one.
    if ((output && v.isNone()) || v.isIntLike() || v.is(ValueKind::Float) ||
        v.isStr()) {
      llvm::StringRef type = v.isNone() ? "NoneType" : v.getTypeName();
      raiseDefinite("TypeError", arg + " must be a tensor, got " + type, n);
      return false;
    }
    if (!v.is(ValueKind::Opaque))
      return true;
    // Command-line bindings (-D) rebind the instance's parameters while the
    // module's own code still makes its tensors from the file's constants:
    // their dtypes and sizes say nothing about the instance being built.
    if (!options.defines.empty())
      return true;
    // Only dtypes torch stores one element a unit of: packed, sub-byte and
    // float8 parameters take other storage (uint8 words, e4m3 as e4m3fn).
    if (!isPlainTorchDType(p.dtype))
      return true;
    auto *t = v.as<OpaqueObj>();
    // A dtype tlc analysed as float32 in place of one it could not
    // evaluate says nothing about the tensor the call passes.
    std::optional<lang::DType> dt = torchTensorDType(t);
    if (!p.assumedDType && dt && isPlainTorchDType(*dt) && *dt != p.dtype) {
      raiseDefinite("TypeError",
                    arg + " must have dtype " + p.dtype.getName() +
                        ", got torch." + dt->getName(),
                    n);
      return false;
    }
    if (!t->hasShape || llvm::any_of(p.shape, [](auto d) { return !d; }))
      return true;
    llvm::SmallVector<std::optional<int64_t>, 4> got;
    for (Value d : t->shape)
      got.push_back(d.isIntLike() ? std::optional<int64_t>(d.getInt())
                                  : std::nullopt);
    // TileLang's adapter checks the dimensions the parameter declares: a
    // (n, 1) tensor passes for (n,).
    llvm::ArrayRef<std::optional<int64_t>> compared = got;
    if (got.size() > p.shape.size() &&
        llvm::all_of(compared.drop_front(p.shape.size()),
                     [](auto d) { return d && *d == 1; }))
      compared = compared.take_front(p.shape.size());
    bool differs = compared.size() != p.shape.size();
    for (size_t i = 0; !differs && i < compared.size(); ++i)
      differs = compared[i] && *compared[i] != *p.shape[i];
    if (differs) {
      raiseDefinite("ValueError",
                    arg + " must have shape " + formatShape(p.shape) +
                        ", got " + formatShape(got),
                    n);
      return false;
    }
    return true;
  };
  for (auto [i, v] : llvm::enumerate(values))
    if (!check(sig.params[inputs[i]], v->first, v->second, false))
      return Value::exception();
  for (auto &[index, buffer] : provided)
    if (!check(sig.params[index], buffer, at, true))
      return Value::exception();

  // The outputs: the caller's buffers, or new tensors of the parameters'
  // shapes.
  // A kernel without outputs (no out_idx) returns None, as the tlc
  // package's and TileLang's adapters do.
  if (sig.outputs.empty())
    return Value::none();
  llvm::SmallVector<Value, 2> results;
  for (unsigned o : sig.outputs) {
    auto given = llvm::find_if(provided, [&](auto &p) { return p.first == o; });
    if (given != provided.end()) {
      results.push_back(given->second);
      continue;
    }
    // A parameter whose tensor type the signature did not record (one
    // annotated in the body of the function): a tensor of unknown shape,
    // not a 0-d one.
    if (!sig.params[o].tensor) {
      results.push_back(heap.opaque("torch tensor"));
      continue;
    }
    llvm::SmallVector<Value, 4> dims;
    for (std::optional<int64_t> d : sig.params[o].shape)
      dims.push_back(d ? Value::integer(*d) : Value::poison());
    Value t = torchTensor(dims);
    torchDTypes[t.as<OpaqueObj>()] = sig.params[o].dtype;
    results.push_back(t);
  }
  if (results.size() == 1)
    return results.front();
  return heap.list(results);
}
