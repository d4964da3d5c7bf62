//===- Ascend.cpp - TileLang's Ascend copy options and SF handles ---------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What TileLang's Ascend back end adds to the common primitives, and the
// Ascend primitives that are not single intrinsics:
//
//  - T.copy's Ascend keywords. `transpose=True` copies src into dst with the
//    last two axes swapped (the GM -> L1 "dn2nz" load). `pad_value=` /
//    `data_select=True` pad each copied row to 32 bytes with the fill value
//    (set by the copy, or earlier by T.ascend_set_copy_pad_value); they are
//    exclusive. `l2_cache_ctrl=` names an L2 policy; `sub_blockid=` picks a
//    vector sub-core; `scale=` loads the MX scale factors of an L1 ->
//    L0A/L0B copy. TileLang ignores l2_cache_ctrl, sub_blockid, data_select
//    and scale on its other back ends; transpose and pad_value have no other
//    meaning there, so a kernel using them is built for no tlc target.
//  - T.alloc_l0a_sf / T.alloc_l0b_sf: the MX scale-factor handle of an L0A
//    / L0B data tile. The hardware keys a tile's scale slots to the tile's
//    address, so the handle holds no storage of its own; it is bound to the
//    tile, and T.gemm_blockscaled checks that its SFA / SFB are the handles
//    of its A / B.
//  - T.assume_no_conflict: a scheduling hint, checked and dropped.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "llvm/ADT/StringExtras.h"

using namespace tlc;
using namespace tlc::eval;
using lang::DType;
using lang::MemoryScope;

/// The names of Ascend's L2 cache policies (load and store sets) that
/// `l2_cache_ctrl=` accepts, compared without case; a string ending in one
/// of them (`"L2_CACHE_HINT_NORMAL_FV"`) names it too.
static const llvm::StringRef l2CachePolicies[] = {
    "NORMAL_FV",     "NORMAL_LV",      "NORMAL_PERS",   "NORMAL_PREF",
    "NOTALLOC_KEEP", "NOTALLOC_CLEAN", "NOTALLOC_DROP", "IDS_FV",
    "IDS_LV",        "IDS_PERS",       "IDS_PREF",      "EXCLUSIV_FV",
    "EXCLUSIV_LV",   "EXCLUSIV_PERS",  "EXCLUSIV_PREF", "INVALID",
    "NORMAL_RED",    "NOTALLOC_CI",    "NOTALLOC_PW",   "NOTALLOC_PI",
    "NOTALLOC_RED",  "WBH_FV",         "WBH_LV",        "WBH_PERS",
    "WBH_RED",       "WTS_FV",         "WTS_LV",        "WTS_PERS",
    "WTS_RED"};

bool eval::checkL2CacheCtrl(Interpreter &in, const PArgs &p) {
  std::optional<Value> v = p.get("l2_cache_ctrl");
  if (!v || v->isNone() || v->isIntLike() || v->is(ValueKind::Sym) ||
      v->is(ValueKind::Expr))
    return !(v && v->isAbrupt());
  if (v->isAbrupt() || v->isPoison())
    return false;
  if (!v->isStr()) {
    in.errorAs("TypeError", p.node("l2_cache_ctrl").range(),
               p.info.name +
                   ": l2_cache_ctrl must be an int, a policy name "
                   "or None, not '" +
                   v->getTypeName() + "'");
    return false;
  }
  std::string key = llvm::StringRef(getStr(*v)).upper();
  if (llvm::any_of(l2CachePolicies, [&](llvm::StringRef name) {
        return llvm::StringRef(key).ends_with(name);
      }))
    return true;
  in.errorAs(
      "ValueError", p.node("l2_cache_ctrl").range(),
      p.info.name + ": unknown l2_cache_ctrl policy '" + getStr(*v) +
          "'; the names are " +
          llvm::join(llvm::ArrayRef<llvm::StringRef>(l2CachePolicies), ", ") +
          " (any case, optionally prefixed)");
  return false;
}

