import test from 'ava';
import type {
  ApplyEndToEndResult,
  ApplyTiming,
  NoOperatorRound,
} from '../../../bench/scenarios/apply-end-to-end.js';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applySection, kubectlApplyRatios } from '../../../bench/scenarios/apply-section.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const base: ApplyEndToEndResult = {
  n: 100,
  minimalApplyS: [2, 2.2],
  lone: [
    { wallS: 2, kubectlCpuS: 0.5 },
    { wallS: 2.2, kubectlCpuS: 0.6 },
  ],
  sameSurface: { wallS: 4, kubectlCpuS: 2, serverCpuS: 0.5 },
  oursNoOperator: {
    wallS: 5,
    kubectlCpuS: 2.5,
    requests: { 'POST pullzoneconfigs': 100, 'GET pullzoneconfigs': 100, 'PUT leases': 2 },
  },
  oursApplyS: 6,
  oursKubectlCpuS: 2.6,
  ours: {
    wallS: 6,
    kubectlCpuS: 2.6,
    serverCpuS: 1.2,
    operatorCpuS: 0.9,
    requests: {
      'POST pullzoneconfigs': 100,
      'PATCH pullzoneconfigs/status': 100,
      'POST events': 100,
      'PATCH pullzoneconfigs': 100,
    },
  },
  allReadyS: 6.3,
  ratio: 6.3 / 2,
};

test('the create row divides all Ready by the median lone apply (the lower of two) and misses above 1.3', (t) => {
  const md = applySection(base).join('\n');
  t.regex(
    md,
    /6\.3 s ÷ 2\.0 s = \*\*3\.15\*\* \(our apply alone 6\.0 s\) \| ≤ 1\.3 \| \*\*missed\*\*/,
  );
});

test('the decomposition gives each apply, its ratio to the yardstick and kubectl CPU per object', (t) => {
  const md = applySection(base).join('\n');
  t.regex(
    md,
    /\| a lone minimal CRD \(its own group; the yardstick\) \| 2\.0 s \| 1\.00 \| 5\.0 ms \| — \| — \|/,
  );
  t.regex(
    md,
    /\| minimal CRDs of all our kinds in one group \(our API surface\) \| 4\.0 s \| 2\.00 \| 20\.0 ms \| 5\.0 ms \| — \|/,
  );
  t.regex(
    md,
    /\| our CRD, no operator running \(admission of our schema\) \| 5\.0 s \| 2\.50 \| 25\.0 ms \|/,
  );
  t.regex(
    md,
    /\| our CRD, operator reconciling meanwhile \| 6\.0 s \| 3\.00 \| 26\.0 ms \| 12\.0 ms \| 9\.0 ms \|/,
  );
});

test('a result from before the decomposition renders without it', (t) => {
  const {
    lone: _l,
    sameSurface: _s,
    oursNoOperator: _o,
    oursKubectlCpuS: _k,
    ours: _u,
    ...old
  } = base;
  const md = applySection(old).join('\n');
  t.notRegex(md, /Where the time goes/);
  t.regex(md, /create: apply to all Ready/);
});

test('requests per object during our applies, without and with the operator', (t) => {
  const md = applySection(base).join('\n');
  t.regex(md, /without the operator: GET pullzoneconfigs 1\.00, POST pullzoneconfigs 1\.00\./);
  t.regex(
    md,
    /watchers' together\): PATCH pullzoneconfigs 1\.00, PATCH pullzoneconfigs\/status 1\.00, POST events 1\.00, POST pullzoneconfigs 1\.00\./,
  );
});

test('with the null controller reconciling the same apply, the create also gets its honest ratio and kubectl version', (t) => {
  const r: ApplyEndToEndResult = {
    ...base,
    kubectlVersion: 'v1.35.4',
    nullReconciled: { wallS: 5.6, kubectlCpuS: 2.6, serverCpuS: 1.1, allReadyS: 5.8 },
    honestRatio: 6.3 / 5.8,
  };
  const md = applySection(r).join('\n');
  t.regex(md, /kubectl v1\.35\.4/);
  t.regex(
    md,
    /the null controller reconciling: 5\.8 s\) \| 6\.3 s ÷ 5\.8 s = \*\*1\.09\*\* \(machine-bound: the null controller is the larger\) \| ≤ 1\.3 \| met \|/,
  );
  t.regex(
    md,
    /\| our CRD, the null controller reconciling meanwhile \(our Kubernetes writes, no platform\) \| 5\.6 s \| 2\.80 \|/,
  );
  t.notRegex(
    applySection(base).join('\n'),
    /null controller reconciling/,
    'absent when not measured',
  );
});

