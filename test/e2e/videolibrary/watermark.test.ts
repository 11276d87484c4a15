/**
 * The VideoLibrary's watermark image end to end (real kube-apiserver, the operator process,
 * cdn-sim strict against the core document): an image in a ConfigMap's binaryData is uploaded
 * once and cdn-sim holds its bytes; a change of the ConfigMap (nothing else) uploads it again;
 * nothing is written while it is unchanged; removing the source removes the image once. A
 * Secret's image is in no log, event or status. The tenancy side: a ConfigMap the namespace
 * lacks is a clear not-found wait, and a reference to another namespace's ConfigMap cannot be
 * written at all (the reference has no namespace).
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';
import { apply, getObject, kubectl, kubectlRaw, waitFor } from '../support/kube.js';
import { startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';

const RESOURCE = 'videolibraries.video.cdn.operator.io';
const PUT = 'PUT /videolibrary/{id}/watermark';
const DELETE = 'DELETE /videolibrary/{id}/watermark';

let env: OperatorEnv;

test.before(async () => {
  // Trace level: the Secret case looks for the image in every line the operator can write.
  process.env.CDN_OPERATOR_LOG_LEVEL = 'trace';
  env = await startOperatorEnv('e2e-vlw', 'e2e-watermark-key');
});

test.after.always(async () => {
  await env?.stop();
});

/** A PNG by its signature, then `tail` and bytes that are no UTF-8 (binaryData, not data). */
function png(tail: string): Buffer {
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00];
  return Buffer.concat([Buffer.from(head), Buffer.from(tail)]);
}

function configMapJson(name: string, image: Buffer): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: env.ns },
    binaryData: { 'logo.png': image.toString('base64') },
  });
}

function libraryJson(name: string, watermark: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: apiVersionOfKind('VideoLibrary'),
    kind: 'VideoLibrary',
    metadata: {
      name,
      namespace: env.ns,
      annotations: { 'cdn.operator.io/poll-interval': '2s' },
    },
    spec: { watermark: { left: 80, top: 5, ...watermark } },
  });
}

