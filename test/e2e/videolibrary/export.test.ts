/**
 * `cdnctl export` of video libraries end to end on the real kube-apiserver, a real operator
 * process and cdn-sim (strict against the core document): an account holding a library with
 * settings, referrers and CDN token authentication, and one left at its defaults, is exported
 * by the real cdnctl; `kubectl apply -f DIR` into the operator's fresh namespace adopts both
 * (Ready) with **zero platform writes** (the watermark image, which the platform never answers
 * back, left out with a note), the operator writes their keys into the outputs
 * Secrets the export names, no key appears in the export, and `cdnctl diff` then reports no
 * change.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CdnClient } from '../../../src/cdn/client.js';
import { runCdnctl } from '../support/cdnctl.js';
import {
  conditionOf,
  getObject,
  kubectl,
  kubectlRaw,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import { startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';

const RESOURCE = 'videolibraries.video.cdn.operator.io';
const API_KEY = 'e2e-videolibrary-export-key';

let env: OperatorEnv;
let dir = '';

test.before(async () => {
  env = await startOperatorEnv('e2e-vlx', API_KEY);
  dir = mkdtempSync(join(tmpdir(), 'cdnctl-vl-export-'));
});

test.after.always(async () => {
  if (env) await kubectlRaw(['delete', RESOURCE, '--all', '-n', env.ns, '--timeout=60s']);
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The writes cdn-sim received so far. */
function writes(): string[] {
  return env.sim.calls
    .snapshot()
    .log.filter((c) => c.method !== 'GET')
    .map((c) => c.route);
}

async function allReady(expected: number): Promise<KubeJson[] | undefined> {
  const list = JSON.parse(await kubectl(['get', RESOURCE, '-n', env.ns, '-o', 'json'])) as {
    items: KubeJson[];
  };
  if (list.items.length !== expected) return undefined;
  const ready = list.items.every((o) => {
    const c = conditionOf(o, 'Ready');
    return c?.status === 'True' && c.observedGeneration === o.metadata.generation;
  });
  return ready ? list.items : undefined;
}

test.serial(
  'export -> kubectl apply into a fresh namespace: adopted, Ready, zero platform writes',
  async (t) => {
    t.timeout(5 * 60_000);
    const cdn = new CdnClient({ credentials: API_KEY, baseUrl: env.sim.url });
    t.teardown(() => cdn.close());
    // The seeded library (no zones of its own) is not part of this account's story.
    for (const seeded of await cdn.listVideoLibraries()) await cdn.deleteVideoLibrary(seeded.Id!);
    const tuned = await cdn.addVideoLibrary({
      Name: 'tuned',
      ReplicationRegions: ['SG'],
      EncodingTier: 1,
      OutputCodecs: 'x264,vp9',
      EnabledResolutions: '480p,1080p',
    });
    await cdn.updateVideoLibrary(tuned.Id!, {
      WebhookUrl: 'https://hooks.example.com/v',
      CaptionsFontSize: 28,
      EnableTokenAuthentication: true,
      GoogleWidevineDrm: { MinClientSecurityLevel: 2 },
    });
    await cdn.changeVideoLibraryReferrer(tuned.Id!, {
      list: 'blocked',
      action: 'add',
      hostname: 'bad.example.com',
    });
    // A watermark image the platform never answers back: left out of the export, with a note.
    await cdn.setVideoLibraryWatermark(tuned.Id!, {
      data: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]),
      contentType: 'image/png',
    });
    const plain = await cdn.addVideoLibrary({ Name: 'plain' });
    const keys = [tuned.ApiKey!, tuned.ReadOnlyApiKey!, plain.ApiKey!, plain.ReadOnlyApiKey!];

    const exported = await runCdnctl(env.sim.url, API_KEY, [
      'export',
      '-n',
      env.ns,
      '--kinds',
      'VideoLibrary',
      '-o',
      dir,
    ]);
    t.is(exported.code, 0, exported.stderr);
    const files = readdirSync(dir).sort();
    t.deepEqual(
      files.filter((f) => f.startsWith('videolibrary-')),
      ['videolibrary-plain.yaml', 'videolibrary-tuned.yaml'],
    );
    const everything = [exported.stdout, exported.stderr]
      .concat(files.map((f) => readFileSync(join(dir, f), 'utf8')))
      .join('\n');
    for (const key of keys) t.false(everything.includes(key), 'a key is in the export');
    t.regex(everything, /VideoLibrary tuned: the library has a watermark image, left out/);
    t.false(everything.includes('plain: the library has a watermark'), 'only where there is one');

    const before = writes();
    const rejected = env.sim.calls.snapshot().rejectedByDocument.count;
    await kubectl(['apply', '-f', dir]);
    const items = await waitFor(() => allReady(2), 120_000, 'every exported library Ready', 1000);
    // Polls and watches settle: a late write would show here.
    await sleep(5_000);
    t.deepEqual(writes().slice(before.length), [], 'applying the export wrote to the platform');
    t.is(env.sim.calls.snapshot().rejectedByDocument.count, rejected);
    t.deepEqual(items.map((o) => Number(o.status?.libraryId)).sort(), [tuned.Id, plain.Id].sort());

    const tunedObj = items.find((o) => Number(o.status?.libraryId) === tuned.Id)!;
    const secretName = String(
      (tunedObj.spec as { outputSecretRef: { name: string } }).outputSecretRef.name,
    );
    const secret = await waitFor(
      async () =>
        (await getObject('secret', env.ns, secretName))?.data as Record<string, string> | undefined,
      30_000,
      'the outputs Secret',
    );
    t.is(Buffer.from(secret.apiKey!, 'base64').toString('utf8'), String(tuned.ApiKey));

    const diff = await runCdnctl(env.sim.url, API_KEY, ['diff', '-f', dir]);
    t.is(diff.code, 0, diff.stdout + diff.stderr);
    t.regex(diff.stdout, /2 object\(s\): 2 unchanged/);
    t.deepEqual(writes().slice(before.length), [], 'cdnctl diff wrote to the platform');
  },
);
