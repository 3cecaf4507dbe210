#include "src/core/progress.h"

#include <cstdio>
#include <ostream>

#include "src/core/clock.h"

namespace disktune {

std::optional<ProgressMode> ParseProgressMode(std::string_view text) {
  if (text == "auto") return ProgressMode::kAuto;
  if (text == "always") return ProgressMode::kAlways;
  if (text == "never") return ProgressMode::kNever;
  return std::nullopt;
}

TerminalProgress::TerminalProgress(std::ostream& err, bool is_terminal,
                                   bool quiet, ProgressMode mode)
    : err_(err),
      tty_(is_terminal),
      quiet_(quiet),
      steps_(mode == ProgressMode::kAlways ||
             (mode == ProgressMode::kAuto && !quiet)),
      start_ns_(NowNanos()) {}

TerminalProgress::~TerminalProgress() { Finish(); }

void TerminalProgress::ClearLine() {
  if (line_open_) {
    err_ << "\r\033[K";
    line_open_ = false;
  }
}

void TerminalProgress::Step(const std::string& name, int index, int total,
                            uint64_t remaining_ns) {
  if (!steps_) return;
  uint64_t now = NowNanos();
  char buf[256];
  if (!tty_) {
    if (last_plain_ns_ && now - *last_plain_ns_ < kPlainIntervalNs) return;
    last_plain_ns_ = now;
    std::snprintf(buf, sizeof(buf),
                  "progress: [%d/%d] %s: %.0fs elapsed, ~%.0fs left\n",
                  index + 1, total, name.c_str(), (now - start_ns_) / 1e9,
                  remaining_ns / 1e9);
    err_ << buf << std::flush;
    return;
  }
  ClearLine();
  std::snprintf(buf, sizeof(buf), "[%d/%d] %-28s %4.0fs elapsed, ~%.0fs left",
                index + 1, total, name.c_str(), (now - start_ns_) / 1e9,
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
