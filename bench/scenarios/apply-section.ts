/**
 * The report's section for the end-to-end apply scenario (bench/scenarios/apply-end-to-end.ts):
 * the goals' figures, where the time goes (create and update), and what a kind added in another
 * group changes. Renders results from before the update and Gadget rows too.
 */
import { quantile } from '../lib/stats.js';
import { perObjectText } from '../lib/apiserver-requests.js';
import type { ApplyEndToEndResult, ApplyTiming, NoOperatorRound } from './apply-end-to-end.js';
import type { GadgetResult, GadgetRound } from './apply-gadget.js';

/**
 * The end-to-end goals: issue 32's (apply to all Ready, update through the API against its
 * platform ceiling) and issue 45's (`kubectl apply` create and update against the lone minimal
 * CRD).
 */
export const APPLY_GOALS = { createRatio: 1.3, updateRatio: 1.5, kubectlApplyRatio: 1.3 };

/** One `kubectl apply` of ours against the lone minimal CRD's. */
export interface ApplyRatio {
  oursS: number;
  loneS: number;
  ratio: number;
}

/** The median lone minimal update apply, undefined when none was measured. */
function loneUpdateS(r: ApplyEndToEndResult): number | undefined {
  const updates = (r.lone ?? []).flatMap((t) => (t.update ? [t.update.wallS] : []));
  return updates.length > 0 ? quantile(updates, 0.5) : undefined;
}

/** The create and update figures, each left out when it was not measured. */
function phasesOf<T>(create: T | undefined, update: T | undefined): { create?: T; update?: T } {
  return { ...(create ? { create } : {}), ...(update ? { update } : {}) };
}

/** Ours ÷ the yardstick, or undefined when either side was not measured. */
function ratioOf(oursS: number | undefined, loneS: number | undefined): ApplyRatio | undefined {
  return oursS === undefined || loneS === undefined || !(loneS > 0)
    ? undefined
    : { oursS, loneS, ratio: oursS / loneS };
}

/**
 * `kubectl apply -f` of the N PullZoneConfigs with the operator running, create and update,
 * each ÷ the median of the same apply to the lone minimal CRD (before and after the run);
 * a phase is undefined when either side was not measured.
 */
export function kubectlApplyRatios(r: ApplyEndToEndResult): {
  create?: ApplyRatio;
  update?: ApplyRatio;
} {
  const oursCreateS = r.ours?.wallS ?? (r.oursApplyS > 0 ? r.oursApplyS : undefined);
  const create = ratioOf(oursCreateS, quantile(r.minimalApplyS, 0.5));
  const update = ratioOf(r.ours?.update?.wallS, loneUpdateS(r));
  return phasesOf(create, update);
}

/**
 * The same applies against the lone minimal CRD with the null controller reconciling meanwhile
 * (a one-kind operator making the same Kubernetes writes): ours with the operator running ÷
 * that, create and update; a phase is undefined when either side was not measured.
 */
export function reconciledApplyRatios(r: ApplyEndToEndResult): {
  create?: ApplyRatio;
  update?: ApplyRatio;
} {
  const lone = r.loneReconciled;
  const create = ratioOf(r.ours?.wallS, lone?.wallS);
  const update = ratioOf(r.ours?.update?.wallS, lone?.update?.wallS);
  return phasesOf(create, update);
}

/** A median over rounds against the lone minimal CRD's median, with each round's own ratio. */
export interface RoundsRatio extends ApplyRatio {
  perRound: number[];
}

/** The wall seconds of `t` in `phase`, undefined when that phase was not measured. */
function wallOf(t: ApplyTiming, phase: 'create' | 'update'): number | undefined {
  return phase === 'create' ? t.wallS : t.update?.wallS;
}