bool eval::checkAscendCopyOptions(Interpreter &in, const PArgs &p,
                                  RegionObj *src, RegionObj *dst) {
  if (!checkL2CacheCtrl(in, p))
    return false;
  std::optional<Value> pad = p.get("pad_value");
  bool hasPad = pad && !pad->isNone();
  if (hasPad && pad->isAbrupt())
    return false;
  if (hasPad && p.flag("data_select", false)) {
    in.errorAs("ValueError", p.node("data_select").range(),
               "T.copy: pad_value and data_select are mutually exclusive: "
               "pad_value sets the fill value on this copy, data_select "
               "reuses the one T.ascend_set_copy_pad_value set");
    return false;
  }
  bool scalarPad =
      pad &&
      (pad->isNumber() || pad->is(ValueKind::Sym) || pad->is(ValueKind::Expr) ||
       (pad->is(ValueKind::Region) && pad->as<RegionObj>()->isElement));
  if (hasPad && !scalarPad) {
    in.error(p.node("pad_value"), "T.copy: pad_value must be a number or a "
                                  "scalar expression, not '" +
                                      pad->getTypeName() + "'");
    return false;
  }
  if (hasPad)
    in.markAscend(p.node("pad_value"), "T.copy(pad_value=...)");
  std::optional<Value> scale = p.get("scale");
  if (!scale || scale->isNone())
    return true;
  if (scale->isAbrupt())
    return false;
  RegionObj *sf = in.asRegion(*scale, p.node("scale"));
  if (!sf) {
    in.error(p.node("scale"), "T.copy: scale must be a buffer or region of "
                              "scale factors in L1, not '" +
                                  scale->getTypeName() + "'");
    return false;
  }
  MemoryScope to = dst->buffer->scope;
  if (to != MemoryScope::AscendL0A && to != MemoryScope::AscendL0B) {
    in.error(p.node("scale"),
             "T.copy: scale= loads the MX scale factors of a copy into L0A "
             "or L0B (T.alloc_l0a / T.alloc_l0b), but '" +
                 dst->buffer->name + "' is in " + lang::getScopeString(to));
    return false;
  }
  if (sf->buffer->scope != MemoryScope::AscendL1) {
    in.error(p.node("scale"), "T.copy: the scale factors are read from L1 "
                              "(T.alloc_l1), but '" +
                                  sf->buffer->name + "' is in " +
                                  lang::getScopeString(sf->buffer->scope));
    return false;
  }
  DType t = sf->buffer->dtype;
  if (t.isVector() || (t.getBits() != 8 && t.getBits() != 16)) {
    in.error(p.node("scale"),
             "T.copy: scale factors are 8-bit scales or 16-bit scale pairs, "
             "but '" +
                 sf->buffer->name + "' is " + t.getName());
    return false;
  }
  (void)src;
  return true;
}

Value eval::ascendTransposeCopy(Interpreter &in, const PArgs &p, Value src,
                                Value dst) {
  RegionObj *s = in.asRegion(src, p.node("src"));
  RegionObj *d = in.asRegion(dst, p.node("dst"));
  if (s && d && (s->isElement || d->isElement))
    return in.fail(p.call, "T.copy(transpose=True) needs src and dst as "
                           "buffers or slices: an element names no extent "
                           "to transpose");
  in.markAscend(p.node("transpose"), "T.copy(transpose=True)");
  CallArgs args;
  args.pos = {src, dst};
  args.posNodes = {p.node("src"), p.node("dst")};
  return in.callPrimitive(*lang::lookupBuiltin("T.transpose"), args, p.call);
}

