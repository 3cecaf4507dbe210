#include "src/cli/report_input.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>

#include "src/core/output_file.h"

namespace disktune::cli {

Result<Report> LoadResultFile(const std::string& path) {
  Result<Report> r = ReadReportFile(path);
  if (!r.ok()) return Status::InvalidArgument(r.status().message());
  return r;
}

Status WriteOutput(CommandContext& ctx, const std::string& out,
                   const std::string& text) {
  if (out.empty() || out == "-") {
    ctx.out << text;
    ctx.out.flush();
    if (!ctx.out.good()) return ResultNotWritten();
    return Status::OK();
  }
  return WriteOutputFile(out, text, "--out");
}

}  // namespace disktune::cli
