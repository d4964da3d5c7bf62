//===- StaticAnalyzer.cpp - Buffer facts read off the syntax tree ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The analyzer used when the evaluator is not available: it finds kernels,
// tensor parameters, `T.alloc_*` buffers, `T.Kernel` launches and
// `T.Pipelined` loops, and folds integer constants it can see (module
// constants, parameter defaults, simple assignments, `T.ceildiv`). Anything
// else stays symbolic: a shape prints as `[block_M, 32]`.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"
#include "Features.h"

#include "tlc/Lang/Builtins.h"
#include "tlc/Lang/DType.h"
#include "tlc/Lang/Scope.h"
#include "tlc/Syntax/SyntaxTree.h"

#include <map>

using namespace tlc;
using namespace tlc::lsp;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

Analyzer::~Analyzer() = default;

namespace {

/// A folded value: an integer, a string (dtype names), or unknown.
struct Value {
  enum class Kind { Unknown, Int, Str } kind = Kind::Unknown;
  int64_t i = 0;
  std::string s;
  static Value ofInt(int64_t v) { return Value{Kind::Int, v, {}}; }
  static Value ofStr(std::string v) { return Value{Kind::Str, 0, std::move(v)}; }
  bool isInt() const { return kind == Kind::Int; }
};

using Env = std::map<std::string, Value>;

/// Python floor division and modulo.
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

class StaticAnalysis {
public:
  StaticAnalysis(const syntax::SyntaxTree &tree, const CancelToken &token)
      : tree(tree), names(tree), token(token) {}

  AnalysisFacts run() {
    AnalysisFacts facts;
    facts.source = "tlc-static";
    Env env;
    visitBody(tree.root(), Field::body, env, facts);
    return facts;
  }

private:
  Value eval(Node e, const Env &env) const;
  void visitBody(Node parent, Field field, Env &env, AnalysisFacts &facts);
  void bindParameters(Node functionDef, Env &env);
  void analyzeKernel(Node functionDef, const std::string &decorator,
                     const Env &env, AnalysisFacts &facts);
  void collect(Node parent, Field field, Env &env, InstanceFact &instance,
               bool &symbolic, LaunchFact *launch);
  std::string shapeText(Node shape, const Env &env, bool &symbolic,
                        std::optional<int64_t> &elements) const;
  std::string dtypeText(Node dtype, const Env &env,
                        std::optional<lang::DType> &parsed) const;
  std::optional<BufferFact> tensorParam(Node arg, const Env &env,
                                        bool &symbolic) const;
  std::optional<BufferFact> allocation(Node assign, const Env &env,
                                       bool &symbolic) const;
  static Node argument(Node call, const lang::BuiltinInfo *info,
                       llvm::StringRef param);
  uint32_t afterColon(uint32_t offset) const;

  const syntax::SyntaxTree &tree;
  TileLangNames names;
  const CancelToken &token;
};

} // namespace

