// What a `run` wrote: the sectors its disk completed writing (all writers on
// the disk) and the kernel's per-process write count. Stored in a report's
// analyses under "bytes_written".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/model/analysis_bytes_written.h"

namespace disktune {

std::optional<BytesWritten> BytesWrittenOf(const nlohmann::json& analyses);

}  // namespace disktune