/** `side`'s median over the rounds ÷ the lone minimal CRD's, for one phase. */
function roundsRatioOf(
  rounds: readonly (GadgetRound & { bare?: ApplyTiming })[],
  side: 'ours' | 'bare',
  phase: 'create' | 'update',
): RoundsRatio | undefined {
  const paired = rounds.flatMap((round) => {
    const t = round[side];
    const [a, b] = [t && wallOf(t, phase), wallOf(round.lone, phase)];
    return a === undefined || b === undefined || !(b > 0) ? [] : [[a, b] as const];
  });
  if (paired.length === 0) return undefined;
  const oursS = quantile(
    paired.map(([a]) => a),
    0.5,
  );
  const loneS = quantile(
    paired.map(([, b]) => b),
    0.5,
  );
  return { oursS, loneS, ratio: oursS / loneS, perRound: paired.map(([a, b]) => a / b) };
}

/**
 * `kubectl apply -f` of the N objects to our CRD (`ours`) or the bare schema with nothing
 * reconciling, create and update, each the median over the interleaved rounds ÷ the lone
 * minimal CRD's median over the same rounds (issue 45's figure); empty for results from before
 * the rounds.
 */
export function noOperatorRatios(
  r: ApplyEndToEndResult,
  side: 'ours' | 'bare' = 'ours',
): { create?: RoundsRatio; update?: RoundsRatio } {
  const rounds = r.noOperatorRounds ?? [];
  const create = roundsRatioOf(rounds, side, 'create');
  const update = roundsRatioOf(rounds, side, 'update');
  return phasesOf(create, update);
}

/** The goal rows over the rounds with nothing reconciling, when the run had them. */
function noOperatorRows(r: ApplyEndToEndResult): string[] {
  const goal = APPLY_GOALS.kubectlApplyRatio;
  const count = r.noOperatorRounds?.length ?? 0;
  const { create, update } = noOperatorRatios(r);
  const row = (phase: string, a: RoundsRatio): string =>
    `| \`kubectl apply\` ${phase}, no operator: median of ${count} interleaved round${count === 1 ? '' : 's'} ÷ the same to the lone minimal CRD (per round ${a.perRound.map((x) => x.toFixed(2)).join(', ')}) | ${a.oursS.toFixed(1)} s ÷ ${a.loneS.toFixed(1)} s = **${a.ratio.toFixed(2)}** | ≤ ${goal} | ${verdict(a.ratio <= goal)} |`;
  return [...(create ? [row('create', create)] : []), ...(update ? [row('update', update)] : [])];
}

/** The rounds with nothing reconciling, wall seconds per apply, and the medians' ratios. */
function roundsTable(r: ApplyEndToEndResult): string[] {
  const rounds = r.noOperatorRounds ?? [];
  if (rounds.length === 0) return [];
  const s = (v: number | undefined): string => (v === undefined ? '—' : `${v.toFixed(1)} s`);
  const cells = (round: NoOperatorRound, phase: 'create' | 'update'): string[] =>
    [round.lone, round.ours, round.bare].map((t) => s(wallOf(t, phase)));
  const [ours, bare] = [noOperatorRatios(r), noOperatorRatios(r, 'bare')];
  const x = (a: RoundsRatio | undefined): string => (a ? `**${a.ratio.toFixed(2)}**` : '—');
  return [
    '',
    `The applies with nothing reconciling, in ${rounds.length} interleaved rounds (each round: the lone minimal CRD, ours, the bare schema, ${r.roundsRotated ? 'in an order rotated by one place each round, ' : ''}each a create and then its update in fresh namespaces): one apply moves by 10–40 % from run to run on a shared machine, so the goal's figures are the medians.`,
    '',
    '| round | create: lone minimal | ours | bare schema | update: lone minimal | ours | bare schema |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rounds.map(
      (round, i) =>
        `| ${i + 1} | ${[...cells(round, 'create'), ...cells(round, 'update')].join(' | ')} |`,
    ),
    `| median ÷ lone minimal median | 1.00 | ${x(ours.create)} | ${x(bare.create)} | 1.00 | ${x(ours.update)} | ${x(bare.update)} |`,
  ];
}

