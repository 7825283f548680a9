// The native build of the training engine, for bench:train's ceiling: median milliseconds per
// training step (forward + backward + Adam) of relpos::TransformerModel<float> on copy-offset
// batches. Usage: relpos_train_bench_<flavour> name:V:d:heads:layers:k:n:B:ffn [...]
// Prints one JSON line: {"results":[{"name":..,"median_ms":..,"cpu_ms":..,"steps":..}, ...]}
// (cpu_ms: the process's CPU time per step, median; steadier than wall time on a busy machine).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "relpos/synthetic_tasks.hpp"
#include "relpos/transformer_model.hpp"

namespace {

struct Spec {
  std::string name;
  int vocab, dModel, heads, layers, k, n, batch, ffn;
};

Spec parse(const char* text) {
  Spec s;
  char name[64] = {0};
  if (std::sscanf(text, "%63[^:]:%d:%d:%d:%d:%d:%d:%d:%d", name, &s.vocab, &s.dModel, &s.heads,
                  &s.layers, &s.k, &s.n, &s.batch, &s.ffn) != 9) {
    std::fprintf(stderr, "bad spec %s (name:V:d:heads:layers:k:n:B:ffn)\n", text);
    std::exit(2);
  }
  s.name = name;
  return s;
}

double cpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double run(const Spec& s, int* steps, double* cpuMedian) {
  relpos::ModelConfig c;
  c.vocabSize = s.vocab;
  c.dModel = s.dModel;
  c.heads = s.heads;
  c.layers = s.layers;
  c.ffnWidth = s.ffn;
  c.maxDistance = s.k;
  c.seqLen = s.n;
  c.maxBatchSize = s.batch;
  c.seed = 1;
  relpos::TransformerModel<float> model(c);
  relpos::SyntheticBatchOptions o;
  o.offset = 1;
  o.vocabSize = s.vocab;
  o.seqLen = s.n;
  o.batchSize = s.batch;
  std::vector<std::int32_t> tokens(s.batch * s.n), targets(s.batch * s.n);
  relpos::syntheticBatch(o, tokens.data(), targets.data());
  const relpos::BatchView batch{tokens.data(), targets.data(), s.batch, s.n};
  relpos::AdamOptions adam;
  model.trainStep(batch, adam);  // warm-up
  std::vector<double> times, cpu;
  double spent = 0;
  while (times.size() < 5 || (spent < 3000 && times.size() < 30)) {
    const double cpuStart = cpuMs();
    const auto start = std::chrono::steady_clock::now();
    model.trainStep(batch, adam);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    cpu.push_back(cpuMs() - cpuStart);
    times.push_back(ms);
    spent += ms;
  }
  std::sort(times.begin(), times.end());
  std::sort(cpu.begin(), cpu.end());
  *steps = static_cast<int>(times.size());
  *cpuMedian = cpu[cpu.size() / 2];
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("{\"results\":[");
  for (int i = 1; i < argc; ++i) {
    const Spec s = parse(argv[i]);
    int steps = 0;
    double cpu = 0;
    const double ms = run(s, &steps, &cpu);
    std::printf("%s{\"name\":\"%s\",\"median_ms\":%.4f,\"cpu_ms\":%.4f,\"steps\":%d}",
                i > 1 ? "," : "", s.name.c_str(), ms, cpu, steps);
  }
  std::printf("]}\n");
  return 0;
}
