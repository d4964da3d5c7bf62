//===- TorchShapes.cpp - The shapes of torch tensors at trace time --------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// tlc does not run torch, but the sizes of a kernel often come from the
// tensors a script makes before it calls the kernel (`B, S, H, D =
// q.shape`, `len(cu_seqlens) - 1`). A torch tensor is an opaque value with
// a shape: one entry per dimension, an int where tlc knows the size and an
// opaque value where it does not (a size read from data). The factories
// (torch.randn, arange, linspace, randperm, tensor, cat, stack, the
// *_like ones), the methods that reshape (view, reshape, expand, permute,
// transpose, unsqueeze, squeeze, flatten, repeat, sort, topk, reductions
// over a dimension) and indexing (ints, slices, None, ..., index tensors)
// give their results' shapes by torch's rules, as do the functions of the
// same names (torch.topk(x, k)), torch.einsum, torch.where and
// torch.nn.functional's activations and pad; sort, topk and max/min over a
// dimension return torch's (values, indices) named tuple. The other
// methods keep the shape or give an opaque value.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace tlc;
using namespace tlc::eval;

/// The shaped tensor \p v is, or null.
static OpaqueObj *shapedTensor(Value v) {
  if (!v.is(ValueKind::Opaque))
    return nullptr;
  auto *o = v.as<OpaqueObj>();
  return o->hasShape ? o : nullptr;
}

Value Interpreter::torchTensor(llvm::ArrayRef<Value> shape) {
  auto *o = heap.make<OpaqueObj>();
  o->description = "torch tensor";
  for (Value d : shape)
    o->shape.push_back(d.isIntLike() && !d.isBool()
                           ? Value::integer(d.getInt())
                           : heap.opaque("tensor size"));
  o->hasShape = true;
  return Value::object(ValueKind::Opaque, o);
}

/// The sizes \p args give a factory or a method (`f(2, 3)`, `f((2, 3))`,
/// `f([2, 3])`, `f(torch.Size)`); empty when there are none.
static llvm::SmallVector<Value, 4> sizesOf(llvm::ArrayRef<Value> args) {
  if (args.size() == 1 && args[0].isSequence())
    return llvm::SmallVector<Value, 4>(getElems(args[0]));
  return llvm::SmallVector<Value, 4>(args);
}

/// A dimension index \p d (negative from the end) of a rank \p rank shape;
/// nullopt when it is not a valid one.
static std::optional<unsigned> dimIndex(Value d, size_t rank) {
  if (!d.isIntLike())
    return std::nullopt;
  int64_t i = d.getInt();
  if (i < 0)
    i += int64_t(rank);
  if (i < 0 || i >= int64_t(rank))
    return std::nullopt;
  return unsigned(i);
}

/// The shape of a nested list of numbers (torch.tensor's data).
static void dataShape(Value v, llvm::SmallVectorImpl<Value> &out) {
  while (v.is(ValueKind::List) || v.is(ValueKind::Tuple)) {
    llvm::ArrayRef<Value> elems = getElems(v);
    out.push_back(Value::integer(int64_t(elems.size())));
    if (elems.empty())
      return;
    v = elems[0];
  }
}

static bool keepsShape(llvm::StringRef name);
static bool reshapes(llvm::StringRef name);

Value Interpreter::withDType(Value t, const Value *dtype,
                             std::optional<lang::DType> inherited) {
  std::optional<lang::DType> dt = inherited;
  if (dtype) {
    dt = std::nullopt;
    if (dtype->is(ValueKind::Opaque))
      dt = lang::DType::parseTorch(dtype->as<OpaqueObj>()->description);
  }
  if (dt)
    torchDTypes[t.as<OpaqueObj>()] = *dt;
  return t;
}

