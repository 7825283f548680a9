// Medians of several measurements taken in alternation: round after round, each measurement once
// per round, the order rotating from round to round, so that a slow spell of a shared machine
// falls on all of them alike and the ratios between them (what the tables report) hold.
// A measurement is a function returning one sample, sync or async: a number (a time in ms, or any
// reading), or an object of numbers (say { wall, cpu }), whose medians are taken key by key; or
// an array of such samples (a block of calls in a row, each a sample).

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * Runs every measurement once as a warm-up, then rounds until each has `minRounds` samples and
 * `budgetMs` of wall time has passed, or `maxRounds`; returns each measurement's median.
 */
export async function interleavedMedians(measures, { minRounds = 5, maxRounds = 30, budgetMs = 2000 } = {}) {
  for (const measure of measures) await measure();
  const samples = measures.map(() => []);
  const start = performance.now();
  for (let round = 0; round < maxRounds; round += 1) {
    if (round >= minRounds && performance.now() - start >= budgetMs) break;
    for (let i = 0; i < measures.length; i += 1) {
      const which = (i + round) % measures.length;
      samples[which].push(...[await measures[which]()].flat());
    }
  }
  return samples.map((values) =>
    typeof values[0] === 'number'
      ? median(values)
      : Object.fromEntries(Object.keys(values[0]).map((key) => [key, median(values.map((v) => v[key]))])),
  );
}

/** One call of `run` (sync): its wall ms and the CPU ms this process spent on it (all threads). */
export function timeOf(run) {
  const started = startTiming();
  run();
  return started();
}

/** The same for an async `run`: resolves when it has settled. */
export async function timeOfAsync(run) {
  const started = startTiming();
  await run();
  return started();
}

function startTiming() {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  return () => {
    const wall = performance.now() - start;
    const used = process.cpuUsage(cpuStart);
    return { wall, cpu: (used.user + used.system) / 1000 };
  };
}
