/**
 * `cdnctl migrate --live`: moves the live objects of the legacy group to the families' groups
 * (move-steps.ts), kind by kind in the order of the list of kinds. Every object is started
 * (steps a-d) before any is waited on, so an object whose reference is moved later (a pull zone
 * of a storage zone) is not waited on before its reference exists; an object that does not
 * become Ready keeps its legacy object (paused, Orphan), and a second run resumes it.
 */
import type { KindModule } from '../../../controllers/kind-module.js';
import { apiVersionOf } from '../../../controllers/kind-names.js';
import { KINDS } from '../../../controllers/kinds.js';
import type { KubeClient } from '../../../runtime/kube-client.js';
import {
  getOrAbsent,
  legacyPlurals,
  listLegacy,
  newObjectPath,
  type LiveObject,
} from './legacy-api.js';
import { deleteLegacy, startMove, waitReady, type Move } from './move-steps.js';
import { idsOf, refusalOf } from './new-object.js';

/** What to move. */
export interface LiveOptions {
  /** One namespace; undefined with `allNamespaces`. */
  namespace?: string;
  allNamespaces: boolean;
  /** Kind names given with --kinds (all when undefined). */
  kinds?: readonly string[];
  dryRun: boolean;
  /** How long each object may take to become Ready, and its legacy object to go. */
  readyTimeoutMs: number;
}

/** The lines printed and the exit code (1 when an object could not be moved). */
export interface LiveReport {
  lines: string[];
  exitCode: 0 | 1;
}

const whereOf = (o: LiveObject): string =>
  o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;

/** The kinds to move: those named, else every namespaced kind, and cluster-scoped ones with -A. */
function kindsToMove(opts: LiveOptions): KindModule[] {
  if (opts.kinds) return KINDS.filter((k) => opts.kinds!.includes(k.kind));
  return KINDS.filter((k) => k.scope === 'Namespaced' || opts.allNamespaces);
}

/** Each legacy object of the kinds to move, with the new object a previous run created. */
async function collect(
  kube: KubeClient,
  opts: LiveOptions,
  lines: string[],
): Promise<{ move: Move; existing?: LiveObject; refusal?: string }[]> {
  const served = await legacyPlurals(kube);
  const found = [];
  for (const kind of kindsToMove(opts)) {
    if (!served.has(kind.plural)) {
      lines.push(`skip ${kind.kind}: the legacy group serves no ${kind.plural}`);
      continue;
    }
    for (const old of await listLegacy(kube, kind, opts.namespace)) {
      const existing = await getOrAbsent(kube, newObjectPath(kind, old));
      const refusal = refusalOf(old, existing);
      found.push({
        move: { kind, old },
        ...(existing ? { existing } : {}),
        ...(refusal ? { refusal } : {}),
      });
    }
  }
  return found;
}

/** Collects failures as report lines. */
class Outcomes {
  readonly lines: string[] = [];
  failed = 0;

  fail(m: Move, why: string): void {
    this.failed++;
    this.lines.push(`cannot migrate ${m.kind.kind} ${whereOf(m.old)}: ${why}`);
  }
}

/** Steps a-d of every object (dry run: the plan line); the moves started. */
async function startAll(
  kube: KubeClient,
  found: Awaited<ReturnType<typeof collect>>,
  dryRun: boolean,
  out: Outcomes,
): Promise<Move[]> {
  const started: Move[] = [];
  for (const { move, existing, refusal } of found) {
    if (refusal) out.fail(move, refusal);
    else if (dryRun) {
      const ids = idsOf(move.old.status) || 'no id recorded';
      out.lines.push(`would move ${targetOf(move)} (${ids})`);
    } else {
      try {
        await startMove(kube, move, existing);
        started.push(move);
      } catch (err) {
        out.fail(move, (err as Error).message);
      }
    }
  }
  return started;
}

const targetOf = (m: Move): string => `${m.kind.kind} ${whereOf(m.old)} -> ${apiVersionOf(m.kind)}`;

/** Steps e and f of every started object; how many were moved. */
async function finishAll(
  kube: KubeClient,
  started: readonly Move[],
  timeoutMs: number,
  out: Outcomes,
): Promise<number> {
  let moved = 0;
  for (const move of started) {
    const why =
      (await waitReady(kube, move, performance.now() + timeoutMs)) ??
      (await deleteLegacy(kube, move, performance.now() + timeoutMs));
    if (why) {
      out.fail(
        move,
        `${why}; the old object stays paused with deletionPolicy Orphan: run again to resume`,
      );
      continue;
    }
    moved++;
    const ids = idsOf(move.created?.status);
    out.lines.push(`moved ${targetOf(move)}${ids ? ` (${ids})` : ''}`);
  }
  return moved;
}

/** See the module comment. */
export async function migrateLive(kube: KubeClient, opts: LiveOptions): Promise<LiveReport> {
  const out = new Outcomes();
  const found = await collect(kube, opts, out.lines);
  const started = await startAll(kube, found, opts.dryRun, out);
  if (opts.dryRun) {
    out.lines.push(`${found.length - out.failed} object(s) to move, ${out.failed} refused`);
  } else {
    const moved = await finishAll(kube, started, opts.readyTimeoutMs, out);
    out.lines.push(`${moved} object(s) moved, ${out.failed} failed`);
  }
  return { lines: out.lines, exitCode: out.failed > 0 ? 1 : 0 };
}
