// Status and Result<T>: the one error value used across disktune.
//
// Library code never throws across a module boundary and never exits; it
// returns a Status (or a Result<T> carrying either a value or a Status). The
// CLI maps a Status to one line on stderr and an exit code.
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace disktune {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk = 0,
    kNotFound,
    kInvalidArgument,  // bad input from the user: a flag, a file, an expression
    kIOError,
    kNotSupported,      // the platform or filesystem cannot do it (O_DIRECT on
                        // tmpfs)
    kNoSpace,           // not enough free space for what was asked
    kBusy,              // locked by another run
    kPermissionDenied,  // needs root or a writable directory
    kCorruption,        // data read back is not what was written / unparsable
    kAborted,           // interrupted by SIGINT / SIGTERM
  };

  Status() = default;
  static Status OK() { return Status(); }
  static Status NotFound(std::string msg) {
    return Status(Code::kNotFound, std::move(msg));
  }
  static Status InvalidArgument(std::string msg) {
    return Status(Code::kInvalidArgument, std::move(msg));
  }
  static Status IOError(std::string msg) {
    return Status(Code::kIOError, std::move(msg));
  }
  static Status NotSupported(std::string msg) {
    return Status(Code::kNotSupported, std::move(msg));
  }
  static Status NoSpace(std::string msg) {
    return Status(Code::kNoSpace, std::move(msg));
  }
  static Status Busy(std::string msg) {
    return Status(Code::kBusy, std::move(msg));
  }
  static Status PermissionDenied(std::string msg) {
    return Status(Code::kPermissionDenied, std::move(msg));
  }
  static Status Corruption(std::string msg) {
    return Status(Code::kCorruption, std::move(msg));
  }
  static Status Aborted(std::string msg) {
    return Status(Code::kAborted, std::move(msg));
  }

  // The single place errno becomes a Status. `context` names the operation and
  // the file: FromErrno(EIO, "fsync /data/x") -> "fsync /data/x: Input/output
  // error".
  static Status FromErrno(int err, std::string_view context);

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  bool IsNotSupported() const { return code_ == Code::kNotSupported; }
  bool IsAborted() const { return code_ == Code::kAborted; }

  // Returns a copy whose message is "prefix: message".
  Status WithContext(std::string_view prefix) const;
  std::string ToString() const;
  static const char* CodeName(Code code);

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(v_).ok() && "Result built from an OK status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  // REQUIRES: ok()
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  // OK when a value is held.
  Status status() const { return ok() ? Status::OK() : std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace disktune

// Propagates a non-OK Status from an expression.
#define DT_RETURN_IF_ERROR(expr)       \
  do {                                 \
    ::disktune::Status _dt_s = (expr); \
    if (!_dt_s.ok()) return _dt_s;     \
  } while (0)
