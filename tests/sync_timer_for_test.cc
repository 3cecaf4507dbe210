// For exec_cli_test: a program disktune does not link, run under `disktune
// exec`. Writes 4 KiB to FILE and fdatasyncs it COUNT times; prints the
// fastest fdatasync in nanoseconds (so a floor shows as a minimum), or
// exits 1 with the reason.
//
//   sync_timer_for_test FILE COUNT
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace {

unsigned long long NowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<unsigned long long>(ts.tv_sec) * 1000000000ull +
         static_cast<unsigned long long>(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: sync_timer_for_test FILE COUNT\n");
    return 2;
  }
  int count = std::atoi(argv[2]);
  int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    std::perror(argv[1]);
    return 1;
  }
  char block[4096];
  std::memset(block, 'x', sizeof block);
  unsigned long long fastest = ~0ull;
  for (int i = 0; i < count; i++) {
    if (pwrite(fd, block, sizeof block, 0) !=
        static_cast<ssize_t>(sizeof block)) {
      std::perror("pwrite");
      return 1;
    }
    unsigned long long t0 = NowNs();
    if (fdatasync(fd) != 0) {
      std::perror("fdatasync");
      return 1;
    }
    unsigned long long took = NowNs() - t0;
    if (took < fastest) fastest = took;
  }
  close(fd);
  std::printf("%llu\n", fastest);
  return 0;
}
