// What `report`, `compare` and `check` share: reading a result file as bad
// input when it is wrong (exit 2), and writing a rendering to --out.
#pragma once

#include <string>

#include "src/cli/command.h"
#include "src/core/status.h"
#include "src/model/report.h"

namespace disktune::cli {

// ReadReportFile, with every failure (missing, unreadable, not JSON, another
// schema or major version, a malformed report) as InvalidArgument: the
// operator passed the wrong file.
Result<Report> LoadResultFile(const std::string& path);

// Writes `text` to `out`: stdout for "" or "-", else the file, atomically
// (temp file + rename), so a failed run leaves no half-written file.
Status WriteOutput(CommandContext& ctx, const std::string& out,
                   const std::string& text);

}  // namespace disktune::cli
