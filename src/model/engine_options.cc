// Compression names.
#include "src/model/engine_options.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "src/core/enum_names.h"

namespace disktune {
namespace {

std::string Lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return out;
}

constexpr EnumName<Compression> kCompressionNames[] = {
    {Compression::kNone, "none"}, {Compression::kSnappy, "snappy"},
    {Compression::kLz4, "lz4"},   {Compression::kZstd, "zstd"},
    {Compression::kLzo, "lzo"},
};

}  // namespace

const char* CompressionName(Compression c) {
  return NameOf(kCompressionNames, c, "unknown");
}

std::optional<Compression> ParseCompression(std::string_view s) {
  return ParseName(kCompressionNames, Lowercase(s));
}

}  // namespace disktune