/** `base` with the update applies of issue 45 measured. */
const withUpdates: ApplyEndToEndResult = {
  ...base,
  oursGroupVersion: 'pullzones.cdn.operator.io/v1beta1',
  lone: [
    { wallS: 2, kubectlCpuS: 0.5, update: { wallS: 3, kubectlCpuS: 1 } },
    { wallS: 2.2, kubectlCpuS: 0.6, update: { wallS: 3.4, kubectlCpuS: 1.1 } },
  ],
  sameSurface: { ...base.sameSurface!, update: { wallS: 8, kubectlCpuS: 4 } },
  oursNoOperator: { ...base.oursNoOperator!, update: { wallS: 3.6, kubectlCpuS: 1.2 } },
  ours: { ...base.ours!, wallS: 2.5, update: { wallS: 3.9, kubectlCpuS: 1.3, operatorCpuS: 0.4 } },
  updateObservedS: 4.4,
};

const ratioCases: {
  reason: string;
  r: ApplyEndToEndResult;
  create?: [number, number];
  update?: [number, number];
}[] = [
  {
    reason:
      'create: our apply with the operator running ÷ the median lone create (the lower of two)',
    r: base,
    create: [6, 2],
  },
  {
    reason: 'update: our update apply ÷ the median lone update',
    r: withUpdates,
    create: [2.5, 2],
    update: [3.9, 3],
  },
  {
    reason: 'a result from before the apply timings falls back to oursApplyS; no update measured',
    r: { n: 10, minimalApplyS: [1], oursApplyS: 1.2, allReadyS: 2, ratio: 2 },
    create: [1.2, 1],
  },
  {
    reason: 'the operator run failed before its apply: nothing to compare',
    r: { ...withUpdates, ours: undefined, oursApplyS: 0 },
  },
  {
    reason: 'the lone update was not measured: no update ratio even with ours measured',
    r: { ...withUpdates, lone: base.lone },
    create: [2.5, 2],
  },
];

for (const c of ratioCases) {
  test(`kubectlApplyRatios: ${c.reason}`, (t) => {
    const got = kubectlApplyRatios(c.r);
    const expect = (pair: [number, number] | undefined): unknown =>
      pair && { oursS: pair[0], loneS: pair[1], ratio: pair[0] / pair[1] };
    t.deepEqual(got.create, expect(c.create));
    t.deepEqual(got.update, expect(c.update));
  });
}

test('the kubectl apply rows give create and update against the lone minimal CRD with a verdict each', (t) => {
  const md = applySection(withUpdates).join('\n');
  t.regex(
    md,
    /\| `kubectl apply` create, operator running ÷ the same to the lone minimal CRD \| 2\.5 s ÷ 2\.0 s = \*\*1\.25\*\* \| ≤ 1\.3 \| met \|/,
  );
  t.regex(
    md,
    /\| `kubectl apply` update \(one spec field changed, all Ready before\), operator running ÷ the same to the lone minimal CRD \| 3\.9 s ÷ 3\.0 s = \*\*1\.30\*\* \| ≤ 1\.3 \| met \|/,
  );
  const slower = applySection({
    ...withUpdates,
    ours: { ...withUpdates.ours!, update: { wallS: 4.2, kubectlCpuS: 1.3 } },
  }).join('\n');
  t.regex(slower, /4\.2 s ÷ 3\.0 s = \*\*1\.40\*\* \| ≤ 1\.3 \| \*\*missed\*\* \|/);
});

test('an update that was not measured while the lone one was is a row saying so', (t) => {
  const md = applySection({ ...withUpdates, ours: undefined }).join('\n');
  t.regex(md, /\| `kubectl apply` update .* \| not measured \| ≤ 1\.3 \| — \|/);
});

