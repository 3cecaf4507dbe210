#include "src/model/throttle_spec.h"

#include <charconv>
#include <sstream>

#include "src/core/sync_floor.h"
#include "src/core/units.h"

namespace disktune {
namespace {

constexpr const char* kRates = "rates";
constexpr const char* kPerIoLatency = "per_io_latency";
constexpr const char* kSyncLatency = "sync_latency";

// The classes of REFERENCE's device-class table: hdd is a 7,200 rpm SATA
// drive, cloud a general-purpose volume at its baseline. The table gives
// cloud no sync latency of its own (one I/O of its 3,000 per second is a
// rate), so its syncs keep the throttle's timing.
struct ClassRow {
  const char* name;
  uint64_t iops;
  uint64_t bytes_per_sec;
  uint64_t sync_floor_ns;
};
// One revolution of a 7,200 rpm platter: 60 s / 7,200 = 8.33 ms.
constexpr uint64_t kHddRevolutionNs = 60'000'000'000ull / 7200;
constexpr ClassRow kClasses[] = {
    {"hdd", 150, 150'000'000, kHddRevolutionNs},
    {"cloud", 3000, 125ull << 20, 0},
};

// A floor longer than this is a typo: a run of syncs would take minutes.
constexpr uint64_t kMaxSyncFloorNs = 1'000'000'000;

Status Bad(const std::string& text, const std::string& why) {
  return Status::InvalidArgument(
      "--throttle '" + text + "': " + why +
      "; valid: hdd, cloud, or limits such as "
      "riops=150,wiops=150,rbps=150MB,wbps=150MB (iops= and bps= set both), "
      "and sync=DURATION|none for a sync-latency floor");
}

Result<uint64_t> ParseCount(const std::string& text, const std::string& key,
                            const std::string& value) {
  uint64_t n = 0;
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || p != value.data() + value.size() || n == 0)
    return Bad(text, key + "=" + value + " is not a positive whole number");
  return n;
}

Result<uint64_t> ParseRate(const std::string& text, const std::string& key,
                           const std::string& value) {
  Result<uint64_t> r = ParseSize(value);
  if (!r.ok())
    return Bad(text, key + "=" + value + ": " + r.status().message() +
                         " (bytes per second, e.g. 150MB)");
  if (*r < 4096) return Bad(text, key + "=" + value + " is below 4 KiB/s");
  return r;
}

Result<uint64_t> ParseSyncFloor(const std::string& text,
                                const std::string& value) {
  if (value == "none") return uint64_t{0};
  Result<uint64_t> r = ParseDuration(value);
  if (!r.ok())
    return Bad(text, "sync=" + value + ": " + r.status().message() +
                         " (a duration such as 8.3ms, or none)");
  if (*r > kMaxSyncFloorNs) return Bad(text, "sync=" + value + " is above 1s");
  return r;
}

// What the spec emulates, from its floor. blk-throttle enforces rates over
// time slices and lets a lone I/O through at once: neither a seek nor a
// revolution is reproduced; a sync's floor is laid in software
// (benchmarks/README.md, "Device classes", "Sync latency").
void SetEmulation(ThrottleSpec* spec) {
  const std::string slices =
      "the throttle enforces rates over time slices and lets a lone I/O "
      "through at the backing disk's speed, so ";
  spec->emulates = {kRates};
  spec->sync_latency_mechanism.clear();
  spec->sync_latency_engines.clear();
  if (spec->sync_floor_ns == 0) {
    spec->not_emulated = {kPerIoLatency, kSyncLatency};
    spec->not_emulated_reason =
        slices +
        "per-I/O and sync latency are the host disk's, not the class's; "
        "nothing is judged on latency here";
    return;
  }
  spec->emulates.push_back(kSyncLatency);
  spec->not_emulated = {kPerIoLatency};
  spec->not_emulated_reason =
      slices +
      "a read's or write's latency is the host disk's, not the class's; "
      "nothing is judged on per-I/O latency here";
  spec->sync_latency_engines = SyncFlooredEngines();
  std::string engines;
  for (const std::string& e : spec->sync_latency_engines)
    engines += (engines.empty() ? "" : " and ") + e;
  spec->sync_latency_mechanism =
      "a software floor under every sync that disktune's probes or the " +
      engines + " engines issue on the device: each returns no sooner than " +
      FormatDuration(static_cast<double>(spec->sync_floor_ns)) +
      " after it started (it sleeps for the floor minus the sync's own "
      "time); the other engines' syncs are not floored";
}

}  // namespace