std::optional<Value> Interpreter::callTorchFactory(llvm::StringRef d,
                                                   CallArgs &args, Node at) {
  (void)at;
  if (!d.consume_front("torch."))
    return std::nullopt;
  const Value *size = args.keyword("size");
  llvm::ArrayRef<Value> pos = args.pos;
  // torch.randn(2, 3), torch.zeros((2, 3)), torch.full((2, 3), v),
  // torch.randint(low, high, (2, 3)), any of them with size=.
  if (d == "randn" || d == "rand" || d == "empty" || d == "zeros" ||
      d == "ones" || d == "full" || d == "randint" || d == "empty_strided") {
    if (d == "randint")
      pos = pos.drop_front(std::min<size_t>(pos.size(), 2));
    if (d == "full" || d == "empty_strided")
      pos = pos.take_front(1);
    llvm::SmallVector<Value, 4> dims =
        size ? sizesOf(*size) : sizesOf(pos);
    if (d == "randint" && !size && args.pos.size() == 2)
      dims = sizesOf(args.pos[1]);
    if (llvm::any_of(dims, [](Value v) { return v.isSequence(); }))
      return std::nullopt;
    // Without dtype=: torch's default dtype (float32 unless
    // torch.set_default_dtype changed it), int64 for randint, and for
    // full that of its fill value.
    std::optional<lang::DType> dflt = torchDefaultDType;
    if (d == "randint")
      dflt = lang::DType(lang::ScalarType::Int64);
    if (d == "full") {
      Value fill = args.pos.size() > 1 ? args.pos[1] : Value::poison();
      if (const Value *k = args.keyword("fill_value"))
        fill = *k;
      if (fill.isBool())
        dflt = lang::DType(lang::ScalarType::Bool);
      else if (fill.isInt())
        dflt = lang::DType(lang::ScalarType::Int64);
      else if (!fill.isFloat())
        dflt = std::nullopt;
    }
    return withDType(torchTensor(dims), args.keyword("dtype"), dflt);
  }
  if (d.ends_with("_like") && !pos.empty()) {
    if (OpaqueObj *t = shapedTensor(pos[0]))
      return withDType(torchTensor(t->shape), args.keyword("dtype"),
                       torchTensorDType(t));
    return std::nullopt;
  }
  if (d == "randperm" && !pos.empty())
    return torchTensor({pos[0]});
  if (d == "linspace" || d == "logspace") {
    const Value *steps = args.keyword("steps");
    if (!steps && pos.size() < 3)
      return std::nullopt;
    return torchTensor({steps ? *steps : pos[2]});
  }
  if (d == "arange") {
    Value start = Value::integer(0), end = pos.empty() ? Value() : pos[0],
          step = Value::integer(1);
    if (pos.size() >= 2) {
      start = pos[0];
      end = pos[1];
    }
    if (pos.size() >= 3)
      step = pos[2];
    if (const Value *e = args.keyword("end"))
      end = *e;
    if (const Value *s = args.keyword("start"))
      start = *s;
    if (const Value *s = args.keyword("step"))
      step = *s;
    if (start.isIntLike() && end.isIntLike() && step.isIntLike() &&
        step.getInt() != 0) {
      int64_t a = start.getInt(), b = end.getInt(), s = step.getInt();
      int64_t n = s > 0 ? (b - a + s - 1) / s : (a - b - s - 1) / -s;
      return torchTensor({Value::integer(std::max<int64_t>(n, 0))});
    }
    return torchTensor({Value::poison()});
  }
  if ((d == "tensor" || d == "as_tensor") && !pos.empty()) {
    llvm::SmallVector<Value, 4> dims;
    if (OpaqueObj *t = shapedTensor(pos[0]))
      dims.assign(t->shape.begin(), t->shape.end());
    else if (pos[0].isSequence())
      dataShape(pos[0], dims);
    else if (!pos[0].isNumber())
      return std::nullopt;
    return torchTensor(dims);
  }
  bool cat = d == "cat" || d == "concat" || d == "concatenate";
  if ((cat || d == "stack") && !pos.empty() && pos[0].isSequence()) {
    llvm::SmallVector<OpaqueObj *, 4> parts;
    for (Value v : getElems(pos[0])) {
      OpaqueObj *t = shapedTensor(v);
      if (!t)
        return std::nullopt;
      parts.push_back(t);
    }
    if (parts.empty())
      return std::nullopt;
    Value dimV = pos.size() > 1 ? pos[1] : Value::integer(0);
    if (const Value *k = args.keyword("dim"))
      dimV = *k;
    llvm::SmallVector<Value, 4> shape(parts[0]->shape);
    if (!cat) {
      std::optional<unsigned> dim = dimIndex(dimV, shape.size() + 1);
      if (!dim)
        return std::nullopt;
      shape.insert(shape.begin() + *dim,
                   Value::integer(int64_t(parts.size())));
      return torchTensor(shape);
    }
    std::optional<unsigned> dim = dimIndex(dimV, shape.size());
    if (!dim)
      return std::nullopt;
    int64_t total = 0;
    bool known = true;
    for (OpaqueObj *t : parts) {
      if (t->shape.size() != shape.size())
        return std::nullopt;
      known &= t->shape[*dim].isIntLike();
      if (known)
        total += t->shape[*dim].getInt();
    }
    shape[*dim] = known ? Value::integer(total) : Value::poison();
    return torchTensor(shape);
  }
  if (d == "einsum")
    return einsumShape(args);
  if (d == "where" && pos.size() == 3) {
    // torch.where(cond, a, b): the three operands broadcast; numbers do
    // not take part.
    std::optional<llvm::SmallVector<Value, 4>> shape;
    for (Value v : pos) {
      if (v.isNumber())
        continue;
      OpaqueObj *t = shapedTensor(v);
      if (!t)
        return std::nullopt;
      shape = shape ? broadcastShapes(*shape, t->shape)
                    : std::optional<llvm::SmallVector<Value, 4>>(
                          llvm::SmallVector<Value, 4>(t->shape));
      if (!shape)
        return std::nullopt;
    }
    if (shape)
      return torchTensor(*shape);
    return std::nullopt;
  }
  OpaqueObj *first = pos.empty() ? nullptr : shapedTensor(pos[0]);
  if (!first)
    return std::nullopt;
  // torch.nn.functional: the elementwise activations and normalisations
  // keep their input's shape; pad grows the last dimensions.
  if (d.consume_front("nn.functional.")) {
    if (d == "pad")
      return padShape(first, args);
    if (keepsShape(d) ||
        llvm::is_contained({"gelu", "silu", "dropout", "normalize",
                            "leaky_relu", "elu", "softplus", "layer_norm",
                            "rms_norm", "hardtanh", "mish", "logsigmoid"},
                           d))
      return torchTensor(first->shape);
    return std::nullopt;
  }
  // The functions that are also tensor methods (`torch.topk(x, k, -1)`,
  // `torch.sum(x, 2)`): the method's result, with the first argument as
  // the receiver.
  if (keepsShape(d) || reshapes(d)) {
    CallArgs rest = args;
    rest.pos.erase(rest.pos.begin());
    if (!rest.posNodes.empty())
      rest.posNodes.erase(rest.posNodes.begin());
    return callTensorMethod(first, d, rest, at);
  }
  return std::nullopt;
}

