/**
 * Feeds the JSON lines of a watch response to a handler in slices of event-loop time.
 *
 * One socket read holds up to 64 KiB, which is dozens of watch events after a burst of creates;
 * handled in the `data` callback, every one of them (parse, cache, claim index, enqueue) ran in
 * one macrotask and held timers, other responses and the metrics endpoint for 50–120 ms at
 * N = 3,000 (CPU profile of the bench, 2026-11-28). Here lines are queued and handled until the
 * slice is used up; then the response is paused (TCP backpressure, nothing buffered beyond one
 * read) and the rest waits one turn (`setImmediate`). Order is kept; the promise settles only
 * after every line received was handled, so the caller never opens the next watch while lines
 * of this one are still queued. An abort drops what is queued: the caller resumes from the
 * last resourceVersion it handled.
 */
import type { Readable } from 'node:stream';
import { KubeApiError } from './kube-api-error.js';

/** Longest run of line handlers in one event-loop turn, in milliseconds. */
export const WATCH_SLICE_MS = 5;

/** The parts of a response the stream reads (an `IncomingMessage` in the operator). */
export type LineSource = Pick<Readable, 'on' | 'pause' | 'resume' | 'setEncoding' | 'isPaused'> & {
  /** True once the whole response arrived (`IncomingMessage.complete`). */
  readonly complete: boolean;
};

type Outcome = { ok: true } | { ok: false; err: Error };

/** See the module comment. Resolves when the stream ended (or was aborted) and was drained. */
export function streamLines(
  res: LineSource,
  onLine: (line: string) => void,
  signal?: AbortSignal,
  sliceMs = WATCH_SLICE_MS,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const queue: string[] = [];
    let head = 0;
    let partial = '';
    let waiting = false; // a drain is scheduled for the next turn
    let outcome: Outcome | undefined;
    let settled = false;

    const settle = (o: Outcome): void => {
      if (settled) return;
      settled = true;
      queue.length = head = 0;
      if (o.ok) resolve();
      else reject(o.err);
    };
    const finish = (o: Outcome): void => {
      outcome ??= o;
      if (signal?.aborted) settle({ ok: true });
      else if (head >= queue.length && !waiting) settle(outcome);
    };
    const drain = (): void => {
      waiting = false;
      const start = performance.now();
      while (head < queue.length) {
        if (signal?.aborted || settled) return settle({ ok: true });
        onLine(queue[head++] as string);
        if (head < queue.length && performance.now() - start >= sliceMs) {
          waiting = true;
          if (!outcome) res.pause();
          setImmediate(drain);
          return;
        }
      }
      queue.length = head = 0;
      if (outcome) settle(outcome);
      else if (res.isPaused()) res.resume();
    };

    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (settled) return;
      partial += chunk;
      let nl: number;
      while ((nl = partial.indexOf('\n')) >= 0) {
        const line = partial.slice(0, nl).trim();
        partial = partial.slice(nl + 1);
        if (line) queue.push(line);
      }
      if (!waiting) drain();
    });
    res.on('end', () => finish({ ok: true }));
    res.on('close', () =>
      finish(
        signal?.aborted || res.complete
          ? { ok: true }
          : { ok: false, err: closedError('cannot read watch: connection closed') },
      ),
    );
    res.on('error', (err: Error) =>
      finish(
        signal?.aborted
          ? { ok: true }
          : {
              ok: false,
              err: new KubeApiError(
                `cannot read watch: ${err.message}`,
                undefined,
                'NetworkError',
                undefined,
                'ECONNRESET',
              ),
            },
      ),
    );
    signal?.addEventListener('abort', () => settle({ ok: true }), { once: true });
  });
}

function closedError(message: string): KubeApiError {
  return new KubeApiError(message, undefined, 'NetworkError', undefined, 'ECONNRESET');
}
