//===- SyntaxTree.cpp - Lossless Python syntax tree -----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SyntaxStorage.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace tlc;
using namespace tlc::syntax;
using detail::Chunk;
using detail::kNone;
using detail::RawNode;
using detail::RawToken;

//===----------------------------------------------------------------------===//
// Kind names
//===----------------------------------------------------------------------===//

llvm::StringRef syntax::getTokenKindName(TokenKind kind) {
  static const char *const names[] = {
#define TOKEN(Name) #Name,
#include "tlc/Syntax/SyntaxKinds.def"
  };
  return names[static_cast<unsigned>(kind)];
}

llvm::StringRef syntax::getNodeKindName(NodeKind kind) {
  static const char *const names[] = {
#define NODE(Name) #Name,
#include "tlc/Syntax/SyntaxKinds.def"
  };
  return names[static_cast<unsigned>(kind)];
}

llvm::StringRef syntax::getFieldName(Field field) {
  static const char *const names[] = {
      "",
#define FIELD(Name) #Name,
#include "tlc/Syntax/SyntaxKinds.def"
  };
  return names[static_cast<unsigned>(field)];
}

llvm::StringRef syntax::getTokenSpelling(TokenKind kind) {
  switch (kind) {
#define KEYWORD(Name, Text)                                                    \
  case TokenKind::Name:                                                        \
    return Text;
#define PUNCT(Name, Text)                                                      \
  case TokenKind::Name:                                                        \
    return Text;
#include "tlc/Syntax/SyntaxKinds.def"
  default:
    return "";
  }
}

bool syntax::isTrivia(TokenKind kind) {
  switch (kind) {
#define TRIVIA(Name) case TokenKind::Name:
#include "tlc/Syntax/SyntaxKinds.def"
    return true;
  default:
    return false;
  }
}

bool syntax::isStatement(NodeKind kind) {
  return kind >= NodeKind::FunctionDef && kind <= NodeKind::Continue;
}
bool syntax::isExpression(NodeKind kind) {
  return kind >= NodeKind::BoolOp && kind <= NodeKind::Slice;
}
bool syntax::isPattern(NodeKind kind) {
  return kind >= NodeKind::MatchValue && kind <= NodeKind::MatchOr;
}

llvm::StringRef syntax::getOpName(BinaryOp op) {
  static const char *const names[] = {
      "Add",   "Sub",    "Mult",  "MatMult", "Div",    "Mod",     "Pow",
      "LShift", "RShift", "BitOr", "BitXor",  "BitAnd", "FloorDiv"};
  return names[static_cast<unsigned>(op)];
}
llvm::StringRef syntax::getOpName(UnaryOp op) {
  static const char *const names[] = {"Invert", "Not", "UAdd", "USub"};
  return names[static_cast<unsigned>(op)];
}
llvm::StringRef syntax::getOpName(BoolOp op) {
  return op == BoolOp::And ? "And" : "Or";
}
llvm::StringRef syntax::getOpName(CmpOp op) {
  static const char *const names[] = {"Eq", "NotEq", "Lt", "LtE", "Gt",
                                      "GtE", "Is",   "IsNot", "In", "NotIn"};
  return names[static_cast<unsigned>(op)];
}

//===----------------------------------------------------------------------===//
// SyntaxTree
//===----------------------------------------------------------------------===//

SyntaxTree::SyntaxTree() = default;
SyntaxTree::~SyntaxTree() = default;

std::shared_ptr<const SyntaxTree>
TreeBuilder::build(std::string text, llvm::StringRef fileName,
                   std::vector<std::shared_ptr<const Chunk>> chunks) {
  std::shared_ptr<SyntaxTree> tree(new SyntaxTree());
  tree->text = std::move(text);
  tree->name = fileName.str();
  tree->chunks = std::move(chunks);
  tree->chunkOffsets.reserve(tree->chunks.size());
  uint32_t offset = 0;
  for (const auto &chunk : tree->chunks) {
    tree->chunkOffsets.push_back(offset);
    for (const Diagnostic &d : chunk->diags) {
      Diagnostic abs = d;
      abs.range.begin += offset;
      abs.range.end += offset;
      for (RelatedInfo &note : abs.notes) {
        note.range.begin += offset;
        note.range.end += offset;
      }
      tree->diags.push_back(std::move(abs));
    }
    offset += chunk->length;
  }
  std::stable_sort(tree->diags.begin(), tree->diags.end(),
                   [](const Diagnostic &a, const Diagnostic &b) {
                     return a.range.begin < b.range.begin;
                   });
  tree->lineIndex = LineIndex(tree->text);
  return tree;
}