Value eval::allocScaleHandle(Interpreter &in, const PArgs &p) {
  bool forA = p.info.id == lang::BuiltinId::AllocL0ASf;
  MemoryScope scope = forA ? MemoryScope::AscendL0A : MemoryScope::AscendL0B;
  llvm::StringRef name = p.info.name;
  if (in.checkInKernel(name, p.call))
    return Value::poison();
  Value bufV = p.getOr("buf", Value::poison());
  if (bufV.isAbrupt() || bufV.isPoison())
    return bufV;
  if (!bufV.is(ValueKind::Buffer))
    return in.fail(p.node("buf"), name + " expects the " +
                                      (forA ? "L0A" : "L0B") +
                                      " data tile it serves, not '" +
                                      bufV.getTypeName() + "'");
  BufferObj *data = bufV.as<BufferObj>();
  if (data->scope != scope) {
    in.errorAs("ValueError", p.node("buf").range(),
               name + ": expected a " + lang::getScopeString(scope) +
                   " data tile (" + (forA ? "T.alloc_l0a" : "T.alloc_l0b") +
                   "), but '" + data->name + "' is in " +
                   lang::getScopeString(data->scope));
    return Value::poison();
  }
  size_t rank = data->shape.size();
  if (rank < 2) {
    in.errorAs("ValueError", p.node("buf").range(),
               name +
                   ": the data tile needs trailing (rows, K) dimensions, "
                   "but '" +
                   data->name + "' has shape " + shapeStr(data->shape));
    return Value::poison();
  }
  Value dtV = p.getOr("sf_dtype", in.heap.strNoCopy("uint16"));
  std::optional<DType> dtype = in.toDType(dtV, p.node("sf_dtype"));
  if (!dtype)
    return dtV.isAbrupt() ? dtV
                          : in.fail(p.node("sf_dtype"),
                                    "unknown dtype " + in.toString(dtV, true));
  if (dtype->isVector() || (dtype->getBits() != 8 && dtype->getBits() != 16)) {
    in.errorAs("ValueError", p.node("sf_dtype").range(),
               name +
                   ": L0 scale factors are stored as 8-bit scales or "
                   "16-bit scale pairs, not " +
                   dtype->getName());
    return Value::poison();
  }
  llvm::SmallVector<SymExpr, 4> shape;
  Value shapeV = p.getOr("sf_shape", Value::none());
  if (shapeV.isAbrupt())
    return shapeV;
  if (!shapeV.isNone()) {
    if (!in.toShape(shapeV, shape, p.node("sf_shape")))
      return Value::poison();
  } else {
    // One E8M0 scale per 32 K elements, sf_dtype's bytes of them packed
    // in one element.
    int64_t perElement = 32 * (dtype->getBits() / 8);
    SymExpr k = data->shape.back();
    if (k && k.isConstant() && *k.getConstant() % perElement != 0) {
      in.errorAs("ValueError", p.node("buf").range(),
                 name + ": the K extent " + llvm::Twine(*k.getConstant()) +
                     " of '" + data->name + "' is not a multiple of " +
                     llvm::Twine(perElement) + " (K elements per " +
                     dtype->getName() +
                     " scale element); pass sf_shape explicitly");
      return Value::poison();
    }
    shape.assign(data->shape.begin(), data->shape.end() - 1);
    shape.push_back(in.syms.floorDiv(k, in.syms.constant(perElement)));
  }
  bool keepsLeading = shape.size() == rank;
  for (size_t i = 0; keepsLeading && i + 2 < rank; ++i)
    keepsLeading = shape[i] == data->shape[i];
  if (!keepsLeading) {
    in.errorAs("ValueError", p.node("sf_shape").range(),
               name + ": the scale-factor shape " + shapeStr(shape) +
                   " must keep the leading dimensions of '" + data->name +
                   "' " + shapeStr(data->shape));
    return Value::poison();
  }
  in.markAscend(p.call, name);
  BufferObj *handle = in.makeBuffer("", shape, *dtype, scope, p.call, false);
  handle->sfDataTile = data;
  if (handle->hintIndex >= 0 && size_t(handle->hintIndex) < in.out.hints.size())
    in.out.hints[handle->hintIndex].scope += ".sf";
  return Value::object(ValueKind::Buffer, handle);
}

Value eval::assumeNoConflict(Interpreter &in, const PArgs &p) {
  for (const char *param : {"a", "b"}) {
    Value v = p.getOr(param, Value::none());
    if (v.isAbrupt() || v.isPoison())
      return Value::poison();
    if (v.isNone() && llvm::StringRef(param) == "b")
      continue;
    if (!in.asRegion(v, p.node(param)))
      return in.fail(p.node(param),
                     "T.assume_no_conflict: " + llvm::Twine(param) +
                         " must be a buffer or a region, not '" +
                         v.getTypeName() + "'");
  }
  Value level = p.getOr("level", Value::none());
  if (level.isAbrupt())
    return Value::poison();
  if (!level.isNone() && (!level.isInt() || level.getInt() < -1)) {
    in.errorAs("ValueError", p.node("level").range(),
               "T.assume_no_conflict: level must be None, -1 or a "
               "non-negative integer, got " +
                   in.toString(level, true));
    return Value::poison();
  }
  Value group = p.getOr("group", Value::none());
  if (!group.isNone() && !p.getOr("b", Value::none()).isNone()) {
    in.errorAs("ValueError", p.node("b").range(),
               "T.assume_no_conflict: a group's two half-declarations "
               "each carry one region, so b must be None when group is set");
    return Value::poison();
  }
  return Value::none();
}

