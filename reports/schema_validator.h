// Validates a JSON document against one of the JSON Schema files in
// reports/schema (with valijson). Used by tests on real output, and by
// `disktune` readers that want to give a precise error for a bad file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace disktune {

// Returns the validation errors ("<json pointer>: <message>"); empty when
// valid.
std::vector<std::string> ValidateAgainstSchema(const nlohmann::json& schema,
                                               const nlohmann::json& doc);

}  // namespace disktune