bool SyntaxTree::hasErrors() const { return tlc::hasErrors(diags); }

std::string SyntaxTree::print() const {
  std::string out;
  out.reserve(text.size());
  for (size_t c = 0; c < chunks.size(); ++c)
    for (const RawToken &t : chunks[c]->tokens)
      out.append(text, chunkOffsets[c] + t.offset, t.length);
  return out;
}

std::vector<Token> SyntaxTree::tokens() const {
  std::vector<Token> out;
  for (size_t c = 0; c < chunks.size(); ++c)
    for (const RawToken &t : chunks[c]->tokens) {
      uint32_t begin = chunkOffsets[c] + t.offset;
      out.push_back(Token{t.kind, TextRange{begin, begin + t.length}});
    }
  return out;
}

size_t SyntaxTree::countSharedChunks(const SyntaxTree &other) const {
  std::vector<const Chunk *> mine;
  for (const auto &c : chunks)
    mine.push_back(c.get());
  std::sort(mine.begin(), mine.end());
  size_t shared = 0;
  for (const auto &c : other.chunks)
    shared += std::binary_search(mine.begin(), mine.end(), c.get());
  return shared;
}

Node SyntaxTree::findNode(uint32_t offset) const {
  Node cur = root();
  while (true) {
    Node next;
    for (Node child : cur.children()) {
      TextRange r = child.range();
      if (r.begin <= offset && offset < r.end) {
        next = child;
        break;
      }
    }
    if (!next)
      return cur;
    cur = next;
  }
}

std::string SyntaxTree::dump() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  for (const Token &t : tokens())
    os << "tok " << getTokenKindName(t.kind) << ' ' << t.range.begin << ' '
       << t.range.end << '\n';
  struct Item {
    Node node;
    unsigned depth;
  };
  std::vector<Item> stack{{root(), 0}};
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    Node n = item.node;
    os.indent(item.depth) << getNodeKindName(n.kind()) << ' '
                          << getFieldName(n.field()) << ' ' << n.range().begin
                          << '-' << n.range().end;
    Identifier id = n.getIdentifier();
    if (id)
      os << " id=" << id.name;
    if (n.kind() == NodeKind::BinOp || n.kind() == NodeKind::AugAssign)
      os << " op=" << getOpName(n.op());
    if (n.kind() == NodeKind::UnaryOp)
      os << " op=" << getOpName(n.unaryOp());
    if (n.kind() == NodeKind::BoolOp)
      os << " op=" << getOpName(n.boolOp());
    if (n.kind() == NodeKind::Compare)
      for (CmpOp op : n.compareOps())
        os << " op=" << getOpName(op);
    os << " ctx=" << static_cast<int>(n.context()) << '\n';
    llvm::SmallVector<Node, 8> kids;
    for (Node c : n.children(Field::None))
      kids.push_back(c);
    for (size_t i = kids.size(); i-- > 0;)
      stack.push_back({kids[i], item.depth + 1});
  }
  for (const Diagnostic &d : diags)
    os << "diag " << d.range.begin << ' ' << d.range.end << ' ' << d.message
       << '\n';
  return out;
}

//===----------------------------------------------------------------------===//
// Node
//===----------------------------------------------------------------------===//

const RawNode *Node::raw() const {
  if (!tree || chunk == SyntaxTree::kRootChunk)
    return nullptr;
  return &tree->getChunk(chunk).nodes[index];
}

uint32_t Node::chunkBase() const {
  return chunk == SyntaxTree::kRootChunk ? 0 : tree->chunkOffsets[chunk];
}

NodeKind Node::kind() const {
  if (!tree)
    return NodeKind::Error;
  if (chunk == SyntaxTree::kRootChunk)
    return NodeKind::Module;
  return raw()->kind;
}

