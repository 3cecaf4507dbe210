#include "probes/fio_runner.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "src/core/subprocess.h"

namespace disktune {

std::vector<std::string> FioCommand(const FioJob& job) {
  auto secs = [](uint64_t ns) {
    // fio takes durations in its own units; milliseconds keep sub-second runs.
    return std::to_string(std::max<uint64_t>(ns / 1000000, 1)) + "ms";
  };
  std::vector<std::string> argv = {
      "fio",
      "--name=disktune",
      "--filename=" + job.file,
      "--ioengine=io_uring",
      std::string("--direct=") + (job.direct ? "1" : "0"),
      std::string("--rw=") + (job.write ? (job.random ? "randwrite" : "write")
                                        : (job.random ? "randread" : "read")),
      "--bs=" + std::to_string(job.block_size),
      "--iodepth=" + std::to_string(job.queue_depth),
      "--size=" + std::to_string(job.file_size_bytes),
      "--runtime=" + secs(job.duration_ns),
      "--norandommap",
      "--randrepeat=0",
      "--output-format=json",
      // Percentiles of total latency (submission to completion), the native
      // probes' definition; fio's default clat leaves out the submit call.
      "--lat_percentiles=1",
  };
  if (job.max_bytes > 0) {
    // Stops at the runtime or after max_bytes, whichever comes first.
    argv.push_back("--io_size=" + std::to_string(job.max_bytes));
  } else {
    argv.push_back("--time_based");
  }
  if (job.warmup_ns > 0) argv.push_back("--ramp_time=" + secs(job.warmup_ns));
  if (job.huge_pages) argv.push_back("--iomem=mmaphuge");
  return argv;
}

bool FioHugePagesFit(int queue_depth, uint64_t block_size) {
  std::ifstream in("/proc/meminfo");
  uint64_t free_pages = 0, page_kib = 0;
  std::string key;
  uint64_t value = 0;
  while (in >> key >> value) {
    if (key == "HugePages_Free:") free_pages = value;
    if (key == "Hugepagesize:") page_kib = value;
    in.ignore(64, '\n');
  }
  const uint64_t page = page_kib * 1024;
  if (page == 0 || free_pages == 0) return false;
  const uint64_t need = static_cast<uint64_t>(queue_depth) * block_size + page;
  return free_pages * page >= need;
}

Result<FioComparison> ParseFioJson(const std::string& text, bool write) {
  // fio may print notes before the JSON object.
  size_t brace = text.find('{');
  if (brace == std::string::npos)
    return Status::Corruption("fio printed no JSON");
  nlohmann::json j = nlohmann::json::parse(text.substr(brace), nullptr, false);
  if (j.is_discarded() || !j.contains("jobs") || j["jobs"].empty()) {
    return Status::Corruption("fio JSON has no jobs");
  }
  const nlohmann::json& job = j["jobs"][0];
  if (!job.contains(write ? "write" : "read") ||
      !job[write ? "write" : "read"].is_object()) {
    return Status::Corruption(std::string("fio JSON has no ") +
                              (write ? "write" : "read") + " figures");
  }
  const nlohmann::json& side = job[write ? "write" : "read"];
  FioComparison f;
  f.iops = side.value("iops", 0.0);
  f.bytes_per_sec = static_cast<double>(side.value("bw_bytes", uint64_t{0}));
  if (side.contains("total_ios"))
    f.samples = side.value("total_ios", uint64_t{0});
  if (side.contains("io_bytes")) f.bytes = side.value("io_bytes", uint64_t{0});
  if (side.contains("runtime"))  // milliseconds
    f.elapsed_ns = side.value("runtime", uint64_t{0}) * 1000000ull;
  if (job.contains("ctx")) f.context_switches = job.value("ctx", uint64_t{0});
  const char* key =
      side.contains("lat_ns") && side["lat_ns"].contains("percentile")
          ? "lat_ns"
          : "clat_ns";
  if (side.contains(key)) {
    const nlohmann::json& c = side[key];
    LatencySummary s;
    s.mean = c.value("mean", 0.0);
    s.stddev = c.value("stddev", 0.0);
    s.min = c.value("min", uint64_t{0});
    s.max = c.value("max", uint64_t{0});
    s.samples = c.value("N", uint64_t{0});
    if (c.contains("percentile")) {
      const nlohmann::json& p = c["percentile"];
      s.p50 = p.value("50.000000", uint64_t{0});
      s.p90 = p.value("90.000000", uint64_t{0});
      s.p99 = p.value("99.000000", uint64_t{0});
      s.p999 = p.value("99.900000", uint64_t{0});
      // fio reports a percentile as its bucket's upper edge, which can lie
      // above the exact largest sample (a p99 of 35.39 ms beside a max of
      // 35.36 ms); no percentile exceeds the maximum, nor falls under the
      // minimum, as the native histogram clamps them too.
      if (s.max > 0) {
        for (uint64_t* q : {&s.p50, &s.p90, &s.p99, &s.p999})
          *q = std::clamp(*q, s.min, s.max);
      }
    }
    f.latency_ns = s;
  }
  return f;
}

Result<FioComparison> RunFio(const FioJob& job) {
  FioComparison f;
  std::vector<std::string> argv = FioCommand(job);
  std::ostringstream cmd;
  for (size_t i = 0; i < argv.size(); i++) cmd << (i ? " " : "") << argv[i];
  f.command = cmd.str();
  if (FindProgram("fio").empty()) {
    f.status = "skipped";
    f.reason = "fio is not installed (apt-get install fio)";
    return f;
  }
  uint64_t timeout = job.warmup_ns + job.duration_ns + 60ull * 1000000000;
  Result<SubprocessResult> r = RunSubprocess(argv, timeout);
  if (!r.ok()) {
    if (r.status().IsAborted()) return r.status();
    f.status = "failed";
    f.reason = r.status().message();
    return f;
  }
  if (r->exit_code != 0) {
    f.status = "failed";
    std::string msg = r->err.empty() ? r->out : r->err;
    f.reason = "fio exited " + std::to_string(r->exit_code) + ": " +
               msg.substr(0, 300);
    return f;
  }
  Result<FioComparison> parsed = ParseFioJson(r->out, job.write);
  if (!parsed.ok()) {
    f.status = "failed";
    f.reason = parsed.status().message();
    return f;
  }
  parsed->command = f.command;
  return parsed;
}

bool FioInstalled() { return !FindProgram("fio").empty(); }

Status FillFromFio(const FioComparison& fio, ProbeResult* r) {
  if (fio.status != "ok") {
    return Status::NotSupported("fio " + fio.status + ": " + fio.reason);
  }
  if (!fio.iops || !fio.samples || *fio.samples == 0 || !fio.elapsed_ns ||
      *fio.elapsed_ns == 0) {
    return Status::NotSupported(
        "fio completed no I/O inside the measured window");
  }
  // A short write job can finish inside fio's ramp_time: fio then counts
  // its I/Os but keeps no latency sample, and its percentiles read 0.
  if (!fio.latency_ns || fio.latency_ns->samples == 0) {
    return Status::NotSupported(
        "fio kept no latency sample after its warm-up (the job ended inside "
        "ramp_time)");
  }
  r->measured_by = MeasuredBy::kFio;
  r->measured_by_reason.clear();
  r->iops = fio.iops;
  r->bytes_per_sec = fio.bytes_per_sec;
  r->latency_ns = fio.latency_ns;
  r->samples = fio.samples;
  r->bytes = fio.bytes;
  r->elapsed_ns = fio.elapsed_ns;
  if (fio.context_switches)
    r->metrics["context_switches"] = *fio.context_switches;
  r->params.extra["fio_command"] = fio.command;
  return Status::OK();
}

void AddFioRatios(const ProbeResult& native, FioComparison* fio) {
  if (fio->status != "ok") return;
  auto ratio = [](std::optional<double> a,
                  std::optional<double> b) -> std::optional<double> {
    if (!a || !b || *b <= 0) return std::nullopt;
    return *a / *b;
  };
  fio->iops_ratio = ratio(native.iops, fio->iops);
  fio->bytes_per_sec_ratio = ratio(native.bytes_per_sec, fio->bytes_per_sec);
  if (native.latency_ns && fio->latency_ns) {
    fio->latency_p50_ratio = ratio(static_cast<double>(native.latency_ns->p50),
                                   static_cast<double>(fio->latency_ns->p50));
    fio->latency_p99_ratio = ratio(static_cast<double>(native.latency_ns->p99),
                                   static_cast<double>(fio->latency_ns->p99));
  }
}

}  // namespace disktune
