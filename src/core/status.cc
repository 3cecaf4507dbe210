#include "src/core/status.h"

#include <cstring>

namespace disktune {

Status Status::FromErrno(int err, std::string_view context) {
  std::string msg(context);
  msg += ": ";
  msg += std::strerror(err);
  switch (err) {
    case ENOENT:
      return NotFound(std::move(msg));
    case ENOSPC:
    case EDQUOT:
      return NoSpace(std::move(msg));
    case EACCES:
    case EPERM:
    case EROFS:
      return PermissionDenied(std::move(msg));
    case EINVAL:
    case EOPNOTSUPP:
      return NotSupported(std::move(msg));
    // A path that cannot name a file (too long, a file where a directory
    // must be, a symlink loop) is bad input, as a missing one is.
    case ENAMETOOLONG:
    case ENOTDIR:
    case ELOOP:
      return InvalidArgument(std::move(msg));
    case EINTR:
      return Aborted(std::move(msg));
    default:
      return IOError(std::move(msg));
  }
}

Status Status::WithContext(std::string_view prefix) const {
  if (ok()) return *this;
  std::string msg(prefix);
  msg += ": ";
  msg += message_;
  return Status(code_, std::move(msg));
}

const char* Status::CodeName(Code code) {
  switch (code) {
    case Code::kOk:
      return "OK";
    case Code::kNotFound:
      return "NotFound";
    case Code::kInvalidArgument:
      return "InvalidArgument";
    case Code::kIOError:
      return "IOError";
    case Code::kNotSupported:
      return "NotSupported";
    case Code::kNoSpace:
      return "NoSpace";
    case Code::kBusy:
      return "Busy";
    case Code::kPermissionDenied:
      return "PermissionDenied";
    case Code::kCorruption:
      return "Corruption";
    case Code::kAborted:
      return "Aborted";
  }
  return "Unknown";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(CodeName(code_)) + ": " + message_;
}

}  // namespace disktune
