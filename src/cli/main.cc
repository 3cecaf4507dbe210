#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "src/cli/cli.h"

namespace {

// Runs before every static initializer (the watcher's among them): a
// standard descriptor the caller closed is filled with /dev/null opened
// read-only, so no file disktune opens (the --dir handle, a journal)
// becomes descriptor 1 or 2 and receives the result, and a write to it
// fails, which Main reports as a result not written (exit 3).
__attribute__((constructor(101))) void FillClosedStandardDescriptors() {
  for (int fd = 0; fd <= 2; fd++) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    int got = open("/dev/null", O_RDONLY);
    if (got >= 0 && got != fd) {
      dup2(got, fd);
      close(got);
    }
  }
}

// Whether stderr takes the progress line's escapes ("\r\033[K"): a terminal
// whose TERM is set and not "dumb" (Emacs shells, some CI consoles).
bool StderrIsCapableTerminal() {
  const char* term = std::getenv("TERM");
  return isatty(STDERR_FILENO) != 0 && term != nullptr && *term != '\0' &&
         std::string_view(term) != "dumb";
}

}  // namespace

int main(int argc, char** argv) {
  return disktune::cli::Main(std::vector<std::string>(argv, argv + argc),
                             std::cout, std::cerr, StderrIsCapableTerminal());
}