Value StaticAnalysis::eval(Node e, const Env &env) const {
  switch (e.kind()) {
  case NodeKind::Constant: {
    syntax::LiteralValue lit = e.literal();
    if (lit.kind == syntax::LiteralValue::Kind::Int && !lit.overflow)
      return Value::ofInt(lit.intValue);
    if (lit.kind == syntax::LiteralValue::Kind::Str)
      return Value::ofStr(lit.text);
    return Value();
  }
  case NodeKind::Name: {
    auto it = env.find(e.identifier().str());
    return it == env.end() ? Value() : it->second;
  }
  case NodeKind::Attribute: {
    std::string q = names.qualify(e);
    llvm::StringRef ref(q);
    if (ref.consume_front("T."))
      if (auto dtype = lang::DType::parseAttribute(ref))
        return Value::ofStr(dtype->getName());
    return Value();
  }
  case NodeKind::UnaryOp: {
    Value v = eval(e.child(Field::operand), env);
    if (!v.isInt())
      return Value();
    if (e.unaryOp() == syntax::UnaryOp::USub)
      return Value::ofInt(-v.i);
    if (e.unaryOp() == syntax::UnaryOp::UAdd)
      return v;
    return Value();
  }
  case NodeKind::BinOp: {
    Value l = eval(e.child(Field::left), env);
    Value r = eval(e.child(Field::right), env);
    if (!l.isInt() || !r.isInt())
      return Value();
    switch (e.op()) {
    case syntax::BinaryOp::Add:
      return Value::ofInt(l.i + r.i);
    case syntax::BinaryOp::Sub:
      return Value::ofInt(l.i - r.i);
    case syntax::BinaryOp::Mult:
      return Value::ofInt(l.i * r.i);
    case syntax::BinaryOp::FloorDiv:
      return r.i == 0 ? Value() : Value::ofInt(floorDiv(l.i, r.i));
    case syntax::BinaryOp::Mod:
      return r.i == 0 ? Value() : Value::ofInt(l.i - floorDiv(l.i, r.i) * r.i);
    case syntax::BinaryOp::LShift:
      return r.i < 0 || r.i > 62 ? Value() : Value::ofInt(l.i << r.i);
    default:
      return Value();
    }
  }
  case NodeKind::Call: {
    std::string q = names.qualify(e.child(Field::func));
    if (q == "T.ceildiv" || q == "tilelang.cdiv") {
      auto args = e.children(Field::args).toVector();
      if (args.size() != 2)
        return Value();
      Value a = eval(args[0], env), b = eval(args[1], env);
      if (!a.isInt() || !b.isInt() || b.i == 0)
        return Value();
      return Value::ofInt(-floorDiv(-a.i, b.i));
    }
    return Value();
  }
  default:
    return Value();
  }
}

void StaticAnalysis::bindParameters(Node functionDef, Env &env) {
  Node args = functionDef.child(Field::args);
  auto positional = args.children(Field::posonlyargs).toVector();
  for (Node a : args.children(Field::args))
    positional.push_back(a);
  auto defaults = args.children(Field::defaults).toVector();
  size_t firstDefault = positional.size() - std::min(positional.size(),
                                                     defaults.size());
  for (size_t i = 0; i < positional.size(); ++i) {
    std::string name = positional[i].identifier().str();
    env.erase(name);
    if (i >= firstDefault)
      env[name] = eval(defaults[i - firstDefault], env);
  }
  auto kwonly = args.children(Field::kwonlyargs).toVector();
  auto kwDefaults = args.children(Field::kw_defaults).toVector();
  for (size_t i = 0; i < kwonly.size(); ++i) {
    std::string name = kwonly[i].identifier().str();
    env.erase(name);
    if (i < kwDefaults.size() && kwDefaults[i])
      env[name] = eval(kwDefaults[i], env);
  }
}

void StaticAnalysis::visitBody(Node parent, Field field, Env &env,
                               AnalysisFacts &facts) {
  for (Node stmt : parent.children(field)) {
    if (token.isCancelled())
      return;
    switch (stmt.kind()) {
    case NodeKind::Assign: {
      Value v = eval(stmt.child(Field::value), env);
      for (Node target : stmt.children(Field::targets))
        if (target.kind() == NodeKind::Name)
          env[target.identifier().str()] = v;
      break;
    }
    case NodeKind::FunctionDef:
    case NodeKind::AsyncFunctionDef: {
      Env inner = env;
      bindParameters(stmt, inner);
      std::string decorator = names.getKernelDecorator(stmt);
      if (!decorator.empty())
        analyzeKernel(stmt, decorator, inner, facts);
      visitBody(stmt, Field::body, inner, facts);
      env.erase(stmt.identifier().str());
      break;
    }
    case NodeKind::If:
    case NodeKind::With:
    case NodeKind::Try:
      visitBody(stmt, Field::body, env, facts);
      if (stmt.kind() == NodeKind::If)
        visitBody(stmt, Field::orelse, env, facts);
      break;
    default:
      break;
    }
  }
}