Value Interpreter::einsumShape(CallArgs &args) {
  // `torch.einsum("bhmk, bhnk -> bhmn", a, b)`: each output letter takes
  // the size its first operand with that letter has.
  llvm::ArrayRef<Value> pos = args.pos;
  if (pos.empty() || !pos[0].isStr())
    return heap.opaque("torch tensor");
  llvm::StringRef spec = getStr(pos[0]);
  auto [ins, out] = spec.split("->");
  if (!spec.contains("->") || spec.contains("..."))
    return heap.opaque("torch tensor");
  llvm::SmallVector<llvm::StringRef, 4> operands;
  ins.split(operands, ',');
  if (operands.size() != pos.size() - 1)
    return heap.opaque("torch tensor");
  llvm::DenseMap<char, Value> sizes;
  for (auto [i, o] : llvm::enumerate(operands)) {
    OpaqueObj *t = shapedTensor(pos[i + 1]);
    std::string letters;
    for (char c : o)
      if (llvm::isAlpha(c))
        letters += c;
    if (!t || letters.size() != t->shape.size())
      return heap.opaque("torch tensor");
    for (auto [j, c] : llvm::enumerate(letters))
      if (!sizes.count(c) || !sizes[c].isIntLike())
        sizes[c] = t->shape[j];
  }
  llvm::SmallVector<Value, 4> shape;
  for (char c : out) {
    if (!llvm::isAlpha(c))
      continue;
    auto it = sizes.find(c);
    if (it == sizes.end())
      return heap.opaque("torch tensor");
    shape.push_back(it->second);
  }
  return torchTensor(shape);
}

