// The answer a report opens with, in every format: fit or not for the named
// service (the gates it ran and the samples they rest on), whether syncs
// reach stable storage, what bounds the engine here, what to set, and the
// conditions the figures were taken in. Held in the report as typed fields
// ("summary" in the JSON) so tooling reads the same answer a person does.
//
// Services (`--service`), each a documented set of gates (check presets,
// reports/check.h):
//   etcd     preset etcd: fdatasync alone on etcd's WAL point, p99 < 10 ms
//   leveldb  preset leveldb-wal: write+fdatasync of a 4 KiB log append,
//            p99 < 20 ms and >= 100 syncs/s
//   rocksdb  preset leveldb-wal: RocksDB syncs its WAL the same way
// The default is the engine the run benched or tuned, else leveldb.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace disktune {

struct SummaryGate {
  std::string expression;  // "wal.p99 < 20ms"
  std::string outcome;     // check.h CheckOutcomeName
  std::string resolved;    // the point it read, "" when not measured
  std::string part;        // "write+sync" / "sync alone" for sync latencies
  std::string measured;    // "3.99 ms", "" when not measured
  std::optional<double> value;  // in the canonical unit (ns, ops/s, ...)
  std::optional<uint64_t> samples;
  std::optional<uint64_t> samples_needed;
  std::string detail;  // why not measured / insufficient / unreliable
};

struct SummaryDurability {
  std::string verdict;  // a durability rule id ("flushes_reach_device")
  std::string title;    // the same in words
  // Whether syncs reach durable media; unset when it cannot be told.
  std::optional<bool> reaches_stable_storage;
  std::optional<double> flushes_per_sync;
  std::string disk;
  // The disk has a volatile write cache (the kernel's view "write back" or
  // the drive reports one enabled): durable writes depend on flushes.
  std::optional<bool> volatile_cache;
};

struct SummaryBound {
  std::string engine;
  std::string scenario;  // the scenarios it bounds, ", "-separated
  std::string bound;     // the resource, in words ("the CPU")
};

struct SummarySetting {
  // "apply_profile", "keep_defaults", or "not_tuned".
  std::string action;
  std::string profile_path;          // when the run wrote one
  std::vector<std::string> changes;  // "write buffer 16 MiB"
  std::string reason;
};

struct SummaryConditions {
  std::optional<double> load_average_1m_before;
  std::optional<double> load_average_1m_after;
  int cpu_count = 0;
  double busy_above_load = 0;  // kBusyLoadPerCpu x cpu_count
  // "other I/O on vda: ..." when other processes' I/O on the device made
  // the run busy (probes/foreign_io.h); "" otherwise.
  std::string other_io;
  bool busy = false;  // the load or other I/O
};

struct Summary {
  std::string service;       // "leveldb"
  std::string service_from;  // "--service", "the engine run", "default"
  std::string gate_set;      // the check preset
  // "fit", "not_fit", "unreliable", "insufficient", "not_measured".
  std::string verdict;
  std::string headline;  // the verdict in one sentence
  int gates_passed = 0;
  std::vector<SummaryGate> gates;
  std::optional<SummaryDurability> durability;
  std::vector<SummaryBound> bounds;
  SummarySetting set;
  SummaryConditions conditions;
};

void to_json(nlohmann::json& j, const Summary& s);
void from_json(const nlohmann::json& j, Summary& s);

struct ServiceGates {
  const char* service;
  const char* preset;
  const char* why;
};
// etcd, leveldb, rocksdb.
const std::vector<ServiceGates>& Services();
// "etcd, leveldb, rocksdb".
std::string ServiceList();

}  // namespace disktune
