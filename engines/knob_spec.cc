#include "engines/knob_spec.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

#include "src/core/units.h"

namespace disktune {
namespace {

constexpr KnobValue kKiB = 1024;
constexpr KnobValue kMiB = 1024 * kKiB;
constexpr KnobValue kNoMax = std::numeric_limits<KnobValue>::max();
constexpr KnobValue kUnlimited = -1;

// get/set of one EngineOptions field, whatever its value type.
template <auto kField>
struct Field {
  static std::optional<KnobValue> Get(const EngineOptions& o) {
    const auto& v = o.*kField;
    if (!v) return std::nullopt;
    return static_cast<KnobValue>(*v);
  }
  static void Set(EngineOptions* o, std::optional<KnobValue> v) {
    using T =
        typename std::remove_reference_t<decltype(o->*kField)>::value_type;
    if (v) {
      o->*kField = static_cast<T>(*v);
    } else {
      o->*kField = std::nullopt;
    }
  }
};

#define DT_KNOB_FIELD(f) \
  &Field<&EngineOptions::f>::Get, &Field<&EngineOptions::f>::Set

// Defaults: leveldb::Options() of 1.23 (include/leveldb/options.h, and the
// 8 MiB LRU cache DBImpl creates when block_cache is null); rocksdb::Options()
// and BlockBasedTableOptions() of 7.8 (table.h: "If NULL, rocksdb will
// automatically create and use an 8MB internal cache").
const std::array<KnobSpec, 7> kKnobs = {{
    {"block cache", "cache_bytes", "cache-size",
     "block cache, e.g. 8MiB (default: engine's)", "8MiB", KnobUnit::kBytes, 0,
     kNoMax, 8 * kMiB, 8 * kMiB, "block_cache", "TableOptions/BlockBasedTable",
     "block_cache", DT_KNOB_FIELD(cache_bytes)},
    {"write buffer", "write_buffer_bytes", "write-buffer-size",
     "write buffer / memtable, e.g. 4MiB (default: engine's)", "4MiB",
     KnobUnit::kBytes, 64 * kKiB, kNoMax, 4 * kMiB, 64 * kMiB,
     "write_buffer_size", "CFOptions", "write_buffer_size",
     DT_KNOB_FIELD(write_buffer_bytes)},
    {"bloom filter", "bloom_bits_per_key", "bloom-bits",
     "bloom filter bits per key (0 = none)", "10", KnobUnit::kBitsPerKey, 0, 64,
     0, 0, "filter_policy", "TableOptions/BlockBasedTable", "filter_policy",
     DT_KNOB_FIELD(bloom_bits_per_key)},
    {"compression", "compression", "compression",
     "none, snappy, lz4, zstd, lzo", "snappy", KnobUnit::kCompression, 0,
     static_cast<KnobValue>(Compression::kLzo),
     static_cast<KnobValue>(Compression::kSnappy),
     static_cast<KnobValue>(Compression::kSnappy), "compression", "CFOptions",
     "compression", DT_KNOB_FIELD(compression)},
    {"block size", "block_size_bytes", "block-size",
     "table block size, e.g. 4KiB", "4KiB", KnobUnit::kBytes, 256, kNoMax,
     4 * kKiB, 4 * kKiB, "block_size", "TableOptions/BlockBasedTable",
     "block_size", DT_KNOB_FIELD(block_size_bytes)},
    {"open files", "max_open_files", "max-open-files", "table files kept open",
     "1000", KnobUnit::kCount, 1, std::numeric_limits<int>::max(), 1000,
     kUnlimited, "max_open_files", "DBOptions", "max_open_files",
     DT_KNOB_FIELD(max_open_files)},
    {"table file size", "max_file_bytes", "max-file-size",
     "table file size, e.g. 2MiB", "2MiB", KnobUnit::kBytes, 0, kNoMax,
     2 * kMiB, 64 * kMiB, "max_file_size", "CFOptions", "target_file_size_base",
     DT_KNOB_FIELD(max_file_bytes)},
}};

#undef DT_KNOB_FIELD

std::string Flag(const KnobSpec& k) { return "--" + std::string(k.flag); }

}  // namespace

std::span<const KnobSpec> Knobs() { return kKnobs; }

const KnobSpec* FindKnob(std::string_view json_key) {
  for (const KnobSpec& k : kKnobs) {
    if (k.json_key == json_key) return &k;
  }
  return nullptr;
}

std::optional<KnobValue> KnobDefault(const KnobSpec& k,
                                     std::string_view engine) {
  if (engine == "leveldb") return k.leveldb_default;
  if (engine == "rocksdb") return k.rocksdb_default;
  return std::nullopt;
}

std::string KnobValueText(const KnobSpec& k, KnobValue v) {
  switch (k.unit) {
    case KnobUnit::kBytes:
      return FormatBytes(static_cast<double>(v));
    case KnobUnit::kCount:
      return v < 0 ? "unlimited" : std::to_string(v);
    case KnobUnit::kBitsPerKey:
      return v > 0 ? std::to_string(v) + " bits/key" : "none";
    case KnobUnit::kCompression:
      return CompressionName(static_cast<Compression>(v));
  }
  return std::to_string(v);
}

Status CheckKnobRange(const KnobSpec& k, KnobValue v) {
  if (v >= k.min_value && v <= k.max_value) return Status::OK();
  std::string got = ", got " + KnobValueText(k, v);
  if (k.max_value == kNoMax ||
      (k.unit == KnobUnit::kCount &&
       k.max_value == std::numeric_limits<int>::max())) {
    return Status::InvalidArgument(Flag(k) + " must be at least " +
                                   KnobValueText(k, k.min_value) + got);
  }
  return Status::InvalidArgument(Flag(k) + " must be in [" +
                                 std::to_string(k.min_value) + ", " +
                                 std::to_string(k.max_value) + "]" + got);
}

Result<KnobValue> ParseKnobFlag(const KnobSpec& k, std::string_view text) {
  std::optional<KnobValue> v;
  switch (k.unit) {
    case KnobUnit::kBytes: {
      Result<uint64_t> r = ParseSize(text);
      if (!r.ok()) {
        return Status::InvalidArgument(Flag(k) + ": " + r.status().message() +
                                       "; e.g. " + Flag(k) + " " +
                                       std::string(k.example));
      }
      if (*r > static_cast<uint64_t>(kNoMax)) break;
      v = static_cast<KnobValue>(*r);
      break;
    }
    case KnobUnit::kCount:
    case KnobUnit::kBitsPerKey: {
      KnobValue n = 0;
      auto [end, ec] =
          std::from_chars(text.data(), text.data() + text.size(), n);
      if (ec == std::errc() && end == text.data() + text.size()) v = n;
      break;
    }
    case KnobUnit::kCompression:
      if (auto c = ParseCompression(text)) v = static_cast<KnobValue>(*c);
      break;
  }
  if (!v) {
    return Status::InvalidArgument(Flag(k) + ": cannot read '" +
                                   std::string(text) + "'; e.g. " + Flag(k) +
                                   " " + std::string(k.example));
  }
  DT_RETURN_IF_ERROR(CheckKnobRange(k, *v));
  return *v;
}

nlohmann::json KnobValueToJson(const KnobSpec& k, KnobValue v) {
  if (k.unit == KnobUnit::kCompression) {
    return CompressionName(static_cast<Compression>(v));
  }
  return v;
}

Result<KnobValue> KnobValueFromJson(const KnobSpec& k, const nlohmann::json& j,
                                    const std::string& where) {
  const std::string path = where + "." + std::string(k.json_key);
  if (k.unit == KnobUnit::kCompression) {
    auto c =
        j.is_string() ? ParseCompression(j.get<std::string>()) : std::nullopt;
    if (!c) return Status::InvalidArgument(path + " is unknown");
    return static_cast<KnobValue>(*c);
  }
  if (!j.is_number_integer()) {
    return Status::InvalidArgument(path + " has the wrong type");
  }
  if (j.is_number_unsigned() &&
      j.get<uint64_t>() > static_cast<uint64_t>(kNoMax)) {
    return Status::InvalidArgument(path + " is out of range");
  }
  return j.get<KnobValue>();
}

nlohmann::json KnobsToJson(const EngineOptions& o) {
  nlohmann::json j = nlohmann::json::object();
  for (const KnobSpec& k : kKnobs) {
    if (auto v = k.get(o)) j[std::string(k.json_key)] = KnobValueToJson(k, *v);
  }
  return j;
}

Status KnobsFromJson(const nlohmann::json& j, const std::string& where,
                     EngineOptions* o) {
  for (const KnobSpec& k : kKnobs) {
    auto it = j.find(k.json_key);
    if (it == j.end()) continue;
    Result<KnobValue> v = KnobValueFromJson(k, *it, where);
    if (!v.ok()) return v.status();
    k.set(o, *v);
  }
  return Status::OK();
}

bool SameKnobs(const EngineOptions& a, const EngineOptions& b) {
  return std::all_of(kKnobs.begin(), kKnobs.end(),
                     [&](const KnobSpec& k) { return k.get(a) == k.get(b); });
}

void MergeKnobs(const EngineOptions& from, bool overwrite, EngineOptions* to) {
  for (const KnobSpec& k : kKnobs) {
    std::optional<KnobValue> v = k.get(from);
    if (v && (overwrite || !k.get(*to))) k.set(to, v);
  }
}

}  // namespace disktune
