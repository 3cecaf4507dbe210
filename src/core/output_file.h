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

#include <cstdint>
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

// Whether `path` is a regular file carrying kOutputMark, and the mark is
// this file's: it names the inode written and a digest of the bytes written
// (OutputMarkValue), so a copy (cp -a keeps the attribute) or an edited file
// is refused like any other. Files over kMaxMarkedBytes never match.
bool WrittenByDisktune(const std::string& path);
inline constexpr uint64_t kMaxMarkedBytes = 256ull << 20;
// The attribute's value for `data` written to the file with `inode`.
std::string OutputMarkValue(uint64_t inode, std::string_view data);

// Creates a new directory. When `numbered`, "path-2", "path-3", ... are tried
// while the name is taken (for default names such as disktune-run-<time>);
// otherwise an existing `path` is an error. Returns the path created.
Result<std::string> CreateFreshDirectory(const std::string& path, bool numbered,
                                         const std::string& flag);

}  // namespace disktune