/** The object's status once `ok` holds for it. */
async function statusWhen(
  name: string,
  ok: (status: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return waitFor(
    async () => {
      const status = ((await getObject(RESOURCE, env.ns, name))?.status ?? {}) as Record<
        string,
        unknown
      >;
      return ok(status) ? status : undefined;
    },
    60_000,
    `${name} status`,
    250,
  );
}

/** The watermark writes cdn-sim received. */
function watermarkWrites(): string[] {
  return env.sim.calls
    .snapshot()
    .log.filter((c) => c.route === PUT || c.route === DELETE)
    .map((c) => c.route);
}

/** What cdn-sim holds of the library's watermark upload (its bytes). */
function heldImage(id: number): Buffer | undefined {
  const library = env.sim.state.videoLibraries.get(id);
  const data = (library?.uploads as { watermark?: { data: string } } | undefined)?.watermark?.data;
  return data === undefined ? undefined : Buffer.from(data, 'base64');
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
type Watermark = { imageSha256?: string; source?: string } | undefined;

test.serial(
  'ConfigMap binaryData: uploaded once, again when the ConfigMap changes, 0 writes while unchanged, removed once',
  async (t) => {
    await apply(configMapJson('brand', png('one')));
    await apply(
      libraryJson('branded', { image: { configMapKeyRef: { name: 'brand', key: 'logo.png' } } }),
    );
    const first = await statusWhen(
      'branded',
      (s) => (s.watermark as Watermark)?.imageSha256 === sha256(png('one')),
    );
    const id = Number(first.libraryId);
    t.deepEqual(heldImage(id), png('one'), 'cdn-sim holds the very bytes');
    t.is((first.watermark as Watermark)?.source, 'ConfigMap');
    t.true(env.sim.state.videoLibraries.get(id)?.HasWatermark === true);

    // Several polls (2 s) with nothing changed: not one more write.
    await sleep(6_000);
    t.deepEqual(watermarkWrites(), [PUT], 'uploaded once, nothing while unchanged');

    // Only the ConfigMap changes: its watch brings the object back, the new image goes up.
    await apply(configMapJson('brand', png('two')));
    await statusWhen(
      'branded',
      (s) => (s.watermark as Watermark)?.imageSha256 === sha256(png('two')),
    );
    t.deepEqual(heldImage(id), png('two'));
    await sleep(6_000);
    t.deepEqual(watermarkWrites(), [PUT, PUT], 'one more upload for the change, no other');

    await apply(libraryJson('branded', {}));
    await statusWhen('branded', (s) => s.watermark === undefined);
    t.is(heldImage(id), undefined, 'the image is gone from the library');
    t.false(env.sim.state.videoLibraries.get(id)?.HasWatermark === true);
    await sleep(6_000);
    t.deepEqual(watermarkWrites(), [PUT, PUT, DELETE], 'removed once');

    const rejected = env.sim.calls.snapshot().rejectedByDocument;
    t.is(rejected.count, 0, JSON.stringify(rejected.log));
  },
);

test.serial(
  'Secret source: uploaded; the image is in no log (trace level), event or status, only a salted fingerprint',
  async (t) => {
    const image = png('SECRET-WATERMARK-BYTES');
    await apply(
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'brand-secret', namespace: env.ns },
        data: { 'logo.png': image.toString('base64') },
      }),
    );
    await apply(
      libraryJson('secret-branded', {
        image: { secretKeyRef: { name: 'brand-secret', key: 'logo.png' } },
      }),
    );
    const status = await statusWhen(
      'secret-branded',
      (s) =>
        (s.watermark as { imageFingerprint?: string } | undefined)?.imageFingerprint !== undefined,
    );
    t.deepEqual(heldImage(Number(status.libraryId)), image, 'uploaded as it is');
    const places: Record<string, string> = {
      'operator log (trace)': env.operator.output(),
      events: await kubectl(['get', 'events', '-n', env.ns, '-o', 'json']),
      status: JSON.stringify(status),
    };
    for (const [where, text] of Object.entries(places)) {
      t.false(text.includes('SECRET-WATERMARK-BYTES'), `the image is in the ${where}`);
      t.false(text.includes(image.toString('base64')), `its base64 is in the ${where}`);
      t.false(text.includes(sha256(image)), `its plain digest is in the ${where}`);
    }
    t.true(env.operator.output().includes('"level":20'), 'the log has debug lines');
  },
);

test.serial(
  'tenancy: a ConfigMap the namespace lacks is a not-found wait; nothing uploaded',
  async (t) => {
    const before = watermarkWrites().length;
    await apply(
      libraryJson('elsewhere', {
        image: { configMapKeyRef: { name: 'not-here', key: 'logo.png' } },
      }),
    );
    const status = await statusWhen('elsewhere', (s) =>
      JSON.stringify(s.conditions ?? []).includes('not found'),
    );
    t.regex(
      JSON.stringify(status.conditions),
      new RegExp(
        `waiting for ConfigMap ${env.ns}/not-here \\(spec\\.watermark\\.image\\.configMapKeyRef\\): not found`,
      ),
    );
    t.is(watermarkWrites().length, before, 'nothing sent');
  },
);

test.serial(
  "tenancy: another namespace's ConfigMap cannot be named (the reference has no namespace)",
  async (t) => {
    const obj = JSON.parse(
      libraryJson('other-ns', {
        image: { configMapKeyRef: { name: 'brand', key: 'logo.png', namespace: 'kube-system' } },
      }),
    ) as unknown;
    const r = await kubectlRaw(['apply', '--validate=strict', '-f', '-'], JSON.stringify(obj));
    t.not(r.code, 0, 'the apiserver refuses the field');
    t.regex(r.stderr, /unknown field "spec\.watermark\.image\.configMapKeyRef\.namespace"/);
    const two = JSON.parse(
      libraryJson('two-sources', {
        image: {
          configMapKeyRef: { name: 'brand', key: 'logo.png' },
          url: 'https://images.example.com/logo.png',
        },
      }),
    ) as unknown;
    const both = await kubectlRaw(['apply', '-f', '-'], JSON.stringify(two));
    t.not(both.code, 0, 'exactly one source');
    t.regex(both.stderr, /spec\.watermark\.image: Too many: 2: must have at most 1 items?/);
  },
);