test('the update table gives each update apply against the median lone update, and when all were observed', (t) => {
  const md = applySection(withUpdates).join('\n');
  t.regex(md, /observed its new generation 4\.4 s after the update apply started/);
  t.regex(
    md,
    /\| a lone minimal CRD \(its own group; the yardstick\) \| 3\.0 s \| 1\.00 \| 10\.0 ms \|/,
  );
  t.regex(md, /one-group counterfactual\) \| 8\.0 s \| 2\.67 \| 40\.0 ms \|/);
  t.regex(
    md,
    /\| our CRD, operator reconciling meanwhile \| 3\.9 s \| 1\.30 \| 13\.0 ms \| — \| 4\.0 ms \|/,
  );
  t.notRegex(applySection(base).join('\n'), /The update:/, 'absent without updates');
});

test('the Gadget section shows the document unchanged, the one group growing, and the apply before and after', (t) => {
  const r: ApplyEndToEndResult = {
    ...withUpdates,
    gadget: {
      group: 'gadgets.cdn.operator.io',
      oursDocBytes: [128_000, 128_000],
      oursDocSame: true,
      oneGroupDocBytes: [700_000, 745_000],
      oursNoOperator: {
        wallS: 5.5,
        kubectlCpuS: 2.5,
        update: { wallS: 3.3, kubectlCpuS: 1.2 },
      },
    },
  };
  const md = applySection(r).join('\n');
  t.regex(md, /installed as a CRD in its own group \(`gadgets\.cdn\.operator\.io`\)/);
  t.regex(md, /was 125\.0 KiB before and is \*\*byte for byte the same\*\* after/);
  t.regex(md, /from 683\.6 KiB to 727\.5 KiB/);
  t.regex(md, /\| create \| 5\.0 s \| 5\.5 s \| 1\.10 \| 2\.75 \|/);
  t.regex(md, /\| update \| 3\.6 s \| 3\.3 s \| 0\.92 \| 1\.10 \|/);
  const changed = applySection({
    ...r,
    gadget: { ...r.gadget!, oursDocBytes: [128_000, 173_000], oursDocSame: false },
  }).join('\n');
  t.regex(changed, /was 125\.0 KiB before and has \*\*changed\*\*: 168\.9 KiB after/);
  t.notRegex(applySection(withUpdates).join('\n'), /A kind added in another group/);
});

test('every committed results file with the scenario still renders, without the rows it did not measure', async (t) => {
  for (const file of ['2026-11-27T23-48-49Z.json', '2026-11-28T08-52-20Z.json']) {
    const res = JSON.parse(await readFile(join(ROOT, 'bench/results', file), 'utf8')) as {
      apply: ApplyEndToEndResult;
    };
    const md = applySection(res.apply).join('\n');
    t.regex(md, /`kubectl apply` create, operator running/, file);
    t.notRegex(md, /`kubectl apply` update|A kind added in another group|undefined|NaN/, file);
  }
});

test('a result from the group-per-family era names our group and calls the one group the counterfactual; an older one keeps "our API surface"', (t) => {
  const md = applySection(withUpdates).join('\n');
  t.regex(md, /Our CRD is served in `pullzones\.cdn\.operator\.io\/v1beta1`/);
  t.regex(
    md,
    /\| minimal CRDs of all our kinds in one group \(the one-group counterfactual\) \| 4\.0 s/,
  );
  const old = applySection(base).join('\n');
  t.notRegex(old, /counterfactual/);
  t.regex(old, /\| minimal CRDs of all our kinds in one group \(our API surface\) \| 4\.0 s/);
});

