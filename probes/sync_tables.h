// The fsync probe's comparison tables as stored in a report: the write cache
// switched against as found, per run of the family (analyses
// "write_cache_ab"), and the sync points side by side on each filesystem of
// the matrix (analyses "fs_matrix").
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/probe_result.h"

namespace disktune {

// A sync point's figures in a table.
struct SyncFigures {
  std::optional<double> ops_per_sec;
  std::optional<uint64_t> p50_ns;
  std::optional<uint64_t> p99_ns;
  std::optional<uint64_t> samples;
  std::optional<double> flushes_per_sync;
};
void to_json(nlohmann::json& j, const SyncFigures& f);
void from_json(const nlohmann::json& j, SyncFigures& f);

struct WriteCacheAbPoint {
  std::string point;
  SyncFigures cache_on;
  SyncFigures cache_off;
  std::optional<double> off_over_on_p50;
};

struct WriteCacheAbRun {
  std::string results;  // the family's name prefix
  std::string status;   // "ok" or "skipped"
  std::string reason;   // when skipped
  // When ok:
  std::string switch_used;  // "switch": CacheSwitch::Describe()
  std::string switch_kind;  // CacheSwitchKindName()
  std::string as_found;     // "on" / "off"
  std::string switched_to;
  std::vector<WriteCacheAbPoint> points;
};

struct WriteCacheAb {
  static constexpr const char* kKey = "write_cache_ab";
  std::vector<WriteCacheAbRun> runs;
};
void to_json(nlohmann::json& j, const WriteCacheAbPoint& p);
void from_json(const nlohmann::json& j, WriteCacheAbPoint& p);
void to_json(nlohmann::json& j, const WriteCacheAbRun& r);
void from_json(const nlohmann::json& j, WriteCacheAbRun& r);
void to_json(nlohmann::json& j, const WriteCacheAb& a);
void from_json(const nlohmann::json& j, WriteCacheAb& a);
// Unset when no run switched a cache or was skipped.
std::optional<WriteCacheAb> WriteCacheAbTable(
    const std::vector<ProbeResult>& results);
std::optional<WriteCacheAb> WriteCacheAbOf(const nlohmann::json& analyses);

struct FsMatrixFilesystem {
  std::string filesystem;
  std::string status;  // "ok" or "skipped"
  std::string reason;  // when skipped
  std::string mount_options;
  std::string device;
};

struct FsMatrixPoint {
  std::string point;
  std::map<std::string, SyncFigures> by_filesystem;
};

struct FsMatrix {
  static constexpr const char* kKey = "fs_matrix";
  std::vector<FsMatrixFilesystem> filesystems;
  std::vector<FsMatrixPoint> points;
};
void to_json(nlohmann::json& j, const FsMatrixFilesystem& f);
void from_json(const nlohmann::json& j, FsMatrixFilesystem& f);
void to_json(nlohmann::json& j, const FsMatrixPoint& p);
void from_json(const nlohmann::json& j, FsMatrixPoint& p);
void to_json(nlohmann::json& j, const FsMatrix& m);
void from_json(const nlohmann::json& j, FsMatrix& m);
// Unset when no filesystem of the matrix was tried.
std::optional<FsMatrix> FsMatrixTable(const std::vector<ProbeResult>& results);
std::optional<FsMatrix> FsMatrixOf(const nlohmann::json& analyses);

}  // namespace disktune