TextRange Node::range() const {
  if (!tree)
    return {};
  if (chunk == SyntaxTree::kRootChunk)
    return TextRange{0, static_cast<uint32_t>(tree->text.size())};
  const Chunk &c = tree->getChunk(chunk);
  const RawNode &r = c.nodes[index];
  uint32_t base = tree->chunkOffsets[chunk];
  if (r.firstTok >= r.endTok) {
    uint32_t at = r.firstTok < c.tokens.size() ? c.tokens[r.firstTok].offset
                                               : c.length;
    return TextRange{base + at, base + at};
  }
  const RawToken &last = c.tokens[r.endTok - 1];
  return TextRange{base + c.tokens[r.firstTok].offset,
                   base + last.offset + last.length};
}

llvm::StringRef Node::text() const {
  if (!tree)
    return "";
  TextRange r = range();
  return llvm::StringRef(tree->text).slice(r.begin, r.end);
}

Node Node::parent() const {
  const RawNode *r = raw();
  if (!r)
    return Node();
  if (r->parent == kNone)
    return tree->root();
  return Node(tree, chunk, r->parent);
}

Field Node::field() const {
  const RawNode *r = raw();
  return r ? r->field : Field::None;
}

ChildRange Node::children(Field field) const {
  ChildRange range;
  if (!tree)
    return range;
  ChildRange::iterator &it = range.first;
  it.tree = tree;
  it.filter = field;
  it.filtered = field != Field::None;
  if (chunk == SyntaxTree::kRootChunk) {
    it.inRoot = true;
    if (field == Field::body)
      it.filtered = false;
    else if (it.filtered) {
      it = ChildRange::iterator();
      return range;
    }
    it.chunk = 0;
    it.index = tree->chunks.empty() ? kNone : tree->getChunk(0).firstTop;
  } else {
    it.chunk = chunk;
    it.index = raw()->firstChild;
  }
  it.settle();
  return range;
}

ChildRange Node::children() const { return children(Field::None); }

Node Node::child(Field field) const {
  for (Node c : children(field))
    return c;
  return Node();
}

void ChildRange::iterator::settle() {
  while (true) {
    if (index == kNone) {
      if (inRoot && chunk + 1 < tree->chunks.size()) {
        ++chunk;
        index = tree->getChunk(chunk).firstTop;
        continue;
      }
      *this = iterator();
      return;
    }
    const RawNode &r = tree->getChunk(chunk).nodes[index];
    bool match = filtered ? r.field == filter
                          : r.kind != NodeKind::Placeholder;
    if (match) {
      current = r.kind == NodeKind::Placeholder ? Node()
                                                : Node(tree, chunk, index);
      return;
    }
    index = r.nextSibling;
  }
}

ChildRange::iterator &ChildRange::iterator::operator++() {
  if (!tree)
    return *this;
  index = tree->getChunk(chunk).nodes[index].nextSibling;
  settle();
  return *this;
}

size_t ChildRange::size() const {
  size_t n = 0;
  for (auto it = begin(); it != end(); ++it)
    ++n;
  return n;
}

llvm::SmallVector<Node, 4> ChildRange::toVector() const {
  llvm::SmallVector<Node, 4> out;
  for (auto it = begin(); it != end(); ++it)
    out.push_back(*it);
  return out;
}

/// Index of the next significant token after `i` in `c`, or kNone.
static uint32_t nextSignificant(const Chunk &c, uint32_t i) {
  for (++i; i < c.tokens.size(); ++i)
    if (!isTrivia(c.tokens[i].kind))
      return i;
  return kNone;
}

Identifier Node::getIdentifier() const { return getIdentifier(Field::None); }

