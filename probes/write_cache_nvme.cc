// NVMe admin commands for the volatile write cache: Identify Controller (VWC
// at byte 525, bit 0 = a volatile cache exists) and Get/Set Features 0x06
// (bit 0 = enabled). Set Features is sent without the Save bit, so the
// controller's saved setting is not changed.
#include <fcntl.h>
#include <limits.h>
#include <linux/nvme_ioctl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "probes/write_cache.h"

namespace disktune {
namespace {

constexpr uint8_t kOpSetFeatures = 0x09;
constexpr uint8_t kOpGetFeatures = 0x0a;
constexpr uint8_t kOpIdentify = 0x06;
constexpr uint32_t kFeatureVolatileWriteCache = 0x06;
constexpr size_t kVwcOffset = 525;

Result<uint32_t> AdminCommand(const std::string& ctrl, nvme_admin_cmd cmd) {
  int fd = open(ctrl.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, "open " + ctrl);
  int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
  int err = errno;
  close(fd);
  if (rc < 0) return Status::FromErrno(err, "NVMe admin command on " + ctrl);
  if (rc > 0) {
    return Status::IOError("NVMe admin command on " + ctrl + ": status 0x" +
                           std::to_string(rc));
  }
  return cmd.result;
}

}  // namespace

std::string NvmeControllerFor(const std::string& disk) {
  // /sys/block/nvme0n1/device -> .../nvme0
  char buf[PATH_MAX];
  std::string link = "/sys/block/" + disk + "/device";
  if (!realpath(link.c_str(), buf)) return "";
  return "/dev/" + std::filesystem::path(buf).filename().string();
}

Result<bool> NvmeVolatileCachePresent(const std::string& ctrl) {
  if (ctrl.empty()) return Status::NotFound("no NVMe controller found");
  std::vector<uint8_t> id(4096);
  nvme_admin_cmd cmd;
  std::memset(&cmd, 0, sizeof(cmd));
  cmd.opcode = kOpIdentify;
  cmd.addr = reinterpret_cast<uint64_t>(id.data());
  cmd.data_len = static_cast<uint32_t>(id.size());
  cmd.cdw10 = 1;  // CNS 1: Identify Controller
  Result<uint32_t> r = AdminCommand(ctrl, cmd);
  if (!r.ok()) return r.status();
  return (id[kVwcOffset] & 1) != 0;
}

Result<bool> NvmeWriteCacheEnabled(const std::string& ctrl) {
  nvme_admin_cmd cmd;
  std::memset(&cmd, 0, sizeof(cmd));
  cmd.opcode = kOpGetFeatures;
  cmd.cdw10 = kFeatureVolatileWriteCache;  // SEL 0: current value
  Result<uint32_t> r = AdminCommand(ctrl, cmd);
  if (!r.ok()) return r.status();
  return (*r & 1) != 0;
}

Status NvmeSetWriteCache(const std::string& ctrl, bool enabled) {
  nvme_admin_cmd cmd;
  std::memset(&cmd, 0, sizeof(cmd));
  cmd.opcode = kOpSetFeatures;
  cmd.cdw10 = kFeatureVolatileWriteCache;  // SV (bit 31) clear: not saved
  cmd.cdw11 = enabled ? 1 : 0;
  Result<uint32_t> r = AdminCommand(ctrl, cmd);
  return r.status();
}

}  // namespace disktune
