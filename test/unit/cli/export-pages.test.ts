/**
 * `cdnctl export` of ShieldPolicy custom pages in-process against cdn-sim: the renderer writes
 * any HTML so that a YAML 1.1 reader gets it back byte for byte (and nothing kubectl's go-yaml
 * reads differently stays raw), the ConfigMaps come before their policy in both output forms,
 * `cdnctl diff` of the output plans nothing, and a page too large for client-side
 * `kubectl apply` is noted. The e2e proof with kubectl is test/e2e/export/custom-pages.test.ts.
 */
import test from 'ava';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { CdnClient } from '../../../src/cdn/client.js';
import { toYaml11 } from '../../../src/cli/export/yaml.js';
import { lastAppliedBytes, MAX_ANNOTATION_BYTES } from '../../../src/cli/export/apply-size.js';
import { TRICKY_PAGES } from '../../support/tricky-html.js';
import { startCliEnv, type CliEnv } from './cli-harness.js';

/** Characters go-yaml (kubectl) reads as line breaks or refuses when they are written raw. */
const GO_YAML_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufffe\uffff]/;

const STRINGS: Array<[string, string]> = [
  ...Object.entries(TRICKY_PAGES),
  ['a YAML 1.1 boolean alone', 'yes'],
  ['leading spaces, no final newline', '   <p>x</p>\n<p>y</p>'],
  ['trailing blank lines', '<p>x</p>  \n\n\n'],
  ['only line separators', '\u2028\u2029\u0085'],
  ['CR alone', 'a\rb\r'],
  ['a BOM first', '\ufeff<html></html>\n'],
  ['DEL and C1 in a long line', `${'<p>'.repeat(30)}\u007f\u0080\u009f${'</p>'.repeat(30)}`],
  ['a document marker line', 'a\n---\nb\n'],
];

for (const [why, html] of STRINGS) {
  test(`toYaml11 keeps a page byte for byte: ${why}`, (t) => {
    const doc = { apiVersion: 'v1', kind: 'ConfigMap', data: { 'page.html': html } };
    const text = toYaml11(doc);
    t.is((parse(text, { version: '1.1' }) as typeof doc).data['page.html'], html);
    t.is((parse(text) as typeof doc).data['page.html'], html, 'YAML 1.2 reads the same');
    t.notRegex(text, GO_YAML_UNSAFE, 'written raw, go-yaml would read another page');
  });
}

test('toYaml11 leaves ordinary strings as before (literal blocks, quoted booleans)', (t) => {
  const text = toYaml11({ a: 'Off', b: 'line 1\nline 2\n', c: 'x: y' });
  t.is(text, 'a: "Off"\nb: |\n  line 1\n  line 2\nc: "x: y"\n');
});

/** Seeds a zone with the tricky pages and a zone with one page too large for client-side apply. */
async function seed(env: CliEnv): Promise<{ large: string }> {
  const cdn = new CdnClient({ credentials: env.apiKey, baseUrl: env.sim.url });
  try {
    const shop = await cdn.addPullZone({ Name: 'shop', OriginUrl: 'https://origin.example' });
    const zone = await cdn.createShieldZone({
      pullZoneId: Number(shop.Id),
      shieldZone: { planType: 1 },
    });
    for (const [type, html] of Object.entries(TRICKY_PAGES)) {
      await cdn.putCustomPage(Number(zone.shieldZoneId), type, html);
    }
    const big = await cdn.addPullZone({ Name: 'big', OriginUrl: 'https://origin.example' });
    const bigZone = await cdn.createShieldZone({
      pullZoneId: Number(big.Id),
      shieldZone: { planType: 1 },
    });
    // 50 000 `<` and `>`: 50 kB of HTML, 300 kB once Go's JSON escapes them.
    const large = '<>'.repeat(25_000);
    await cdn.putCustomPage(Number(bigZone.shieldZoneId), 'ratelimit', large);
    return { large };
  } finally {
    cdn.close();
  }
}

interface Obj {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: { customPages?: Array<{ pageType: string; configMapRef: { name: string; key: string } }> };
}

