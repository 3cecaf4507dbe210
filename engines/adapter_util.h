// Helpers shared by the engine adapters: directory handling that never leaves
// the database directory, and the knob bookkeeping common to B-tree engines.
// Internal to engines/; the bench runner sees only engine.h.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/engine.h"
#include "src/core/status.h"

namespace disktune::engine_internal {

using KnobList = std::vector<std::pair<std::string, std::string>>;

// The base of the adapters: the knobs the last Open() could not honour, which
// Open() lists in unsupported_.
class AdapterEngine : public Engine {
 public:
  KnobList unsupported_knobs() const override { return unsupported_; }

 protected:
  KnobList unsupported_;
};

// Creates `path` (and its parents) if missing.
Status EnsureDirectory(const std::string& path, std::string_view engine);

// Removes the regular files directly inside `path` whose name satisfies
// `is_db_file`, then `path` itself if that left it empty. Never recurses, so
// nothing outside the database's own files is touched. A missing `path` is OK.
Status RemoveDbFiles(
    const std::string& path, std::string_view engine,
    const std::function<bool(std::string_view name)>& is_db_file);

// Lists the LSM-only knobs (write buffer, bloom filter, table files) that a
// single-file B-tree engine has nothing to map onto. A knob whose value asks
// for "nothing" (bloom_bits_per_key = 0) is honoured trivially and not listed.
void AddSingleFileKnobs(const EngineOptions& options, std::string_view engine,
                        KnobList* out);

// Lists the set knobs only RocksDB has (EngineOptions::rocksdb) for any
// other engine. AddSingleFileKnobs includes them.
void AddRocksDbOnlyKnobs(const EngineOptions& options, std::string_view engine,
                         KnobList* out);

// "<engine> <op>: database is not open".
Status NotOpen(std::string_view engine, std::string_view op);

// What Get returns for a key that is not there: a read's ordinary outcome,
// so nothing is formatted for it and the message fits the string's inline
// buffer (no heap allocation per missing key).
inline Status KeyNotFound() { return Status::NotFound("no such key"); }

// An iterator that is never valid and reports `status`.
std::unique_ptr<EngineIterator> NewErrorIterator(Status status);

inline bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace disktune::engine_internal