function verdict(ok: boolean): string {
  return ok ? 'met' : '**missed**';
}

/** The goal rows of issue 45: kubectl apply create and update, ours ÷ lone minimal. */
function kubectlApplyRows(r: ApplyEndToEndResult): string[] {
  const ratios = kubectlApplyRatios(r);
  const goal = APPLY_GOALS.kubectlApplyRatio;
  const row = (what: string, a: ApplyRatio | undefined): string =>
    a
      ? `| ${what} ÷ the same to the lone minimal CRD | ${a.oursS.toFixed(1)} s ÷ ${a.loneS.toFixed(1)} s = **${a.ratio.toFixed(2)}** | ≤ ${goal} | ${verdict(a.ratio <= goal)} |`
      : `| ${what} ÷ the same to the lone minimal CRD | not measured | ≤ ${goal} | — |`;
  const measuredUpdate = ratios.update !== undefined || loneUpdateS(r) !== undefined;
  const reconciled = reconciledApplyRatios(r);
  const withController = (what: string, a: ApplyRatio): string =>
    `| ${what} ÷ the same to the lone minimal CRD with the null controller reconciling (a one-kind operator's Kubernetes writes) | ${a.oursS.toFixed(1)} s ÷ ${a.loneS.toFixed(1)} s = **${a.ratio.toFixed(2)}** | ≤ ${goal} | ${verdict(a.ratio <= goal)} |`;
  return [
    ...(reconciled.create
      ? [withController('`kubectl apply` create, operator running', reconciled.create)]
      : []),
    ...(reconciled.update
      ? [withController('`kubectl apply` update, operator running', reconciled.update)]
      : []),
    row('`kubectl apply` create, operator running', ratios.create),
    ...(measuredUpdate
      ? [
          row(
            '`kubectl apply` update (one spec field changed, all Ready before), operator running',
            ratios.update,
          ),
        ]
      : []),
  ];
}

/** One row of a decomposition: an apply, its wall time and the CPU per object behind it. */
function timingRow(label: string, t: ApplyTiming | undefined, n: number, base: number): string {
  if (!t) return `| ${label} | not measured | — | — | — | — |`;
  const ms = (v: number | undefined): string =>
    v === undefined ? '—' : `${((v * 1000) / n).toFixed(1)} ms`;
  return `| ${label} | ${t.wallS.toFixed(1)} s | ${(t.wallS / base).toFixed(2)} | ${ms(t.kubectlCpuS)} | ${ms(t.serverCpuS)} | ${ms(t.operatorCpuS)} |`;
}

/** Requests per object the apiserver served during our two applies (every client). */
function requestLines(r: ApplyEndToEndResult): string[] {
  const lines: string[] = [];
  const alone = r.oursNoOperator?.requests;
  const withOperator = r.ours?.requests;
  if (alone)
    lines.push(
      '',
      `Apiserver requests per object, our CRD without the operator: ${perObjectText(alone, r.n)}.`,
    );
  if (withOperator)
    lines.push(
      '',
      `With the operator reconciling (kubectl's, the operator's and the watchers' together): ${perObjectText(withOperator, r.n)}.`,
    );
  return lines;
}

const TABLE_HEAD = [
  '| apply of the same objects to | wall | ÷ lone minimal | CPU per object: kubectl | apiserver + etcd | operator |',
  '| --- | --- | --- | --- | --- | --- |',
];

