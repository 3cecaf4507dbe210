// The recommendation in each engine's own form, written beside the profile:
//   RocksDB: an OPTIONS file (rocksdb::LoadOptionsFromFile reads it);
//   LevelDB: a C++ function filling leveldb::Options, and the same values as
//            JSON keyed by leveldb::Options' field names.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/core/status.h"
#include "src/tune/knobs.h"

namespace disktune::tune {

// `header`: one or more comment lines (without the comment marker) saying
// where the values come from.
std::string RocksDbOptionsIni(const TuneConfig& c, const std::string& header);
std::string LevelDbSnippet(const TuneConfig& c, const std::string& header);
nlohmann::json LevelDbOptionsJson(const TuneConfig& c,
                                  const std::string& header);

// {file suffix, contents} for `engine`: ".rocksdb.ini", or ".leveldb.cc"
// and ".leveldb.json".
std::vector<std::pair<std::string, std::string>> EngineForms(
    std::string_view engine, const TuneConfig& c, const std::string& header);

// Reads an INI file the way RocksDB's options parser does: '#' comments,
// [section] headers, key=value lines (surrounding blanks trimmed).
// InvalidArgument naming the line for anything else.
using IniSections = std::map<std::string, std::map<std::string, std::string>>;
Result<IniSections> ParseIni(std::string_view text);

}  // namespace disktune::tune
