#include "src/model/analysis_bytes_written.h"

#include "src/core/json_fields.h"

namespace disktune {

using json_fields::Opt;

void to_json(nlohmann::json& j, const BytesWritten& b) {
  j = {{"rule", b.rule}};
  PutOpt(j, "process_bytes", b.process_bytes);
  if (b.disk_bytes) {
    j["disk"] = b.disk;
    j["disk_bytes"] = *b.disk_bytes;
  }
}

void from_json(const nlohmann::json& j, BytesWritten& b) {
  b.rule = json_fields::Str(j, "rule");
  b.process_bytes = Opt<uint64_t>(j, "process_bytes");
  b.disk = json_fields::Str(j, "disk");
  b.disk_bytes = Opt<uint64_t>(j, "disk_bytes");
}

}  // namespace disktune
