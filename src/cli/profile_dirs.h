// Where the checked-in profiles are, so `bench --profile ycsb-a` and `list`
// work from a build tree and from an installed copy alike.
#pragma once

#include <string>
#include <vector>

#include "src/core/status.h"
#include "src/tune/workload.h"

namespace disktune::cli {

// The directories searched for profiles by name, first match wins:
//   1. <the executable's dir>/../share/disktune/profiles (an installed copy,
//      under any prefix or unpacked root);
//   2. ./profiles (a checkout, or an operator's own profiles);
//   3. the source tree's profiles/, only when (1) does not exist, so an
//      installed copy never reads the tree it was built from.
// Only directories that exist are returned.
std::vector<std::string> ProfileDirs();

struct ProfileEntry {
  std::string name;  // file name without ".json"
  std::string path;
};
// Every profile in ProfileDirs(), one per name (the first directory wins),
// sorted by name.
std::vector<ProfileEntry> ListProfiles();

// A profile argument: a path when it contains '/' or ends in ".json",
// otherwise a name looked up in ProfileDirs(). NotFound names the
// directories searched and the names available.
Result<std::string> ResolveProfileArgument(const std::string& flag,
                                           const std::string& arg);

// --workload: the tuner's built-in workloads and embedded profiles first,
// then a profile by name in ProfileDirs() (one an operator added to the data
// directory), then a path.
Result<tune::Workload> ResolveWorkloadArgument(const std::string& arg);

}  // namespace disktune::cli
