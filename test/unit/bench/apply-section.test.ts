import test from 'ava';
import {
  applySection,
  type ApplyEndToEndResult,
} from '../../../bench/scenarios/apply-end-to-end.js';

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
