// Progress reporting. Library code reports through a ProgressSink; the CLI
// renders it on stderr: a line rewritten in place on a terminal, plain lines
// (at most one every few seconds) in a log, as --progress says.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace disktune {

class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  // A step (a probe point, a scenario) starts. `index` is 0-based of `total`;
  // `remaining_ns` estimates the time left including this step.
  virtual void Step(const std::string& name, int index, int total,
                    uint64_t remaining_ns) = 0;
  // A one-line warning worth telling the operator.
  virtual void Warn(const std::string& message) = 0;
  // An informational line (db_bench-style result lines).
  virtual void Info(const std::string& line) = 0;
};

// Passes everything to `inner`, adding to each step's estimate of the time
// left what the phases after this one are expected to take (`run`: the
// probe's lines count the bench and the tune still to come).
class LaterPhasesProgress : public ProgressSink {
 public:
  LaterPhasesProgress(ProgressSink* inner, uint64_t later_ns)
      : inner_(inner), later_ns_(later_ns) {}
  void Step(const std::string& name, int index, int total,
            uint64_t remaining_ns) override {
    inner_->Step(name, index, total,
                 total > 0 || remaining_ns > 0 ? remaining_ns + later_ns_ : 0);
  }
  void Warn(const std::string& message) override { inner_->Warn(message); }
  void Info(const std::string& line) override { inner_->Info(line); }

 private:
  ProgressSink* inner_;
  uint64_t later_ns_;
};

// Discards everything; for tests and --quiet.
class NullProgress : public ProgressSink {
 public:
  void Step(const std::string&, int, int, uint64_t) override {}
  void Warn(const std::string&) override {}
  void Info(const std::string&) override {}
};

// --progress: `auto` shows progress unless --quiet; `always` shows it even
// with --quiet (which then silences only warnings and text); `never` hides
// the step lines (warnings and info lines stay, unless --quiet).
enum class ProgressMode { kAuto, kAlways, kNever };
// "auto" / "always" / "never"; nullopt for anything else.
std::optional<ProgressMode> ParseProgressMode(std::string_view text);

// Renders on a stream: on a terminal, a status line rewritten in place
// ("[3/14] rand_read qd4   12s elapsed, ~30s left"); elsewhere (an Ansible
// or nohup log) plain lines, "progress: [3/14] rand_read qd4: 12s elapsed,
// ~30s left", the first step and then at most one every kPlainIntervalNs, so
// a long run shows where it is without flooding the log. Warnings and info
// lines always (unless quiet).
class TerminalProgress : public ProgressSink {
 public:
  static constexpr uint64_t kPlainIntervalNs = 5'000'000'000;
  TerminalProgress(std::ostream& err, bool is_terminal, bool quiet,
                   ProgressMode mode = ProgressMode::kAuto);
  ~TerminalProgress() override;
  void Step(const std::string& name, int index, int total,
            uint64_t remaining_ns) override;
  void Warn(const std::string& message) override;
  void Info(const std::string& line) override;
  void Finish();

 private:
  void ClearLine();
  void WriteWhole(const std::string& line);
  std::ostream& err_;
  bool tty_;
  bool quiet_;
  bool steps_;  // step lines shown at all
  bool line_open_ = false;
  uint64_t start_ns_;
  std::optional<uint64_t> last_plain_ns_;
};

}  // namespace disktune
