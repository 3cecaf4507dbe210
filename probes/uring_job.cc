#include "probes/uring_job.h"

#include <liburing.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "src/core/clock.h"
#include "src/core/rng.h"
#include "src/core/signals.h"

namespace disktune {
namespace {

struct Slot {
  uint64_t offset = 0;
  uint64_t submit_ns = 0;
  char* buf = nullptr;  // in the job's SlotMemory
};

// The buffers of every slot: one anonymous mapping, aligned to and advised
// for transparent huge pages, so a buffer of up to 2 MiB is physically
// contiguous where the kernel grants huge pages. A device that takes at most
// 128 segments of its pages (a loop device: 512 KiB in 4 KiB pages) then gets
// a 1 MiB write as one bio, as the page cache's writeback of large folios
// gives it, not two (benchmarks/README.md, "Device classes"). Without huge
// pages the buffers are ordinary pages, as before.
class SlotMemory {
 public:
  static constexpr size_t kHugePage = 2 << 20;
  ~SlotMemory() {
    if (map_ != nullptr) munmap(map_, map_len_);
  }
  // Room for n buffers of `size` bytes, each aligned to `alignment` and, when
  // no larger than a huge page, inside one huge page.
  Status Map(size_t n, size_t size, size_t alignment) {
    // A power-of-two stride up to a huge page divides it: no buffer
    // straddles two huge pages.
    stride_ = std::max(alignment, size_t{1});
    if (size <= kHugePage) {
      while (stride_ < size) stride_ *= 2;
    } else {
      stride_ = RoundUp(size, stride_);
    }
    const size_t len = RoundUp(n * stride_, kHugePage);
    map_len_ = len + kHugePage;  // room to align the start
    void* m = mmap(nullptr, map_len_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
      map_ = nullptr;
      return Status::IOError("out of memory for I/O buffers");
    }
    map_ = static_cast<char*>(m);
    base_ = map_ + (RoundUp(reinterpret_cast<uintptr_t>(map_), kHugePage) -
                    reinterpret_cast<uintptr_t>(map_));
    madvise(base_, len, MADV_HUGEPAGE);  // advice: failure leaves 4 KiB pages
    return Status::OK();
  }
  char* Buffer(size_t i) const { return base_ + i * stride_; }

 private:
  static size_t RoundUp(size_t v, size_t to) { return (v + to - 1) / to * to; }
  char* map_ = nullptr;
  size_t map_len_ = 0;
  char* base_ = nullptr;
  size_t stride_ = 0;
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

// A ring of at least `queue_depth` entries. Completion work runs in our own
// task when we enter the kernel, not via interrupts to another CPU (fio does
// the same); older kernels refuse the flags, so fall back step by step.
Status InitRing(int queue_depth, io_uring* ring) {
  unsigned entries = 1;
  while (entries < static_cast<unsigned>(queue_depth)) entries <<= 1;
  int rc = -EINVAL;
  for (unsigned flags :
       {IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
            IORING_SETUP_DEFER_TASKRUN,
        unsigned{IORING_SETUP_COOP_TASKRUN}, 0u}) {
    io_uring_params params{};
    params.flags = flags;
    rc = io_uring_queue_init_params(entries, ring, &params);
    if (rc != -EINVAL) break;
  }
  if (rc < 0) return Status::FromErrno(-rc, "io_uring_queue_init");
  return Status::OK();
}

// One aligned buffer per slot, filled with an incompressible payload for
// writes (harmless for reads).
Status AllocateSlots(const UringJob& job, SlotMemory* memory,
                     std::vector<Slot>* slots) {
  Rng fill(job.seed ^ 0x5eed);
  slots->resize(job.queue_depth);
  DT_RETURN_IF_ERROR(memory->Map(slots->size(), job.block_size, job.alignment));
  for (size_t i = 0; i < slots->size(); i++) {
    Slot& s = (*slots)[i];
    s.buf = memory->Buffer(i);
    auto* w = reinterpret_cast<uint64_t*>(s.buf);
    for (uint64_t i = 0; i < job.block_size / 8; i++) w[i] = fill.Next();
  }
  return Status::OK();
}

// The submit-reap loop of one job: keeps `queue_depth` I/Os in flight, ends
// the warm-up by time or bytes, and counts completions in the measured window.
class JobLoop {
 public:
  JobLoop(const UringJob& job, io_uring* ring, std::vector<Slot>* slots,
          uint64_t start)
      : job_(job),
        ring_(ring),
        slots_(*slots),
        offsets_(job),
        start_(start),
        measure_start_(start + job.warmup_ns),
        end_(measure_start_ + job.duration_ns),
        last_counted_(measure_start_),
        warming_(job.warmup_ns > 0) {}

