#pragma once

// One table per enum: each value with the name it is written as. NameOf and
// ParseName read the same table, so the name a value prints as and the name
// that parses back to it cannot disagree.
//
//   constexpr EnumName<Color> kColorNames[] = {{Color::kRed, "red"},
//                                              {Color::kBlue, "blue"}};
//   NameOf(kColorNames, Color::kRed, "?")  -> "red"
//   ParseName(kColorNames, "blue")         -> Color::kBlue

#include <cstddef>
#include <optional>
#include <string_view>

namespace disktune {

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `v` in `table`; `fallback` for a value the table does not list.
template <typename E, size_t N>
constexpr const char* NameOf(const EnumName<E> (&table)[N], E v,
                             const char* fallback) {
  for (const EnumName<E>& e : table) {
    if (e.value == v) return e.name;
  }
  return fallback;
}

// The value named exactly `name` (the first, where two share a name); nullopt
// for a name the table does not list.
template <typename E, size_t N>
constexpr std::optional<E> ParseName(const EnumName<E> (&table)[N],
                                     std::string_view name) {
  for (const EnumName<E>& e : table) {
    if (name == e.name) return e.value;
  }
  return std::nullopt;
}

}  // namespace disktune
