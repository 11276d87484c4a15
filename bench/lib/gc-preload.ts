/**
 * Preloaded into bench operator processes (`--import`): on SIGUSR2 it runs a full garbage
 * collection and prints one JSON line `{"benchGc":true,"heapUsedBytes":…}` on stdout, so the
 * bench can read the heap of live objects only (the heap figure of a plain scrape includes
 * whatever garbage the last GC left). Bench-only: the operator itself never loads it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// `--expose-gc` is not allowed in NODE_OPTIONS on Node 20; the flag can still be set at run
// time, and a fresh context then exposes `gc`.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

process.on('SIGUSR2', () => {
  gc();
  gc(); // a second pass collects what the first one's finalizers released
  const { heapUsed, rss } = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({ benchGc: true, heapUsedBytes: heapUsed, rssBytes: rss, time: Date.now() })}\n`,
  );
});
