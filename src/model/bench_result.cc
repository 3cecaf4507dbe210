#include "src/model/bench_result.h"

#include <cstdio>

#include "src/core/json_fields.h"
#include "src/model/knob_spec.h"

namespace disktune::bench {

using nlohmann::json;

namespace {

json RepeatStatToJson(const RepeatStat& s) {
  json j = {{"median", s.median}, {"min", s.min}, {"max", s.max}};
  PutOpt(j, "ci95_low", s.ci95_low);
  PutOpt(j, "ci95_high", s.ci95_high);
  j["values"] = s.values;
  return j;
}

RepeatStat RepeatStatFromJson(const json& j) {
  RepeatStat s;
  GetIf(j, "median", &s.median);
  GetIf(j, "min", &s.min);
  GetIf(j, "max", &s.max);
  GetIf(j, "ci95_low", &s.ci95_low);
  GetIf(j, "ci95_high", &s.ci95_high);
  GetIf(j, "values", &s.values);
  return s;
}

json KnobsToJson(const std::vector<std::pair<std::string, std::string>>& v,
                 const char* a, const char* b) {
  json arr = json::array();
  for (const auto& [x, y] : v) arr.push_back({{a, x}, {b, y}});
  return arr;
}

std::vector<std::pair<std::string, std::string>> KnobsFromJson(const json& j,
                                                               const char* a,
                                                               const char* b) {
  std::vector<std::pair<std::string, std::string>> v;
  if (!j.is_array()) return v;
  for (const json& e : j) {
    v.emplace_back(e.value(a, std::string()), e.value(b, std::string()));
  }
  return v;
}

}  // namespace

const char* RunStatusName(RunStatus s) {
  switch (s) {
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kPartial:
      return "partial";
    case RunStatus::kFailed:
      return "failed";
    case RunStatus::kSkipped:
      return "skipped";
  }
  return "unknown";
}

json LatencyToJson(const LatencySummary& s) {
  return json{{"mean", s.mean}, {"stddev", s.stddev}, {"min", s.min},
              {"p50", s.p50},   {"p90", s.p90},       {"p99", s.p99},
              {"p999", s.p999}, {"max", s.max},       {"samples", s.samples}};
}

LatencySummary LatencyFromJson(const json& j) {
  LatencySummary s;
  GetIf(j, "mean", &s.mean);
  GetIf(j, "stddev", &s.stddev);
  GetIf(j, "min", &s.min);
  GetIf(j, "p50", &s.p50);
  GetIf(j, "p90", &s.p90);
  GetIf(j, "p99", &s.p99);
  GetIf(j, "p999", &s.p999);
  GetIf(j, "max", &s.max);
  GetIf(j, "samples", &s.samples);
  return s;
}

json EngineOptionsToJson(const EngineOptions& o) {
  json j = KnobsToJson(o);
  PutOpt(j, "expected_db_bytes", o.expected_db_bytes);
  j["in_memory"] = o.in_memory;
  j["sync"] = o.sync;
  if (!o.settings.empty()) {
    json s = json::object();
    for (const auto& [name, value] : o.settings) s[name] = value;
    j["settings"] = std::move(s);
  }
  return j;
}

EngineOptions EngineOptionsFromJson(const json& j) {
  EngineOptions o;
  // A report that passed its schema has knobs of the right types; one that
  // did not keeps what could be read.
  (void)KnobsFromJson(j, "engine_options", &o);
  GetIf(j, "expected_db_bytes", &o.expected_db_bytes);
  GetIf(j, "in_memory", &o.in_memory);
  GetIf(j, "sync", &o.sync);
  if (j.contains("settings") && j["settings"].is_object()) {
    for (const auto& [name, value] : j["settings"].items()) {
      if (value.is_string())
        o.settings.emplace_back(name, value.get<std::string>());
    }
  }
  return o;
}

void to_json(json& j, const BenchResult& r) {
  j = json::object();
  j["engine"] = r.engine;
  j["scenario"] = r.scenario;
  if (!r.set.empty()) j["set"] = r.set;
  j["step"] = r.step;
  j["status"] = RunStatusName(r.status);
  if (!r.error.empty()) j["error"] = r.error;

  const ResultParams& p = r.params;
  j["params"] = {{"num", p.num},
                 {"ops", p.ops},
                 {"threads", p.threads},
                 {"key_size_bytes", p.key_size_bytes},
                 {"value_size_bytes", p.value_size_bytes},
                 {"compression_ratio", p.compression_ratio},
                 {"entries_per_batch", p.entries_per_batch},
                 {"sync", p.sync},
                 {"fresh_db", p.fresh_db},
                 {"seed", p.seed},
                 {"warmup_ops", p.warmup_ops},
                 {"distribution", p.distribution},
                 {"serialized", p.serialized}};
  j["engine_options"] = EngineOptionsToJson(r.engine_options);
  j["unsupported_knobs"] = KnobsToJson(r.unsupported_knobs, "knob", "reason");
  if (!r.engine_settings.empty()) {
    j["engine_settings"] = KnobsToJson(r.engine_settings, "setting", "value");
  }

  const BenchMetrics& m = r.metrics;
  json mj = {{"ops", m.ops},
             {"elapsed_ns", m.elapsed_ns},
             {"micros_per_op", m.micros_per_op},
             {"ops_per_sec", m.ops_per_sec}};
  PutOpt(mj, "bytes_per_sec", m.bytes_per_sec);
  PutOpt(mj, "bytes", m.bytes);
  if (m.latency_ns) mj["latency_ns"] = LatencyToJson(*m.latency_ns);
  PutOpt(mj, "found", m.found);
  PutOpt(mj, "reads", m.reads);
  PutOpt(mj, "cpu_user_ns", m.cpu_user_ns);
  PutOpt(mj, "cpu_system_ns", m.cpu_system_ns);
  PutOpt(mj, "peak_rss_bytes", m.peak_rss_bytes);
  if (m.peak_rss_bytes && !m.peak_rss_scope.empty()) {
    mj["peak_rss_scope"] = m.peak_rss_scope;
  }
  PutOpt(mj, "peak_anon_rss_bytes", m.peak_anon_rss_bytes);
  PutOpt(mj, "user_write_bytes", m.user_write_bytes);
  PutOpt(mj, "device_write_bytes", m.device_write_bytes);
  PutOpt(mj, "write_call_bytes", m.write_call_bytes);
  PutOpt(mj, "write_amplification", m.write_amplification);
  PutOpt(mj, "db_size_bytes", m.db_size_bytes);
  PutOpt(mj, "live_data_bytes", m.live_data_bytes);
  PutOpt(mj, "space_amplification", m.space_amplification);
  if (!m.message.empty()) mj["message"] = m.message;
  j["metrics"] = std::move(mj);

  if (!r.engine_stats.empty()) j["engine_stats"] = r.engine_stats;
  if (!r.engine_properties.empty()) {
    json props = json::object();
    for (const auto& [k, v] : r.engine_properties) props[k] = v;
    j["engine_properties"] = std::move(props);
  }
  if (r.page_cache) {
    json pc = {{"policy", r.page_cache->policy},
               {"method", r.page_cache->method}};
    PutOpt(pc, "resident_bytes_after", r.page_cache->resident_bytes_after);
    if (!r.page_cache->note.empty()) pc["note"] = r.page_cache->note;
    j["page_cache"] = std::move(pc);
  }
  if (!r.thread_series.empty()) {
    json arr = json::array();
    for (const ThreadPoint& t : r.thread_series) {
      arr.push_back({{"threads", t.threads},
                     {"ops", t.ops},
                     {"elapsed_ns", t.elapsed_ns},
                     {"ops_per_sec", t.ops_per_sec},
                     {"micros_per_op", t.micros_per_op}});
    }
    j["thread_series"] = std::move(arr);
  }
  if (!r.interval_series.empty()) {
    json arr = json::array();
    for (const IntervalPoint& t : r.interval_series) {
      arr.push_back({{"ops_done", t.ops_done},
                     {"ops", t.ops},
                     {"end_ns", t.end_ns},
                     {"ops_per_sec", t.ops_per_sec}});
    }
    j["interval_series"] = std::move(arr);
  }
  if (!r.pulses.empty()) {
    json arr = json::array();
    for (const PulsePoint& p : r.pulses) {
      json pj = {{"pulse", p.pulse},
                 {"threads", p.threads},
                 {"read_ops", p.read_ops},
                 {"found", p.found},
                 {"read_elapsed_ns", p.read_elapsed_ns},
                 {"inserts", p.inserts},
                 {"deletes", p.deletes},
                 {"write_elapsed_ns", p.write_elapsed_ns}};
      PutOpt(pj, "peak_rss_bytes", p.peak_rss_bytes);
      PutOpt(pj, "cpu_percent", p.cpu_percent);
      PutOpt(pj, "resident_bytes_before_reads", p.resident_bytes_before_reads);
      arr.push_back(std::move(pj));
    }
    j["pulses"] = std::move(arr);
  }
  if (!r.op_latency.empty()) {
    json arr = json::array();
    for (const OpLatency& o : r.op_latency) {
      json oj = {{"op", o.op}, {"ops", o.ops}};
      if (o.latency_ns) oj["latency_ns"] = LatencyToJson(*o.latency_ns);
      arr.push_back(std::move(oj));
    }
    j["op_latency"] = std::move(arr);
  }
  if (r.repeats) {
    json rj = {{"count", r.repeats->count},
               {"ops_per_sec", RepeatStatToJson(r.repeats->ops_per_sec)},
               {"micros_per_op", RepeatStatToJson(r.repeats->micros_per_op)}};
    if (r.repeats->bytes_per_sec) {
      rj["bytes_per_sec"] = RepeatStatToJson(*r.repeats->bytes_per_sec);
    }
    j["repeats"] = std::move(rj);
  }
  if (r.prediction) j["prediction"] = PredictionToJson(*r.prediction);
  if (!r.notes.empty()) j["notes"] = r.notes;
}

void from_json(const json& j, BenchResult& r) {
  r = BenchResult();
  GetIf(j, "engine", &r.engine);
  GetIf(j, "scenario", &r.scenario);
  GetIf(j, "set", &r.set);
  GetIf(j, "step", &r.step);
  std::string status = j.value("status", std::string("ok"));
  for (RunStatus s : {RunStatus::kOk, RunStatus::kPartial, RunStatus::kFailed,
                      RunStatus::kSkipped}) {
    if (status == RunStatusName(s)) r.status = s;
  }
  GetIf(j, "error", &r.error);
  if (j.contains("params")) {
    const json& p = j["params"];
    GetIf(p, "num", &r.params.num);
    GetIf(p, "ops", &r.params.ops);
    GetIf(p, "threads", &r.params.threads);
    GetIf(p, "key_size_bytes", &r.params.key_size_bytes);
    GetIf(p, "value_size_bytes", &r.params.value_size_bytes);
    GetIf(p, "compression_ratio", &r.params.compression_ratio);
    GetIf(p, "entries_per_batch", &r.params.entries_per_batch);
    GetIf(p, "sync", &r.params.sync);
    GetIf(p, "fresh_db", &r.params.fresh_db);
    GetIf(p, "seed", &r.params.seed);
    GetIf(p, "warmup_ops", &r.params.warmup_ops);
    GetIf(p, "distribution", &r.params.distribution);
    GetIf(p, "serialized", &r.params.serialized);
  }
  if (j.contains("engine_options")) {
    r.engine_options = EngineOptionsFromJson(j["engine_options"]);
  }
  if (j.contains("engine_settings")) {
    r.engine_settings = KnobsFromJson(j["engine_settings"], "setting", "value");
  }
  if (j.contains("unsupported_knobs")) {
    r.unsupported_knobs =
        KnobsFromJson(j["unsupported_knobs"], "knob", "reason");
  }
  if (j.contains("metrics")) {
    const json& mj = j["metrics"];
    BenchMetrics& m = r.metrics;
    GetIf(mj, "ops", &m.ops);
    GetIf(mj, "elapsed_ns", &m.elapsed_ns);
    GetIf(mj, "micros_per_op", &m.micros_per_op);
    GetIf(mj, "ops_per_sec", &m.ops_per_sec);
    GetIf(mj, "bytes_per_sec", &m.bytes_per_sec);
    GetIf(mj, "bytes", &m.bytes);
    if (mj.contains("latency_ns"))
      m.latency_ns = LatencyFromJson(mj["latency_ns"]);
    GetIf(mj, "found", &m.found);
    GetIf(mj, "reads", &m.reads);
    GetIf(mj, "cpu_user_ns", &m.cpu_user_ns);
    GetIf(mj, "cpu_system_ns", &m.cpu_system_ns);
    GetIf(mj, "peak_rss_bytes", &m.peak_rss_bytes);
    GetIf(mj, "peak_rss_scope", &m.peak_rss_scope);
    GetIf(mj, "peak_anon_rss_bytes", &m.peak_anon_rss_bytes);
    GetIf(mj, "user_write_bytes", &m.user_write_bytes);
    GetIf(mj, "device_write_bytes", &m.device_write_bytes);
    GetIf(mj, "write_call_bytes", &m.write_call_bytes);
    GetIf(mj, "write_amplification", &m.write_amplification);
    GetIf(mj, "db_size_bytes", &m.db_size_bytes);
    GetIf(mj, "live_data_bytes", &m.live_data_bytes);
    GetIf(mj, "space_amplification", &m.space_amplification);
    GetIf(mj, "message", &m.message);
  }
  GetIf(j, "engine_stats", &r.engine_stats);
  if (j.contains("engine_properties") && j["engine_properties"].is_object()) {
    for (const auto& [k, v] : j["engine_properties"].items()) {
      r.engine_properties.emplace_back(k, v.get<std::string>());
    }
  }
  if (j.contains("page_cache")) {
    const json& pc = j["page_cache"];
    PageCacheInfo info;
    GetIf(pc, "policy", &info.policy);
    GetIf(pc, "method", &info.method);
    GetIf(pc, "resident_bytes_after", &info.resident_bytes_after);
    GetIf(pc, "note", &info.note);
    r.page_cache = info;
  }
  if (j.contains("thread_series")) {
    for (const json& t : j["thread_series"]) {
      ThreadPoint p;
      GetIf(t, "threads", &p.threads);
      GetIf(t, "ops", &p.ops);
      GetIf(t, "elapsed_ns", &p.elapsed_ns);
      GetIf(t, "ops_per_sec", &p.ops_per_sec);
      GetIf(t, "micros_per_op", &p.micros_per_op);
      r.thread_series.push_back(p);
    }
  }
  if (j.contains("interval_series")) {
    for (const json& t : j["interval_series"]) {
      IntervalPoint p;
      GetIf(t, "ops_done", &p.ops_done);
      GetIf(t, "ops", &p.ops);
      GetIf(t, "end_ns", &p.end_ns);
      GetIf(t, "ops_per_sec", &p.ops_per_sec);
      r.interval_series.push_back(p);
    }
  }
  if (j.contains("pulses")) {
    for (const json& t : j["pulses"]) {
      PulsePoint p;
      GetIf(t, "pulse", &p.pulse);
      GetIf(t, "threads", &p.threads);
      GetIf(t, "read_ops", &p.read_ops);
      GetIf(t, "found", &p.found);
      GetIf(t, "read_elapsed_ns", &p.read_elapsed_ns);
      GetIf(t, "inserts", &p.inserts);
      GetIf(t, "deletes", &p.deletes);
      GetIf(t, "write_elapsed_ns", &p.write_elapsed_ns);
      GetIf(t, "peak_rss_bytes", &p.peak_rss_bytes);
      GetIf(t, "cpu_percent", &p.cpu_percent);
      GetIf(t, "resident_bytes_before_reads", &p.resident_bytes_before_reads);
      r.pulses.push_back(p);
    }
  }
  if (j.contains("op_latency")) {
    for (const json& t : j["op_latency"]) {
      OpLatency o;
      GetIf(t, "op", &o.op);
      GetIf(t, "ops", &o.ops);
      if (t.contains("latency_ns"))
        o.latency_ns = LatencyFromJson(t["latency_ns"]);
      r.op_latency.push_back(o);
    }
  }
  if (j.contains("repeats")) {
    const json& rj = j["repeats"];
    RepeatStats rs;
    GetIf(rj, "count", &rs.count);
    if (rj.contains("ops_per_sec")) {
      rs.ops_per_sec = RepeatStatFromJson(rj["ops_per_sec"]);
    }
    if (rj.contains("micros_per_op")) {
      rs.micros_per_op = RepeatStatFromJson(rj["micros_per_op"]);
    }
    if (rj.contains("bytes_per_sec")) {
      rs.bytes_per_sec = RepeatStatFromJson(rj["bytes_per_sec"]);
    }
    r.repeats = rs;
  }
  if (j.contains("prediction")) {
    r.prediction = PredictionFromJson(j["prediction"]);
  }
  GetIf(j, "notes", &r.notes);
}

Result<BenchResult> BenchResultFromJson(const json& j) {
  try {
    return j.get<BenchResult>();
  } catch (const json::exception& e) {
    return Status::Corruption(std::string("bench result: ") + e.what());
  }
}

std::string FormatDbBenchLine(const BenchResult& r) {
  char buf[512];
  if (r.status == RunStatus::kSkipped) {
    std::snprintf(buf, sizeof(buf), "%-12s : skipped (%s)", r.scenario.c_str(),
                  r.error.c_str());
    return buf;
  }
  if (r.status == RunStatus::kFailed) {
    std::snprintf(buf, sizeof(buf), "%-12s : FAILED: %s", r.scenario.c_str(),
                  r.error.c_str());
    return buf;
  }
  const BenchMetrics& m = r.metrics;
  std::string extra;
  if (m.bytes && *m.bytes > 0 && m.elapsed_ns > 0) {
    char rate[64];
    std::snprintf(rate, sizeof(rate), "%6.1f MB/s",
                  (static_cast<double>(*m.bytes) / 1048576.0) /
                      (static_cast<double>(m.elapsed_ns) * 1e-9));
    extra = rate;
  }
  if (!m.message.empty()) {
    if (!extra.empty()) extra += ' ';
    extra += m.message;
  }
  if (r.status == RunStatus::kPartial) {
    if (!extra.empty()) extra += ' ';
    extra += "[partial: " + r.error + "]";
  }
  std::snprintf(buf, sizeof(buf), "%-12s : %11.3f micros/op;%s%s",
                r.scenario.c_str(), m.micros_per_op, extra.empty() ? "" : " ",
                extra.c_str());
  return buf;
}

}  // namespace disktune::bench
