#include "src/core/json_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <future>
#include <memory>
#include <thread>

namespace disktune {
namespace {

struct TooDeep {};

// What the reader thread hands back.
struct ReadOutcome {
  Status status;
  std::string text;
};

const char* FileKind(mode_t m) {
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISDIR(m)) return "a directory";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

ReadOutcome ReadBounded(const std::string& path, const std::string& what,
                        uint64_t max_bytes) {
  ReadOutcome out;
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT) {
      out.status = Status::NotFound(what + " " + path +
                                    " does not exist; check the path");
    } else {
      out.status = Status::InvalidArgument(
          what + " " + path + ": cannot open (" + std::strerror(err) + ")");
    }
    return out;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    out.status = Status::InvalidArgument(
        what + " " + path + " is " + FileKind(st.st_mode) +
        "; pass a JSON file written by disktune");
    return out;
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    close(fd);
    out.status = Status::InvalidArgument(
        what + " " + path + " is " + std::to_string(st.st_size) +
        " bytes, more than the " + std::to_string(max_bytes) +
        " a disktune file can be; pass the right file");
    return out;
  }
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      out.status = Status::InvalidArgument(
          what + " " + path + ": read failed (" + std::strerror(errno) + ")");
      break;
    }
    if (n == 0) break;
    out.text.append(buf, static_cast<size_t>(n));
    if (out.text.size() > max_bytes) {  // the file grew while being read
      out.status = Status::InvalidArgument(
          what + " " + path + " is larger than the " +
          std::to_string(max_bytes) + " bytes a disktune file can be");
      break;
    }
  }
  close(fd);
  return out;
}

// Decodes one UTF-8 sequence at s[i]; its length, or 0 when invalid.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len;
  uint32_t cp;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; k++) {
    unsigned char cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
  static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return len;
}

}  // namespace

Result<nlohmann::json> ParseJsonInput(std::string_view text,
                                      const std::string& where,
                                      const JsonInputLimits& limits) {
  const int max_depth = limits.max_depth;
  nlohmann::json::parser_callback_t cb =
      [max_depth](int depth, nlohmann::json::parse_event_t event,
                  nlohmann::json&) {
        if ((event == nlohmann::json::parse_event_t::object_start ||
             event == nlohmann::json::parse_event_t::array_start) &&
            depth >= max_depth) {
          throw TooDeep{};
        }
        return true;
      };
  try {
    return nlohmann::json::parse(text.begin(), text.end(), cb);
  } catch (const TooDeep&) {
    return Status::InvalidArgument(
        where + " nests deeper than " + std::to_string(max_depth) +
        " levels; disktune never writes that: pass the right file");
  } catch (const nlohmann::json::parse_error& e) {
    return Status::InvalidArgument(where + " is not valid JSON (byte " +
                                   std::to_string(e.byte) +
                                   "); pass a JSON file written by disktune");
  } catch (const nlohmann::json::exception& e) {
    // out_of_range.406: a number too large for a double, and the like.
    return Status::InvalidArgument(where + " is not valid JSON (" +
                                   DescribeJsonError(e) +
                                   "); pass a JSON file written by disktune");
  }
}

Result<nlohmann::json> ReadJsonInput(const std::string& path,
                                     const std::string& what,
                                     const JsonInputLimits& limits) {
  // The read runs on its own thread so that a file on a hung filesystem
  // costs `timeout`, not forever; a stuck thread is left behind (it holds
  // only its own copies) and the process exits with an error.
  auto promise = std::make_shared<std::promise<ReadOutcome>>();
  std::future<ReadOutcome> future = promise->get_future();
  std::thread([promise, path, what, max = limits.max_bytes] {
    promise->set_value(ReadBounded(path, what, max));
  }).detach();
  if (future.wait_for(std::chrono::nanoseconds(limits.timeout_ns)) !=
      std::future_status::ready) {
    return Status::IOError(what + " " + path + ": no data after " +
                           std::to_string(limits.timeout_ns / 1000000000) +
                           " s; is its filesystem hung?");
  }
  ReadOutcome r = future.get();
  if (!r.status.ok()) return r.status;
  return ParseJsonInput(r.text, what + " " + path, limits);
}

std::string DescribeJsonError(const std::exception& e) {
  std::string m = e.what();
  // "[json.exception.type_error.302] (/a/b) type must be ..." -> "/a/b: ..."
  if (m.rfind("[json.exception.", 0) == 0) {
    size_t close = m.find("] ");
    if (close != std::string::npos) m = m.substr(close + 2);
  }
  if (!m.empty() && m[0] == '(') {
    size_t close = m.find(") ");
    if (close != std::string::npos)
      m = m.substr(1, close - 1) + ": " + m.substr(close + 2);
  }
  return m;
}

bool IsValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = Utf8SequenceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string PathToJson(std::string_view p) {
  std::string out;
  out.reserve(p.size());
  for (size_t i = 0; i < p.size();) {
    size_t n = Utf8SequenceLength(p, i);
    if (n == 0) {
      static const char* kHex = "0123456789abcdef";
      unsigned char c = static_cast<unsigned char>(p[i]);
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      i++;
    } else if (p[i] == '\\') {
      out += "\\\\";
      i++;
    } else {
      out.append(p.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string PathFromJson(std::string_view t) {
  std::string out;
  out.reserve(t.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < t.size(); i++) {
    if (t[i] == '\\' && i + 1 < t.size() && t[i + 1] == '\\') {
      out += '\\';
      i++;
    } else if (t[i] == '\\' && i + 3 < t.size() && t[i + 1] == 'x' &&
               hex(t[i + 2]) >= 0 && hex(t[i + 3]) >= 0) {
      out += static_cast<char>(hex(t[i + 2]) * 16 + hex(t[i + 3]));
      i += 3;
    } else {
      out += t[i];
    }
  }
  return out;
}

std::string DumpJson(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace disktune