Value Interpreter::padShape(OpaqueObj *t, CallArgs &args) {
  // torch.nn.functional.pad(x, [l0, r0, l1, r1, ...]): pair i pads
  // dimension -1 - i on both sides.
  Value p = args.positional(1, Value::none());
  if (const Value *k = args.keyword("pad"))
    p = *k;
  if (!p.isSequence() || getElems(p).size() % 2 ||
      getElems(p).size() / 2 > t->shape.size())
    return heap.opaque("torch tensor");
  llvm::ArrayRef<Value> amounts = getElems(p);
  llvm::SmallVector<Value, 4> shape(t->shape);
  for (size_t i = 0; i < amounts.size() / 2; ++i) {
    Value &dim = shape[shape.size() - 1 - i];
    Value l = amounts[2 * i], r = amounts[2 * i + 1];
    dim = dim.isIntLike() && l.isIntLike() && r.isIntLike()
              ? Value::integer(dim.getInt() + l.getInt() + r.getInt())
              : Value::poison();
  }
  return torchTensor(shape);
}

/// Whether tensor method \p name returns a tensor of its receiver's shape.
static bool keepsShape(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"to", "cuda", "cpu", "contiguous", "half", "float", "double",
              "bfloat16", "int", "long", "bool", "clone", "detach",
              "requires_grad_", "normal_", "uniform_", "zero_", "fill_",
              "random_", "exponential_", "copy_", "type", "abs", "exp",
              "neg", "sqrt", "rsqrt", "relu", "sigmoid", "tanh", "softmax",
              "log_softmax", "masked_fill", "masked_fill_", "clamp",
              "clamp_", "pin_memory", "share_memory_", "float_", "add",
              "sub", "mul", "div", "add_", "sub_", "mul_", "div_", "pow",
              "log", "log2", "exp2", "round", "floor", "ceil", "sign"},
             true)
      .Default(false);
}

/// Whether \p name is a tensor method whose result's shape this file
/// computes.
static bool reshapes(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"view", "reshape", "expand", "expand_as", "view_as",
              "reshape_as", "repeat", "transpose", "swapaxes", "t",
              "permute", "unsqueeze", "squeeze", "flatten", "size", "dim",
              "ndimension", "numel", "sort", "topk", "sum", "mean", "amax",
              "amin", "max", "min", "argmax", "argmin", "prod",
              "as_strided"},
             true)
      .Default(false);
}

std::optional<Value> Interpreter::tensorAttr(OpaqueObj *t,
                                             llvm::StringRef attr) {
  if (attr == "shape")
    return heap.tuple(t->shape);
  if (attr == "ndim")
    return Value::integer(int64_t(t->shape.size()));
  if (attr == "T" || attr == "mT") {
    llvm::SmallVector<Value, 4> s(t->shape.rbegin(), t->shape.rend());
    if (attr == "mT" && t->shape.size() >= 2) {
      s.assign(t->shape.begin(), t->shape.end());
      std::swap(s[s.size() - 1], s[s.size() - 2]);
    }
    return torchTensor(s);
  }
  // `x.dtype` of a tensor whose dtype is known: the torch dtype by its
  // canonical name, so `{torch.bfloat16: "bfloat16"}[x.dtype]` picks the
  // kernel's dtype (a kernel factory called from an autograd forward).
  if (attr == "dtype") {
    std::optional<lang::DType> dt = torchTensorDType(t);
    if (!dt)
      return std::nullopt;
    std::string name = "torch." + dt->getName();
    if (!lang::DType::parseTorch(name))
      return std::nullopt;
    return heap.opaque(heap.copyString(name));
  }
  if (attr == "grad" || attr == "data")
    return torchTensor(t->shape);
  if (!keepsShape(attr) && !reshapes(attr))
    return std::nullopt;
  auto *m = heap.make<OpaqueObj>();
  m->description = heap.copyString(("tensor method:" + attr).str());
  m->shape = t->shape;
  m->hasShape = true;
  // The bound method carries its receiver's dtype to callTensorMethod.
  if (std::optional<lang::DType> dt = torchTensorDType(t))
    torchDTypes[m] = *dt;
  return Value::object(ValueKind::Opaque, m);
}

/// The torch dtype \p v is (`torch.float16`, `T.float16.as_torch()`), if
/// it is one.
static std::optional<lang::DType> torchDTypeValue(Value v) {
  if (!v.is(ValueKind::Opaque))
    return std::nullopt;
  llvm::StringRef d = v.as<OpaqueObj>()->description;
  if (!d.starts_with("torch."))
    return std::nullopt;
  return lang::DType::parseTorch(d);
}

