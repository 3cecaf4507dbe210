// The disktune command line as a library function, so tests can drive it the
// way a user does: Main({"disktune", "probe", "--quick"}, out, err).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace disktune::cli {

// Parses and runs one command; returns the process exit code:
// 0 success, 1 a failure while running, 2 bad input (flags, paths, files),
// 128+N interrupted by signal N (130 SIGINT, 143 SIGTERM).
int Main(const std::vector<std::string>& args, std::ostream& out,
         std::ostream& err, bool err_is_terminal = false);

}  // namespace disktune::cli