Node StaticAnalysis::argument(Node call, const lang::BuiltinInfo *info,
                              llvm::StringRef param) {
  for (Node kw : call.children(Field::keywords))
    if (kw.identifier() == param)
      return kw.child(Field::value);
  if (!info)
    return Node();
  int index = info->findParam(param);
  if (index < 0 || !info->params[index].acceptsPositional())
    return Node();
  unsigned i = 0;
  for (Node arg : call.children(Field::args)) {
    if (arg.kind() == NodeKind::Starred)
      return Node();
    if (i++ == static_cast<unsigned>(index))
      return arg;
  }
  return Node();
}

std::string StaticAnalysis::shapeText(Node shape, const Env &env,
                                      bool &symbolic,
                                      std::optional<int64_t> &elements) const {
  llvm::SmallVector<Node, 4> dims;
  if (shape.kind() == NodeKind::Tuple || shape.kind() == NodeKind::List)
    dims = shape.children(Field::elts).toVector();
  else if (shape)
    dims.push_back(shape);
  std::string text = "[";
  elements = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      text += ", ";
    Value v = eval(dims[i], env);
    if (v.isInt()) {
      text += std::to_string(v.i);
      if (elements)
        *elements *= v.i;
    } else {
      text += dims[i].text().str();
      symbolic = true;
      elements.reset();
    }
  }
  return text + "]";
}

std::string
StaticAnalysis::dtypeText(Node dtype, const Env &env,
                          std::optional<lang::DType> &parsed) const {
  Value v = eval(dtype, env);
  if (v.kind == Value::Kind::Str)
    parsed = lang::DType::parse(v.s);
  if (parsed)
    return parsed->getShortName();
  return dtype ? dtype.text().str() : std::string("?");
}

std::optional<BufferFact> StaticAnalysis::tensorParam(Node arg,
                                                      const Env &env,
                                                      bool &symbolic) const {
  Node ann = arg.child(Field::annotation);
  Node shape, dtype;
  std::string type;
  if (ann.kind() == NodeKind::Call) {
    type = names.qualify(ann.child(Field::func));
    auto args = ann.children(Field::args).toVector();
    shape = args.size() > 0 ? args[0] : Node();
    dtype = args.size() > 1 ? args[1] : Node();
    for (Node kw : ann.children(Field::keywords)) {
      if (kw.identifier() == "shape")
        shape = kw.child(Field::value);
      else if (kw.identifier() == "dtype")
        dtype = kw.child(Field::value);
    }
  } else if (ann.kind() == NodeKind::Subscript) {
    type = names.qualify(ann.child(Field::value));
    Node slice = ann.child(Field::slice);
    auto elts = slice.kind() == NodeKind::Tuple
                    ? slice.children(Field::elts).toVector()
                    : llvm::SmallVector<Node, 4>{slice};
    shape = elts.size() > 0 ? elts[0] : Node();
    dtype = elts.size() > 1 ? elts[1] : Node();
  }
  std::string scope = "global";
  if (type == "T.SharedBuffer")
    scope = "shared.dyn";
  else if (type == "T.FragmentBuffer")
    scope = "local.fragment";
  else if (type == "T.LocalBuffer")
    scope = "local";
  else if (type != "T.Tensor" && type != "T.Buffer" &&
           type != "T.StridedTensor")
    return std::nullopt;
  BufferFact fact;
  fact.name = arg.identifier().str();
  fact.nameRange = arg.getIdentifier().range;
  fact.hintOffset = arg.range().end;
  fact.isParameter = true;
  std::optional<int64_t> elements;
  fact.shape = shapeText(shape, env, symbolic, elements);
  std::optional<lang::DType> parsed;
  fact.dtype = dtype ? dtypeText(dtype, env, parsed) : "f32";
  if (!dtype)
    parsed = lang::DType();
  fact.scopeString = scope;
  fact.scope = lang::getScopeDisplayName(*lang::parseScope(scope)).str();
  if (elements && parsed)
    fact.bytes = *elements * parsed->getItemSize();
  return fact;
}