test('with the null controller on the lone minimal CRD, create and update get their ratio against a one-kind operator', (t) => {
  const r: ApplyEndToEndResult = {
    ...base,
    ours: { ...base.ours!, update: { wallS: 9, kubectlCpuS: 3 } },
    loneReconciled: {
      wallS: 5,
      kubectlCpuS: 0.6,
      allReadyS: 5.5,
      update: { wallS: 6, kubectlCpuS: 1 },
    },
  };
  const md = applySection(r).join('\n');
  t.regex(
    md,
    /create, operator running ÷ the same to the lone minimal CRD with the null controller reconciling \(a one-kind operator's Kubernetes writes\) \| 6\.0 s ÷ 5\.0 s = \*\*1\.20\*\* \| ≤ 1\.3 \| met \|/,
  );
  t.regex(
    md,
    /update, operator running ÷ the same to the lone minimal CRD with the null controller reconciling .* 9\.0 s ÷ 6\.0 s = \*\*1\.50\*\* \| ≤ 1\.3 \| \*\*missed\*\* \|/,
  );
  t.regex(
    md,
    /\| the lone minimal CRD, the null controller reconciling meanwhile \(a one-kind operator's writes\) \| 5\.0 s \| 2\.50 \|/,
  );
  t.notRegex(
    applySection(base).join('\n'),
    /null controller reconciling \(a one-kind/,
    'absent when not measured',
  );
});

test('the bare schema’s apply is a row of its own in both tables, with the documents’ sizes; an older result has neither', (t) => {
  const withBare: ApplyEndToEndResult = {
    ...base,
    bareSchema: { wallS: 3, kubectlCpuS: 1, update: { wallS: 4.4, kubectlCpuS: 2 } },
    docBytes: { lone: 75 * 1024, bare: 93 * 1024, ours: 134 * 1024 },
    lone: base.lone?.map((l) => ({ ...l, update: { wallS: 4, kubectlCpuS: 1.5 } })),
  };
  const md = applySection(withBare).join('\n');
  const row =
    /\| our schema without its descriptions and CEL rules, alone in its group, no operator \(what the typed structure costs\) \| ([\d.]+) s \| ([\d.]+) \| ([\d.]+) ms/g;
  t.deepEqual(
    [...md.matchAll(row)].map((m) => m.slice(1)),
    [
      ['3.0', '1.50', '10.0'],
      ['4.4', '1.10', '20.0'],
    ],
  );
  t.regex(
    md,
    /lone minimal 75\.0 KiB, our schema without descriptions and CEL rules 93\.0 KiB, ours 134\.0 KiB/,
  );
  t.notRegex(applySection(base).join('\n'), /without its descriptions|93\.0 KiB/);
});

/** A round with nothing reconciling: create and update walls of lone, ours and bare. */
function round(
  lone: [number, number],
  ours: [number, number],
  bare: [number, number],
): NoOperatorRound {
  const timing = ([c, u]: [number, number]): ApplyTiming => ({
    wallS: c,
    kubectlCpuS: 1,
    update: { wallS: u, kubectlCpuS: 2 },
  });
  return { lone: timing(lone), ours: timing(ours), bare: timing(bare) };
}

const rounds = [
  round([5.7, 10.6], [7.2, 11.3], [6.7, 10.7]),
  round([5.3, 9.0], [6.1, 11.2], [5.3, 9.8]),
  round([4.6, 8.2], [5.3, 10.7], [5.4, 8.9]),
];

test('over interleaved rounds the goal rows divide the medians, list each round’s ratio and judge the median', (t) => {
  const md = applySection({ ...base, noOperatorRounds: rounds }).join('\n');
  // create: ours median 6.1 ÷ lone median 5.3; update: 11.2 ÷ 9.0 (over 1.3: missed)
  t.regex(
    md,
    /\| `kubectl apply` create, no operator: median of 3 interleaved rounds ÷ the same to the lone minimal CRD \(per round 1\.26, 1\.15, 1\.15\) \| 6\.1 s ÷ 5\.3 s = \*\*1\.15\*\* \| ≤ 1\.3 \| met \|/,
  );
  t.regex(
    md,
    /\| `kubectl apply` update, no operator: median of 3 interleaved rounds ÷ the same to the lone minimal CRD \(per round 1\.07, 1\.24, 1\.30\) \| 11\.2 s ÷ 9\.0 s = \*\*1\.24\*\* \| ≤ 1\.3 \| met \|/,
  );
  const slow = [...rounds, round([4.6, 8.2], [7.0, 12.0], [5, 9]), round([5, 8], [7, 12], [5, 9])];
  t.regex(
    applySection({ ...base, noOperatorRounds: slow }).join('\n'),
    /update, no operator: median of 5 interleaved rounds .* = \*\*1\.38\*\* \| ≤ 1\.3 \| \*\*missed\*\* \|/,
  );
});

test('the rounds table gives every apply of every round and the medians’ ratios, ours and bare', (t) => {
  const md = applySection({ ...base, noOperatorRounds: rounds }).join('\n');
  t.regex(md, /the bare schema, each a create/);
  t.regex(
    applySection({ ...base, noOperatorRounds: rounds, roundsRotated: true }).join('\n'),
    /the bare schema, in an order rotated by one place each round, each a create/,
  );
  t.regex(md, /\| 2 \| 5\.3 s \| 6\.1 s \| 5\.3 s \| 9\.0 s \| 11\.2 s \| 9\.8 s \|/);
  // bare: create median 5.4 ÷ 5.3, update median 9.8 ÷ 9.0
  t.regex(
    md,
    /\| median ÷ lone minimal median \| 1\.00 \| \*\*1\.15\*\* \| \*\*1\.02\*\* \| 1\.00 \| \*\*1\.24\*\* \| \*\*1\.09\*\* \|/,
  );
});

test('a result from before the rounds has neither their goal rows nor their table', (t) => {
  const md = applySection(base).join('\n');
  t.notRegex(md, /interleaved round/);
  t.notRegex(md, /median ÷ lone minimal median/);
});

test('with rounds, every lone minimal apply is a sample of the yardstick: the earlier ones before, the last after', (t) => {
  const md = applySection({ ...base, minimalApplyS: [5.2, 4.7, 5.4, 6.7] }).join('\n');
  t.regex(
    md,
    /nothing reconciling them \(5\.2, 4\.7, 5\.4 s before, 6\.7 s after; median 5\.2 s\)/,
  );
  t.regex(
    applySection({ ...base, minimalApplyS: [5.2] }).join('\n'),
    /nothing reconciling them \(5\.2 s; median 5\.2 s\)/,
  );
});

test('with rounds on both sides, the Gadget section compares the medians’ ratios before and after', (t) => {
  const after = [round([6, 10], [6.6, 12], [0, 0]), round([5, 9], [5.4, 11.5], [0, 0])].map(
    ({ lone, ours }) => ({ lone, ours }),
  );
  const r: ApplyEndToEndResult = {
    ...base,
    noOperatorRounds: rounds,
    gadget: {
      group: 'gadgets.cdn.operator.io',
      oursDocBytes: [128_000, 128_000],
      oursDocSame: true,
      oursNoOperator: after[0]!.ours,
      rounds: after,
    },
  };
  const md = applySection(r).join('\n');
  t.regex(md, /in 2 interleaved rounds after \(the lone minimal CRD's and ours, in that order\)/);
  t.regex(
    applySection({ ...r, roundsRotated: true }).join('\n'),
    /in 2 interleaved rounds after \(the lone minimal CRD's and ours, in turns\)/,
  );
  // before: 6.1 ÷ 5.3 (1.15) and 11.2 ÷ 9.0 (1.24); after: 5.4 ÷ 5.0 (1.08) and 11.5 ÷ 9.0 (1.28)
  t.regex(
    md,
    /\| create \| 6\.1 ÷ 5\.3 s = \*\*1\.15\*\* \| 5\.4 ÷ 5\.0 s = \*\*1\.08\*\* \| 0\.94 \|/,
  );
  t.regex(
    md,
    /\| update \| 11\.2 ÷ 9\.0 s = \*\*1\.24\*\* \| 11\.5 ÷ 9\.0 s = \*\*1\.28\*\* \| 1\.03 \|/,
  );
  t.notRegex(md, /after ÷ lone minimal \|/);
  // the rounds right before the Gadget, when the run had them, are the "before"
  const adjacent = applySection({
    ...r,
    gadget: { ...r.gadget!, roundsBefore: [round([5, 9], [5.5, 9.9], [0, 0])] },
  }).join('\n');
  t.regex(adjacent, /against the same rounds right before it was installed/);
  t.regex(
    adjacent,
    /\| create \| 5\.5 ÷ 5\.0 s = \*\*1\.10\*\* \| 5\.4 ÷ 5\.0 s = \*\*1\.08\*\* \| 0\.98 \|/,
  );
  t.regex(md, /against the rounds before:/);
  const { noOperatorRounds: _n, ...single } = r;
  t.regex(applySection(single).join('\n'), /after ÷ lone minimal \|/);
});

test('a round without its update still gives the create medians, and the update cells say not measured', (t) => {
  const noUpdates = rounds.map(({ lone, ours, bare }) => ({
    lone: { wallS: lone.wallS, kubectlCpuS: 1 },
    ours: { wallS: ours.wallS, kubectlCpuS: 1 },
    bare: { wallS: bare.wallS, kubectlCpuS: 1 },
  }));
  const md = applySection({ ...base, noOperatorRounds: noUpdates }).join('\n');
  t.regex(
    md,
    /\| median ÷ lone minimal median \| 1\.00 \| \*\*1\.15\*\* \| \*\*1\.02\*\* \| 1\.00 \| — \| — \|/,
  );
  t.notRegex(md, /`kubectl apply` update, no operator/);
});
