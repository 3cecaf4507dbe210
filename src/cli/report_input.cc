#include "src/cli/report_input.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>

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
    return Status::OK();
  }
  std::string tmp = out + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc | std::ios::binary);
    if (!f) return Status::FromErrno(errno, "--out " + out);
    f << text;
    f.flush();
    if (!f) {
      unlink(tmp.c_str());
      return Status::IOError("--out " + out + ": write failed");
    }
  }
  if (std::rename(tmp.c_str(), out.c_str()) != 0) {
    int err = errno;
    unlink(tmp.c_str());
    return Status::FromErrno(err, "--out " + out);
  }
  return Status::OK();
}

}  // namespace disktune::cli