/** The applies of one phase, each picked from the create's timing by `pick`. */
function phaseRows(
  r: ApplyEndToEndResult,
  ours: ApplyTiming | undefined,
  base: number,
  pick: (t: ApplyTiming | undefined) => ApplyTiming | undefined,
): string[] {
  return [
    timingRow('a lone minimal CRD (its own group; the yardstick)', pick(r.lone?.[0]), r.n, base),
    timingRow(
      `minimal CRDs of all our kinds in one group (${r.oursGroupVersion ? 'the one-group counterfactual' : 'our API surface'})`,
      pick(r.sameSurface),
      r.n,
      base,
    ),
    timingRow(
      'our CRD, no operator running (admission of our schema)',
      pick(r.oursNoOperator),
      r.n,
      base,
    ),
    ...(r.bareSchema
      ? [
          timingRow(
            'our schema without its descriptions and CEL rules, alone in its group, no operator (what the typed structure costs)',
            pick(r.bareSchema),
            r.n,
            base,
          ),
        ]
      : []),
    timingRow('our CRD, operator reconciling meanwhile', pick(ours), r.n, base),
    ...(r.loneReconciled
      ? [
          timingRow(
            "the lone minimal CRD, the null controller reconciling meanwhile (a one-kind operator's writes)",
            pick(r.loneReconciled),
            r.n,
            base,
          ),
        ]
      : []),
  ];
}

/** The update table, when the run measured updates. */
function updateDecomposition(r: ApplyEndToEndResult, ours: ApplyTiming | undefined): string[] {
  const base = loneUpdateS(r);
  if (base === undefined) return [];
  const observed =
    r.updateObservedS === undefined
      ? ''
      : ` With the operator running, every object's status observed its new generation ${r.updateObservedS === null ? 'not within the timeout' : `${r.updateObservedS.toFixed(1)} s after the update apply started`}.`;
  return [
    '',
    `The update: \`kubectl apply -f\` of the same objects right after their create, one spec field changed (a patch per object; every kubectl version parses the group-version's OpenAPI document for each patch).${observed}`,
    '',
    ...TABLE_HEAD,
    ...phaseRows(r, ours, base, (t) => t?.update),
  ];
}

