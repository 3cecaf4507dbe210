// Fields of disktune's own JSON documents that may be absent: an optional is
// written only when it holds a value, a string only when it is not empty, and
// a field is read back only when it is present and not null (otherwise the
// target keeps what it holds).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

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