/// The dtype of what the shape-keeping tensor method \p name returns for a
/// receiver of dtype \p self (when known): the conversions (`half()`,
/// `float()`, `to(torch.bfloat16)`, `to(other)`, `type(torch.int32)`) give
/// theirs; moves, copies, in-place updates and the elementwise functions
/// that keep a float's type keep the receiver's. nullopt where torch's
/// promotion would need more than this (a binary operation).
static std::optional<lang::DType>
keptDType(llvm::StringRef name, std::optional<lang::DType> self,
          const CallArgs &args,
          llvm::function_ref<std::optional<lang::DType>(Value)> tensorDType) {
  if (llvm::is_contained({"half", "float", "double", "bfloat16", "int", "long",
                          "bool", "short"},
                         name))
    return lang::DType::parseTorch(name);
  if (name == "to" || name == "type") {
    if (const Value *k = args.keyword("dtype"))
      return torchDTypeValue(*k);
    for (Value a : args.pos) {
      if (std::optional<lang::DType> dt = torchDTypeValue(a))
        return dt;
      // `x.to(other)`: other's dtype (and device).
      if (a.is(ValueKind::Opaque) && a.as<OpaqueObj>()->hasShape)
        return tensorDType(a);
    }
    // `x.to("cuda")`, `x.to(device="cuda")`: the dtype stays. An argument
    // tlc cannot read (`x.to(map_torch_type(d))`) may be a dtype: unknown.
    // `x.type()` with no argument returns a string, not a tensor.
    if (name == "to" && llvm::all_of(args.pos, [](Value a) {
          return a.isStr() || a.isNone() || a.isBool();
        }))
      return self;
    return std::nullopt;
  }
  if (llvm::is_contained({"cuda",        "cpu",          "contiguous",
                          "clone",       "detach",       "requires_grad_",
                          "normal_",     "uniform_",     "zero_",
                          "fill_",       "random_",      "exponential_",
                          "copy_",       "pin_memory",   "share_memory_",
                          "masked_fill", "masked_fill_", "clamp",
                          "clamp_",      "add_",         "sub_",
                          "mul_",        "div_",         "abs",
                          "neg",         "relu"},
                         name))
    return self;
  if (self && self->isFloat() &&
      llvm::is_contained({"exp", "exp2", "log", "log2", "sqrt", "rsqrt",
                          "sigmoid", "tanh", "softmax", "log_softmax", "round",
                          "floor", "ceil", "sign"},
                         name))
    return self;
  return std::nullopt;
}

/// The shape torch's view / reshape give \p shape for \p sizes (one -1
/// takes what the others leave); nullopt when the sizes are not ints.
static std::optional<llvm::SmallVector<Value, 4>>
viewShape(llvm::ArrayRef<Value> shape, llvm::ArrayRef<Value> sizes) {
  int64_t known = 1;
  bool allKnown = true;
  for (Value d : shape) {
    allKnown &= d.isIntLike();
    if (d.isIntLike())
      known *= d.getInt();
  }
  llvm::SmallVector<Value, 4> out;
  int inferred = -1;
  int64_t rest = 1;
  for (auto [i, s] : llvm::enumerate(sizes)) {
    if (s.isIntLike() && s.getInt() == -1) {
      inferred = int(i);
      out.push_back(Value::poison());
      continue;
    }
    if (s.isIntLike())
      rest *= s.getInt();
    else
      allKnown = false;
    out.push_back(s);
  }
  if (inferred >= 0)
    out[inferred] = allKnown && rest != 0 && known % rest == 0
                        ? Value::integer(known / rest)
                        : Value::poison();
  return out;
}

