#include "src/app/engine_libraries.h"

#include <algorithm>

#include "engines/engine_library.h"

namespace disktune {

void RecordEngineLibraries(const std::vector<std::string>& engines,
                           Report* report) {
  std::vector<LibraryBuild>& libs = report->environment.engine_libraries;
  for (const std::string& id : engines) {
    if (std::any_of(libs.begin(), libs.end(),
                    [&](const LibraryBuild& b) { return b.engine == id; })) {
      continue;
    }
    LibraryBuild b = DescribeEngineLibrary(id);
    if (b.assertions == "on") {
      // The engines' own benchmarks print the same warning for such a build.
      report->warnings.push_back(
          id + " library " + b.version + " (" +
          (b.shared_object.empty() ? std::string("linked into disktune")
                                   : b.shared_object) +
          ") is built with assertions enabled: its figures are slower than a "
          "release build's, as its own db_bench warns ('benchmarks "
          "unnecessarily slow'); link a release build (see README: your own "
          "engine build) to measure what production runs");
    }
    libs.push_back(std::move(b));
  }
}

}  // namespace disktune
