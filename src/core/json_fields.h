// Fields of disktune's own JSON documents that may be absent: an optional is
// written only when it holds a value, a string only when it is not empty, and
// a field is read back only when it is present and not null (otherwise the
// target keeps what it holds).
//
// json_fields:: reads tolerantly, for analyses a result written by an earlier
// version may lack or hold with another type: a member of the wrong type
// reads as absent instead of failing the whole document.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace disktune {

template <typename T>
void PutOpt(nlohmann::json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

inline void PutStr(nlohmann::json& j, const char* key, const std::string& v) {
  if (!v.empty()) j[key] = v;
}

// Reads `key` into `*v` (a plain value or a std::optional) when it is there.
template <typename T>
void GetIf(const nlohmann::json& j, const char* key, T* v) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  if constexpr (requires { v->has_value(); }) {
    *v = it->template get<typename T::value_type>();
  } else {
    *v = it->template get<T>();
  }
}

}  // namespace disktune

namespace disktune::json_fields {

// A string member, or "" when absent or not a string.
inline std::string Str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// A member of type T, or unset when absent or of another type.
template <typename T>
std::optional<T> Opt(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if constexpr (std::is_same_v<T, bool>) {
    if (!it->is_boolean()) return std::nullopt;
  } else if constexpr (std::is_arithmetic_v<T>) {
    if (!it->is_number()) return std::nullopt;
  }
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

// An array member as a vector of T; elements of another shape are skipped.
template <typename T>
std::vector<T> List(const nlohmann::json& j, const char* key) {
  std::vector<T> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& e : *it) {
    if (!e.is_object()) continue;
    try {
      out.push_back(e.get<T>());
    } catch (const nlohmann::json::exception&) {
    }
  }
  return out;
}

}  // namespace disktune::json_fields
