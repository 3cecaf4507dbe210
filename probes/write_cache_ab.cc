// --write-cache-ab: the fsync family with the write cache in the other state
// than found (normally: off), then put back. The original state is written to
// the device journal before the switch; the scope below restores it on every
// path out, and the journal after a SIGKILL.
#include <unistd.h>

#include "probes/device_journal.h"
#include "probes/fsync_probe.h"
#include "probes/write_cache.h"

namespace disktune {
namespace {

// Holds a switched cache; puts the original back when it goes.
class CacheSwitchScope {
 public:
  CacheSwitchScope(CacheSwitch sw, std::string original)
      : sw_(std::move(sw)), original_(std::move(original)) {}
  ~CacheSwitchScope() { (void)Restore(); }

  // Journal first, then the change.
  Status Apply(const std::string& value) {
    JournalEntry e;
    e.kind = CacheSwitchKindName(sw_.kind);
    e.target = sw_.target;
    e.original = original_;
    e.applied = value;
    e.description = "write cache of " + sw_.disk + " (" + sw_.Describe() + ")";
    Result<std::string> id = ProcessJournal().Add(e);
    if (!id.ok()) {
      journal_failed_ = true;
      return id.status().WithContext(
          "cannot record the original state in the device journal " +
          ProcessJournal().path() + ", so the cache was not switched");
    }
    entry_ = *id;
    Status s = WriteCacheSwitch(sw_.kind, sw_.target, value);
    if (!s.ok()) (void)Restore();
    return s;
  }
  bool journal_failed() const { return journal_failed_; }

  // Runs whether or not an interrupt is pending; keeps the journal entry
  // when the device refuses, so `disktune restore` can try again.
  Status Restore() {
    if (entry_.empty()) return Status::OK();
    Status s = WriteCacheSwitch(sw_.kind, sw_.target, original_);
    if (!s.ok()) {
      return s.WithContext("could not put the write cache of " + sw_.disk +
                           " back to '" + original_ +
                           "' (run `disktune restore` as root)");
    }
    (void)ProcessJournal().Remove(entry_);
    entry_.clear();
    return Status::OK();
  }

 private:
  CacheSwitch sw_;
  std::string original_;
  std::string entry_;
  bool journal_failed_ = false;
};

}  // namespace

Status RunWriteCacheAb(ProbeContext& ctx, const FsyncTarget& target,
                       const DeviceInfo& device, const std::string& prefix,
                       int* index, std::vector<ProbeResult>* results) {
  const ProbeConfig& cfg = *ctx.config;
  size_t count = FsyncFamily(cfg, prefix).size();
  auto skip = [&](const std::string& why) {
    ProbeResult r =
        ProbeResult::Skipped("fsync", prefix + ".write_cache_ab", why);
    r.params.filesystem = target.filesystem;
    r.params.variant = kVariantWriteCacheAb;
    results->push_back(std::move(r));
    *index += static_cast<int>(count);
    return Status::OK();
  };
  if (geteuid() != 0) {
    return skip(
        "switching a write cache needs root; run as root to compare cache "
        "on/off");
  }
  std::string cache_device =
      target.flush_disks.empty() ? device.disk : target.flush_disks.front();
  Result<CacheSwitch> sw =
      ChooseCacheSwitch(cache_device, device.disk, cfg.kernel_switch);
  if (!sw.ok()) return skip(sw.status().message());
  // Two runs switching one cache would each take the other's state for the
  // original: the second one leaves it alone.
  Result<std::vector<JournalEntry>> pending = ProcessJournal().Load();
  if (!pending.ok())
    return skip("cannot read the device journal: " +
                pending.status().message());
  for (const JournalEntry& e : *pending) {
    if (e.target == sw->target && e.pid != getpid() && JournalOwnerAlive(e)) {
      return skip("another disktune run (pid " + std::to_string(e.pid) +
                  ") has switched " + sw->target +
                  "; run the A/B when it has finished");
    }
  }
  Result<std::string> original = ReadCacheSwitch(*sw);
  if (!original.ok()) {
    return skip("cannot read the write cache state: " +
                original.status().message());
  }
  bool was_on = CacheValueEnabled(sw->kind, *original);
  CacheSwitchScope scope(*sw, *original);
  Status applied = scope.Apply(CacheValueFor(sw->kind, !was_on));
  if (!applied.ok()) {
    if (scope.journal_failed()) return skip(applied.message());
    return skip("the device refused the switch: " + applied.message());
  }

  FsyncTarget switched = target;
  std::string state = was_on ? "off" : "on";
  switched.extra["scope"] =
      target.extra.value("scope", std::string("scratch directory")) +
      ", write cache switched " + state;
  switched.write_cache = was_on ? CacheState::kOff : CacheState::kOn;
  switched.extra["write_cache_switch"] = sw->Describe();
  switched.extra["write_cache_switch_kind"] = CacheSwitchKindName(sw->kind);
  Result<std::string> now = ReadCacheSwitch(*sw);
  if (sw->kind == CacheSwitchKind::kKernelView && now.ok()) {
    switched.extra["kernel_write_cache"] = *now;
  } else if (sw->drive_level()) {
    switched.extra["drive_write_cache"] = was_on ? "disabled" : "enabled";
  }
  std::vector<FsyncPoint> points = FsyncFamily(cfg, prefix + ".cache_" + state);
  Status run = RunFsyncPoints(ctx, switched, points, index, results);
  Status restored = scope.Restore();
  if (!run.ok()) return run;
  return restored;
}

}  // namespace disktune
