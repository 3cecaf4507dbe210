#include "reports/bytes_written.h"

#include "src/core/json_fields.h"

namespace disktune {

using json_fields::Opt;

std::optional<BytesWritten> BytesWrittenOf(const nlohmann::json& analyses) {
  return json_fields::Find<BytesWritten>(analyses, BytesWritten::kKey);
}

}  // namespace disktune
