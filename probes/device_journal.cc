#include "probes/device_journal.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

#include "probes/cgroup_throttle.h"
#include "probes/journal_trust.h"
#include "probes/loop_fs.h"
#include "probes/write_cache.h"
#include "src/core/json_input.h"
#include "src/core/sysinfo.h"

namespace disktune {
namespace {
namespace fs = std::filesystem;

constexpr int kJournalVersion = 1;

// Field 22 of /proc/<pid>/stat: the process's start time in clock ticks.
uint64_t ProcessStartTicks(int pid) {
  Result<std::string> stat =
      ReadTextFile("/proc/" + std::to_string(pid) + "/stat");
  if (!stat.ok()) return 0;
  // The command name (field 2) may hold spaces; fields restart after ')'.
  size_t close = stat->rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream in(stat->substr(close + 2));
  std::string tok;
  for (int field = 3; field <= 22 && (in >> tok); field++) {
    if (field == 22) return std::strtoull(tok.c_str(), nullptr, 10);
  }
  return 0;
}

// An exclusive lock on "<journal>.lock" for one read-modify-write.
class JournalLock {
 public:
  explicit JournalLock(const std::string& journal) {
    std::error_code ec;
    fs::create_directories(fs::path(journal).parent_path(), ec);
    status_ = CheckJournalTrusted(journal);
    if (!status_.ok()) return;
    std::string p = journal + ".lock";
    fd_ = open(p.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd_ < 0) {
      status_ = Status::FromErrno(errno, "journal lock " + p);
      return;
    }
    while (flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) {
        status_ = Status::FromErrno(errno, "lock " + p);
        return;
      }
    }
  }
  ~JournalLock() {
    if (fd_ >= 0) close(fd_);
  }
  const Status& status() const { return status_; }

 private:
  int fd_ = -1;
  Status status_;
};

std::mutex g_mu;
std::set<std::string>* g_used_paths = nullptr;
int g_next_id = 0;

void RestoreOwnAtExit() {
  std::set<std::string> paths;
  {
    std::lock_guard<std::mutex> l(g_mu);
    if (g_used_paths) paths = *g_used_paths;
  }
  for (const auto& p : paths)
    (void)DeviceJournal(p).Restore(/*include_own=*/true);
}

Result<std::vector<JournalEntry>> LoadUnlocked(const std::string& path) {
  std::vector<JournalEntry> entries;
  DT_RETURN_IF_ERROR(CheckJournalTrusted(path));
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0 && errno == ENOENT) return entries;
  auto bad = [&](const std::string& why) {
    return Status::Corruption(
        "journal " + path + " " + why +
        "; restore the settings it lists by hand, then delete it");
  };
  JsonInputLimits limits;
  limits.max_bytes = uint64_t{1} << 20;  // a journal holds a few entries
  Result<nlohmann::json> read = ReadJsonInput(path, "device journal", limits);
  if (!read.ok())
    return bad("cannot be read (" + read.status().message() + ")");
  const nlohmann::json& j = *read;
  if (!j.is_object()) return bad("is not valid JSON");
  if (j.contains("journal_version") &&
      !j["journal_version"].is_number_integer()) {
    return bad("has an unknown journal_version");
  }
  if (j.value("journal_version", 0) != kJournalVersion) {
    return bad("has an unknown journal_version");
  }
  auto it = j.find("entries");
  if (it == j.end() || !it->is_array()) return bad("has no entries list");
  for (const auto& e : *it) {
    if (!e.is_object() || !e.contains("kind") || !e.contains("target") ||
        !e.contains("pid")) {
      return bad("holds an entry without kind, target and pid");
    }
    try {
      entries.push_back(e.get<JournalEntry>());
    } catch (const nlohmann::json::exception& ex) {
      return bad("holds a malformed entry (" + DescribeJsonError(ex) + ")");
    }
  }
  return entries;
}

}  // namespace

