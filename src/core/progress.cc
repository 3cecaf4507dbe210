#include "src/core/progress.h"

#include <cstdio>
#include <ostream>

#include "src/core/clock.h"

namespace disktune {

TerminalProgress::TerminalProgress(std::ostream& err, bool is_terminal,
                                   bool quiet)
    : err_(err), tty_(is_terminal), quiet_(quiet), start_ns_(NowNanos()) {}

TerminalProgress::~TerminalProgress() { Finish(); }

void TerminalProgress::ClearLine() {
  if (line_open_) {
    err_ << "\r\033[K";
    line_open_ = false;
  }
}

void TerminalProgress::Step(const std::string& name, int index, int total,
                            uint64_t remaining_ns) {
  if (quiet_ || !tty_) return;
  ClearLine();
  char buf[256];
  std::snprintf(buf, sizeof(buf), "[%d/%d] %-28s %4.0fs elapsed, ~%.0fs left",
                index + 1, total, name.c_str(), (NowNanos() - start_ns_) / 1e9,
                remaining_ns / 1e9);
  err_ << buf << std::flush;
  line_open_ = true;
}

void TerminalProgress::Warn(const std::string& message) {
  if (quiet_) return;
  ClearLine();
  err_ << "warning: " << message << "\n" << std::flush;
}

void TerminalProgress::Info(const std::string& line) {
  if (quiet_) return;
  ClearLine();
  err_ << line << "\n" << std::flush;
}

void TerminalProgress::Finish() {
  ClearLine();
  err_ << std::flush;
}

}  // namespace disktune
