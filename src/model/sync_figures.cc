#include "src/model/sync_figures.h"

#include "src/core/json_fields.h"

namespace disktune {

using namespace json_fields;  // NOLINT(google-build-using-namespace)

void to_json(nlohmann::json& j, const SyncFigures& f) {
  j = nlohmann::json::object();
  PutOpt(j, "ops_per_sec", f.ops_per_sec);
  PutOpt(j, "p50_ns", f.p50_ns);
  PutOpt(j, "p99_ns", f.p99_ns);
  PutOpt(j, "samples", f.samples);
  PutOpt(j, "flushes_per_sync", f.flushes_per_sync);
}

void from_json(const nlohmann::json& j, SyncFigures& f) {
  f.ops_per_sec = Opt<double>(j, "ops_per_sec");
  f.p50_ns = Opt<uint64_t>(j, "p50_ns");
  f.p99_ns = Opt<uint64_t>(j, "p99_ns");
  f.samples = Opt<uint64_t>(j, "samples");
  f.flushes_per_sync = Opt<double>(j, "flushes_per_sync");
}

}  // namespace disktune
