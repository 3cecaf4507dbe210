#include "engines/rocksdb_option_map.h"

#include <optional>

namespace disktune {
namespace {

// RocksDB's CompressionType names (include/rocksdb/compression_type.h), in
// the order of Compression; "" for a codec RocksDB does not have (LZO).
constexpr std::string_view kCodecNames[] = {
    "kNoCompression", "kSnappyCompression", "kLZ4Compression", "kZSTD", ""};

std::optional<std::string> CodecName(Compression c) {
  const std::string_view name = kCodecNames[static_cast<size_t>(c)];
  if (name.empty()) return std::nullopt;
  return std::string(name);
}

// compression_per_level as RocksDB lists it: one codec per level of the
// default 7 (ColumnFamilyOptions::num_levels), "" for uniform (RocksDB's
// empty list: `compression` throughout).
std::string PerLevel(CompressionPerLevel p, const std::string& codec) {
  if (p != CompressionPerLevel::kNoneToL1) return "";
  constexpr int kLevels = 7;
  std::string out;
  for (int level = 0; level < kLevels; level++) {
    if (level > 0) out += ":";
    out += level < 2 ? "kNoCompression" : codec;
  }
  return out;
}

// The spelling of knob k at value v; nullopt = no line (see the header).
std::optional<std::string> Spelling(const KnobSpec& k, KnobValue v,
                                    const EngineOptions& o) {
  switch (k.id) {
    case KnobId::kBloomBitsPerKey:
      if (v <= 0) return std::nullopt;
      return "bloomfilter:" + std::to_string(v) + ":false";
    case KnobId::kBloomPrefixBytes:
      return v > 0 ? "rocksdb.FixedPrefix." + std::to_string(v) : "nullptr";
    case KnobId::kCompressionPerLevel: {
      // The codec of the deeper levels is the compression knob's.
      const KnobSpec& codec = KnobRow(KnobId::kCompression);
      auto name = CodecName(static_cast<Compression>(
          o.Get(codec.id).value_or(*codec.rocksdb.default_value)));
      return PerLevel(static_cast<CompressionPerLevel>(v),
                      name.value_or("kNoCompression"));
    }
    default:
      break;
  }
  if (k.unit == KnobUnit::kCompression) {
    return CodecName(static_cast<Compression>(v));
  }
  if (k.unit == KnobUnit::kBool) return v != 0 ? "true" : "false";
  if (k.unit == KnobUnit::kEnum) {
    if (v < 0 || static_cast<size_t>(v) >= k.choices.size()) {
      return std::nullopt;
    }
    return std::string(k.choices[static_cast<size_t>(v)].rocksdb);
  }
  return std::to_string(v);
}

}  // namespace

std::unordered_map<std::string, std::string> RocksDbOptionMap::Section(
    std::string_view section) const {
  std::unordered_map<std::string, std::string> out;
  for (const RocksDbOption& opt : options) {
    if (opt.section == section) out[opt.name] = opt.value;
  }
  return out;
}

RocksDbOptionMap RocksDbOptionsOf(const EngineOptions& o) {
  RocksDbOptionMap m;
  for (const KnobSpec& k : Knobs()) {
    std::optional<KnobValue> v = o.Get(k.id);
    if (!v || !k.rocksdb.default_value) continue;
    std::optional<std::string> value = Spelling(k, *v, o);
    if (value) {
      m.options.push_back(
          {&k, k.rocksdb.section, std::string(k.rocksdb.option), *value});
    } else if (k.unit == KnobUnit::kCompression) {
      m.unsupported.emplace_back(
          std::string(k.json_key),
          std::string("rocksdb has no ") +
              CompressionName(static_cast<Compression>(*v)));
    }
  }
  return m;
}

}  // namespace disktune