Identifier Node::getIdentifier(Field field) const {
  const RawNode *r = raw();
  if (!r)
    return {};
  const Chunk &c = tree->getChunk(chunk);
  uint32_t base = chunkBase();
  auto make = [&](uint32_t first, uint32_t last) {
    uint32_t begin = base + c.tokens[first].offset;
    uint32_t end = base + c.tokens[last].offset + c.tokens[last].length;
    return Identifier{llvm::StringRef(tree->text).slice(begin, end),
                      TextRange{begin, end}};
  };
  if (r->kind == NodeKind::TypeAlias)
    return child(Field::name).getIdentifier();
  if (field == Field::asname) {
    if (r->kind != NodeKind::alias)
      return {};
    for (uint32_t i = r->firstTok; i < r->endTok; ++i)
      if (c.tokens[i].kind == TokenKind::KwAs) {
        uint32_t n = nextSignificant(c, i);
        if (n != kNone && n < r->endTok && c.tokens[n].kind == TokenKind::Name)
          return make(n, n);
      }
    return {};
  }
  if (r->ident == kNone)
    return {};
  if (r->kind == NodeKind::alias || r->kind == NodeKind::ImportFrom) {
    // A dotted name: extend over `. name` pairs.
    uint32_t last = r->ident;
    while (true) {
      uint32_t dot = nextSignificant(c, last);
      if (dot == kNone || c.tokens[dot].kind != TokenKind::Dot)
        break;
      uint32_t name = nextSignificant(c, dot);
      if (name == kNone || c.tokens[name].kind != TokenKind::Name)
        break;
      last = name;
    }
    return make(r->ident, last);
  }
  Identifier id = make(r->ident, r->ident);
  if ((r->kind == NodeKind::MatchAs || r->kind == NodeKind::MatchStar) &&
      id.name == "_")
    return {};
  return id;
}

llvm::SmallVector<Identifier, 4> Node::identifiers(Field field) const {
  llvm::SmallVector<Identifier, 4> out;
  const RawNode *r = raw();
  if (!r)
    return out;
  const Chunk &c = tree->getChunk(chunk);
  uint32_t base = chunkBase();
  auto add = [&](uint32_t i) {
    uint32_t begin = base + c.tokens[i].offset;
    uint32_t end = begin + c.tokens[i].length;
    out.push_back(Identifier{llvm::StringRef(tree->text).slice(begin, end),
                             TextRange{begin, end}});
  };
  if ((r->kind == NodeKind::Global || r->kind == NodeKind::Nonlocal) &&
      field == Field::names) {
    for (uint32_t i = r->firstTok; i < r->endTok; ++i)
      if (c.tokens[i].kind == TokenKind::Name)
        add(i);
  } else if (r->kind == NodeKind::MatchClass && field == Field::kwd_attrs) {
    Node cls = child(Field::cls);
    uint32_t start = cls ? c.nodes[cls.index].endTok : r->firstTok;
    int depth = 0;
    for (uint32_t i = start; i < r->endTok; ++i) {
      TokenKind k = c.tokens[i].kind;
      if (k == TokenKind::LParen || k == TokenKind::LSquare ||
          k == TokenKind::LBrace)
        ++depth;
      else if (k == TokenKind::RParen || k == TokenKind::RSquare ||
               k == TokenKind::RBrace)
        --depth;
      else if (k == TokenKind::Name && depth == 1) {
        uint32_t n = nextSignificant(c, i);
        if (n != kNone && c.tokens[n].kind == TokenKind::Equal)
          add(i);
      }
    }
  }
  return out;
}

BinaryOp Node::op() const {
  const RawNode *r = raw();
  if (!r || (r->kind != NodeKind::BinOp && r->kind != NodeKind::AugAssign))
    return BinaryOp::Add;
  return static_cast<BinaryOp>(r->op);
}

UnaryOp Node::unaryOp() const {
  const RawNode *r = raw();
  if (!r || r->kind != NodeKind::UnaryOp)
    return UnaryOp::Invert;
  return static_cast<UnaryOp>(r->op);
}

BoolOp Node::boolOp() const {
  const RawNode *r = raw();
  if (!r || r->kind != NodeKind::BoolOp)
    return BoolOp::And;
  return static_cast<BoolOp>(r->op);
}

