#include "src/model/file_mode.h"

namespace disktune {

const char* FileModeName(FileMode m) {
  switch (m) {
    case FileMode::kAppend:
      return "append";
    case FileMode::kOverwrite:
      return "overwrite";
    case FileMode::kPrealloc:
      return "prealloc";
  }
  return "append";
}

std::optional<FileMode> ParseFileMode(std::string_view name) {
  for (FileMode m :
       {FileMode::kAppend, FileMode::kOverwrite, FileMode::kPrealloc}) {
    if (name == FileModeName(m)) return m;
  }
  return std::nullopt;
}

}  // namespace disktune
