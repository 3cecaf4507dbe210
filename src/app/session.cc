#include "src/app/session.h"

#include <unistd.h>

#include <cstdlib>
#include <utility>

#include "probes/device_info.h"
#include "probes/device_journal.h"
#include "probes/environment.h"
#include "probes/journal_objects.h"

namespace disktune::app {
namespace {

// Journals `dir` (device and inode) so `restore` and the next run remove it
// after a SIGKILL; the entry goes when the directory does.
Status JournalScratch(ScratchDir& dir) {
  // The journal is root's: an unprivileged run has none unless a test names
  // one.
  if (geteuid() != 0 && std::getenv("DISKTUNE_JOURNAL") == nullptr)
    return Status::OK();
  JournalEntry e;
  e.kind = kJournalScratchDir;
  e.target = dir.path();
  e.description = "scratch directory";
  DT_RETURN_IF_ERROR(RecordIdentity(dir.parent_fd(), dir.name(), &e));
  Result<std::string> id = ProcessJournal().Add(e);
  // An unprivileged run changes no device setting: a journal it cannot
  // write (root's, named for a test) leaves its scratch to the destructor,
  // as before scratch directories were journaled.
  if (!id.ok() && geteuid() != 0) return Status::OK();
  if (!id.ok()) return id.status();
  dir.SetOnEnd([id = *id](bool done) {
    if (done) (void)ProcessJournal().Remove(id);
  });
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<ScratchDir>> OpenScratch(const std::string& dir,
                                                bool keep) {
  Result<std::unique_ptr<ScratchDir>> s = ScratchDir::Create(dir, "--dir");
  if (s.ok() && keep) (*s)->Keep();
  if (s.ok()) DT_RETURN_IF_ERROR(JournalScratch(**s));
  return s;
}

Result<std::unique_ptr<Session>> Session::Open(const SessionOptions& options,
                                               ProgressSink* progress) {
  std::unique_ptr<Session> s(new Session());
  Result<std::unique_ptr<ScratchDir>> scratch =
      OpenScratch(options.dir, options.keep);
  if (!scratch.ok()) return scratch.status();
  s->scratch_ = std::move(*scratch);
  // The scratch directory sits on the disk under --dir (made inside it, or
  // as it when --dir is new): one resolution serves the write count and,
  // unthrottled, the environment.
  s->disk_ = ResolveDevice(s->scratch_->path());
  s->since_open_.emplace(s->disk_);
  if (options.throttle) {
    Result<std::unique_ptr<ThrottleSession>> t =
        ThrottleSession::Start(*options.throttle, *s->scratch_, progress);
    if (!t.ok()) return t.status();
    s->throttled_ = std::move(*t);
    // The loop device: the one other device the steps measure. The class
    // is recorded now, so the steps' predictions hold their figures to it
    // (predict::DiskFiguresFromRun); FinishThrottle records it again with
    // the whole run's accounting.
    s->environment_ = CollectEnvironment(s->throttled_->scratch().path());
    s->environment_.throttle = s->throttled_->Record();
  } else {
    s->environment_ = CollectEnvironment(s->scratch_->path(), s->disk_);
  }
  return s;
}

Session::~Session() { throttled_.reset(); }

const ScratchDir& Session::scratch() const {
  return throttled_ ? throttled_->scratch() : *scratch_;
}

Status Session::FinishThrottle(Environment* env) {
  if (!throttled_) return Status::OK();
  return throttled_->Finish(env);
}

}  // namespace disktune::app