std::optional<BufferFact> StaticAnalysis::allocation(Node assign,
                                                     const Env &env,
                                                     bool &symbolic) const {
  Node call = assign.child(Field::value);
  auto targets = assign.children(Field::targets).toVector();
  if (call.kind() != NodeKind::Call || targets.size() != 1 ||
      targets[0].kind() != NodeKind::Name)
    return std::nullopt;
  std::string q = names.qualify(call.child(Field::func));
  const lang::BuiltinInfo *info = lang::lookupBuiltin(q);
  if (!info || info->category != lang::BuiltinCategory::Alloc)
    return std::nullopt;
  info = &info->getCanonical();
  BufferFact fact;
  fact.name = targets[0].identifier().str();
  fact.nameRange = targets[0].range();
  fact.hintOffset = assign.range().end;
  std::optional<int64_t> elements;
  std::optional<lang::DType> parsed;
  if (info->findParam("shape") >= 0) {
    fact.shape =
        shapeText(argument(call, info, "shape"), env, symbolic, elements);
  } else if (info->id == lang::BuiltinId::AllocBarrier ||
             info->id == lang::BuiltinId::AllocClusterBarrier) {
    Node count = argument(call, info, "arrive_count");
    int64_t n = count.kind() == NodeKind::List
                    ? static_cast<int64_t>(count.children(Field::elts).size())
                    : 1;
    fact.shape = "[" + std::to_string(n) + "]";
    elements = n;
    parsed = lang::DType(lang::ScalarType::UInt64);
  } else {
    fact.shape = "";
    elements = 1;
  }
  if (info->findParam("dtype") >= 0)
    fact.dtype = dtypeText(argument(call, info, "dtype"), env, parsed);
  else if (parsed)
    fact.dtype = parsed->getShortName();
  // Scope: the scope argument when it is a literal, else the default.
  std::string scope;
  int scopeIndex = info->findParam("scope");
  if (scopeIndex >= 0) {
    Value v = eval(argument(call, info, "scope"), env);
    if (v.kind == Value::Kind::Str && lang::parseScope(v.s))
      scope = v.s;
    else
      scope = llvm::StringRef(info->params[scopeIndex].defaultText)
                  .trim("'\"")
                  .str();
  } else if (info->id == lang::BuiltinId::AllocBarrier) {
    scope = "shared.barrier";
  } else if (info->id == lang::BuiltinId::AllocClusterBarrier) {
    scope = "shared.cluster_barrier";
  }
  auto parsedScope = lang::parseScope(scope);
  fact.scopeString = scope;
  fact.scope = parsedScope ? lang::getScopeDisplayName(*parsedScope).str()
                           : scope;
  if (elements && parsed)
    fact.bytes = *elements * parsed->getItemSize();
  return fact;
}

uint32_t StaticAnalysis::afterColon(uint32_t offset) const {
  llvm::StringRef src = tree.source();
  for (uint32_t i = offset; i < src.size(); ++i) {
    char c = src[i];
    if (c == ':')
      return i + 1;
    if (c == '\n' || c == '#')
      break;
  }
  return offset;
}

