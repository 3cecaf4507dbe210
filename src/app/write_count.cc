#include "src/app/write_count.h"

#include "src/model/analysis_bytes_written.h"

namespace disktune {

WriteCount::WriteCount(const Result<DeviceInfo>& disk) : disk_(disk) {
  if (disk_.ok()) {
    if (auto c = ReadFlushCounters(disk_->disk); c.ok()) disk_before_ = *c;
  }
  io_before_ = bench::TakeProcessSnapshot();
}

std::optional<uint64_t> WriteCount::DiskBytesSoFar() const {
  if (!disk_.ok() || !disk_before_) return std::nullopt;
  auto now = ReadFlushCounters(disk_->disk);
  if (!now.ok()) return std::nullopt;
  return (now->sectors_written - disk_before_->sectors_written) * 512;
}

void WriteCount::Record(Report* report) const {
  bench::ProcessSnapshot io_after = bench::TakeProcessSnapshot();
  BytesWritten written;
  if (io_before_.device_write_bytes && io_after.device_write_bytes) {
    written.process_bytes =
        *io_after.device_write_bytes - *io_before_.device_write_bytes;
    report->bytes_written = *written.process_bytes;
  }
  if (std::optional<uint64_t> d = DiskBytesSoFar()) {
    written.disk = disk_->disk;
    written.disk_bytes = *d;
    report->bytes_written = *d;
  }
  report->analyses.bytes_written = written;
}

}  // namespace disktune
