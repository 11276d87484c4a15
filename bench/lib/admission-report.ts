/**
 * The report of `make bench-admission` (bench/admission.ts): per kind and phase, our CRD against
 * the minimal CRD of the same API surface and against a lone minimal CRD, in wall time and in
 * the CPU seconds of the apiserver (+ etcd) and of kubectl. Pure: JSON in, Markdown out.
 */
import { cpus, loadavg } from 'node:os';
import { quantile, round } from './stats.js';

/** ours: our CRD; minimal: free-form CRD in a group of all our kinds; lone: alone in a group. */
export const VARIANTS = ['ours', 'minimal', 'lone'] as const;
export type Variant = (typeof VARIANTS)[number];

/**
 * finalizer and status are the operator's two writes per object (a metadata merge patch, then a
 * status merge patch), sent without kubectl; reports written before the finalizer phase lack it.
 */
export const PHASES = ['create', 'update', 'finalizer', 'status'] as const;
export type Phase = (typeof PHASES)[number];
/** The phases the operator sends (no kubectl CPU). */
const OPERATOR_PHASES: readonly Phase[] = ['finalizer', 'status'];

/** The phases kubectl runs. */
export const KUBECTL_PHASES = ['create', 'update'] as const;
type KubectlPhase = (typeof KUBECTL_PHASES)[number];

/** Seconds per phase (reports written before the finalizer phase lack it). */
type PerPhase = Record<Exclude<Phase, 'finalizer'>, number> & { finalizer?: number };

/** Wall seconds per phase of one run of one variant, with the CPU seconds behind them. */
export interface PhaseRun extends PerPhase {
  /** CPU seconds of kube-apiserver and etcd. */
  cpu: PerPhase;
  /** CPU seconds of kubectl (absent in reports written before it was measured). */
  kubectlCpu?: Record<KubectlPhase, number>;
}

export interface KindResult {
  kind: string;
  crdBytes: number;
  celRules: number;
  /** Bytes of each variant's group-version OpenAPI v3 document (what kubectl parses per object). */
  openApiBytes?: Partial<Record<Variant, number>>;
  runs: Partial<Record<Variant, PhaseRun[]>>;
}

/** The goal: ours ÷ the same-surface minimal CRD, every phase. */
export const ADMISSION_GOAL = 1.3;

const median = (values: number[]): number => quantile(values, 0.5);

function medianOf(
  r: KindResult,
  variant: Variant,
  pick: (t: PhaseRun) => number | undefined,
): number | undefined {
  const values = (r.runs[variant] ?? []).map(pick).filter((v): v is number => v !== undefined);
  return values.length > 0 ? median(values) : undefined;
}

function ratioCell(ours: number | undefined, base: number | undefined): string {
  if (ours === undefined || base === undefined || base <= 0) return 'n/a';
  const ratio = ours / base;
  return ratio <= ADMISSION_GOAL ? round(ratio, 2).toString() : `**${round(ratio, 2)}**`;
}

function seconds(v: number | undefined): string {
  return v === undefined ? '—' : round(v, 2).toString();
}

/** Milliseconds per object of a phase's seconds for `n` objects. */
function perObject(v: number | undefined, n: number): string {
  return v === undefined ? '—' : round((v * 1000) / n, 1).toString();
}

function wallRows(results: KindResult[]): string[] {
  const rows = [
    '| Kind | CRD bytes | CEL rules | phase | ours (s) | minimal (s) | lone (s) | ours ÷ minimal | ours ÷ lone |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    for (const phase of PHASES) {
      const medians = VARIANTS.map((v) => medianOf(r, v, (t) => t[phase]));
      if (medians.every((v) => v === undefined)) continue; // a phase the report predates
      const [ours, minimal, lone] = medians;
      const head = phase === 'create' ? `${r.kind} | ${r.crdBytes} | ${r.celRules}` : ' | | ';
      rows.push(
        `| ${head} | ${phase} | ${seconds(ours)} | ${seconds(minimal)} | ${seconds(lone)} | ${ratioCell(ours, minimal)} | ${ratioCell(ours, lone)} |`,
      );
    }
  }
  return rows;
}