void StaticAnalysis::collect(Node parent, Field field, Env &env,
                             InstanceFact &instance, bool &symbolic,
                             LaunchFact *launch) {
  for (Node stmt : parent.children(field)) {
    switch (stmt.kind()) {
    case NodeKind::Assign: {
      if (auto fact = allocation(stmt, env, symbolic)) {
        auto scope = lang::parseScope(fact->scopeString);
        if (launch && scope && lang::usesSharedMemory(*scope)) {
          if (fact->bytes && launch->sharedBytes)
            *launch->sharedBytes += *fact->bytes;
          else
            launch->sharedBytes.reset();
        }
        instance.buffers.push_back(std::move(*fact));
        break;
      }
      Value v = eval(stmt.child(Field::value), env);
      for (Node target : stmt.children(Field::targets))
        if (target.kind() == NodeKind::Name)
          env[target.identifier().str()] = v;
      break;
    }
    case NodeKind::With:
    case NodeKind::AsyncWith: {
      LaunchFact *inner = launch;
      size_t launchIndex = ~size_t(0);
      for (Node item : stmt.children(Field::items)) {
        Node call = item.child(Field::context_expr);
        if (call.kind() != NodeKind::Call)
          continue;
        std::string q = names.qualify(call.child(Field::func));
        if (q != "T.Kernel" && q != "T.ClusterKernel")
          continue;
        LaunchFact fact;
        Node last = stmt.children(Field::items).toVector().back();
        fact.range = TextRange{stmt.range().begin, last.range().end};
        fact.hintOffset = afterColon(last.range().end);
        for (Node arg : call.children(Field::args)) {
          Value v = eval(arg, env);
          fact.grid.push_back(v.isInt() ? std::to_string(v.i)
                                        : arg.text().str());
        }
        fact.threads = "128";
        for (Node kw : call.children(Field::keywords)) {
          if (kw.identifier() != "threads")
            continue;
          Value v = eval(kw.child(Field::value), env);
          fact.threads =
              v.isInt() ? std::to_string(v.i) : kw.child(Field::value).text().str();
        }
        fact.sharedBytes = 0;
        launchIndex = instance.launches.size();
        instance.launches.push_back(std::move(fact));
      }
      if (launchIndex != ~size_t(0)) {
        LaunchFact scratch = instance.launches[launchIndex];
        collect(stmt, Field::body, env, instance, symbolic, &scratch);
        instance.launches[launchIndex].sharedBytes = scratch.sharedBytes;
      } else {
        collect(stmt, Field::body, env, instance, symbolic, inner);
      }
      break;
    }
    case NodeKind::For:
    case NodeKind::AsyncFor: {
      Node iter = stmt.child(Field::iter);
      if (iter.kind() == NodeKind::Call &&
          names.qualify(iter.child(Field::func)) == "T.Pipelined") {
        PipelineFact fact;
        fact.range = TextRange{stmt.range().begin, iter.range().end};
        fact.hintOffset = afterColon(iter.range().end);
        const lang::BuiltinInfo *info = lang::lookupBuiltin("T.Pipelined");
        Value stages = eval(argument(iter, info, "num_stages"), env);
        fact.stages = stages.isInt() ? stages.i : 0;
        instance.pipelines.push_back(std::move(fact));
      }
      collect(stmt, Field::body, env, instance, symbolic, launch);
      collect(stmt, Field::orelse, env, instance, symbolic, launch);
      break;
    }
    case NodeKind::If:
    case NodeKind::While:
      collect(stmt, Field::body, env, instance, symbolic, launch);
      collect(stmt, Field::orelse, env, instance, symbolic, launch);
      break;
    case NodeKind::Try:
      collect(stmt, Field::body, env, instance, symbolic, launch);
      break;
    default:
      break;
    }
  }
}

void StaticAnalysis::analyzeKernel(Node functionDef,
                                   const std::string &decorator,
                                   const Env &env, AnalysisFacts &facts) {
  KernelFact kernel;
  kernel.name = functionDef.identifier().str();
  kernel.nameRange = functionDef.getIdentifier().range;
  kernel.range = functionDef.range();
  kernel.decorator = decorator;
  InstanceFact instance;
  bool symbolic = false;
  Node args = functionDef.child(Field::args);
  for (Field f : {Field::posonlyargs, Field::args, Field::kwonlyargs})
    for (Node arg : args.children(f))
      if (auto fact = tensorParam(arg, env, symbolic))
        instance.buffers.push_back(std::move(*fact));
  Env local = env;
  collect(functionDef, Field::body, local, instance, symbolic, nullptr);
  instance.label = symbolic ? "symbolic" : "defaults";
  kernel.instances.push_back(std::move(instance));
  facts.kernels.push_back(std::move(kernel));
}

namespace {
class StaticAnalyzer : public Analyzer {
public:
  const char *getName() const override { return "static"; }
  std::shared_ptr<const AnalysisFacts>
  analyze(const std::shared_ptr<const syntax::SyntaxTree> &tree,
          const AnalysisOptions &, const CancelToken &token) override {
    return std::make_shared<AnalysisFacts>(
        StaticAnalysis(*tree, token).run());
  }
};
} // namespace

std::unique_ptr<Analyzer> tlc::lsp::createStaticAnalyzer() {
  return std::make_unique<StaticAnalyzer>();
}
