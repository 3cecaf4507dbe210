// The one way disktune reads a JSON file someone handed it (a result, a
// profile, a workload, a journal): such files are untrusted input.
//
// ReadJsonInput accepts regular files only (a FIFO, a device such as
// /dev/zero, a directory or a socket is refused before it is read), reads at
// most `max_bytes`, gives up after `timeout` (a file on a hung network
// filesystem), refuses nesting deeper than `max_depth`, and says in one line
// which file is wrong and how. DescribeJsonError turns a nlohmann exception
// (built with JSON_DIAGNOSTICS, so it knows the field's path) into
// "/probes/0/status: type must be string, but is number".
//
// Paths are bytes on Linux. PathToJson gives the form a path takes in JSON:
// UTF-8 text as it is, with a backslash written "\\" and every byte that is
// not part of valid UTF-8 written "\xNN"; PathFromJson reverses it, so a
// path survives a round trip and a result is never lost over a file name.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "src/core/status.h"

namespace disktune {

struct JsonInputLimits {
  // A full `run` result is ~1 MiB; 64 MiB leaves room for long fleet runs.
  uint64_t max_bytes = uint64_t{64} << 20;
  // disktune's own documents nest at most ~8 deep.
  int max_depth = 64;
  uint64_t timeout_ns = 30'000'000'000;  // 30 s
};

// Reads and parses `path`. `what` names the input in messages ("result file",
// "--profile"). Errors are InvalidArgument (the operator passed a wrong file),
// NotFound (no such file) or IOError (a timeout).
Result<nlohmann::json> ReadJsonInput(const std::string& path,
                                     const std::string& what,
                                     const JsonInputLimits& limits = {});
// Parses `text` with the same depth limit; `where` names it in messages.
Result<nlohmann::json> ParseJsonInput(std::string_view text,
                                      const std::string& where,
                                      const JsonInputLimits& limits = {});

// "<field path>: <what was expected>" for a nlohmann exception.
std::string DescribeJsonError(const std::exception& e);

// Runs `decode` (which returns a Result) and turns a nlohmann exception it
// throws into InvalidArgument naming `where` and the field.
template <typename F>
auto GuardJson(const std::string& where, F&& decode) -> decltype(decode()) {
  try {
    return decode();
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(where + ": " + DescribeJsonError(e) +
                                   "; pass a file written by disktune");
  }
}

// Whether `s` is valid UTF-8.
bool IsValidUtf8(std::string_view s);
std::string PathToJson(std::string_view path_bytes);
std::string PathFromJson(std::string_view json_text);
// Serialises `j`; a string that is not valid UTF-8 (which should have gone
// through PathToJson) is written with U+FFFD rather than losing the document.
std::string DumpJson(const nlohmann::json& j, int indent = 2);

}  // namespace disktune
