// The doc test's Node runner: imports each program given (absolute paths, in order) and prints
// one line per program, "@@doc-block " and { error } as JSON (null when it ran), giving each at most argv[2] ms.
const [timeout, ...paths] = process.argv.slice(2);
const { pathToFileURL } = await import('node:url');

// A promise a program leaves rejected (not awaited) counts against that program.
let stray = null;
process.on('unhandledRejection', (reason) => (stray ??= reason));

for (const path of paths) {
  stray = null;
  let timer;
  const late = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`still running after ${timeout} ms`)), Number(timeout));
  });
  let error = null;
  try {
    await Promise.race([import(pathToFileURL(path).href), late]);
  } catch (caught) {
    error = String(caught?.stack ?? caught).slice(0, 1500);
  }
  clearTimeout(timer);
  await new Promise((done) => setTimeout(done, 10));
  if (!error && stray) error = `unhandled rejection: ${String(stray?.stack ?? stray).slice(0, 1500)}`;
  process.stdout.write(`\n@@doc-block ${JSON.stringify({ error })}\n`);
}
process.exit(0);