  // The first I/O error (OK when none); the loop ends on it, on the end of
  // the window or a byte cap, or on SIGINT/SIGTERM.
  Status Run();
  // What was counted; elapsed runs from the end of the warm-up to the last
  // counted completion.
  UringJobResult TakeResult() {
    result_.elapsed_ns = last_counted_ - measure_start_;
    return std::move(result_);
  }

 private:
  Status Prep(int idx, uint64_t now);
  // A byte cap can end the warm-up early; the measured window starts then.
  void EndWarmupIfDue(uint64_t now);
  // Checks and counts one completion, and re-arms its slot unless stopping.
  Status Complete(const io_uring_cqe* cqe, uint64_t now, bool& stop_now);

  const UringJob& job_;
  io_uring* ring_;
  std::vector<Slot>& slots_;
  OffsetGen offsets_;
  UringJobResult result_;
  uint64_t start_;
  uint64_t measure_start_;
  uint64_t end_;
  uint64_t last_counted_;
  uint64_t submitted_bytes_ = 0;  // in the current phase (warm-up, measured)
  bool warming_;
  int inflight_ = 0;
  bool stopping_ = false;
  Status error_;
};

Status JobLoop::Prep(int idx, uint64_t now) {
  io_uring_sqe* sqe = io_uring_get_sqe(ring_);
  if (!sqe) return Status::IOError("io_uring submission queue full");
  Slot& s = slots_[idx];
  s.offset = offsets_.Next();
  s.submit_ns = now;
  if (job_.write) {
    io_uring_prep_write(sqe, job_.fd, s.buf, job_.block_size, s.offset);
  } else {
    io_uring_prep_read(sqe, job_.fd, s.buf, job_.block_size, s.offset);
  }
  io_uring_sqe_set_data64(sqe, static_cast<uint64_t>(idx));
  return Status::OK();
}

void JobLoop::EndWarmupIfDue(uint64_t now) {
  if (warming_ &&
      (now >= measure_start_ ||
       (job_.max_warmup_bytes && submitted_bytes_ >= job_.max_warmup_bytes))) {
    warming_ = false;
    if (now < measure_start_) {
      measure_start_ = now;
      end_ = now + job_.duration_ns;
      last_counted_ = now;
    }
    submitted_bytes_ = 0;
  }
}

Status JobLoop::Complete(const io_uring_cqe* cqe, uint64_t now,
                         bool& stop_now) {
  int idx = static_cast<int>(io_uring_cqe_get_data64(cqe));
  const Slot& s = slots_[idx];
  inflight_--;
  if (cqe->res < 0 || static_cast<uint64_t>(cqe->res) != job_.block_size) {
    if (error_.ok()) {
      error_ =
          cqe->res < 0
              ? Status::FromErrno(-cqe->res,
                                  std::string(job_.write ? "write" : "read") +
                                      " at offset " + std::to_string(s.offset))
              : Status::IOError("short " +
                                std::string(job_.write ? "write" : "read") +
                                " at offset " + std::to_string(s.offset));
    }
    stop_now = stopping_ = true;
    return Status::OK();
  }
  // Throughput counts every completion inside the window; latency only
  // I/Os submitted inside it, so none carries warm-up queueing.
  if (now >= measure_start_ && now <= end_) {
    // An I/O re-armed in this pass (stamped `now`) and already complete, as
    // a buffered write completes inside its submit, is timed by a new clock
    // read, where `now` would time it 0 ns.
    const uint64_t done = s.submit_ns >= now ? NowNanos() : now;
    if (s.submit_ns >= measure_start_)
      result_.latency_ns.Add(done - s.submit_ns);
    result_.ops++;
    result_.bytes += job_.block_size;
    last_counted_ = now;
  }
  if (!stop_now) {
    // Re-armed in place and submitted at once; an -EINTR leaves it
    // queued for the submit at the top of the loop.
    DT_RETURN_IF_ERROR(Prep(idx, now));
    submitted_bytes_ += job_.block_size;
    inflight_++;
    int sub = io_uring_submit(ring_);
    if (sub < 0 && sub != -EINTR)
      return Status::FromErrno(-sub, "io_uring_submit");
  }
  return Status::OK();
}

Status JobLoop::Run() {
  for (int i = 0; i < job_.queue_depth; i++) {
    DT_RETURN_IF_ERROR(Prep(i, start_));
    submitted_bytes_ += job_.block_size;
    inflight_++;
  }

  // Each re-armed I/O is submitted as soon as its completion is reaped, as
  // fio does (iodepth_batch_submit=1: one io_uring_enter per I/O), not once
  // the whole batch is re-armed: the device starts on the first refill while
  // the rest are prepared: re-arming the whole batch first gave fewer IOPS
  // than fio (benchmarks/README.md, "The native loop's submit pattern").
  // Then wait only when no completion is already there (as fio does).
  // Combining submit and wait in one io_uring_enter is slower: the task
  // then always sleeps inside the call, and a completion pays a full
  // wake-up (the same README section).
  // No timeout on the wait (arming a timer per call costs IOPS): the
  // SIGINT/SIGTERM handlers are installed without SA_RESTART, so the wait
  // returns -EINTR and the loop notices.
  while (inflight_ > 0) {
    io_uring_cqe* cqe = nullptr;
    // Only the first batch, or a submit an interrupt cut short, is pending.
    int rc = io_uring_sq_ready(ring_) > 0 ? io_uring_submit(ring_) : 0;
    if (rc >= 0 && io_uring_peek_cqe(ring_, &cqe) != 0)
      rc = io_uring_wait_cqe(ring_, &cqe);
    if (rc == -EINTR) {
      if (InterruptRequested()) stopping_ = true;
      continue;
    }
    if (rc < 0) return Status::FromErrno(-rc, "io_uring_submit_and_wait");
    if (io_uring_peek_cqe(ring_, &cqe) != 0) continue;
    uint64_t now = NowNanos();
    unsigned head;
    unsigned seen = 0;
    EndWarmupIfDue(now);
    bool stop_now =
        stopping_ || now >= end_ || InterruptRequested() ||
        (!warming_ && job_.max_bytes && submitted_bytes_ >= job_.max_bytes);
    io_uring_for_each_cqe(ring_, head, cqe) {
      seen++;
      DT_RETURN_IF_ERROR(Complete(cqe, now, stop_now));
    }
    io_uring_cq_advance(ring_, seen);
    if (stop_now) stopping_ = true;
  }
  return error_;
}

}  // namespace

Result<UringJobResult> RunUringJob(const UringJob& job) {
  if (job.block_size == 0 || job.region_bytes < job.block_size ||
      job.queue_depth < 1) {
    return Status::InvalidArgument(
        "uring job: bad block size, region or queue depth");
  }
  io_uring ring;
  DT_RETURN_IF_ERROR(InitRing(job.queue_depth, &ring));
  struct RingCloser {
    io_uring* r;
    ~RingCloser() { io_uring_queue_exit(r); }
  } closer{&ring};
  SlotMemory memory;
  std::vector<Slot> slots;
  DT_RETURN_IF_ERROR(AllocateSlots(job, &memory, &slots));

  JobLoop loop(job, &ring, &slots, NowNanos());
  rusage usage_before{};
  getrusage(RUSAGE_THREAD, &usage_before);
  DT_RETURN_IF_ERROR(loop.Run());
  if (InterruptRequested()) return Status::Aborted("interrupted");
  UringJobResult result = loop.TakeResult();
  rusage usage_after{};
  getrusage(RUSAGE_THREAD, &usage_after);
  result.context_switches =
      static_cast<uint64_t>((usage_after.ru_nvcsw - usage_before.ru_nvcsw) +
                            (usage_after.ru_nivcsw - usage_before.ru_nivcsw));
  return result;
}

}  // namespace disktune
