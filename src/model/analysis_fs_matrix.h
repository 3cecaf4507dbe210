// The analyses' "fs_matrix": under --fs-matrix, the sync points side by
// side on each filesystem of the matrix (tabled by probes/sync_tables.h).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/model/sync_figures.h"

namespace disktune {

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

}  // namespace disktune
