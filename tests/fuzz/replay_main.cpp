// A main() for the fuzz targets where libFuzzer does not exist: the wasm32 build (Emscripten +
// UBSan, run in Node), whose 32-bit Eigen::Index is the one the shipped module uses. It runs the
// target once on every file named (directories: every file inside), then on `-random=N`
// pseudo-random inputs of up to `-max_len=M` bytes (seeded by `-seed=S`). Exits 0 if all ran;
// a failing check or sanitizer report aborts the process.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void runFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                                std::istreambuf_iterator<char>());
  std::fprintf(stderr, "replay: %s (%zu bytes)\n", path.c_str(), bytes.size());
  // A copy in a block of exactly its size, as libFuzzer does, so over-reads are caught.
  auto* copy = new std::uint8_t[bytes.size()];
  std::memcpy(copy, bytes.data(), bytes.size());
  LLVMFuzzerTestOneInput(copy, bytes.size());
  delete[] copy;
}

std::uint64_t numberAfter(const char* argument, const char* prefix) {
  return std::strtoull(argument + std::strlen(prefix), nullptr, 10);
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t randomCount = 0;
  std::uint64_t maxLength = 4096;
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  std::size_t files = 0;
  for (int a = 1; a < argc; ++a) {
    const char* argument = argv[a];
    if (std::strncmp(argument, "-random=", 8) == 0) {
      randomCount = numberAfter(argument, "-random=");
    } else if (std::strncmp(argument, "-max_len=", 9) == 0) {
      maxLength = numberAfter(argument, "-max_len=");
    } else if (std::strncmp(argument, "-seed=", 6) == 0) {
      state ^= numberAfter(argument, "-seed=");
    } else if (!std::filesystem::exists(argument)) {
      std::fprintf(stderr, "replay: %s does not exist, skipped\n", argument);
    } else if (std::filesystem::is_directory(argument)) {
      for (const auto& entry : std::filesystem::directory_iterator(argument)) {
        if (entry.is_regular_file()) {
          runFile(entry.path());
          ++files;
        }
      }
    } else {
      runFile(argument);
      ++files;
    }
  }
  // Pseudo-random inputs (splitmix64): cheap breadth beyond the corpus.
  std::vector<std::uint8_t> input;
  for (std::uint64_t r = 0; r < randomCount; ++r) {
    const auto next = [&state] {
      std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      return z ^ (z >> 31);
    };
    input.resize(static_cast<std::size_t>(next() % (maxLength + 1)));
    for (auto& byte : input) byte = static_cast<std::uint8_t>(next());
    auto* copy = new std::uint8_t[input.size()];
    std::memcpy(copy, input.data(), input.size());
    LLVMFuzzerTestOneInput(copy, input.size());
    delete[] copy;
  }
  std::fprintf(stderr, "replay: %zu files and %llu random inputs passed\n", files,
               static_cast<unsigned long long>(randomCount));
  return 0;
}
