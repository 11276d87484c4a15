/**
 * Preloaded into bench operator processes (bench/lib/operator-main.ts): tells why the event
 * loop stalled. A 5 ms timer reads the main thread's `/proc/thread-self/schedstat` (time on a
 * CPU, time runnable but waiting for one) at every tick; a tick at least STALL_MS late is a
 * stall, with the time the thread ran since the tick before (the operator's own work:
 * JavaScript, GC) and the time it waited for a CPU (other processes on the same cores; the rest
 * is time blocked in a system call). Every second it prints one JSON line
 * `{"benchStalls":true,"time":…,"ticks":…,"stalls":[…]}` ({@link StallBatch}) on stdout; the
 * bench sums them per scrape window (stall-window.ts). Bench-only, Linux-only (silent elsewhere).
 */
import { openSync, readSync } from 'node:fs';
import { STALL_MS, type StallBatch, type StallTick } from './stall-window.js';

const TICK_MS = 5;

// Opened once and read with pread at offset 0 (procfs regenerates the line): an open and a
// close per 5 ms tick cost the operator about 1 % of a core in the end-to-end profile.
let fd: number | undefined;
const buf = Buffer.alloc(128);

function schedstat(): [number, number] | undefined {
  try {
    fd ??= openSync('/proc/thread-self/schedstat', 'r');
    const n = readSync(fd, buf, 0, buf.length, 0);
    const [ran, waited] = buf.toString('latin1', 0, n).split(' ');
    return [Number(ran) / 1e6, Number(waited) / 1e6];
  } catch {
    return undefined;
  }
}

const round = (ms: number): number => Math.round(ms * 10) / 10;

const first = schedstat();
if (first) {
  let batch: StallBatch = { time: 0, ticks: 0, stalls: [] };
  let last = { at: performance.now(), ran: first[0], waited: first[1] };
  setInterval(() => {
    const s = schedstat();
    if (!s) return;
    const at = performance.now();
    const tick: StallTick = {
      at: Math.round(performance.timeOrigin + at),
      lateMs: round(at - last.at - TICK_MS),
      ranMs: round(s[0] - last.ran),
      waitedMs: round(s[1] - last.waited),
    };
    batch.ticks++;
    if (tick.lateMs >= STALL_MS) batch.stalls.push(tick);
    last = { at, ran: s[0], waited: s[1] };
  }, TICK_MS).unref();
  setInterval(() => {
    const out = { benchStalls: true, ...batch, time: Date.now() };
    batch = { time: 0, ticks: 0, stalls: [] };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  }, 1000).unref();
}
