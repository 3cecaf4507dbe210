// Output files and directories that never replace what disktune did not write.
//
// Every file disktune writes outside its scratch directory (--json, --out of
// `report`, `run` and `tune`) goes through WriteOutputFile: the bytes go to a
// fresh temporary file beside the target (created with O_EXCL under a name no
// one else uses), which is then renamed onto the target without replacing
// anything (RENAME_NOREPLACE). A file disktune itself wrote earlier carries
// the extended attribute kOutputMark and may be replaced; any other existing
// file is refused with a line saying so. A failure leaves no temporary file.
#pragma once

#include <string>
#include <string_view>

#include "src/core/status.h"

namespace disktune {

// The extended attribute that marks a file disktune wrote ("user.disktune").
inline constexpr const char* kOutputMark = "user.disktune";

// Writes `data` to `path` as described above. `flag` names the option for
// messages ("--json"). AlreadyExists-like InvalidArgument when `path` is a
// file disktune did not write.
Status WriteOutputFile(const std::string& path, std::string_view data,
                       const std::string& flag);

// OK when WriteOutputFile(path, ...) could write there now: `path` does not
// exist, or is a regular file disktune wrote. Lets a command refuse before it
// spends an hour measuring.
Status CheckOutputFile(const std::string& path, const std::string& flag);

// Whether `path` is a regular file carrying kOutputMark.
bool WrittenByDisktune(const std::string& path);

// Creates a new directory. When `numbered`, "path-2", "path-3", ... are tried
// while the name is taken (for default names such as disktune-run-<time>);
// otherwise an existing `path` is an error. Returns the path created.
Result<std::string> CreateFreshDirectory(const std::string& path, bool numbered,
                                         const std::string& flag);

}  // namespace disktune
