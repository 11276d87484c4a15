import test from 'ava';
import {
  renderAdmissionReport,
  type KindResult,
  type PhaseRun,
} from '../../../bench/lib/admission-report.js';

const run = (wall: number, server: number, client: number): PhaseRun => ({
  create: wall,
  update: wall * 2,
  finalizer: wall / 4,
  status: wall / 2,
  cpu: { create: server, update: server * 2, finalizer: server / 4, status: server / 2 },
  kubectlCpu: { create: client, update: client * 2 },
});

const result: KindResult = {
  kind: 'PullZoneConfig',
  crdBytes: 76142,
  celRules: 24,
  openApiBytes: { ours: 700 * 1024, minimal: 540 * 1024, lone: 60 * 1024 },
  runs: {
    ours: [run(14, 4, 10), run(16, 6, 12), run(15, 5, 11)],
    minimal: [run(10, 2, 8), run(12, 2, 8), run(11, 2, 8)],
    lone: [run(5, 2, 1), run(5, 2, 1), run(5, 2, 1)],
  },
};

test('wall rows: medians per variant, ratios against the same surface and the lone CRD, bold above the goal', (t) => {
  const md = renderAdmissionReport([result], 100, 3, 'T');
  // create: medians 15 / 11 / 5 -> 1.36 (bold), 3 (bold)
  t.regex(
    md,
    /\| PullZoneConfig \| 76142 \| 24 \| create \| 15 \| 11 \| 5 \| \*\*1\.36\*\* \| \*\*3\*\* \|/,
  );
});

test('CPU rows: milliseconds per object of the apiserver and of kubectl, none of kubectl for status', (t) => {
  const md = renderAdmissionReport([result], 100, 3, 'T');
  // server create medians 5 / 2 / 2 s over 100 objects -> 50 / 20 / 20 ms; kubectl 11 / 8 / 1 s -> 110 / 80 / 10 ms
  t.regex(
    md,
    /\| PullZoneConfig \| create \| 50 \/ 20 \/ 20 \| \*\*2\.5\*\* \| 110 \/ 80 \/ 10 \| \*\*1\.38\*\* \| \*\*11\*\* \|/,
  );
  t.regex(md, /\| {2}\| status \| 25 \/ 10 \/ 10 \| \*\*2\.5\*\* \| — \(no kubectl\)/);
  // the operator's finalizer patch: 1.25 / 0.5 / 0.5 s -> 12.5 / 5 / 5 ms, no kubectl
  t.regex(md, /\| {2}\| finalizer \| 12\.5 \/ 5 \/ 5 \| \*\*2\.5\*\* \| — \(no kubectl\)/);
  t.regex(
    md,
    /\| {2}\| \| {2}\| finalizer \| 3\.75 \| 2\.75 \| 1\.25 \| \*\*1\.36\*\* \| \*\*3\*\* \|/,
  );
});

test('a ratio within the goal is not bold; the OpenAPI documents are listed', (t) => {
  const close: KindResult = {
    ...result,
    runs: { ours: [run(12, 2.4, 9)], minimal: [run(10, 2, 8)], lone: [run(5, 2, 1)] },
  };
  const md = renderAdmissionReport([close], 100, 1, 'T');
  t.regex(md, /create \| 12 \| 10 \| 5 \| 1\.2 \|/);
  t.regex(
    md,
    /\| ours: PullZoneConfig's group \| the kinds of its family \(docs\/api\.md\), full schemas \| 700 KiB \|/,
  );
  t.regex(md, /\| lone PullZoneConfig \| one free-form CRD \| 60 KiB \|/);
});

test('a report written before kubectl was timed still renders', (t) => {
  const old: KindResult = {
    kind: 'StorageZone',
    crdBytes: 1,
    celRules: 0,
    runs: {
      ours: [{ create: 2, update: 2, status: 1, cpu: { create: 1, update: 1, status: 1 } }],
      minimal: [{ create: 1, update: 1, status: 1, cpu: { create: 1, update: 1, status: 1 } }],
    },
  };
  const md = renderAdmissionReport([old], 10, 1, 'T');
  t.regex(md, /\| StorageZone \| 1 \| 0 \| create \| 2 \| 1 \| — \| \*\*2\*\* \| n\/a \|/);
  t.notRegex(md, /OpenAPI documents kubectl parses/);
  t.notRegex(md, /finalizer \|/, 'no finalizer rows in a report written before that phase');
});
