// The environment block of a report: the machine, the target directory, its
// filesystem and the disk behind it. Recorded in every report so two results
// can be told apart (and compared only when comparable). The struct and its
// JSON form; probes/environment.h collects it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/core/library_build.h"
#include "src/core/sysinfo.h"
#include "src/model/device_info.h"
#include "src/model/foreign_io.h"
#include "src/model/throttle_spec.h"

namespace disktune {

struct Environment {
  SystemInfo system;
  std::string target_dir;
  FilesystemInfo filesystem;
  std::optional<DeviceInfo> device;
  std::string device_note;  // why there is no device (tmpfs, ...)
  std::string build_type;
  // The engine libraries the figures came from, one per engine used (filled
  // by the command that ran the engines; empty for probe-only reports).
  std::vector<LibraryBuild> engine_libraries;
  // Set when the figures were measured under --throttle.
  std::optional<ThrottleRecord> throttle;
  // Other processes' I/O on the device, from when the environment was
  // collected (the measurements' start) to FinishForeignIo (their end).
  std::optional<ForeignIo> foreign_io;
};

// Whether other I/O on the device made the measurements busy, and why
// ("" when not, or not recorded).
std::string ForeignIoReason(const Environment& e);

void to_json(nlohmann::json& j, const Environment& e);
void from_json(const nlohmann::json& j, Environment& e);

}  // namespace disktune
