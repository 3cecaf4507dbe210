#include "src/cli/output_plan.h"

#include <filesystem>
#include <map>

#include "src/core/output_file.h"

namespace disktune::cli {

Status CheckOutputPlan(const std::vector<OutputTarget>& targets) {
  std::map<std::string, std::string> seen;  // normal absolute path -> flag
  for (const OutputTarget& t : targets) {
    DT_RETURN_IF_ERROR(CheckOutputFile(t.path, t.flag));
    std::error_code ec;
    std::string key =
        std::filesystem::absolute(t.path, ec).lexically_normal().string();
    auto [it, fresh] = seen.emplace(key, t.flag);
    if (!fresh) {
      return Status::InvalidArgument(t.flag + " " + t.path +
                                     " is also the file " + it->second +
                                     " writes; give each output its own name");
    }
  }
  return Status::OK();
}

}  // namespace disktune::cli
