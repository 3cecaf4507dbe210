// The ids of the engine knob table's rows (src/model/knob_spec.h) and a set of
// knob values indexed by them: what EngineOptions and the tuner's TuneConfig
// hold, so neither has a field per knob.
//
// A KnobId is a row's position in the table. The enumerators below name the
// rows code refers to by id (the tuner's rules, the memory model, the
// adapters that read a knob by hand); a row only the engines' option maps
// read needs no enumerator: its id is its position.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <type_traits>

namespace disktune {

// A knob's value as one integer: bytes, a count, bits per key, an enum's
// value, 0/1 (src/model/knob_spec.h, KnobUnit).
using KnobValue = int64_t;

enum class KnobId : uint16_t {
  kCacheBytes,
  kWriteBufferBytes,
  kBloomBitsPerKey,
  kCompression,
  kBlockSizeBytes,
  kMaxOpenFiles,
  kMaxFileBytes,
  kMaxWriteBufferNumber,
  kMinWriteBufferNumberToMerge,
  kLevel0FileNumCompactionTrigger,
  kLevel0SlowdownWritesTrigger,
  kLevel0StopWritesTrigger,
  kMaxBytesForLevelBase,
  kMaxBytesForLevelMultiplier,
  kMaxBackgroundJobs,
  kBytesPerSync,
  kWalBytesPerSync,
  kCompactionReadaheadBytes,
  kDirectIoForFlushAndCompaction,
  kAllowMmapReads,
  kBottommostCompression,
  kCompressionPerLevel,
  kWholeKeyFiltering,
  kBloomPrefixBytes,
  kCompactionStyle,
  // Rows without an enumerator follow, by position.
  kUnnamed = 0xffff,  // KnobSpec::id of such a row before the table numbers it
};
// The rows with an enumerator: the table's first kNamedKnobCount rows.
inline constexpr size_t kNamedKnobCount =
    static_cast<size_t>(KnobId::kCompactionStyle) + 1;

inline constexpr KnobId KnobIdAt(size_t position) {
  return static_cast<KnobId>(position);
}

// Knob values by row; a row not in the set is unset (the engine's default).
class KnobValues {
 public:
  std::optional<KnobValue> Get(KnobId id) const {
    auto it = values_.find(id);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  void Set(KnobId id, KnobValue v) { values_[id] = v; }
  void Unset(KnobId id) { values_.erase(id); }
  // nullopt unsets the row.
  void Set(KnobId id, const std::optional<KnobValue>& v) {
    if (v.has_value()) {
      Set(id, v.value());
    } else {
      Unset(id);
    }
  }
  template <typename E>
  requires std::is_enum_v<E>
  void Set(KnobId id, E v) { Set(id, static_cast<KnobValue>(v)); }
  bool empty() const { return values_.empty(); }
  // The set rows, in the table's order.
  const std::map<KnobId, KnobValue>& values() const { return values_; }

  bool operator==(const KnobValues&) const = default;

 private:
  std::map<KnobId, KnobValue> values_;
};

}  // namespace disktune
