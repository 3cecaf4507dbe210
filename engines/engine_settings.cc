#include "engines/engine_settings.h"

#include <charconv>
#include <cstdint>

namespace disktune {

const std::vector<EngineSettingSpec>& EngineSettingSpecs() {
  static const std::vector<EngineSettingSpec> kSpecs = {
      {"lmdb", "lmdb.writemap", "on|off", "on",
       "MDB_WRITEMAP: commits write pages through the memory map, as LMDB's "
       "own benchmark opens it; off copies each page with write(2), the "
       "library's default"},
      {"lmdb", "lmdb.append", "on|off", "on",
       "MDB_APPEND for a key that sorts after every key already stored (a "
       "sequential load), as LMDB's own benchmark does for fillseq"},
      {"lmdb", "lmdb.readahead", "on|off", "on",
       "off opens with MDB_NORDAHEAD (no kernel readahead on the map)"},
      {"sqlite3", "sqlite3.wal_autocheckpoint", "count", "4096",
       "WAL pages between automatic checkpoints (LevelDB's SQLite benchmark "
       "uses 4096; SQLite's own default is 1000)"},
      {"bdb", "bdb.commit", "write_nosync|nosync", "write_nosync",
       "write_nosync (DB_TXN_WRITE_NOSYNC, as the LMDB project's Berkeley DB "
       "benchmark) writes the log to the OS at every commit; nosync keeps it "
       "in BDB's log buffer"},
      {"bdb", "bdb.checkpoint_kib", "count", "81920",
       "after each write, checkpoint once this many KiB of log were written "
       "or a minute passed, as the LMDB project's Berkeley DB benchmark does; "
       "0 checkpoints only at close"},
  };
  return kSpecs;
}

namespace {

const EngineSettingSpec* Find(std::string_view name) {
  for (const EngineSettingSpec& s : EngineSettingSpecs()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

bool ParseCount(std::string_view v, uint64_t* out) {
  if (v.empty()) return false;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), *out);
  return ec == std::errc() && p == v.data() + v.size();
}

bool ValueAllowed(const EngineSettingSpec& spec, std::string_view value) {
  if (spec.values == "count") {
    uint64_t n = 0;
    return ParseCount(value, &n);
  }
  std::string_view rest = spec.values;
  while (!rest.empty()) {
    const size_t bar = rest.find('|');
    if (rest.substr(0, bar) == value) return true;
    if (bar == std::string_view::npos) break;
    rest.remove_prefix(bar + 1);
  }
  return false;
}

}  // namespace

Status CheckEngineSetting(std::string_view name, std::string_view value) {
  const EngineSettingSpec* spec = Find(name);
  if (spec == nullptr) {
    std::string valid;
    for (const EngineSettingSpec& s : EngineSettingSpecs()) {
      valid += valid.empty() ? "" : ", ";
      valid += s.name;
    }
    return Status::InvalidArgument("unknown engine setting '" +
                                   std::string(name) + "'; valid: " + valid);
  }
  if (!ValueAllowed(*spec, value)) {
    return Status::InvalidArgument(
        "engine setting " + std::string(name) + ": '" + std::string(value) +
        "' is not " +
        (spec->values == "count" ? std::string("a whole number, e.g. ") +
                                       std::string(spec->default_value)
                                 : "one of " + std::string(spec->values)));
  }
  return Status::OK();
}

Result<std::pair<std::string, std::string>> ParseEngineSetting(
    std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    return Status::InvalidArgument(
        "engine setting '" + std::string(text) +
        "' is not NAME=VALUE, e.g. lmdb.writemap=off");
  }
  std::string name(text.substr(0, eq));
  std::string value(text.substr(eq + 1));
  DT_RETURN_IF_ERROR(CheckEngineSetting(name, value));
  return std::make_pair(std::move(name), std::move(value));
}

std::string EngineSettingValue(const EngineOptions& options,
                               std::string_view name) {
  for (auto it = options.settings.rbegin(); it != options.settings.rend();
       ++it) {
    if (it->first == name) return it->second;
  }
  const EngineSettingSpec* spec = Find(name);
  return spec != nullptr ? std::string(spec->default_value) : std::string();
}

bool EngineSettingOn(const EngineOptions& options, std::string_view name) {
  return EngineSettingValue(options, name) == "on";
}

uint64_t EngineSettingCount(const EngineOptions& options,
                            std::string_view name) {
  uint64_t n = 0;
  if (!ParseCount(EngineSettingValue(options, name), &n)) return 0;
  return n;
}

}  // namespace disktune
