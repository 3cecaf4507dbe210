#include "src/model/environment.h"

#include "src/core/json_input.h"

namespace disktune {

std::string ForeignIoReason(const Environment& e) {
  return e.foreign_io && e.foreign_io->busy ? e.foreign_io->reason : "";
}

namespace {

template <typename T>
void PutOpt(nlohmann::json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}
template <typename T>
void GetOpt(const nlohmann::json& j, const char* key, std::optional<T>& v) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) v = it->get<T>();
}

}  // namespace

void to_json(nlohmann::json& j, const Environment& e) {
  const SystemInfo& s = e.system;
  j = nlohmann::json{{"hostname", s.hostname},
                     {"kernel", s.kernel},
                     {"os", s.os},
                     {"cpu_model", s.cpu_model},
                     {"cpu_count", s.cpu_count},
                     {"memory_bytes", s.memory_bytes},
                     {"memory_available_bytes", s.memory_available_bytes},
                     {"is_root", s.is_root},
                     {"build_type", e.build_type},
                     {"target_dir", PathToJson(e.target_dir)}};
  PutOpt(j, "load_average_1m", s.load_average_1m);
  PutOpt(j, "load_average_1m_after", s.load_average_1m_after);
  const FilesystemInfo& f = e.filesystem;
  j["filesystem"] = {{"type", f.type},
                     {"mount_point", PathToJson(f.mount_point)},
                     {"source", PathToJson(f.source)},
                     {"mount_options", f.mount_options},
                     {"total_bytes", f.total_bytes},
                     {"free_bytes", f.free_bytes}};
  if (e.device) {
    const DeviceInfo& d = *e.device;
    nlohmann::json dj = {{"disk", d.disk}, {"chain", d.chain}};
    if (!d.model.empty()) dj["model"] = d.model;
    if (!d.vendor.empty()) dj["vendor"] = d.vendor;
    PutOpt(dj, "size_bytes", d.size_bytes);
    PutOpt(dj, "rotational", d.rotational);
    if (!d.scheduler.empty()) dj["scheduler"] = d.scheduler;
    PutOpt(dj, "logical_block_size_bytes", d.logical_block_size);
    PutOpt(dj, "physical_block_size_bytes", d.physical_block_size);
    PutOpt(dj, "queue_depth", d.nr_requests);
    PutOpt(dj, "max_sectors_kb", d.max_sectors_kb);
    PutOpt(dj, "read_ahead_kb", d.read_ahead_kb);
    if (!d.write_cache.empty()) dj["write_cache"] = d.write_cache;
    PutOpt(dj, "fua", d.fua);
    j["device"] = dj;
  } else {
    j["device_note"] = e.device_note;
  }
  if (!e.engine_libraries.empty()) {
    nlohmann::json libs = nlohmann::json::array();
    for (const LibraryBuild& b : e.engine_libraries) {
      nlohmann::json lj = {{"engine", b.engine},
                           {"version", b.version},
                           {"version_source", b.version_source},
                           {"assertions", b.assertions}};
      if (!b.shared_object.empty()) lj["shared_object"] = b.shared_object;
      if (!b.assertions_evidence.empty()) {
        lj["assertions_evidence"] = b.assertions_evidence;
      }
      libs.push_back(std::move(lj));
    }
    j["engine_libraries"] = std::move(libs);
  }
  if (e.throttle) j["throttle"] = *e.throttle;
  if (e.foreign_io) j["foreign_io"] = *e.foreign_io;
}

void from_json(const nlohmann::json& j, Environment& e) {
  SystemInfo& s = e.system;
  s.hostname = j.value("hostname", "");
  s.kernel = j.value("kernel", "");
  s.os = j.value("os", "");
  s.cpu_model = j.value("cpu_model", "");
  s.cpu_count = j.value("cpu_count", 0);
  s.memory_bytes = j.value("memory_bytes", uint64_t{0});
  s.memory_available_bytes = j.value("memory_available_bytes", uint64_t{0});
  s.is_root = j.value("is_root", false);
  GetOpt(j, "load_average_1m", s.load_average_1m);
  GetOpt(j, "load_average_1m_after", s.load_average_1m_after);
  e.build_type = j.value("build_type", "");
  e.target_dir = PathFromJson(j.value("target_dir", ""));
  if (auto it = j.find("filesystem"); it != j.end()) {
    FilesystemInfo& f = e.filesystem;
    f.type = it->value("type", "");
    f.mount_point = PathFromJson(it->value("mount_point", ""));
    f.source = PathFromJson(it->value("source", ""));
    f.mount_options = it->value("mount_options", "");
    f.total_bytes = it->value("total_bytes", uint64_t{0});
    f.free_bytes = it->value("free_bytes", uint64_t{0});
  }
  if (auto it = j.find("device"); it != j.end()) {
    DeviceInfo d;
    d.disk = it->value("disk", "");
    if (it->contains("chain"))
      d.chain = (*it)["chain"].get<std::vector<std::string>>();
    d.model = it->value("model", "");
    d.vendor = it->value("vendor", "");
    GetOpt(*it, "size_bytes", d.size_bytes);
    GetOpt(*it, "rotational", d.rotational);
    d.scheduler = it->value("scheduler", "");
    GetOpt(*it, "logical_block_size_bytes", d.logical_block_size);
    GetOpt(*it, "physical_block_size_bytes", d.physical_block_size);
    GetOpt(*it, "queue_depth", d.nr_requests);
    GetOpt(*it, "max_sectors_kb", d.max_sectors_kb);
    GetOpt(*it, "read_ahead_kb", d.read_ahead_kb);
    d.write_cache = it->value("write_cache", "");
    GetOpt(*it, "fua", d.fua);
    e.device = d;
  }
  e.device_note = j.value("device_note", "");
  if (auto it = j.find("engine_libraries"); it != j.end() && it->is_array()) {
    for (const nlohmann::json& lj : *it) {
      LibraryBuild b;
      b.engine = lj.value("engine", "");
      b.version = lj.value("version", "");
      b.version_source = lj.value("version_source", "");
      b.shared_object = lj.value("shared_object", "");
      b.assertions = lj.value("assertions", "unknown");
      b.assertions_evidence = lj.value("assertions_evidence", "");
      e.engine_libraries.push_back(std::move(b));
    }
  }
  if (auto it = j.find("throttle"); it != j.end() && it->is_object())
    e.throttle = it->get<ThrottleRecord>();
  if (auto it = j.find("foreign_io"); it != j.end() && it->is_object())
    e.foreign_io = it->get<ForeignIo>();
}

}  // namespace disktune
