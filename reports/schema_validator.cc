#include "reports/schema_validator.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

namespace disktune {

std::vector<std::string> ValidateAgainstSchema(const nlohmann::json& schema_doc,
                                               const nlohmann::json& doc) {
  valijson::Schema schema;
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter schema_adapter(schema_doc);
  std::vector<std::string> errors;
  try {
    parser.populateSchema(schema_adapter, schema);
  } catch (const std::exception& e) {
    errors.push_back(std::string("schema: ") + e.what());
    return errors;
  }
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter doc_adapter(doc);
  if (validator.validate(schema, doc_adapter, &results)) return errors;
  valijson::ValidationResults::Error err;
  while (results.popError(err)) {
    std::string where;
    for (const auto& c : err.context) where += c;
    errors.push_back(where + ": " + err.description);
  }
  return errors;
}

}  // namespace disktune
