#include "src/core/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

namespace disktune {
namespace {

struct Unit {
  const char* name;
  double factor;
};

// One table per kind: what ParseSize, ParseDuration and FindUnit read.
constexpr Unit kSizeUnits[] = {
    {"B", 1},
    {"KiB", 1024.0},
    {"MiB", 1048576.0},
    {"GiB", 1073741824.0},
    {"TiB", 1099511627776.0},
    {"KB", 1e3},
    {"kB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
    {"K", 1024.0},
    {"M", 1048576.0},
    {"G", 1073741824.0},
    {"T", 1099511627776.0},
};
constexpr Unit kDurationUnits[] = {
    {"ns", 1},     {"us", 1e3},  {"\xC2\xB5s", 1e3} /* µs */,
    {"ms", 1e6},   {"s", 1e9},   {"m", 60e9},
    {"min", 60e9}, {"h", 3600e9}};

// Splits "12.5MiB" into 12.5 and "MiB". Rejects empty, signs and garbage.
Status SplitNumber(std::string_view text, double* number, std::string* unit) {
  std::string s(text);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.pop_back();
  size_t start = 0;
  while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start])))
    start++;
  s = s.substr(start);
  if (s.empty()) return Status::InvalidArgument("empty value");
  if (s[0] == '-') return Status::InvalidArgument("'" + s + "' is negative");
  size_t i = 0;
  bool digits = false;
  while (i < s.size() &&
         (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) {
    digits |= std::isdigit(static_cast<unsigned char>(s[i])) != 0;
    i++;
  }
  if (!digits)
    return Status::InvalidArgument("'" + s + "' does not start with a number");
  try {
    *number = std::stod(s.substr(0, i));
  } catch (...) {
    return Status::InvalidArgument("'" + s + "' is not a number");
  }
  size_t j = i;
  while (j < s.size() && s[j] == ' ') j++;
  *unit = s.substr(j);
  return Status::OK();
}

Result<double> Scale(std::string_view text, const Unit* units, size_t n,
                     bool fold_case, const char* what) {
  double number = 0;
  std::string unit;
  Status st = SplitNumber(text, &number, &unit);
  if (!st.ok()) return st;
  if (unit.empty()) {
    return Status::InvalidArgument("'" + std::string(text) + "' has no unit");
  }
  for (size_t k = 0; k < n; k++) {
    std::string u = units[k].name;
    bool match = unit == u;
    if (!match && fold_case && u != "B" && unit.size() == u.size()) {
      match = true;
      for (size_t c = 0; c < u.size(); c++) {
        if (std::tolower(static_cast<unsigned char>(unit[c])) !=
            std::tolower(static_cast<unsigned char>(u[c]))) {
          match = false;
          break;
        }
      }
    }
    if (match) return number * units[k].factor;
  }
  return Status::InvalidArgument("'" + std::string(text) + "' has an unknown " +
                                 what + " unit '" + unit + "'");
}

}  // namespace

Result<uint64_t> ParseSize(std::string_view text) {
  Result<double> r =
      Scale(text, kSizeUnits, std::size(kSizeUnits), true, "size");
  if (!r.ok()) return r.status();
  double v = std::round(*r);
  if (!(v <= 1.8e19)) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' is too large (at most 16 EiB)");
  }
  return static_cast<uint64_t>(v);
}

Result<uint64_t> ParseDuration(std::string_view text) {
  Result<double> r =
      Scale(text, kDurationUnits, std::size(kDurationUnits), false, "duration");
  if (!r.ok()) return r.status();
  // More than a year is a typo, and past ~584 years it does not fit in
  // nanoseconds at all.
  constexpr double kMaxDurationNs = 366.0 * 24 * 3600e9;
  if (!(*r <= kMaxDurationNs)) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' is too long (at most a year)");
  }
  return static_cast<uint64_t>(std::round(*r));
}

std::optional<UnitFactor> FindUnit(std::string_view unit) {
  for (const Unit& u : kSizeUnits) {
    if (unit == u.name) return UnitFactor{UnitKind::kSize, u.factor};
  }
  for (const Unit& u : kDurationUnits) {
    if (unit == u.name) return UnitFactor{UnitKind::kDuration, u.factor};
  }
  return std::nullopt;
}

std::string FormatBytes(double bytes) {
  static const char* kNames[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (bytes >= 1024.0 && i < 4) {
    bytes /= 1024.0;
    i++;
  }
  char buf[64];
  if (i == 0 || bytes == std::floor(bytes)) {
    std::snprintf(buf, sizeof(buf), "%.0f %s", bytes, kNames[i]);
  } else {
    std::snprintf(buf, sizeof(buf), "%.1f %s", bytes, kNames[i]);
  }
  return buf;
}

std::string FormatDuration(double ns) {
  char buf[64];
  if (ns < 1e3) {
    std::snprintf(buf, sizeof(buf), "%.0f ns", ns);
  } else if (ns < 1e6) {
    std::snprintf(buf, sizeof(buf), "%.1f us", ns / 1e3);
  } else if (ns < 1e9) {
    std::snprintf(buf, sizeof(buf), "%.2f ms", ns / 1e6);
  } else {
    std::snprintf(buf, sizeof(buf), "%.2f s", ns / 1e9);
  }
  return buf;
}

std::string FormatRate(double bytes_per_sec) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.1f MB/s", bytes_per_sec / 1e6);
  return buf;
}

}  // namespace disktune
