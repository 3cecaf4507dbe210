// The RocksDB options a set of knobs stands for, in RocksDB's own names and
// spellings: the one map from which the RocksDB adapter builds the options
// a trial runs with (rocksdb::GetDBOptionsFromMap,
// GetColumnFamilyOptionsFromMap, GetBlockBasedTableOptionsFromMap) and
// tune/engine_forms writes the OPTIONS file the user gets, so the file says
// what the trial ran. No RocksDB header is needed to build the map.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engines/engine.h"
#include "src/model/knob_spec.h"

namespace disktune {

struct RocksDbOption {
  const KnobSpec* knob;
  std::string_view section;  // KnobNative::section: "CFOptions", ...
  std::string name;          // the OPTIONS-file key: "write_buffer_size"
  std::string value;         // its spelling there: "67108864", "kZSTD"
};

struct RocksDbOptionMap {
  // Every knob `o` sets that RocksDB has, in the table's order. A bloom
  // filter of 0 bits (RocksDB's default, which has no spelling) is left out.
  std::vector<RocksDbOption> options;
  // Knobs set to a value RocksDB cannot take (a codec it has no such
  // compression for: LZO), with why.
  std::vector<std::pair<std::string, std::string>> unsupported;

  // The options of one section, as RocksDB's options-from-map calls take
  // them.
  std::unordered_map<std::string, std::string> Section(
      std::string_view section) const;
};

RocksDbOptionMap RocksDbOptionsOf(const EngineOptions& o);

// The OPTIONS file's sections, in the order RocksDB writes them.
inline constexpr std::string_view kRocksDbSections[] = {
    "DBOptions", "CFOptions", "TableOptions/BlockBasedTable"};

}  // namespace disktune