test('export writes the pages as ConfigMaps before their policy; diff of the output plans nothing', async (t) => {
  const env = await startCliEnv(t);
  const { large } = await seed(env);
  const dir = path.join(env.dir, 'out');
  const r = await env.run(['export', '--kinds', 'ShieldPolicy', '-o', dir]);
  t.is(r.code, 0, r.stderr);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  t.deepEqual(files, [
    'configmap-big-ratelimit-page.yaml',
    'configmap-shop-block-page.yaml',
    'configmap-shop-challenge-page.yaml',
    'shieldpolicy-big.yaml',
    'shieldpolicy-shop.yaml',
  ]);
  const read = (f: string): Obj =>
    parse(readFileSync(path.join(dir, f), 'utf8'), { version: '1.1' }) as Obj;
  for (const [type, html] of Object.entries(TRICKY_PAGES)) {
    const text = readFileSync(path.join(dir, `configmap-shop-${type}-page.yaml`), 'utf8');
    t.is(
      read(`configmap-shop-${type}-page.yaml`).data?.['page.html'],
      html,
      `${type} byte for byte`,
    );
    t.notRegex(text, GO_YAML_UNSAFE);
  }
  t.is(read('configmap-big-ratelimit-page.yaml').data?.['page.html'], large);
  t.deepEqual(read('shieldpolicy-shop.yaml').spec?.customPages, [
    { pageType: 'block', configMapRef: { name: 'shop-block-page', key: 'page.html' } },
    { pageType: 'challenge', configMapRef: { name: 'shop-challenge-page', key: 'page.html' } },
  ]);
  t.regex(
    r.stdout,
    /ConfigMap big-ratelimit-page: too large for client-side kubectl apply .*kubectl apply --server-side/,
  );
  t.notRegex(r.stdout, /ConfigMap shop-/, 'the small pages apply either way');

  // The exported policies compare equal to the zones, their ConfigMaps being in the manifests.
  const clean = await env.run(['diff', '-f', dir]);
  t.is(clean.code, 0, clean.stdout);
  t.regex(clean.stdout, /ShieldPolicy default\/shop \(id \d+\): no changes/);
  t.regex(clean.stdout, /ShieldPolicy default\/big \(id \d+\): no changes/);
  // Without its ConfigMaps the policy is not compared, naming the missing one.
  rmSync(path.join(dir, 'configmap-shop-block-page.yaml'));
  const partial = await env.run(['diff', '-f', dir]);
  t.is(partial.code, 0, partial.stdout);
  t.regex(
    partial.stdout,
    /ShieldPolicy default\/shop: not compared: waiting for ConfigMap default\/shop-block-page .*not found/,
  );

  // One YAML stream: each policy's ConfigMaps come before it (kubectl apply -f - keeps order).
  const stream = await env.run(['export', '--kinds', 'ShieldPolicy']);
  t.is(stream.code, 0, stream.stderr);
  const docs = parseAllDocuments(stream.stdout, { version: '1.1' }).map((d) => d.toJS() as Obj);
  t.deepEqual(
    docs.map((d) => `${d.kind}/${d.metadata.name}`),
    [
      'ConfigMap/shop-block-page',
      'ConfigMap/shop-challenge-page',
      'ShieldPolicy/shop',
      'ConfigMap/big-ratelimit-page',
      'ShieldPolicy/big',
    ],
  );
  t.is(docs[1]?.data?.['page.html'], TRICKY_PAGES.challenge);
});

test('lastAppliedBytes counts what Go escapes in HTML', (t) => {
  const plain = lastAppliedBytes({ data: { k: 'abc' } });
  t.is(lastAppliedBytes({ data: { k: 'a<c' } }), plain + 5, '< is \\u003c');
  t.is(lastAppliedBytes({ data: { k: 'a\u2028c' } }), plain + 2 + 3, 'LS (3 bytes) is \\u2028');
  t.is(lastAppliedBytes({ data: { k: 'aéc' } }), plain + 1, 'é is two bytes, not escaped');
  t.true(lastAppliedBytes({ data: { k: '<>'.repeat(22_000) } }) > MAX_ANNOTATION_BYTES);
  t.true(lastAppliedBytes({ data: { k: 'x'.repeat(200_000) } }) < MAX_ANNOTATION_BYTES);
  const annotated = { metadata: { annotations: { 'a.io/b': 'c' } }, data: {} };
  t.is(
    lastAppliedBytes(annotated),
    lastAppliedBytes({ metadata: { annotations: {} }, data: {} }) +
      'a.io/bc'.length +
      '"a.io/b":"c"'.length,
    'another annotation counts on its own and inside the copy',
  );
});

test('lastAppliedBytes at the boundary a real apiserver (v1.33) drew for kubectl apply', (t) => {
  // Measured: this ConfigMap with 21 830 `<>` pairs was created, with 21 831 refused.
  const map = (pairs: number): Record<string, unknown> => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'dense-fits', namespace: 'default' },
    data: { 'page.html': '<>'.repeat(pairs) },
  });
  t.true(lastAppliedBytes(map(21_830)) <= MAX_ANNOTATION_BYTES);
  t.true(lastAppliedBytes(map(21_831)) > MAX_ANNOTATION_BYTES);
});
