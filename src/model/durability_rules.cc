#include "src/model/durability_rules.h"

#include <cstdint>

namespace disktune {
namespace {

// At least this many device flushes per sync: syncs reach the device. A sync
// normally causes one flush, a journal commit often two; 0.5 allows for
// commits that several syncs share.
constexpr double kReachAtLeast = 0.5;
// Fewer than this: syncs do not reach it (what is left is other writers).
constexpr double kDroppedBelow = 0.1;
// Half a revolution of the fastest spindle (15,000 rpm: 4 ms per turn).
constexpr uint64_t kRotationalFloorNs = 2000000;
// Faster than flash can be programmed and its mapping committed.
constexpr uint64_t kPlpBelowNs = 200000;

struct Rule {
  DurabilityRule text;
  bool (*holds)(const DurabilityEvidence&);
};

bool WriteThrough(const DurabilityEvidence& e) {
  return e.kernel_write_cache == "write through";
}

const std::vector<Rule>& Rules() {
  static const std::vector<Rule> kRules = {
      {{"unsafe_write_through",
        "the kernel's view is 'write through' while the drive reports its "
        "volatile write cache enabled: the kernel sends no flushes, so "
        "acknowledged syncs sit in volatile memory and can be lost on power "
        "failure"},
       [](const DurabilityEvidence& e) {
         return WriteThrough(e) && e.drive_cache_enabled.value_or(false);
       }},
      {{"kernel_write_through",
        "the kernel's view is 'write through': it sends no flushes, so syncs "
        "are fast; they are durable only if the device really has no volatile "
        "cache (on a loop device, the fsync of the backing file is skipped)"},
       [](const DurabilityEvidence& e) { return WriteThrough(e); }},
      {{"flushes_dropped",
        "the kernel's view is 'write back' but the disk completed fewer than "
        "0.1 flushes per sync: syncs never reach the device as flushes; a "
        "layer "
        "in between (hypervisor, a nobarrier mount, a driver) drops them and "
        "data in a volatile cache can be lost on power failure"},
       [](const DurabilityEvidence& e) {
         auto f = e.flushes_per_sync();
         return f && *f < kDroppedBelow;
       }},
      {{"cache_absorbs_flushes",
        "a rotational disk completed syncs with a p50 under 2 ms: a sync "
        "waits about one revolution (7,200 rpm allows ~120 commits/s; 15,000 "
        "rpm turns in 4 ms), so a cache absorbs the flushes (battery-backed "
        "controller, hypervisor, or a drive ignoring them); durable only if "
        "that cache survives power loss"},
       [](const DurabilityEvidence& e) {
         return e.rotational.value_or(false) && e.fastest_sync_p50_ns &&
                *e.fastest_sync_p50_ns < kRotationalFloorNs;
       }},
      {{"power_loss_protection_likely",
        "a non-rotational device completed at least 0.5 flushes per sync with "
        "a sync p50 under 200 us: flushes reach it yet finish faster than "
        "flash is programmed, which suggests power-loss protection (a "
        "capacitor-backed cache); confirm with the model's datasheet"},
       [](const DurabilityEvidence& e) {
         auto f = e.flushes_per_sync();
         return e.rotational == false && f && *f >= kReachAtLeast &&
                e.fastest_sync_p50_ns && *e.fastest_sync_p50_ns < kPlpBelowNs;
       }},
      {{"flushes_reach_device",
        "the disk completed at least 0.5 flushes per sync: syncs reach the "
        "device and wait for it; the latencies are its real commit cost"},
       [](const DurabilityEvidence& e) {
         auto f = e.flushes_per_sync();
         return f && *f >= kReachAtLeast;
       }},
      {{"partial_flushes",
        "the disk completed between 0.1 and 0.5 flushes per sync: only some "
        "syncs reached the device as flushes (commits batched, or a layer "
        "absorbing some)"},
       [](const DurabilityEvidence& e) { return e.flushes.has_value(); }},
      {{"not_counted",
        "flushes were not counted (no block device, or Linux before 5.5): "
        "whether syncs reach the device cannot be told"},
       [](const DurabilityEvidence&) { return true; }},
  };
  return kRules;
}

}  // namespace

const std::vector<DurabilityRule>& DurabilityRules() {
  static const std::vector<DurabilityRule>* rules = [] {
    auto* v = new std::vector<DurabilityRule>();
    for (const Rule& r : Rules()) v->push_back(r.text);
    return v;
  }();
  return *rules;
}

DurabilityVerdict JudgeDurability(const DurabilityEvidence& e) {
  for (const Rule& r : Rules()) {
    if (r.holds(e)) return {r.text.id, r.text.rule};
  }
  return {"not_counted", ""};  // unreachable: the last rule always holds
}

}  // namespace disktune
