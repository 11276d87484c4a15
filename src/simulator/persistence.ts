/**
 * `--state-file`: the state is saved atomically (write a temp file, then rename) shortly after
 * each change and on shutdown, and reloaded at start. A missing file means empty state; a
 * corrupt one is an error naming the file and the reason, and the file is left untouched.
 */
import { readFileSync, promises as fs } from 'node:fs';
import type { Logger } from 'pino';
import { collectionsProblem } from './collections.js';
import type { SimState, StateSnapshot } from './state.js';

/** The state file exists but cannot be used. */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`cannot load state file ${file}: ${reason}`);
    this.name = 'StateFileError';
  }
}

const ARRAYS = ['pullZones', 'apps', 'shieldZones', 'storageZones', 'videoLibraries'] as const;
/** Written by later versions only; an older file simply has none. */
const OPTIONAL_ARRAYS = ['dnsZones', 'externalDns'] as const;

/** The first member that should be an array and is not (OPTIONAL_ARRAYS may be absent). */
function arrayProblem(o: Record<string, unknown>): string | undefined {
  const bad =
    ARRAYS.find((k) => !Array.isArray(o[k])) ??
    OPTIONAL_ARRAYS.find((k) => o[k] !== undefined && !Array.isArray(o[k]));
  return bad ? `${bad} is not an array` : undefined;
}

function shapeProblem(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return 'top level is not an object';
  const o = data as Record<string, unknown>;
  if (o.version !== 1) return `unsupported version ${JSON.stringify(o.version)} (expected 1)`;
  const bad = arrayProblem(o);
  if (bad) return bad;
  if (typeof o.nextIds !== 'object' || o.nextIds === null) return 'nextIds is not an object';
  if (typeof o.wafMetrics !== 'object' || o.wafMetrics === null)
    return 'wafMetrics is not an object';
  return collectionsProblem(o.collections);
}

/** Reads a state file; undefined when it does not exist; throws StateFileError when corrupt. */
export function loadStateFile(file: string): StateSnapshot | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(file, (err as Error).message);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new StateFileError(file, `invalid JSON: ${(err as Error).message}`);
  }
  const problem = shapeProblem(data);
  if (problem) throw new StateFileError(file, problem);
  return data as StateSnapshot;
}

/** Writes `snapshot` to `file` atomically. */
export async function writeStateFile(file: string, snapshot: StateSnapshot): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(snapshot)}\n`, { mode: 0o600 });
  await fs.rename(tmp, file);
}

/** Debounced saver: `schedule()` after changes, `flush()` on shutdown. */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private savedRevision = -1;

  constructor(
    private readonly file: string,
    private readonly state: SimState,
    private readonly logger: Logger,
    private readonly debounceMs = 50,
  ) {}

  /** Saves soon (coalescing bursts of changes). */
  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.debounceMs);
  }

  /** Saves now if anything changed since the last save. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  private async write(): Promise<void> {
    const revision = this.state.revision;
    if (revision === this.savedRevision) return;
    try {
      await writeStateFile(this.file, this.state.snapshot());
      this.savedRevision = revision;
    } catch (err) {
      this.logger.error({ err, file: this.file }, 'Cannot save state file');
    }
  }
}
