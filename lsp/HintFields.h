//===- HintFields.h - Optional fields of evaluator hints --------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Layout inference fills layouts into the evaluator's hints (eval::Hint).
// The fields are detected at compile time, so that the language server
// builds against the evaluator before and after they exist and picks them
// up without a change: `layout` is the short label (`swizzle 128B`),
// `layoutDetail` (or `layoutLong`) the long form (a Markdown table).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_HINTFIELDS_H
#define TLC_LSP_HINTFIELDS_H

#include <string>
#include <type_traits>
#include <utility>

namespace tlc {
namespace lsp {
namespace detail {
#define TLC_LSP_STRING_FIELD_TRAIT(Trait, Field)                               \
  template <typename H, typename = void> struct Trait : std::false_type {};    \
  template <typename H>                                                        \
  struct Trait<H, std::void_t<decltype(std::declval<const H &>().Field)>>      \
      : std::is_convertible<decltype(std::declval<const H &>().Field),         \
                            std::string> {};
TLC_LSP_STRING_FIELD_TRAIT(HasLayout, layout)
TLC_LSP_STRING_FIELD_TRAIT(HasLayoutDetail, layoutDetail)
TLC_LSP_STRING_FIELD_TRAIT(HasLayoutLong, layoutLong)
#undef TLC_LSP_STRING_FIELD_TRAIT
} // namespace detail

/// The short layout label of a hint; empty when the hint type has none.
template <typename H> std::string getHintLayout(const H &hint) {
  if constexpr (detail::HasLayout<H>::value)
    return hint.layout;
  else
    return "";
}

/// The long layout form of a hint; empty when the hint type has none.
template <typename H> std::string getHintLayoutDetail(const H &hint) {
  if constexpr (detail::HasLayoutDetail<H>::value)
    return hint.layoutDetail;
  else if constexpr (detail::HasLayoutLong<H>::value)
    return hint.layoutLong;
  else
    return "";
}

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_HINTFIELDS_H
