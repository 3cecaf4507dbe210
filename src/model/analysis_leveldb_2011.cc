#include "src/model/analysis_leveldb_2011.h"

#include "src/core/json_fields.h"

namespace disktune {

using nlohmann::json;

void to_json(json& j, const Finding2011& f) {
  j = {{"finding", f.finding},
       {"compares", f.compares},
       {"ratio_2011", f.ratio_2011},
       {"verdict", f.verdict}};
  if (f.ratio_measured) j["ratio_measured"] = *f.ratio_measured;
}

void from_json(const json& j, Finding2011& f) {
  f.finding = json_fields::Str(j, "finding");
  f.compares = json_fields::Str(j, "compares");
  f.ratio_2011 = json_fields::Opt<double>(j, "ratio_2011").value_or(0);
  f.ratio_measured = json_fields::Opt<double>(j, "ratio_measured");
  f.verdict = json_fields::Str(j, "verdict");
}

void to_json(json& j, const Findings2011Check& c) {
  j = {{"source", c.source},
       {"rule", c.rule},
       {"summary", c.summary},
       {"findings", c.findings}};
}

void from_json(const json& j, Findings2011Check& c) {
  c.source = json_fields::Str(j, "source");
  c.rule = json_fields::Str(j, "rule");
  c.summary = json_fields::Str(j, "summary");
  c.findings = json_fields::List<Finding2011>(j, "findings");
}

}  // namespace disktune
