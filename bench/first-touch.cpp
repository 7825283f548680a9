// What a first write to new memory costs on this machine, natively (no JavaScript, no
// WebAssembly): the floor under a call that returns fresh arrays (docs/performance.md, "Where a
// fresh result goes"). For `bytes` of new anonymous memory (mmap), the median over `rounds` of:
//   - one write to each 4 KiB page (each write faults, and the kernel finds and zeroes a page);
//   - the same with madvise(MADV_HUGEPAGE) (2 MiB pages where the kernel grants them);
//   - a memset of memory already written (memory speed);
//   - two threads, half the pages each (whether faults in one process run in parallel).
// Prints one JSON object: { bytes, pages, rounds, firstTouchMs, hugePageMs, warmMs, twoThreadsMs,
// transparentHugePages }.
//
//   build/native/relpos_first_touch [MiB = 20] [rounds = 7]
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kPage = 4096;

template <typename Work>
double millisecondsOf(Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void writeEachPage(volatile char* bytes, std::size_t size) {
  for (std::size_t at = 0; at < size; at += kPage) bytes[at] = 1;
}

char* newMemory(std::size_t size) {
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    std::perror("first-touch: mmap");
    std::exit(1);
  }
  return static_cast<char*>(memory);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::string transparentHugePages() {
  std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(file, line);
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t size = (argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20) << 20;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  std::vector<double> first, huge, warm, two;
  for (int round = 0; round < rounds; ++round) {
    char* memory = newMemory(size);
    first.push_back(millisecondsOf([&] { writeEachPage(memory, size); }));
    warm.push_back(millisecondsOf([&] { std::memset(memory, 2, size); }));
    munmap(memory, size);

    memory = newMemory(size);
    madvise(memory, size, MADV_HUGEPAGE);
    huge.push_back(millisecondsOf([&] { writeEachPage(memory, size); }));
    munmap(memory, size);

    memory = newMemory(size);
    two.push_back(millisecondsOf([&] {
      std::thread other([&] { writeEachPage(memory + size / 2, size / 2); });
      writeEachPage(memory, size / 2);
      other.join();
    }));
    munmap(memory, size);
  }
  std::printf(
      "{\"bytes\":%zu,\"pages\":%zu,\"rounds\":%d,\"firstTouchMs\":%.3f,\"hugePageMs\":%.3f,"
      "\"warmMs\":%.3f,\"twoThreadsMs\":%.3f,\"transparentHugePages\":\"%s\"}\n",
      size, size / kPage, rounds, median(first), median(huge), median(warm), median(two),
      transparentHugePages().c_str());
}
