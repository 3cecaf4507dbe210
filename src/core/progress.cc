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

// One insertion per line: stderr is unbuffered, so a line built of several
// insertions reaches a log as several write(2) calls, and another writer (an
// engine's own logging, a second process) can land between them.
void TerminalProgress::WriteWhole(const std::string& line) {
  std::string out;
  if (line_open_) {
    out = "\r\033[K";
    line_open_ = false;
  }
  out += line;
  err_.write(out.data(), static_cast<std::streamsize>(out.size()));
  err_.flush();
}

namespace {

// "3/8", or "3" when the number of steps is not known in advance (the
// tuner's trials).
std::string Counter(int index, int total) {
  return total > 0 ? std::to_string(index + 1) + "/" + std::to_string(total)
                   : std::to_string(index + 1);
}

// ", ~12s left"; nothing when neither the steps nor the time left are known.
std::string Left(int total, uint64_t remaining_ns) {
  if (total <= 0 && remaining_ns == 0) return "";
  char buf[48];
  std::snprintf(buf, sizeof(buf), ", ~%.0fs left", remaining_ns / 1e9);
  return buf;
}

}  // namespace

void TerminalProgress::Step(const std::string& name, int index, int total,
                            uint64_t remaining_ns) {
  if (!steps_) return;
  uint64_t now = NowNanos();
  char buf[256];
  if (!tty_) {
    if (last_plain_ns_ && now - *last_plain_ns_ < kPlainIntervalNs) return;
    last_plain_ns_ = now;
    std::snprintf(buf, sizeof(buf), "progress: [%s] %s: %.0fs elapsed%s\n",
                  Counter(index, total).c_str(), name.c_str(),
                  (now - start_ns_) / 1e9, Left(total, remaining_ns).c_str());
    WriteWhole(buf);
    return;
  }
  std::snprintf(buf, sizeof(buf), "[%s] %-28s %4.0fs elapsed%s",
                Counter(index, total).c_str(), name.c_str(),
                (now - start_ns_) / 1e9, Left(total, remaining_ns).c_str());
  WriteWhole(buf);
  line_open_ = true;
}

void TerminalProgress::Warn(const std::string& message) {
  if (quiet_) return;
  WriteWhole("warning: " + message + "\n");
}

void TerminalProgress::Info(const std::string& line) {
  if (quiet_) return;
  WriteWhole(line + "\n");
}

void TerminalProgress::Finish() {
  ClearLine();
  err_ << std::flush;
}

}  // namespace disktune