Value Interpreter::callTensorMethod(OpaqueObj *m, llvm::StringRef name,
                                    CallArgs &args, Node at) {
  (void)at;
  llvm::ArrayRef<Value> shape = m->shape;
  llvm::ArrayRef<Value> pos = args.pos;
  size_t rank = shape.size();
  if (keepsShape(name)) {
    Value r = torchTensor(shape);
    auto tensorDType = [&](Value v) {
      return torchTensorDType(v.as<OpaqueObj>());
    };
    if (std::optional<lang::DType> dt =
            keptDType(name, torchTensorDType(m), args, tensorDType))
      torchDTypes[r.as<OpaqueObj>()] = *dt;
    return r;
  }
  auto dimArg = [&](unsigned i, size_t r) -> std::optional<unsigned> {
    if (const Value *k = args.keyword("dim"))
      return dimIndex(*k, r);
    return i < pos.size() ? dimIndex(pos[i], r) : std::nullopt;
  };
  if (name == "view" || name == "reshape") {
    // view(dtype) reinterprets the elements: the shape tlc cannot say.
    if (pos.size() == 1 && pos[0].is(ValueKind::Opaque) &&
        !shapedTensor(pos[0]))
      return heap.opaque("torch tensor");
    if (std::optional<llvm::SmallVector<Value, 4>> s =
            viewShape(shape, sizesOf(pos)))
      return torchTensor(*s);
    return heap.opaque("torch tensor");
  }
  if (name == "as_strided") {
    // as_strided(size, stride): a view of the given size.
    Value size = args.positional(0, Value::none());
    if (const Value *k = args.keyword("size"))
      size = *k;
    if (!size.isSequence())
      return heap.opaque("torch tensor");
    return torchTensor(getElems(size));
  }
  if (name == "expand_as" || name == "view_as" || name == "reshape_as") {
    if (OpaqueObj *o = pos.empty() ? nullptr : shapedTensor(pos[0]))
      return torchTensor(o->shape);
    return heap.opaque("torch tensor");
  }
  if (name == "expand") {
    llvm::SmallVector<Value, 4> sizes = sizesOf(pos);
    if (sizes.size() < rank)
      return heap.opaque("torch tensor");
    llvm::SmallVector<Value, 4> out(sizes);
    size_t lead = sizes.size() - rank;
    for (size_t i = lead; i < sizes.size(); ++i)
      if (sizes[i].isIntLike() && sizes[i].getInt() == -1)
        out[i] = shape[i - lead];
    return torchTensor(out);
  }
  if (name == "repeat") {
    llvm::SmallVector<Value, 4> reps = sizesOf(pos);
    if (reps.size() < rank)
      return heap.opaque("torch tensor");
    llvm::SmallVector<Value, 4> out(reps);
    size_t lead = reps.size() - rank;
    for (size_t i = lead; i < reps.size(); ++i) {
      Value d = shape[i - lead];
      out[i] = d.isIntLike() && reps[i].isIntLike()
                   ? Value::integer(d.getInt() * reps[i].getInt())
                   : Value::poison();
    }
    return torchTensor(out);
  }
  if (name == "transpose" || name == "swapaxes" || name == "t") {
    std::optional<unsigned> a = name == "t" ? std::optional<unsigned>(0)
                                            : dimArg(0, rank);
    std::optional<unsigned> b = name == "t" ? std::optional<unsigned>(1)
                                            : dimIndex(pos.size() > 1
                                                           ? pos[1]
                                                           : Value::poison(),
                                                       rank);
    if (name == "t" && rank < 2)
      return torchTensor(shape);
    if (!a || !b || *a >= rank || *b >= rank)
      return heap.opaque("torch tensor");
    llvm::SmallVector<Value, 4> out(shape);
    std::swap(out[*a], out[*b]);
    return torchTensor(out);
  }
  if (name == "permute") {
    llvm::SmallVector<Value, 4> dims = sizesOf(pos);
    if (dims.size() != rank)
      return heap.opaque("torch tensor");
    llvm::SmallVector<Value, 4> out;
    for (Value d : dims) {
      std::optional<unsigned> i = dimIndex(d, rank);
      if (!i)
        return heap.opaque("torch tensor");
      out.push_back(shape[*i]);
    }
    return torchTensor(out);
  }
  if (name == "unsqueeze") {
    std::optional<unsigned> d = dimArg(0, rank + 1);
    if (!d)
      return heap.opaque("torch tensor");
    llvm::SmallVector<Value, 4> out(shape);
    out.insert(out.begin() + *d, Value::integer(1));
    return torchTensor(out);
  }
  if (name == "squeeze") {
    llvm::SmallVector<Value, 4> out;
    std::optional<unsigned> only;
    if (!pos.empty() || args.keyword("dim")) {
      only = dimArg(0, rank);
      if (!only)
        return heap.opaque("torch tensor");
    }
    for (auto [i, d] : llvm::enumerate(shape)) {
      bool one = d.isIntLike() && d.getInt() == 1;
      if (!d.isIntLike() && (!only || *only == i))
        return heap.opaque("torch tensor");
      if (one && (!only || *only == i))
        continue;
      out.push_back(d);
    }
    return torchTensor(out);
  }
  if (name == "flatten") {
    Value s = pos.size() > 0 ? pos[0] : Value::integer(0);
    Value e = pos.size() > 1 ? pos[1] : Value::integer(-1);
    std::optional<unsigned> a = dimIndex(s, std::max<size_t>(rank, 1)),
                            b = dimIndex(e, std::max<size_t>(rank, 1));
    if (!a || !b || *a > *b)
      return heap.opaque("torch tensor");
    if (rank == 0)
      return torchTensor({Value::integer(1)});
    llvm::SmallVector<Value, 4> out(shape.begin(), shape.begin() + *a);
    int64_t n = 1;
    bool known = true;
    for (unsigned i = *a; i <= *b; ++i) {
      known &= shape[i].isIntLike();
      if (known)
        n *= shape[i].getInt();
    }
    out.push_back(known ? Value::integer(n) : Value::poison());
    out.append(shape.begin() + *b + 1, shape.end());
    return torchTensor(out);
  }
  if (name == "size") {
    if (pos.empty() && !args.keyword("dim"))
      return heap.tuple(shape);
    std::optional<unsigned> d = dimArg(0, rank);
    return d ? shape[*d] : heap.opaque("tensor size");
  }
  if (name == "dim" || name == "ndimension")
    return Value::integer(int64_t(rank));
  if (name == "numel") {
    int64_t n = 1;
    for (Value d : shape) {
      if (!d.isIntLike())
        return heap.opaque("tensor size");
      n *= d.getInt();
    }
    return Value::integer(n);
  }
  if (name == "sort")
    return valuesIndices(torchTensor(shape), torchTensor(shape));
  if (name == "topk") {
    std::optional<unsigned> d =
        dimIndex(pos.size() > 1 ? pos[1]
                 : args.keyword("dim") ? *args.keyword("dim")
                                       : Value::integer(-1),
                 rank);
    Value k = !pos.empty() ? pos[0]
              : args.keyword("k") ? *args.keyword("k")
                                  : Value::poison();
    if (!d)
      return heap.opaque("torch tensor");
    llvm::SmallVector<Value, 4> out(shape);
    out[*d] = k;
    return valuesIndices(torchTensor(out), torchTensor(out));
  }
  // Reductions: over everything (a 0-d tensor), or over `dim` (kept with
  // extent 1 under keepdim=True); max / min over a dim give (values,
  // indices).
  std::optional<unsigned> d = dimArg(0, rank);
  bool hasDim = !pos.empty() || args.keyword("dim");
  if (hasDim && !d)
    return heap.opaque("torch tensor");
  const Value *keep = args.keyword("keepdim");
  bool keepDim = (keep && keep->isBool() && keep->getBool()) ||
                 (pos.size() > 1 && pos[1].isBool() && pos[1].getBool());
  llvm::SmallVector<Value, 4> out;
  if (hasDim) {
    out.assign(shape.begin(), shape.end());
    if (keepDim)
      out[*d] = Value::integer(1);
    else
      out.erase(out.begin() + *d);
  }
  Value r = torchTensor(out);
  if (hasDim && (name == "max" || name == "min"))
    return valuesIndices(r, torchTensor(out));
  return r;
}