Result<ThrottleSpec> ParseThrottle(const std::string& text) {
  ThrottleSpec spec;
  spec.class_name = "custom";
  if (!text.empty() && text.back() == ',') return Bad(text, "an empty item");
  std::stringstream in(text);
  bool first = true;
  for (std::string tok; std::getline(in, tok, ','); first = false) {
    if (tok.empty()) return Bad(text, "an empty item");
    size_t eq = tok.find('=');
    if (eq == std::string::npos) {
      const ClassRow* row = nullptr;
      for (const ClassRow& c : kClasses) {
        if (tok == c.name) row = &c;
      }
      if (!row) return Bad(text, "unknown class '" + tok + "'");
      if (!first) return Bad(text, "the class must come first");
      spec.class_name = row->name;
      spec.limits = {row->iops, row->iops, row->bytes_per_sec,
                     row->bytes_per_sec};
      spec.sync_floor_ns = row->sync_floor_ns;
      continue;
    }
    std::string key = tok.substr(0, eq), value = tok.substr(eq + 1);
    ThrottleLimits& l = spec.limits;
    if (key == "riops" || key == "wiops" || key == "iops") {
      Result<uint64_t> n = ParseCount(text, key, value);
      if (!n.ok()) return n.status();
      if (key != "wiops") l.read_iops = *n;
      if (key != "riops") l.write_iops = *n;
    } else if (key == "rbps" || key == "wbps" || key == "bps") {
      Result<uint64_t> n = ParseRate(text, key, value);
      if (!n.ok()) return n.status();
      if (key != "wbps") l.read_bytes_per_sec = *n;
      if (key != "rbps") l.write_bytes_per_sec = *n;
    } else if (key == "sync") {
      Result<uint64_t> n = ParseSyncFloor(text, value);
      if (!n.ok()) return n.status();
      spec.sync_floor_ns = *n;
    } else {
      return Bad(text, "unknown limit '" + key + "'");
    }
  }
  const ThrottleLimits& l = spec.limits;
  if (!l.read_iops && !l.write_iops && !l.read_bytes_per_sec &&
      !l.write_bytes_per_sec) {
    return Bad(text, "no rate limit given (sync= alone throttles nothing)");
  }
  SetEmulation(&spec);
  return spec;
}

std::string ThrottleFlagHelp() {
  return "measure on a loop device (direct I/O, over an image in the scratch "
         "directory, with --dir's filesystem) throttled by a cgroup: hdd "
         "(150 IOPS, 150 MB/s), cloud (3000 IOPS, 125 MiB/s), or limits "
         "riops=N,wiops=N,rbps=SIZE,wbps=SIZE (any subset; iops=, bps= set "
         "both; SIZE per second, e.g. 150MB), or a class then limits "
         "(cloud,wiops=1000); sync=DURATION|none sets a sync-latency floor "
         "(hdd's is one revolution at 7,200 rpm, 8.33 ms; cloud has none), "
         "laid in software under the probes' and the leveldb and rocksdb "
         "engines' syncs. Root only; per-I/O latency is not emulated";
}

std::string DescribeThrottleLimits(const ThrottleLimits& l) {
  auto pair = [](const std::optional<uint64_t>& r,
                 const std::optional<uint64_t>& w, auto fmt) {
    if (r && w && *r == *w) return fmt(*r) + " read/write";
    std::string s;
    if (r) s = fmt(*r) + " read";
    if (w) s += (s.empty() ? "" : ", ") + fmt(*w) + " write";
    return s;
  };
  auto iops = [](uint64_t n) { return std::to_string(n) + " IOPS"; };
  auto bps = [](uint64_t n) { return FormatRate(static_cast<double>(n)); };
  std::string a = pair(l.read_iops, l.write_iops, iops);
  std::string b = pair(l.read_bytes_per_sec, l.write_bytes_per_sec, bps);
  if (a.empty()) return b;
  return b.empty() ? a : a + ", " + b;
}

std::string DescribeThrottle(const ThrottleSpec& spec) {
  std::string s = DescribeThrottleLimits(spec.limits);
  if (spec.sync_floor_ns > 0) {
    s += ", each sync at least " +
         FormatDuration(static_cast<double>(spec.sync_floor_ns));
  }
  return s;
}