function decomposition(r: ApplyEndToEndResult, yardstick: number): string[] {
  if (!r.sameSurface && !r.oursNoOperator) return [];
  const ours: ApplyTiming | undefined =
    r.ours ??
    (r.oursKubectlCpuS === undefined
      ? undefined
      : { wallS: r.oursApplyS, kubectlCpuS: r.oursKubectlCpuS });
  return [
    '',
    `Where the time goes: the same ${r.n} objects applied with \`kubectl apply -f\` to four CRDs in turn. kubectl is sequential; before v1.34 it parses the OpenAPI document of the object's whole group-version for every object it creates (bench/lib/kubectl-cpu.ts), so its CPU per object follows the size of that document (v1.34 and later parse it once per kind for creates, kubernetes/kubernetes#132003; every patch still parses it); the apiserver's admission of our schema and the operator's own writes come on top.${r.oursGroupVersion ? ` Our CRD is served in \`${r.oursGroupVersion}\`; the one-group counterfactual is our API surface as it was before each family got its own group (issue 45): what one group would cost today.` : ''}`,
    '',
    ...TABLE_HEAD,
    ...phaseRows(r, ours, yardstick, (t) => t),
    ...(r.nullReconciled
      ? [
          timingRow(
            'our CRD, the null controller reconciling meanwhile (our Kubernetes writes, no platform)',
            r.nullReconciled,
            r.n,
            yardstick,
          ),
        ]
      : []),
    ...updateDecomposition(r, ours),
    ...roundsTable(r),
    ...documentLines(r),
    ...requestLines(r),
  ];
}

/** The sizes of the documents kubectl parses, when the run recorded them. */
function documentLines(r: ApplyEndToEndResult): string[] {
  const d = r.docBytes;
  if (!d) return [];
  return [
    '',
    `OpenAPI v3 documents kubectl parses (the group-version's paths, the common object-meta schemas, then the kind's schema): lone minimal ${kib(d.lone)}, our schema without descriptions and CEL rules ${kib(d.bare)}, ours ${kib(d.ours)}.`,
  ];
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** A create or update apply after the Gadget against the same before it and the lone yardstick. */
function gadgetRow(
  phase: string,
  before: ApplyTiming | undefined,
  after: ApplyTiming | undefined,
  lone: number | undefined,
): string {
  const s = (t: ApplyTiming | undefined): string => (t ? `${t.wallS.toFixed(1)} s` : '—');
  const ratio = (a: number | undefined, b: number | undefined): string =>
    a === undefined || b === undefined || !(b > 0) ? '—' : (a / b).toFixed(2);
  return `| ${phase} | ${s(before)} | ${s(after)} | ${ratio(after?.wallS, before?.wallS)} | ${ratio(after?.wallS, lone)} |`;
}

/** What a kind added in another group changed (issue 45). */
export function gadgetSection(r: ApplyEndToEndResult): string[] {
  const g: GadgetResult | undefined = r.gadget;
  if (!g) return [];
  const [before, after] = g.oursDocBytes;
  const same = g.oursDocSame
    ? 'is **byte for byte the same** after'
    : `has **changed**: ${kib(after)} after`;
  const oneGroup = g.oneGroupDocBytes
    ? ` For comparison, a minimal Gadget added to the one group holding minimal CRDs of all our kinds took that group's document from ${kib(g.oneGroupDocBytes[0])} to ${kib(g.oneGroupDocBytes[1])}: with one group every kind added makes each apply parse more.`
    : '';
  const intro = `The Gadget test kind installed as a CRD in its own group (\`${g.group}\`). The OpenAPI document kubectl parses for a PullZoneConfig was ${kib(before)} before and ${same}.${oneGroup}`;
  const rounds = gadgetRoundsTable(r, g);
  return [
    '',
    '### A kind added in another group',
    '',
    ...(rounds.length > 0
      ? [
          `${intro} The applies of the same ${r.n} objects with no operator running, in ${g.rounds?.length} interleaved rounds after (the lone minimal CRD's and ours, ${r.roundsRotated ? 'in turns' : 'in that order'}), against ${g.roundsBefore ? 'the same rounds right before it was installed' : 'the rounds before'}:`,
          '',
          ...rounds,
        ]
      : [
          `${intro} The apply of the same ${r.n} objects to our CRD with no operator running, repeated after:`,
          '',
          '| `kubectl apply` to our CRD, no operator | before the Gadget | after | after ÷ before | after ÷ lone minimal |',
          '| --- | --- | --- | --- | --- |',
          gadgetRow('create', r.oursNoOperator, g.oursNoOperator, quantile(r.minimalApplyS, 0.5)),
          gadgetRow('update', r.oursNoOperator?.update, g.oursNoOperator?.update, loneUpdateS(r)),
        ]),
  ];
}

/**
 * Issue 45's figure before and after the Gadget: ours' median ÷ the lone minimal CRD's over
 * the rounds of each side; empty unless both sides ran in rounds.
 */
function gadgetRoundsTable(r: ApplyEndToEndResult, g: GadgetResult): string[] {
  const beforeRounds = g.roundsBefore ?? r.noOperatorRounds ?? [];
  const afterRounds = g.rounds ?? [];
  if (beforeRounds.length === 0 || afterRounds.length === 0) return [];
  const cell = (a: RoundsRatio | undefined): string =>
    a ? `${a.oursS.toFixed(1)} ÷ ${a.loneS.toFixed(1)} s = **${a.ratio.toFixed(2)}**` : '—';
  const row = (phase: 'create' | 'update'): string => {
    const [b, a] = [beforeRounds, afterRounds].map((rounds) =>
      roundsRatioOf(rounds, 'ours', phase),
    );
    const change = a && b ? (a.ratio / b.ratio).toFixed(2) : '—';
    return `| ${phase} | ${cell(b)} | ${cell(a)} | ${change} |`;
  };
  return [
    "| `kubectl apply` to our CRD, no operator: median ÷ the lone minimal CRD's median | before the Gadget | after | after ÷ before |",
    '| --- | --- | --- | --- |',
    row('create'),
    row('update'),
  ];
}