void to_json(nlohmann::json& j, const JournalEntry& e) {
  j = nlohmann::json{{"id", e.id},
                     {"pid", e.pid},
                     {"pid_start_ticks", e.pid_start_ticks},
                     {"created_at", e.created_at},
                     {"kind", e.kind},
                     {"target", e.target},
                     {"original", e.original},
                     {"applied", e.applied},
                     {"description", e.description}};
  if (e.backing_inode != 0) {
    j["backing_device"] = e.backing_device;
    j["backing_inode"] = e.backing_inode;
    j["backing_file"] = PathToJson(e.backing_file);
  }
}

void from_json(const nlohmann::json& j, JournalEntry& e) {
  e.id = j.value("id", "");
  e.pid = j.at("pid").get<int>();
  e.pid_start_ticks = j.value("pid_start_ticks", uint64_t{0});
  e.created_at = j.value("created_at", "");
  e.kind = j.at("kind").get<std::string>();
  e.target = j.at("target").get<std::string>();
  e.original = j.value("original", "");
  e.applied = j.value("applied", "");
  e.description = j.value("description", "");
  e.backing_device = j.value("backing_device", uint64_t{0});
  e.backing_inode = j.value("backing_inode", uint64_t{0});
  e.backing_file = PathFromJson(j.value("backing_file", ""));
}

std::string DeviceJournal::DefaultPath() {
  const char* env = getenv("DISKTUNE_JOURNAL");
  return env && *env ? env : kJournalDefaultPath;
}

DeviceJournal& ProcessJournal() {
  static DeviceJournal* j = new DeviceJournal(DeviceJournal::DefaultPath());
  return *j;
}

bool JournalOwnerAlive(const JournalEntry& e) {
  if (e.pid <= 0) return false;
  uint64_t start = ProcessStartTicks(e.pid);
  return start != 0 && (e.pid_start_ticks == 0 || start == e.pid_start_ticks);
}