Value Interpreter::valuesIndices(Value values, Value indices) {
  static constexpr llvm::StringLiteral fields[] = {"values", "indices"};
  Value r = heap.tuple({values, indices});
  r.as<SeqObj>()->fieldNames = fields;
  return r;
}

Value Interpreter::tensorItem(OpaqueObj *t, Value idx) {
  llvm::SmallVector<Value, 4> items;
  if (idx.is(ValueKind::Tuple))
    items.assign(getElems(idx).begin(), getElems(idx).end());
  else
    items.push_back(idx);
  // The dimensions the index consumes (an ellipsis takes the others).
  size_t consumed = 0;
  for (Value v : items)
    if (!v.isNone() && !v.is(ValueKind::Ellipsis)) {
      OpaqueObj *ix = shapedTensor(v);
      consumed += ix && ix->shape.size() > 1 &&
                          ix->shape.size() <= t->shape.size() &&
                          llvm::equal(ix->shape,
                                      llvm::ArrayRef<Value>(t->shape).take_front(
                                          ix->shape.size()),
                                      [](Value a, Value b) {
                                        return a.isIntLike() &&
                                               b.isIntLike() &&
                                               a.getInt() == b.getInt();
                                      })
                      ? ix->shape.size()
                      : 1;
    }
  if (consumed > t->shape.size())
    return heap.opaque("element");
  llvm::SmallVector<Value, 4> out;
  size_t d = 0;
  for (Value v : items) {
    if (v.isNone()) {
      out.push_back(Value::integer(1));
      continue;
    }
    if (v.is(ValueKind::Ellipsis)) {
      size_t n = t->shape.size() - consumed;
      out.append(t->shape.begin() + d, t->shape.begin() + d + n);
      d += n;
      consumed = t->shape.size();
      continue;
    }
    Value dim = t->shape[d];
    if (v.is(ValueKind::Slice)) {
      auto *s = v.as<SliceObj>();
      bool bounded = (s->lower.isNone() || s->lower.isIntLike()) &&
                     (s->upper.isNone() || s->upper.isIntLike()) &&
                     (s->step.isNone() || s->step.isIntLike());
      int64_t start, stop, step;
      if (dim.isIntLike() && bounded &&
          sliceBounds(s, dim.getInt(), start, stop, step))
        out.push_back(Value::integer(
            step > 0 ? std::max<int64_t>(0, (stop - start + step - 1) / step)
                     : std::max<int64_t>(0,
                                         (start - stop - step - 1) / -step)));
      else if (s->lower.isNone() && s->upper.isNone() && s->step.isNone())
        out.push_back(dim);
      else
        out.push_back(Value::poison());
      ++d;
      continue;
    }
    if (OpaqueObj *ix = shapedTensor(v)) {
      // A boolean mask of the leading dimensions selects an unknown number
      // of their elements; an index tensor puts its own shape there.
      bool mask = ix->shape.size() > 1 &&
                  ix->shape.size() <= t->shape.size() - d &&
                  llvm::equal(ix->shape,
                              llvm::ArrayRef<Value>(t->shape)
                                  .slice(d, ix->shape.size()),
                              [](Value a, Value b) {
                                return a.isIntLike() && b.isIntLike() &&
                                       a.getInt() == b.getInt();
                              });
      if (mask) {
        out.push_back(Value::poison());
        d += ix->shape.size();
      } else {
        out.append(ix->shape.begin(), ix->shape.end());
        ++d;
      }
      continue;
    }
    if (v.is(ValueKind::List)) {
      out.push_back(Value::integer(int64_t(getElems(v).size())));
      ++d;
      continue;
    }
    if (v.isIntLike() || v.is(ValueKind::Sym) || v.is(ValueKind::Opaque)) {
      ++d;
      continue;
    }
    return heap.opaque("element");
  }
  out.append(t->shape.begin() + d, t->shape.end());
  return torchTensor(out);
}

std::optional<llvm::SmallVector<Value, 4>>
tlc::eval::broadcastShapes(llvm::ArrayRef<Value> a, llvm::ArrayRef<Value> b) {
  size_t rank = std::max(a.size(), b.size());
  llvm::SmallVector<Value, 4> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    std::optional<Value> x, y;
    if (i < a.size())
      x = a[a.size() - 1 - i];
    if (i < b.size())
      y = b[b.size() - 1 - i];
    auto isOne = [](std::optional<Value> v) {
      return !v || (v->isIntLike() && v->getInt() == 1);
    };
    Value r;
    if (isOne(x))
      r = y ? *y : Value::integer(1);
    else if (isOne(y))
      r = *x;
    else if (x->isIntLike() && y->isIntLike()) {
      if (x->getInt() != y->getInt())
        return std::nullopt;
      r = *x;
    } else {
      r = x->isIntLike() ? *x : *y;
    }
    out[rank - 1 - i] = r;
  }
  return out;
}
