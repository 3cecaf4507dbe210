#include "probes/uring_job.h"

#include <liburing.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "src/core/clock.h"
#include "src/core/rng.h"
#include "src/core/signals.h"

namespace disktune {
namespace {

struct AlignedFree {
  void operator()(void* p) const { free(p); }
};

struct Slot {
  uint64_t offset = 0;
  uint64_t submit_ns = 0;
  std::unique_ptr<char, AlignedFree> buf;
};

class OffsetGen {
 public:
  OffsetGen(const UringJob& job)
      : random_(job.random),
        bs_(job.block_size),
        blocks_(job.region_bytes / job.block_size),
        rng_(job.seed) {}
  uint64_t Next() {
    uint64_t block;
    if (random_) {
      block = rng_.Uniform(blocks_);
    } else {
      block = next_;
      next_ = (next_ + 1) % blocks_;
    }
    return block * bs_;
  }

 private:
  bool random_;
  uint64_t bs_, blocks_, next_ = 0;
  Rng rng_;
};

}  // namespace

Result<UringJobResult> RunUringJob(const UringJob& job) {
  if (job.block_size == 0 || job.region_bytes < job.block_size ||
      job.queue_depth < 1) {
    return Status::InvalidArgument(
        "uring job: bad block size, region or queue depth");
  }
  io_uring ring;
  unsigned entries = 1;
  while (entries < static_cast<unsigned>(job.queue_depth)) entries <<= 1;
  // Completion work runs in our own task when we enter the kernel, not via
  // interrupts to another CPU (fio does the same); older kernels refuse the
  // flags, so fall back step by step.
  int rc = -EINVAL;
  for (unsigned flags :
       {IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
            IORING_SETUP_DEFER_TASKRUN,
        unsigned{IORING_SETUP_COOP_TASKRUN}, 0u}) {
    io_uring_params params{};
    params.flags = flags;
    rc = io_uring_queue_init_params(entries, &ring, &params);
    if (rc != -EINVAL) break;
  }
  if (rc < 0) return Status::FromErrno(-rc, "io_uring_queue_init");
  struct RingCloser {
    io_uring* r;
    ~RingCloser() { io_uring_queue_exit(r); }
  } closer{&ring};

  Rng fill(job.seed ^ 0x5eed);
  std::vector<Slot> slots(job.queue_depth);
  for (auto& s : slots) {
    void* p = nullptr;
    if (posix_memalign(&p, job.alignment, job.block_size) != 0) {
      return Status::IOError("out of memory for I/O buffers");
    }
    s.buf.reset(static_cast<char*>(p));
    // Incompressible payload for writes; harmless for reads.
    auto* w = reinterpret_cast<uint64_t*>(p);
    for (uint64_t i = 0; i < job.block_size / 8; i++) w[i] = fill.Next();
  }

  OffsetGen offsets(job);
  auto prep = [&](int idx, uint64_t now) -> Status {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    if (!sqe) return Status::IOError("io_uring submission queue full");
    Slot& s = slots[idx];
    s.offset = offsets.Next();
    s.submit_ns = now;
    if (job.write) {
      io_uring_prep_write(sqe, job.fd, s.buf.get(), job.block_size, s.offset);
    } else {
      io_uring_prep_read(sqe, job.fd, s.buf.get(), job.block_size, s.offset);
    }
    io_uring_sqe_set_data64(sqe, static_cast<uint64_t>(idx));
    return Status::OK();
  };

  UringJobResult result;
  uint64_t start = NowNanos();
  uint64_t measure_start = start + job.warmup_ns;
  uint64_t end = measure_start + job.duration_ns;
  uint64_t last_counted = measure_start;
  uint64_t submitted_bytes =
      0;  // in the current phase (warm-up, then measured)
  bool warming = job.warmup_ns > 0;
  int inflight = 0;
  rusage usage_before{};
  getrusage(RUSAGE_THREAD, &usage_before);
  for (int i = 0; i < job.queue_depth; i++) {
    DT_RETURN_IF_ERROR(prep(i, start));
    submitted_bytes += job.block_size;
    inflight++;
  }

  // Each re-armed I/O is submitted as soon as its completion is reaped, as
  // fio does (iodepth_batch_submit=1: one io_uring_enter per I/O), not once
  // the whole batch is re-armed: the device starts on the first refill while
  // the rest are prepared. On the development VM's virtio disk, 4 KiB QD32
  // random reads in 3 s runs interleaved with fio: 63-82K IOPS submitting
  // each, 56-70K re-arming the batch first, fio 63-82K; context switches
  // alike in all three (benchmarks/README.md, "Probes vs fio").
  // Then wait only when no completion is already there (as fio does).
  // Combining submit and wait in one io_uring_enter measured slower here: the
  // task then always sleeps inside the call, and a completion pays a full
  // wake-up (loop device on tmpfs, QD1: p50 34 us combined vs 13 us split).
  // No timeout on the wait (arming a timer per call costs IOPS): the
  // SIGINT/SIGTERM handlers are installed without SA_RESTART, so the wait
  // returns -EINTR and the loop notices.
  bool stopping = false;
  Status error;
  while (inflight > 0) {
    io_uring_cqe* cqe = nullptr;
    // Only the first batch, or a submit an interrupt cut short, is pending.
    rc = io_uring_sq_ready(&ring) > 0 ? io_uring_submit(&ring) : 0;
    if (rc >= 0 && io_uring_peek_cqe(&ring, &cqe) != 0)
      rc = io_uring_wait_cqe(&ring, &cqe);
    if (rc == -EINTR) {
      if (InterruptRequested()) stopping = true;
      continue;
    }
    if (rc < 0) return Status::FromErrno(-rc, "io_uring_submit_and_wait");
    if (io_uring_peek_cqe(&ring, &cqe) != 0) continue;
    uint64_t now = NowNanos();
    unsigned head;
    unsigned seen = 0;
    if (warming &&
        (now >= measure_start ||
         (job.max_warmup_bytes && submitted_bytes >= job.max_warmup_bytes))) {
      // A byte cap can end the warm-up early; the measured window starts now.
      warming = false;
      if (now < measure_start) {
        measure_start = now;
        end = now + job.duration_ns;
        last_counted = now;
      }
      submitted_bytes = 0;
    }
    bool stop_now =
        stopping || now >= end || InterruptRequested() ||
        (!warming && job.max_bytes && submitted_bytes >= job.max_bytes);
    io_uring_for_each_cqe(&ring, head, cqe) {
      seen++;
      int idx = static_cast<int>(io_uring_cqe_get_data64(cqe));
      const Slot& s = slots[idx];
      inflight--;
      if (cqe->res < 0 || static_cast<uint64_t>(cqe->res) != job.block_size) {
        if (error.ok()) {
          error =
              cqe->res < 0
                  ? Status::FromErrno(
                        -cqe->res, std::string(job.write ? "write" : "read") +
                                       " at offset " + std::to_string(s.offset))
                  : Status::IOError("short " +
                                    std::string(job.write ? "write" : "read") +
                                    " at offset " + std::to_string(s.offset));
        }
        stop_now = stopping = true;
        continue;
      }
      // Throughput counts every completion inside the window; latency only
      // I/Os submitted inside it, so none carries warm-up queueing.
      if (now >= measure_start && now <= end) {
        if (s.submit_ns >= measure_start)
          result.latency_ns.Add(now - s.submit_ns);
        result.ops++;
        result.bytes += job.block_size;
        last_counted = now;
      }
      if (!stop_now) {
        // Re-armed in place and submitted at once; an -EINTR leaves it
        // queued for the submit at the top of the loop.
        DT_RETURN_IF_ERROR(prep(idx, now));
        submitted_bytes += job.block_size;
        inflight++;
        int sub = io_uring_submit(&ring);
        if (sub < 0 && sub != -EINTR)
          return Status::FromErrno(-sub, "io_uring_submit");
      }
    }
    io_uring_cq_advance(&ring, seen);
    if (stop_now) stopping = true;
  }
  if (!error.ok()) return error;
  if (InterruptRequested()) return Status::Aborted("interrupted");
  result.elapsed_ns = last_counted - measure_start;
  rusage usage_after{};
  getrusage(RUSAGE_THREAD, &usage_after);
  result.context_switches =
      static_cast<uint64_t>((usage_after.ru_nvcsw - usage_before.ru_nvcsw) +
                            (usage_after.ru_nivcsw - usage_before.ru_nivcsw));
  return result;
}

}  // namespace disktune
