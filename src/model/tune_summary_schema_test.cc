// The tune object's two descriptions held together: the struct
// (tune_summary.h) and reports/schema/report.v1.schema.json's "tune". Every
// member the struct writes is in the schema with a type that admits it, every
// member the schema requires is written, every member the schema describes
// is one the struct writes (apart from the evidence it keeps as JSON), and the
// outcome names are the enum's.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include "src/model/tune_summary.h"
#include "src/model/tune_summary_for_test.h"

namespace disktune::model {
namespace {

using json = nlohmann::json;

json Schema() {
  std::ifstream in(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                   "/reports/schema/report.v1.schema.json");
  return json::parse(in);
}

const json& Resolve(const json& schema, const json& node) {
  auto ref = node.find("$ref");
  if (ref == node.end()) return node;
  const std::string prefix = "#/definitions/";
  std::string r = ref->get<std::string>();
  EXPECT_TRUE(r.starts_with(prefix)) << r;
  return Resolve(schema, schema["definitions"][r.substr(prefix.size())]);
}

bool TypeAdmits(const std::string& type, const json& v) {
  if (type == "integer") return v.is_number_integer();
  if (type == "number") return v.is_number();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "null") return v.is_null();
  return false;
}

// Walks `v` against `node`, failing for a member the schema does not
// describe, a value its type or enum does not admit, or a required member
// not written. `described` collects the schema paths the value reached.
void Walk(const json& schema, const json& v, const json& raw_node,
          const std::string& path, std::set<std::string>* described) {
  const json& node = Resolve(schema, raw_node);
  described->insert(path);
  if (auto e = node.find("enum"); e != node.end()) {
    EXPECT_NE(std::find(e->begin(), e->end(), v), e->end())
        << path << ": " << v.dump() << " is not in the schema's enum";
  }
  if (auto t = node.find("type"); t != node.end()) {
    bool ok = false;
    if (t->is_string()) {
      ok = TypeAdmits(t->get<std::string>(), v);
    } else {
      for (const json& one : *t) {
        ok = ok || TypeAdmits(one.get<std::string>(), v);
      }
    }
    EXPECT_TRUE(ok) << path << ": " << v.dump() << " is not of type "
                    << t->dump();
  }
  if (v.is_object()) {
    const json required = node.value("required", json::array());
    for (const json& req : required) {
      EXPECT_TRUE(v.contains(req.get<std::string>()))
          << path << "." << req.get<std::string>()
          << " is required by the schema but not written";
    }
    const json props = node.value("properties", json::object());
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string p = path + "." + it.key();
      if (props.contains(it.key())) {
        Walk(schema, it.value(), props[it.key()], p, described);
      } else if (node.contains("additionalProperties") &&
                 node["additionalProperties"].is_object()) {
        Walk(schema, it.value(), node["additionalProperties"], path + ".*",
             described);
      } else {
        ADD_FAILURE() << p << " is written but the schema does not describe it";
      }
    }
  } else if (v.is_array() && node.contains("items")) {
    for (const json& e : v)
      Walk(schema, e, node["items"], path + "[]", described);
  }
}

// Every schema path under `node` that names a member.
void SchemaPaths(const json& schema, const json& raw_node,
                 const std::string& path, std::set<std::string>* out) {
  const json& node = Resolve(schema, raw_node);
  out->insert(path);
  if (auto props = node.find("properties"); props != node.end()) {
    for (auto it = props->begin(); it != props->end(); ++it) {
      SchemaPaths(schema, it.value(), path + "." + it.key(), out);
    }
  }
  if (node.contains("items")) {
    SchemaPaths(schema, node["items"], path + "[]", out);
  }
}

TEST(TuneSummarySchemaTest, EveryMemberWrittenIsDescribedWithItsType) {
  const json schema = Schema();
  const json& tune = schema["definitions"]["tune"];
  std::set<std::string> described;
  Walk(schema, TuneSummaryToJson(FullTuneSummary()), tune, "tune", &described);
  Walk(schema, TuneSummaryToJson(MinimalTuneSummary()), tune, "tune",
       &described);
}

TEST(TuneSummarySchemaTest, EveryMemberTheSchemaDescribesIsWritten) {
  const json schema = Schema();
  const json& tune = schema["definitions"]["tune"];
  std::set<std::string> described;
  Walk(schema, TuneSummaryToJson(FullTuneSummary()), tune, "tune", &described);
  std::set<std::string> paths;
  SchemaPaths(schema, tune, "tune", &paths);
  // The evidence the struct keeps as JSON (TuneEvidence::other).
  const std::set<std::string> other = {
      "tune.evidence.baseline", "tune.evidence.device_facts",
      "tune.evidence.workload", "tune.evidence.rules",
      "tune.evidence.unjudged", "tune.evidence.plan"};
  for (const std::string& p : paths) {
    if (other.contains(p)) continue;
    EXPECT_TRUE(described.contains(p))
        << p << " is in the schema but the struct never writes it";
  }
}

TEST(TuneSummarySchemaTest, TheSchemasOutcomeNamesAreTheEnums) {
  const json schema = Schema();
  json outcomes = json::array();
  for (const auto& n : kKnobOutcomeNames) outcomes.push_back(n.name);
  EXPECT_EQ(schema["definitions"]["knob_outcome"]["enum"], outcomes);
  json proofs = json::array();
  for (const auto& n : kKnobProofNames) {
    if (n.value != KnobProof::kNone) proofs.push_back(n.name);
  }
  EXPECT_EQ(schema["definitions"]["knob_proof"]["enum"], proofs);
}

}  // namespace
}  // namespace disktune::model
