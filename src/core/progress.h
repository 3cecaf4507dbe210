// Progress reporting. Library code reports through a ProgressSink; the CLI
// renders it on stderr when stderr is a terminal and --quiet is off.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

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

// Discards everything; for tests and --quiet.
class NullProgress : public ProgressSink {
 public:
  void Step(const std::string&, int, int, uint64_t) override {}
  void Warn(const std::string&) override {}
  void Info(const std::string&) override {}
};

// Renders on a stream: a status line rewritten in place on a terminal
// ("[3/14] rand_read qd4   12s elapsed, ~30s left"), warnings and info lines
// always (unless quiet).
class TerminalProgress : public ProgressSink {
 public:
  TerminalProgress(std::ostream& err, bool is_terminal, bool quiet);
  ~TerminalProgress() override;
  void Step(const std::string& name, int index, int total,
            uint64_t remaining_ns) override;
  void Warn(const std::string& message) override;
  void Info(const std::string& line) override;
  void Finish();

 private:
  void ClearLine();
  std::ostream& err_;
  bool tty_;
  bool quiet_;
  bool line_open_ = false;
  uint64_t start_ns_;
};

}  // namespace disktune
