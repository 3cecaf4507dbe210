#include "src/model/analysis_fs_matrix.h"

#include "src/core/json_fields.h"

namespace disktune {

using namespace json_fields;  // NOLINT(google-build-using-namespace)

void to_json(nlohmann::json& j, const FsMatrixFilesystem& f) {
  j = {{"filesystem", f.filesystem}, {"status", f.status}};
  if (f.status == "ok") {
    j["mount_options"] = f.mount_options;
    j["device"] = f.device;
  } else {
    j["reason"] = f.reason;
  }
}

void from_json(const nlohmann::json& j, FsMatrixFilesystem& f) {
  f.filesystem = Str(j, "filesystem");
  f.status = Str(j, "status");
  f.reason = Str(j, "reason");
  f.mount_options = Str(j, "mount_options");
  f.device = Str(j, "device");
}

void to_json(nlohmann::json& j, const FsMatrixPoint& p) {
  j = {{"point", p.point}};
  for (const auto& [fs, figures] : p.by_filesystem) j[fs] = figures;
}

void from_json(const nlohmann::json& j, FsMatrixPoint& p) {
  p.point = Str(j, "point");
  p.by_filesystem.clear();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() != "point" && it->is_object())
      p.by_filesystem[it.key()] = it->get<SyncFigures>();
  }
}

void to_json(nlohmann::json& j, const FsMatrix& m) {
  j = {{"filesystems", m.filesystems}, {"points", m.points}};
}

void from_json(const nlohmann::json& j, FsMatrix& m) {
  m.filesystems = json_fields::List<FsMatrixFilesystem>(j, "filesystems");
  m.points = json_fields::List<FsMatrixPoint>(j, "points");
}

}  // namespace disktune
