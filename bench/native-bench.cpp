// The native build of the same core, for the benchmark's ceiling: full computeAttention (every
// panel and the output) on random inputs, median over repetitions, with the stage times of the
// median run. Usage: relpos_bench_<flavour> d n:k [n:k ...]   Prints one JSON line.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "relpos/attention.hpp"
#include "relpos/numpy_random.hpp"

namespace {

using relpos::Index;

template <typename T>
relpos::Matrix<T> randomMatrix(Index rows, Index cols, std::uint32_t seed) {
  relpos::Matrix<double> m(rows, cols);
  relpos::NumpyRandom random(seed);
  random.fillGaussian(m.data(), static_cast<std::size_t>(m.size()));
  return m.template cast<T>();
}

template <typename T>
void run(Index n, Index d, Index k, const char* dtype, bool first) {
  relpos::Matrix<T> q = randomMatrix<T>(n, d, 1), keys = randomMatrix<T>(n, d, 2),
                    v = randomMatrix<T>(n, d, 3), relKeys = randomMatrix<T>(2 * k + 1, d, 4),
                    relValues = randomMatrix<T>(2 * k + 1, d, 5);
  std::vector<relpos::Matrix<T>> panels(5, relpos::Matrix<T>(n, n));
  relpos::Matrix<T> output(n, d);
  relpos::AttentionWorkspace<T> workspace;
  const relpos::AttentionInputs<T> in{relpos::ConstMatrixMap<T>(q.data(), n, d),
                                      relpos::ConstMatrixMap<T>(keys.data(), n, d),
                                      relpos::ConstMatrixMap<T>(relKeys.data(), 2 * k + 1, d),
                                      relpos::ConstMatrixMap<T>(v.data(), n, d),
                                      relpos::ConstMatrixMap<T>(relValues.data(), 2 * k + 1, d),
                                      false};
  relpos::AttentionPanels<T> out{
      relpos::MatrixMap<T>(panels[0].data(), n, n), relpos::MatrixMap<T>(panels[1].data(), n, n),
      relpos::MatrixMap<T>(panels[2].data(), n, n), relpos::MatrixMap<T>(panels[3].data(), n, n),
      relpos::MatrixMap<T>(panels[4].data(), n, n), relpos::MatrixMap<T>(output.data(), n, d)};

  struct Run {
    double ms;
    relpos::AttentionTimings stages;
  };
  std::vector<Run> runs;
  double spent = 0;
  relpos::computeAttention(in, workspace, out);  // warm-up
  while (runs.size() < 3 || (spent < 400 && runs.size() < 30)) {
    Run r{};
    const auto start = std::chrono::steady_clock::now();
    relpos::computeAttention(in, workspace, out, &r.stages);
    r.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    spent += r.ms;
    runs.push_back(r);
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.ms < b.ms; });
  const Run& median = runs[runs.size() / 2];
  std::printf(
      "%s{\"n\":%ld,\"k\":%ld,\"dtype\":\"%s\",\"median_ms\":%.4f,\"reps\":%zu,"
      "\"stages\":{\"contentScores\":%.4f,\"positionBiases\":%.4f,\"softmax\":%.4f,"
      "\"valueProduct\":%.4f,\"valuePosition\":%.4f}}",
      first ? "" : ",", static_cast<long>(n), static_cast<long>(k), dtype, median.ms, runs.size(),
      median.stages.contentScores, median.stages.positionBiases, median.stages.softmax,
      median.stages.valueProduct, median.stages.valuePosition);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s d n:k [n:k ...]\n", argv[0]);
    return 2;
  }
  const Index d = std::atol(argv[1]);
  std::printf("{\"results\":[");
  bool first = true;
  for (int a = 2; a < argc; ++a) {
    const std::string size = argv[a];
    const Index n = std::atol(size.substr(0, size.find(':')).c_str());
    const Index k = std::atol(size.substr(size.find(':') + 1).c_str());
    run<float>(n, d, k, "float32", first);
    run<double>(n, d, k, "float64", false);
    first = false;
  }
  std::printf("]}\n");
  return 0;
}