Status DeviceJournal::Save(const std::vector<JournalEntry>& entries) const {
  if (entries.empty()) {
    if (unlink(path_.c_str()) != 0 && errno != ENOENT) {
      return Status::FromErrno(errno, "remove journal " + path_);
    }
    return Status::OK();
  }
  nlohmann::json j{{"journal_version", kJournalVersion},
                   {"note",
                    "device settings changed by disktune; `disktune restore` "
                    "puts them back"},
                   {"entries", entries}};
  std::string text = DumpJson(j) + "\n";
  std::string tmp = path_ + ".tmp." + std::to_string(getpid());
  unlink(tmp.c_str());  // ours: a run killed mid-save left it
  // Readable by all: anyone may see what is pending; only root can undo it.
  int fd = open(tmp.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return Status::FromErrno(errno, "write journal " + tmp);
  ssize_t w = write(fd, text.data(), text.size());
  int err = errno;
  // The journal must be on disk before the change it records is made.
  if (w == static_cast<ssize_t>(text.size()) && fsync(fd) != 0) {
    err = errno;
    w = -1;
  }
  close(fd);
  if (w != static_cast<ssize_t>(text.size())) {
    unlink(tmp.c_str());
    return Status::FromErrno(w < 0 ? err : ENOSPC, "write journal " + tmp);
  }
  if (rename(tmp.c_str(), path_.c_str()) != 0) {
    err = errno;
    unlink(tmp.c_str());
    return Status::FromErrno(err, "rename journal to " + path_);
  }
  std::string dir = fs::path(path_).parent_path().string();
  int dfd =
      open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
  return Status::OK();
}

Result<std::vector<JournalEntry>> DeviceJournal::Load() const {
  return LoadUnlocked(path_);
}

Result<std::string> DeviceJournal::Add(JournalEntry e) {
  JournalLock lock(path_);
  if (!lock.status().ok()) return lock.status();
  Result<std::vector<JournalEntry>> entries = LoadUnlocked(path_);
  if (!entries.ok()) return entries.status();
  {
    std::lock_guard<std::mutex> l(g_mu);
    e.id = std::to_string(getpid()) + "-" + std::to_string(++g_next_id);
    if (!g_used_paths) {
      g_used_paths = new std::set<std::string>();
      std::atexit(RestoreOwnAtExit);
    }
    g_used_paths->insert(path_);
  }
  e.pid = getpid();
  e.pid_start_ticks = ProcessStartTicks(e.pid);
  if (std::string loop = LoopNameOf(e.target); !loop.empty()) {
    std::optional<LoopIdentity> id = ReadLoopIdentity(loop);
    if (!id) {
      return Status::NotFound(e.target + ": " + loop +
                              " is not attached; nothing to record");
    }
    e.backing_device = id->device;
    e.backing_inode = id->inode;
    e.backing_file = id->file;
  }
  e.created_at = UtcTimestamp();
  entries->push_back(e);
  DT_RETURN_IF_ERROR(Save(*entries));
  return e.id;
}

Status DeviceJournal::Remove(const std::string& id) {
  if (!fs::exists(path_)) return Status::OK();  // already restored by someone
  JournalLock lock(path_);
  if (!lock.status().ok()) return lock.status();
  Result<std::vector<JournalEntry>> entries = LoadUnlocked(path_);
  if (!entries.ok()) return entries.status();
  auto& v = *entries;
  v.erase(std::remove_if(v.begin(), v.end(),
                         [&](const JournalEntry& e) { return e.id == id; }),
          v.end());
  return Save(v);
}

Result<RestoreOutcome> DeviceJournal::Restore(bool include_own) {
  RestoreOutcome out;
  if (!fs::exists(path_)) return out;
  JournalLock lock(path_);
  if (!lock.status().ok()) return lock.status();
  Result<std::vector<JournalEntry>> loaded = LoadUnlocked(path_);
  if (!loaded.ok()) return loaded.status();
  std::vector<JournalEntry> keep;
  const std::vector<JournalEntry>& entries = *loaded;
  std::vector<bool> kept(entries.size(), false);
  for (size_t i = entries.size(); i-- > 0;) {
    const JournalEntry& e = entries[i];
    bool own = e.pid == getpid();
    if (own ? !include_own : JournalOwnerAlive(e)) {
      if (!own) {
        out.running.push_back(e.description + " (" + e.target +
                              "), held by running pid " +
                              std::to_string(e.pid));
      }
      kept[i] = true;
      continue;
    }
    std::string what;
    Status s = ValidateJournalEntry(e);
    if (s.ok()) s = UndoJournalEntry(e, &what);
    if (s.ok()) {
      out.restored.push_back(what);
    } else {
      out.failed.push_back(e.description + ": " + s.message());
      kept[i] = true;
    }
  }
  for (size_t i = 0; i < entries.size(); i++) {
    if (kept[i]) keep.push_back(entries[i]);
  }
  DT_RETURN_IF_ERROR(Save(keep));
  return out;
}

Status UndoJournalEntry(const JournalEntry& e, std::string* what) {
  if (std::string loop = LoopNameOf(e.target);
      !loop.empty() && e.backing_inode != 0) {
    std::optional<LoopIdentity> now = ReadLoopIdentity(loop);
    if (!now || !(*now == LoopIdentity{e.backing_device, e.backing_inode,
                                       e.backing_file})) {
      *what = e.description + ": " + loop +
              (now ? " now backs another file" : " is not attached any more") +
              "; left alone";
      return Status::OK();
    }
  }
  if (std::optional<CacheSwitchKind> kind = ParseCacheSwitchKind(e.kind)) {
    CacheSwitch sw{*kind, "", e.target};
    Result<std::string> now = ReadCacheSwitch(sw);
    if (now.ok() && CacheValueEnabled(*kind, *now) ==
                        CacheValueEnabled(*kind, e.original)) {
      *what = e.description + ": already '" + *now + "' (" + e.target + ")";
      return Status::OK();
    }
    DT_RETURN_IF_ERROR(WriteCacheSwitch(*kind, e.target, e.original));
    *what = e.description + ": put back '" + e.original + "' (was '" +
            (now.ok() ? *now : e.applied) + "') via " + e.target;
    return Status::OK();
  }
  if (e.kind == kJournalMount) return UndoMount(e.target, what);
  if (e.kind == kJournalLoopDevice)
    return UndoLoopDevice(e.target, e.original, what);
  if (e.kind == kJournalImageFile) return UndoImageFile(e.target, what);
  if (e.kind == kJournalCgroup) return UndoCgroup(e.target, what);
  return Status::Corruption("unknown journal entry kind '" + e.kind + "'");
}

}  // namespace disktune