/**
 * The create against the honest yardstick: max(minimal apply, the same apply with the null
 * controller reconciling until all Ready). When the null controller's time is the larger, the
 * machine, not the operator, sets the floor (as the matrix calls a cell machine-bound).
 */
function honestCreateRow(r: ApplyEndToEndResult, yardstick: number): string[] {
  const nullS = r.nullReconciled?.allReadyS;
  if (nullS === undefined || nullS === null || r.allReadyS === null || !r.honestRatio) return [];
  const bound =
    nullS > yardstick
      ? 'machine-bound: the null controller is the larger'
      : 'the minimal apply is the larger';
  return [
    `| create: apply to all Ready ÷ max(minimal apply, the same apply with the null controller reconciling: ${nullS.toFixed(1)} s) | ${r.allReadyS.toFixed(1)} s ÷ ${Math.max(yardstick, nullS).toFixed(1)} s = **${r.honestRatio.toFixed(2)}** (${bound}) | ≤ ${APPLY_GOALS.createRatio} | ${verdict(r.honestRatio <= APPLY_GOALS.createRatio)} |`,
  ];
}

/** The platform-side update row (issue 32), when measured. */
function updateAllRows(r: ApplyEndToEndResult): string[] {
  const u = r.update;
  if (!u) return [];
  return [
    `| update one field in all through the API: time until the platform shows all ÷ platform ceiling | ${u.timeToAllWrittenMs === null ? 'timed out' : `${(u.timeToAllWrittenMs / 1000).toFixed(1)} s`} ÷ ${(u.ceilingMs / 1000).toFixed(1)} s = **${u.ratio === null ? 'n/a' : u.ratio.toFixed(2)}** (patches took ${(u.patchRequestsMs / 1000).toFixed(1)} s) | ≤ ${APPLY_GOALS.updateRatio} | ${verdict(u.ratio !== null && u.ratio <= APPLY_GOALS.updateRatio)} |`,
  ];
}

/** The lone minimal applies: all but the last before our run, the last after it. */
function samplesText(values: number[]): string {
  const s = (v: number[]): string => `${v.map((x) => x.toFixed(1)).join(', ')} s`;
  return values.length < 2
    ? s(values)
    : `${s(values.slice(0, -1))} before, ${s(values.slice(-1))} after`;
}

/** The report's section for the scenario. */
export function applySection(r: ApplyEndToEndResult | undefined): string[] {
  if (!r) return [];
  const yardstick = quantile(r.minimalApplyS, 0.5);
  return [
    '## End to end: kubectl apply + reconcile',
    '',
    `N = ${r.n} PullZoneConfigs applied with \`kubectl apply -f\` (kubectl ${r.kubectlVersion ?? 'version not recorded'}) while the operator runs (L = 50 ms, no platform limit), until the last is Ready; the yardstick is \`kubectl apply -f\` of the same ${r.n} objects against a lone minimal CRD with nothing reconciling them (${samplesText(r.minimalApplyS)}; median ${yardstick.toFixed(1)} s).`,
    '',
    '| figure | measured | goal | verdict |',
    '| --- | --- | --- | --- |',
    ...noOperatorRows(r),
    ...kubectlApplyRows(r),
    `| create: apply to all Ready ÷ minimal apply | ${r.allReadyS === null ? 'timed out' : `${r.allReadyS.toFixed(1)} s`} ÷ ${yardstick.toFixed(1)} s = **${r.ratio === null ? 'n/a' : r.ratio.toFixed(2)}** (our apply alone ${r.oursApplyS.toFixed(1)} s) | ≤ ${APPLY_GOALS.createRatio} | ${verdict(r.ratio !== null && r.ratio <= APPLY_GOALS.createRatio)} |`,
    ...honestCreateRow(r, yardstick),
    ...updateAllRows(r),
    ...decomposition(r, yardstick),
    ...gadgetSection(r),
    '',
  ];
}
