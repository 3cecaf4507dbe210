// The engine knobs disktune sets, as one table.
//
// Every place that names a knob iterates Knobs() or names its row by KnobId:
// bench's flags, the "engine_options" object of profiles and results
// (EngineOptions holds knob values by row, src/model/knob_values.h), the
// runner's "same options?" test, the tuner's TuneConfig, candidate space,
// evidence and engine forms, and the reports. Adding a knob is its row in
// knob_spec.cc and each engine's mapping: its native name in the row's
// engine columns, which RocksDB's adapter, the options it reads back from
// the open database and the OPTIONS file all read
// (engines/rocksdb_option_map.h, which spells the few values RocksDB writes
// in a form of its own), and the other adapters' code where they honour it
// (LevelDB's adapter reads EngineOptions by id). A KnobId enumerator
// (src/model/knob_values.h) is needed only for code that names the row; a
// rule (src/tune/rules.cc, rocksdb_rules.cc) only for the tuner to decide
// the knob. The result schema takes every row's json_key
// (src/bench/bench_schema_test.cc checks it); src/cli/extra_knob_test.cc
// adds a row at run time and follows it everywhere.
//
// A value travels as one integer (KnobValue): bytes, a count, bits per key,
// a Compression's enum value, 0/1 or the index of a named choice, so generic
// code (flags, JSON, text, "does it differ?") needs no switch over knobs.
//
// Rows with a RocksDB default and no LevelDB default are RocksDB's own knobs:
// LevelDB's forms and search never see them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "src/core/status.h"
#include "src/model/engine_options.h"
#include "src/model/knob_values.h"

namespace disktune {

enum class KnobUnit {
  kBytes,        // text "48 MiB", flag "48MiB", JSON integer bytes
  kCount,        // text and JSON integer; -1 = unlimited (RocksDB's spelling)
  kBitsPerKey,   // text "10 bits/key", 0 = "none"
  kCompression,  // text and JSON the codec's name ("snappy")
  kBool,         // text and flag "on" / "off", JSON true / false
  kEnum,         // text, flag and JSON a name of KnobSpec::choices
};

// One value of a kEnum knob: its index in KnobSpec::choices is the value.
struct KnobChoice {
  std::string_view name;     // for people, flags and JSON: "universal"
  std::string_view rocksdb;  // the OPTIONS file's: "kCompactionStyleUniversal"
};

// One engine's column of a row: its own name for the knob and its default.
struct KnobNative {
  // The engine's own default (leveldb::Options(), rocksdb::Options());
  // unset = the engine has no such option.
  std::optional<KnobValue> default_value;
  // The option as the engine's configuration spells it: leveldb::Options'
  // member; RocksDB's OPTIONS-file key.
  std::string_view option;
  // RocksDB: the OPTIONS-file section ("DBOptions", "CFOptions",
  // "TableOptions/BlockBasedTable"), which also says which of RocksDB's
  // options-from-map calls reads it.
  std::string_view section = {};
};

struct KnobSpec {
  // The row's position in Knobs(): a KnobId enumerator for the rows code
  // names (src/model/knob_values.h); left kUnnamed in a row nobody names, and
  // numbered by the table.
  KnobId id = KnobId::kUnnamed;
  std::string_view name;      // for people: "write buffer"
  std::string_view json_key;  // "write_buffer_bytes" (EngineOptions' field)
  std::string_view flag;      // bench's flag without "--": "write-buffer-size"
  std::string_view help;      // the flag's help text
  std::string_view example;   // a valid flag value: "4MiB"
  KnobUnit unit;
  // What a user may set, by flag or profile (defaults are not checked).
  KnobValue min_value;
  KnobValue max_value;
  // One column per engine the table models.
  KnobNative leveldb = {};  // {} = LevelDB has no such option
  KnobNative rocksdb = {};
  // The tuner: what the knob changes shows in the compactions of the
  // deepest levels (the memtables' size and count, the level-0 triggers,
  // the level sizes, the compaction style), so it is not ranked on copies
  // that fill fewer levels than the full size.
  bool shapes_lsm = false;
  // kEnum: the values, in the order of the field's enum.
  std::span<const KnobChoice> choices = {};
};

// Every knob, in the order people read them: the rows of knob_spec.cc,
// then any a test registered (ScopedExtraKnobForTest).
std::span<const KnobSpec> Knobs();
// The row of `id`.
const KnobSpec& KnobRow(KnobId id);
// The row whose json_key is `key`; nullptr when there is none.
const KnobSpec* FindKnob(std::string_view json_key);
// The engine's own default for the knob; unset when the engine has no such
// option or is not one the table models ("leveldb", "rocksdb").
std::optional<KnobValue> KnobDefault(const KnobSpec& k,
                                     std::string_view engine);

// True for a row only RocksDB has (no LevelDB default).
inline bool IsRocksDbOnly(const KnobSpec& k) {
  return k.rocksdb.default_value && !k.leveldb.default_value;
}

// For people: "48 MiB", "10 bits/key", "none", "snappy", "1000",
// "unlimited", "on", "universal".
std::string KnobValueText(const KnobSpec& k, KnobValue v);
// Parses what a user typed for `k`'s flag (sizes with units, see
// core/units.h; counts as integers; codec and choice names; on/off) and
// checks the range.
// InvalidArgument naming the flag and a valid example otherwise.
Result<KnobValue> ParseKnobFlag(const KnobSpec& k, std::string_view text);
// InvalidArgument naming the flag when v is outside [min_value, max_value].
Status CheckKnobRange(const KnobSpec& k, KnobValue v);

// JSON: an integer, a boolean, or the codec's or choice's name.
nlohmann::json KnobValueToJson(const KnobSpec& k, KnobValue v);
// InvalidArgument "<where>.<json_key> ..." on a wrong type or unknown codec.
Result<KnobValue> KnobValueFromJson(const KnobSpec& k, const nlohmann::json& j,
                                    const std::string& where);

// Every knob `o` sets, by json_key.
nlohmann::json KnobsToJson(const EngineOptions& o);
// Reads every knob key of `j` into *o; keys that are not knobs are left for
// the caller. A wrong type or codec names `where`; ranges are checked
// where the values are used (bench::ValidateOverrides).
Status KnobsFromJson(const nlohmann::json& j, const std::string& where,
                     EngineOptions* o);

// True when `o` sets a knob only RocksDB has.
bool SetsRocksDbOnlyKnob(const EngineOptions& o);

// True when a and b set every knob alike (unset = unset).
bool SameKnobs(const EngineOptions& a, const EngineOptions& b);
// Copies each knob `from` sets into *to: always (`overwrite`), or only where
// *to leaves it unset.
void MergeKnobs(const EngineOptions& from, bool overwrite, EngineOptions* to);

// For tests: appends `row` to Knobs() for the object's lifetime, numbered
// after the last row (id() is its KnobId), so a test can see a knob nobody
// wrote code for travel through flags, JSON, profiles, the engines and the
// reports. One at a time; REQUIRES: no other code holds a row's address
// across the object's construction or destruction.
class ScopedExtraKnobForTest {
 public:
  explicit ScopedExtraKnobForTest(const KnobSpec& row);
  ~ScopedExtraKnobForTest();
  ScopedExtraKnobForTest(const ScopedExtraKnobForTest&) = delete;
  ScopedExtraKnobForTest& operator=(const ScopedExtraKnobForTest&) = delete;
  KnobId id() const { return id_; }

 private:
  KnobId id_;
};

}  // namespace disktune
