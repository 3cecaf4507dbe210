#include "src/core/output_file.h"

#include <fcntl.h>
#include <linux/fs.h>  // RENAME_NOREPLACE
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

namespace disktune {
namespace {
namespace fs = std::filesystem;

// How many "-<n>" suffixes CreateFreshDirectory tries.
constexpr int kMaxNumberedTries = 1000;

int RenameNoReplace(const std::string& from, const std::string& to) {
  return static_cast<int>(syscall(SYS_renameat2, AT_FDCWD, from.c_str(),
                                  AT_FDCWD, to.c_str(), RENAME_NOREPLACE));
}

std::string TempNameBeside(const std::string& path) {
  static std::mt19937_64 rng{std::random_device{}()};
  fs::path p(path);
  char suffix[32];
  std::snprintf(suffix, sizeof(suffix), "%d-%08llx", getpid(),
                static_cast<unsigned long long>(rng() & 0xffffffffULL));
  std::string name = "." + p.filename().string() + ".disktune-tmp-" + suffix;
  return (p.parent_path() / name).string();
}

Status NotOurs(const std::string& path, const std::string& flag) {
  return Status::InvalidArgument(
      flag + " " + path +
      " already exists and disktune did not write it; it is left as it is: "
      "choose another name or move it away");
}

Status WriteAll(int fd, std::string_view data, const std::string& shown) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t w = write(fd, data.data() + done, data.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(errno, "write " + shown);
    }
    done += static_cast<size_t>(w);
  }
  return Status::OK();
}

}  // namespace

std::string OutputMarkValue(uint64_t inode, std::string_view data) {
  // FNV-1a, 64 bits: tells an edit from the bytes written; the mark guards
  // against mistakes (a copy, an edited file), not against the file's owner,
  // who can set any user.* attribute anyway.
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char v[96];
  std::snprintf(v, sizeof(v), "v2 inode=%llu size=%zu fnv1a64=%016llx",
                static_cast<unsigned long long>(inode), data.size(),
                static_cast<unsigned long long>(h));
  return v;
}

bool WrittenByDisktune(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  char mark[128] = {};
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            st.st_size <= static_cast<off_t>(kMaxMarkedBytes) &&
            fgetxattr(fd, kOutputMark, mark, sizeof(mark) - 1) > 0;
  std::string data;
  if (ok) {
    data.resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (done < data.size()) {
      ssize_t r = pread(fd, data.data() + done, data.size() - done,
                        static_cast<off_t>(done));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      done += static_cast<size_t>(r);
    }
    ok = done == data.size();
  }
  close(fd);
  // The mark names the inode and the content it was written with: a copy
  // (cp -a carries the attribute to a new inode) or an edit does not match.
  return ok && std::string(mark) == OutputMarkValue(st.st_ino, data);
}

Status CheckOutputFile(const std::string& path, const std::string& flag) {
  if (path.empty()) return Status::InvalidArgument(flag + " is empty");
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) return Status::FromErrno(errno, flag + " " + path);
    fs::path parent = fs::path(path).parent_path();
    if (parent.empty()) parent = ".";
    struct stat pst {};
    if (stat(parent.c_str(), &pst) != 0 || !S_ISDIR(pst.st_mode)) {
      return Status::NotFound(flag + " " + path + ": directory " +
                              parent.string() +
                              " does not exist; create it first");
    }
    if (access(parent.c_str(), W_OK) != 0) {
      return Status::PermissionDenied(flag + " " + path + ": directory " +
                                      parent.string() +
                                      " is not writable; choose another");
    }
    return Status::OK();
  }
  if (S_ISDIR(st.st_mode)) {
    return Status::InvalidArgument(flag + " " + path +
                                   " is a directory; pass a file name");
  }
  if (!WrittenByDisktune(path)) return NotOurs(path, flag);
  return Status::OK();
}

Status WriteOutputFile(const std::string& path, std::string_view data,
                       const std::string& flag) {
  DT_RETURN_IF_ERROR(CheckOutputFile(path, flag));
  std::string tmp;
  int fd = -1;
  for (int i = 0; i < 16 && fd < 0; i++) {
    tmp = TempNameBeside(path);
    fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
              0644);
    if (fd < 0 && errno != EEXIST)
      return Status::FromErrno(errno, flag + " " + path + ": create");
  }
  if (fd < 0) return Status::FromErrno(EEXIST, flag + " " + path);
  Status s = WriteAll(fd, data, path);
  if (s.ok() && fsync(fd) != 0) s = Status::FromErrno(errno, "fsync " + path);
  // Best effort: a filesystem without user xattrs only loses the right to
  // replace this file later.
  struct stat st {};
  if (s.ok() && fstat(fd, &st) == 0) {
    std::string mark = OutputMarkValue(st.st_ino, data);
    (void)fsetxattr(fd, kOutputMark, mark.data(), mark.size(), 0);
  }
  close(fd);
  if (!s.ok()) {
    unlink(tmp.c_str());
    return s;
  }
  if (RenameNoReplace(tmp, path) == 0) return Status::OK();
  int err = errno;
  if (err == EEXIST && WrittenByDisktune(path)) {
    // Our own earlier output: replace it atomically.
    if (std::rename(tmp.c_str(), path.c_str()) == 0) return Status::OK();
    err = errno;
  }
  unlink(tmp.c_str());
  if (err == EEXIST) return NotOurs(path, flag);
  return Status::FromErrno(err, flag + " " + path + ": rename");
}

Result<std::string> CreateFreshDirectory(const std::string& path, bool numbered,
                                         const std::string& flag) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  for (int n = 1; n <= (numbered ? kMaxNumberedTries : 1); n++) {
    std::string candidate = n == 1 ? p : p + "-" + std::to_string(n);
    if (mkdir(candidate.c_str(), 0755) == 0) return candidate;
    int err = errno;
    if (err == EEXIST && numbered) continue;
    if (err == EEXIST) {
      return Status::InvalidArgument(
          flag + " " + p + " already exists; pass a new directory name");
    }
    if (err == ENOENT) {
      fs::path parent = fs::path(p).parent_path();
      return Status::NotFound(flag + " " + p + ": parent directory " +
                              (parent.empty() ? "." : parent.string()) +
                              " does not exist; create it first");
    }
    return Status::FromErrno(err, flag + " " + p + ": mkdir");
  }
  return Status::Busy(flag + " " + p + ": every numbered name is taken");
}

}  // namespace disktune
