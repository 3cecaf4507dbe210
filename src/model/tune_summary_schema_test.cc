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

GainFigure AGain() {
  return {.median = 1.5, .ci95_low = 1.2, .ci95_high = 1.8, .repeats = 5};
}

// Every optional set and every list non-empty: all the struct can write.
TuneSummary Full() {
  TuneSummary t;
  t.tool_version = "0.1.0";
  t.created_at = "2026-11-27T21:00:00Z";
  t.engine = "leveldb";
  t.workload = "write-heavy";
  t.memory_budget_bytes = 128 << 20;
  t.data_size_bytes = 1 << 20;
  t.time_budget_ns = 600'000'000'000ULL;
  t.elapsed_ns = 37'000'000'000ULL;
  t.write_budget_bytes = 1ULL << 30;
  t.bytes_written = 1ULL << 29;
  t.quick = false;
  t.verdict = "1.50x [1.20x, 1.80x] the baseline's throughput";
  TuneRecommendation& r = t.recommendation;
  r.engine_options = {{"write_buffer_bytes", 64 << 20},
                      {"compression", "snappy"},
                      {"paranoid_checks", true}};
  for (KnobOutcome o :
       {KnobOutcome::kDefault, KnobOutcome::kWon, KnobOutcome::kNoGain,
        KnobOutcome::kRule, KnobOutcome::kBudget, KnobOutcome::kSet}) {
    TunedOption op{.knob = "write_buffer_bytes",
                   .name = "write buffer",
                   .value = 64 << 20,
                   .value_text = "64 MiB",
                   .default_value = json(4 << 20),
                   .changed = true,
                   .outcome = o,
                   .reason = "fewer level-0 files",
                   .evidence = KnobProof::kLeaveOneOut,
                   .gain = AGain()};
    r.options.push_back(op);
  }
  r.options.back().value = "snappy";
  r.options.back().default_value = json(true);
  r.entries_per_batch = 8;
  r.changed = {"write_buffer_bytes"};
  r.memory = {.write_buffers_bytes = 128 << 20,
              .table_memory_bytes = 1 << 20,
              .cache_bytes = 32 << 20,
              .total_bytes = 161 << 20};
  r.explanation = {"leveldb for write-heavy"};
  TuneEvidence& e = t.evidence.emplace();
  for (KnobProof p :
       {KnobProof::kLeaveOneOut, KnobProof::kOwnAb, KnobProof::kRule}) {
    e.knobs.push_back({.knob = "write_buffer_bytes",
                       .default_value = 4 << 20,
                       .searched = 64 << 20,
                       .recommended = 64 << 20,
                       .outcome = KnobOutcome::kWon,
                       .reason = "won",
                       .evidence = p,
                       .gain = AGain()});
  }
  e.verification = VerificationSummary{.compared = "recommendation",
                                       .scale = 0.5,
                                       .num = 500000,
                                       .trial_cache_bytes = 8 << 20,
                                       .candidate_copy = "0.5 scale copy",
                                       .baseline_copy = "0.5 scale copy",
                                       .faithful = true,
                                       .order = "interleaved",
                                       .baseline_ops_per_sec = {1.0, 2.0},
                                       .candidate_ops_per_sec = {3.0, 4.0},
                                       .gain = AGain(),
                                       .significant = true,
                                       .target_writes_per_sec = 1000.0,
                                       .target_met = true};
  e.notes = {"a note"};
  return t;
}

// Nothing optional set.
TuneSummary Minimal() {
  TuneSummary t;
  t.engine = "rocksdb";
  t.workload = "mixed";
  t.verdict = "defaults";
  return t;
}

TEST(TuneSummarySchemaTest, EveryMemberWrittenIsDescribedWithItsType) {
  const json schema = Schema();
  const json& tune = schema["definitions"]["tune"];
  std::set<std::string> described;
  Walk(schema, TuneSummaryToJson(Full()), tune, "tune", &described);
  Walk(schema, TuneSummaryToJson(Minimal()), tune, "tune", &described);
}

TEST(TuneSummarySchemaTest, EveryMemberTheSchemaDescribesIsWritten) {
  const json schema = Schema();
  const json& tune = schema["definitions"]["tune"];
  std::set<std::string> described;
  Walk(schema, TuneSummaryToJson(Full()), tune, "tune", &described);
  std::set<std::string> paths;
  SchemaPaths(schema, tune, "tune", &paths);
  // The evidence the struct keeps as JSON (TuneEvidence::other).
  const std::set<std::string> other = {
      "tune.evidence.baseline", "tune.evidence.device_facts",
      "tune.evidence.workload", "tune.evidence.rules",
      "tune.evidence.search",   "tune.evidence.unjudged",
      "tune.evidence.plan"};
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