Value eval::ascendScheduleAnnotation(Interpreter &in, const PArgs &p) {
  bool manual = p.info.id == lang::BuiltinId::AnnotateManualMultiBuffer;
  llvm::StringRef name = p.info.name;
  llvm::ArrayRef<Value> items = p.rest(manual ? "items" : "scopes");
  auto count = [&](Value n, BufferObj *buf, Node at) {
    if (n.isInt() && n.getInt() >= 1)
      return true;
    in.errorAs("ValueError", at.range(),
               name + ": the version count of '" + buf->name +
                   "' must be an integer of at least 1, got " +
                   in.toString(n, true));
    return false;
  };
  for (Value item : items) {
    if (item.isAbrupt() || item.isPoison())
      return Value::poison();
    if (!manual) {
      static const llvm::StringRef scopes[] = {
          "shared", "shared.l1", "shared.l0c", "shared.l0a", "shared.l0b"};
      if (item.isStr() && llvm::is_contained(scopes, getStr(item)))
        continue;
      in.errorAs("ValueError", p.call.range(),
                 name + ": " + in.toString(item, true) +
                     " is not a memory scope it can unlimit (" +
                     llvm::join(llvm::ArrayRef<llvm::StringRef>(scopes), ", ") +
                     ")");
      return Value::poison();
    }
    if (item.is(ValueKind::Buffer)) {
      BufferObj *buf = item.as<BufferObj>();
      SymExpr lead = buf->shape.empty() ? SymExpr() : buf->shape.front();
      if (!lead || !lead.isConstant()) {
        in.errorAs("ValueError", p.call.range(),
                   name +
                       " needs a constant leading (version) dimension of "
                       "'" +
                       buf->name + "' to count its versions; pass {" +
                       buf->name + ": N} to give it");
        return Value::poison();
      }
      if (!count(Value::integer(*lead.getConstant()), buf, p.call))
        return Value::poison();
      continue;
    }
    if (item.is(ValueKind::Dict)) {
      for (auto &[key, n] : item.as<DictObj>()->items) {
        if (!key.is(ValueKind::Buffer))
          return in.fail(p.call, name +
                                     ": the keys of its dict are buffers, "
                                     "not '" +
                                     key.getTypeName() + "'");
        if (!count(n, key.as<BufferObj>(), p.call))
          return Value::poison();
      }
      continue;
    }
    return in.fail(p.call, name +
                               " takes buffers or {buffer: versions} "
                               "dicts, not '" +
                               item.getTypeName() + "'");
  }
  in.markAscend(p.call, name);
  return Value::none();
}

bool eval::checkAscendBlockscaledGemm(Interpreter &in, const PArgs &p) {
  Value c = p.getOr("C", Value::none());
  if (c.isAbrupt() || c.isPoison())
    return false;
  RegionObj *acc = in.asRegion(c, p.node("C"));
  bool ascend = acc && acc->buffer->scope == MemoryScope::AscendL0C;
  llvm::StringRef name = p.info.name;
  if (!ascend) {
    for (const char *param : {"sfa", "sfb", "unit_flag_ctrl"})
      if (std::optional<Value> v = p.get(param); v && !v->isNone()) {
        in.error(p.node(param),
                 name + ": " + param +
                     " belongs to Ascend's form, whose accumulator C is in "
                     "L0C (T.alloc_l0c)");
        return false;
      }
    for (const char *param : {"SFA_tmem", "SFB_tmem"})
      if (p.getOr(param, Value::none()).isNone()) {
        in.errorAs("TypeError", p.call.range(),
                   "blockscaled_gemm() missing required argument: '" +
                       llvm::Twine(param) + "'");
        return false;
      }
    return true;
  }
  in.markAscend(p.call, name);
  Value sf[2];
  const char *given[2] = {"SFA_tmem", "SFB_tmem"};
  for (int i = 0; i < 2; ++i) {
    sf[i] = p.getOr(given[i], Value::none());
    if (sf[i].isNone()) {
      given[i] = i ? "sfb" : "sfa";
      sf[i] = p.getOr(given[i], Value::none());
    }
    if (sf[i].isAbrupt() || sf[i].isPoison())
      return false;
  }
  if (sf[0].isNone() != sf[1].isNone()) {
    in.error(p.call, name + ": give the scale factors of both operands (sfa "
                            "and sfb) or of neither");
    return false;
  }
  if (!sf[0].isNone())
    return true;
  const char *ops[2] = {"A", "B"};
  MemoryScope l0[2] = {MemoryScope::AscendL0A, MemoryScope::AscendL0B};
  for (int i = 0; i < 2; ++i) {
    Value v = p.getOr(ops[i], Value::none());
    RegionObj *r = v.isAbrupt() ? nullptr : in.asRegion(v, p.node(ops[i]));
    if (!r || r->buffer->scope == l0[i])
      continue;
    in.error(p.node(ops[i]),
             name + " operand " + ops[i] + " '" + r->buffer->name + "' is in " +
                 lang::getScopeString(r->buffer->scope) +
                 ": without sfa and sfb only operands in L0A / L0B have "
                 "scale factors (loaded by T.copy(..., scale=))");
    return false;
  }
  return true;
}
