// LibraryBuild: which build of an engine library produced a report's figures
// (version, the shared object loaded, and the build facts that change
// figures). Plain data: engines/ fills it, the environment block carries it.
#pragma once

#include <string>

namespace disktune {

struct LibraryBuild {
  std::string engine;          // "rocksdb"
  std::string version;         // "7.8.3"
  std::string version_source;  // "library" (asked at run time) or "headers"
  // The file the dynamic loader mapped, symlinks resolved; empty when the
  // library is linked into the disktune binary itself.
  std::string shared_object;
  // "on", "off" or "unknown", and how that was found out.
  std::string assertions = "unknown";
  std::string assertions_evidence;
};

}  // namespace disktune