void to_json(nlohmann::json& j, const ThrottleRecord& r) {
  const ThrottleLimits& l = r.spec.limits;
  nlohmann::json limits = nlohmann::json::object();
  if (l.read_iops) limits["read_iops"] = *l.read_iops;
  if (l.write_iops) limits["write_iops"] = *l.write_iops;
  if (l.read_bytes_per_sec)
    limits["read_bytes_per_sec"] = *l.read_bytes_per_sec;
  if (l.write_bytes_per_sec)
    limits["write_bytes_per_sec"] = *l.write_bytes_per_sec;
  j = {{"class", r.spec.class_name},
       {"limits", limits},
       {"emulates", r.spec.emulates},
       {"not_emulated", r.spec.not_emulated},
       {"not_emulated_reason", r.spec.not_emulated_reason},
       {"mechanism", r.mechanism},
       {"cgroup_version", r.cgroup_version},
       {"cgroup", r.cgroup},
       {"loop_device", r.loop_device},
       {"filesystem", r.filesystem},
       {"host_dir", r.host_dir}};
  if (r.spec.sync_floor_ns > 0) {
    j["sync_floor_ns"] = r.spec.sync_floor_ns;
    j["sync_latency_mechanism"] = r.spec.sync_latency_mechanism;
    j["sync_latency_engines"] = r.spec.sync_latency_engines;
  }
  if (r.request_bytes) j["request_bytes"] = *r.request_bytes;
  if (r.read_ahead_bytes) j["read_ahead_bytes"] = *r.read_ahead_bytes;
  if (!r.writeback.empty()) j["writeback"] = r.writeback;
  if (r.accounting) j["accounting"] = *r.accounting;
}

void from_json(const nlohmann::json& j, ThrottleRecord& r) {
  r.spec.class_name = j.value("class", "");
  if (auto it = j.find("limits"); it != j.end() && it->is_object()) {
    ThrottleLimits& l = r.spec.limits;
    auto get = [&](const char* k, std::optional<uint64_t>& v) {
      if (it->contains(k)) v = (*it)[k].get<uint64_t>();
    };
    get("read_iops", l.read_iops);
    get("write_iops", l.write_iops);
    get("read_bytes_per_sec", l.read_bytes_per_sec);
    get("write_bytes_per_sec", l.write_bytes_per_sec);
  }
  r.spec.emulates = j.value("emulates", std::vector<std::string>{});
  r.spec.not_emulated = j.value("not_emulated", std::vector<std::string>{});
  r.spec.not_emulated_reason = j.value("not_emulated_reason", "");
  r.spec.sync_floor_ns = j.value("sync_floor_ns", uint64_t{0});
  r.spec.sync_latency_mechanism = j.value("sync_latency_mechanism", "");
  r.spec.sync_latency_engines =
      j.value("sync_latency_engines", std::vector<std::string>{});
  r.mechanism = j.value("mechanism", "");
  r.cgroup_version = j.value("cgroup_version", 0);
  r.cgroup = j.value("cgroup", "");
  r.loop_device = j.value("loop_device", "");
  r.filesystem = j.value("filesystem", "");
  r.host_dir = j.value("host_dir", "");
  r.writeback = j.value("writeback", "");
  if (j.contains("request_bytes"))
    r.request_bytes = j["request_bytes"].get<uint64_t>();
  if (j.contains("read_ahead_bytes"))
    r.read_ahead_bytes = j["read_ahead_bytes"].get<uint64_t>();
  if (auto it = j.find("accounting"); it != j.end() && it->is_object())
    r.accounting = it->get<ThrottleAccounting>();
}

std::string ThrottleBanner(const ThrottleRecord& r) {
  std::string s =
      "THROTTLED: every figure was measured on " +
      (r.loop_device.empty() ? std::string("a loop device") : r.loop_device) +
      " (" + r.filesystem + ", direct I/O to an image on " + r.host_dir +
      ") limited to ";
  s += r.spec.class_name == "custom" ? std::string("")
                                     : "the " + r.spec.class_name + " class, ";
  s += DescribeThrottleLimits(r.spec.limits) + ", by " + r.mechanism;
  if (r.spec.sync_floor_ns == 0) {
    s += "; it emulates rates only: " + r.spec.not_emulated_reason;
    return s;
  }
  s += "; it emulates rates and sync latency (" +
       FormatDuration(static_cast<double>(r.spec.sync_floor_ns)) +
       " per sync, by " + r.spec.sync_latency_mechanism +
       "); not per-I/O latency: " + r.spec.not_emulated_reason;
  return s;
}

std::string DescribeAccounting(const ThrottleAccounting& a) {
  std::string s =
      FormatBytes(
          static_cast<double>(a.device_read_bytes + a.device_write_bytes)) +
      " reached the device, " +
      FormatBytes(
          static_cast<double>(a.charged_read_bytes + a.charged_write_bytes)) +
      " through the throttle, " +
      FormatBytes(static_cast<double>(a.EscapedBytes())) + " around it";
  if (auto share = a.EscapedShare()) {
    char buf[32];
    snprintf(buf, sizeof buf, " (%.1f%% escaped)", *share * 100);
    s += buf;
  }
  return s;
}

std::string ThrottleEscapeLine(const ThrottleRecord& r) {
  if (!r.accounting) return "";
  std::string s = "throttle accounting: " + DescribeAccounting(*r.accounting);
  if (!r.writeback.empty()) s += "; " + r.writeback;
  return s;
}

}  // namespace disktune