function cpuRows(results: KindResult[], n: number): string[] {
  const rows = [
    '| Kind | phase | apiserver + etcd ms/object: ours / minimal / lone | ours ÷ minimal | kubectl ms/object: ours / minimal / lone | ours ÷ minimal | ours ÷ lone |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    for (const phase of PHASES) {
      const server = VARIANTS.map((v) => medianOf(r, v, (t) => t.cpu[phase]));
      if (server.every((v) => v === undefined)) continue; // a phase the report predates
      const operator = OPERATOR_PHASES.includes(phase);
      const client = VARIANTS.map((v) =>
        operator ? undefined : medianOf(r, v, (t) => t.kubectlCpu?.[phase as KubectlPhase]),
      );
      const clientCells = operator
        ? '— (no kubectl) | | '
        : `${client.map((v) => perObject(v, n)).join(' / ')} | ${ratioCell(client[0], client[1])} | ${ratioCell(client[0], client[2])}`;
      rows.push(
        `| ${phase === 'create' ? r.kind : ''} | ${phase} | ${server.map((v) => perObject(v, n)).join(' / ')} | ${ratioCell(server[0], server[1])} | ${clientCells} |`,
      );
    }
  }
  return rows;
}

function documentRows(results: KindResult[]): string[] {
  const first = results.find((r) => r.openApiBytes);
  if (!first?.openApiBytes) return [];
  const kb = (v: number | undefined): string =>
    v === undefined ? '—' : `${round(v / 1024, 0)} KiB`;
  const rows = [
    '',
    '### OpenAPI documents kubectl parses',
    '',
    "`kubectl apply` parses the OpenAPI v3 document of the object's whole group-version once per created object and twice per patched one (k8s.io/cli-runtime `queryParamVerifierV3.HasSupport`, k8s.io/kubectl `Patcher.gvkSupportsPatchOpenAPIV3`; the bytes are cached, the parse is not). The document holds every kind of the group: about 44 KiB of paths per kind, whatever its schema, then the kind's schema. Its size sets most of kubectl's CPU per object above.",
    '',
    '| group-version | what it serves | bytes |',
    '| --- | --- | --- |',
    `| minimal | a free-form CRD per kind of ours (same surface) | ${kb(first.openApiBytes.minimal)} |`,
  ];
  for (const r of results) {
    rows.push(
      `| ours: ${r.kind}'s group | the kinds of its family (docs/api.md), full schemas | ${kb(r.openApiBytes?.ours)} |`,
    );
    rows.push(`| lone ${r.kind} | one free-form CRD | ${kb(r.openApiBytes?.lone)} |`);
  }
  return rows;
}

/** The Markdown report. */
export function renderAdmissionReport(
  results: KindResult[],
  n: number,
  runs: number,
  started: string,
): string {
  const lines = [
    `# Admission cost of our CRDs ${started}`,
    '',
    `N = ${n} objects per kind and phase, ${runs} runs (median), no operator running; ` +
      `${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join('/')} at the end. Produced by \`make bench-admission\` (bench/admission.ts). ` +
      'create and update are `kubectl apply -f` of N objects (update: one label changed); ' +
      'finalizer and status are the two writes the operator makes per object, 8 in flight: a ' +
      'merge patch adding a finalizer (metadata), then a merge patch of the status subresource ' +
      '(the apiserver validates the whole object, CEL rules included, on both). ' +
      '**minimal** is a CRD with the same names and a free-form spec and status, in a group ' +
      'holding such a CRD for every kind of ours (the same API surface: what our schemas add); ' +
      '**lone** is the same CRD alone in a group of its own (what the users of a one-kind ' +
      `operator pay). Goal: ours ÷ minimal ≤ ${ADMISSION_GOAL} (bold: above it).`,
    '',
    '### Wall time',
    '',
    ...wallRows(results),
    '',
    '### Where the time goes: CPU per object',
    '',
    "CPU milliseconds per object of kube-apiserver + etcd (`/proc/<pid>/stat`) and of kubectl (its `times`), medians: the work each side does, which other load on the machine delays but does not add to. `kubectl apply` is sequential, so its wall time per object is roughly its own CPU plus the server's latency.",
    '',
    ...cpuRows(results, n),
    ...documentRows(results),
  ];
  return `${lines.join('\n')}\n`;
}