llvm::SmallVector<CmpOp, 2> Node::compareOps() const {
  llvm::SmallVector<CmpOp, 2> ops;
  const RawNode *r = raw();
  if (!r || r->kind != NodeKind::Compare)
    return ops;
  const Chunk &c = tree->getChunk(chunk);
  uint32_t prevEnd = kNone;
  for (uint32_t k = r->firstChild; k != kNone; k = c.nodes[k].nextSibling) {
    const RawNode &kid = c.nodes[k];
    if (prevEnd != kNone) {
      CmpOp op = CmpOp::Eq;
      bool sawNot = false, sawIs = false;
      for (uint32_t i = prevEnd; i < kid.firstTok; ++i) {
        switch (c.tokens[i].kind) {
        case TokenKind::EqEqual:
          op = CmpOp::Eq;
          break;
        case TokenKind::NotEqual:
          op = CmpOp::NotEq;
          break;
        case TokenKind::Less:
          op = CmpOp::Lt;
          break;
        case TokenKind::LessEqual:
          op = CmpOp::LtE;
          break;
        case TokenKind::Greater:
          op = CmpOp::Gt;
          break;
        case TokenKind::GreaterEqual:
          op = CmpOp::GtE;
          break;
        case TokenKind::KwIs:
          sawIs = true;
          op = CmpOp::Is;
          break;
        case TokenKind::KwNot:
          sawNot = true;
          op = sawIs ? CmpOp::IsNot : op;
          break;
        case TokenKind::KwIn:
          op = sawNot ? CmpOp::NotIn : CmpOp::In;
          break;
        default:
          break;
        }
      }
      ops.push_back(op);
    }
    prevEnd = kid.endTok;
  }
  return ops;
}

char Node::conversion() const {
  const RawNode *r = raw();
  if (!r || r->kind != NodeKind::FormattedValue)
    return 0;
  return static_cast<char>(r->op);
}

bool Node::isDebugFormat() const {
  const RawNode *r = raw();
  return r && r->kind == NodeKind::FormattedValue &&
         (r->flags & detail::kDebugFlag);
}

unsigned Node::importLevel() const {
  const RawNode *r = raw();
  if (!r || r->kind != NodeKind::ImportFrom)
    return 0;
  const Chunk &c = tree->getChunk(chunk);
  unsigned level = 0;
  for (uint32_t i = r->firstTok + 1; i < r->endTok; ++i) {
    TokenKind k = c.tokens[i].kind;
    if (k == TokenKind::Dot)
      level += 1;
    else if (k == TokenKind::Ellipsis)
      level += 3;
    else if (!isTrivia(k))
      break;
  }
  return level;
}

bool Node::isAsync() const {
  const RawNode *r = raw();
  return r && (r->flags & detail::kAsyncFlag);
}

ExprContext Node::context() const {
  const RawNode *r = raw();
  if (!r)
    return ExprContext::Load;
  switch (r->kind) {
  case NodeKind::Name:
  case NodeKind::Attribute:
  case NodeKind::Subscript:
  case NodeKind::Starred:
  case NodeKind::List:
  case NodeKind::Tuple:
    return static_cast<ExprContext>(r->flags & detail::kCtxMask);
  default:
    return ExprContext::Load;
  }
}

llvm::SmallVector<Token, 8> Node::tokens() const {
  llvm::SmallVector<Token, 8> out;
  const RawNode *r = raw();
  if (!r) {
    if (tree)
      for (const Token &t : tree->tokens())
        out.push_back(t);
    return out;
  }
  const Chunk &c = tree->getChunk(chunk);
  uint32_t base = chunkBase();
  for (uint32_t i = r->firstTok; i < r->endTok; ++i)
    out.push_back(Token{c.tokens[i].kind,
                        TextRange{base + c.tokens[i].offset,
                                  base + c.tokens[i].offset +
                                      c.tokens[i].length}});
  return out;
}

WalkResult syntax::walk(Node node,
                        llvm::function_ref<WalkResult(Node)> callback) {
  WalkResult first = callback(node);
  if (first == WalkResult::Interrupt)
    return first;
  if (first == WalkResult::Skip)
    return WalkResult::Advance;
  llvm::SmallVector<ChildRange::iterator, 32> stack;
  stack.push_back(node.children().begin());
  while (!stack.empty()) {
    if (stack.back() == ChildRange::iterator()) {
      stack.pop_back();
      continue;
    }
    Node c = *stack.back();
    ++stack.back();
    WalkResult r = callback(c);
    if (r == WalkResult::Interrupt)
      return r;
    if (r == WalkResult::Advance)
      stack.push_back(c.children().begin());
  }
  return WalkResult::Advance;
}
