/**
 * `cdnctl migrate` of manifest text and files: each case gives the input, what must come out
 * (byte for byte where the text is kept) and why.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateManifestText, SkippedTemplate } from '../../../src/cli/migrate/rewrite-manifest.js';
import { migrateFiles } from '../../../src/cli/migrate/migrate-files.js';
import { run } from '../../../src/cli/run.js';

const OLD = 'cdn.operator.io/v1alpha1';

const CASES: Array<{ name: string; input: string; output: string; changes: number }> = [
  {
    name: 'comments, key order, quoting and spacing before comments are kept; only the value changes',
    input: `# head comment\napiVersion: "${OLD}"   # the group\nkind: PullZoneConfig\nmetadata:\n  name: z  # zone\nspec:\n  settings: {originUrl: https://o.example}   # flow\n`,
    output: `# head comment\napiVersion: "pullzones.cdn.operator.io/v1beta1"   # the group\nkind: PullZoneConfig\nmetadata:\n  name: z  # zone\nspec:\n  settings: {originUrl: https://o.example}   # flow\n`,
    changes: 1,
  },
  {
    name: 'several documents: each of ours moves to its family, the separators and the others stay',
    input: `apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n---\napiVersion: ${OLD}\nkind: ShieldWafRule\nmetadata: {name: w}\n--- # second\napiVersion: '${OLD}'\nkind: CdnAccount\nmetadata: {name: a}\n...\n`,
    output: `apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n---\napiVersion: shield.cdn.operator.io/v1beta1\nkind: ShieldWafRule\nmetadata: {name: w}\n--- # second\napiVersion: 'accounts.cdn.operator.io/v1beta1'\nkind: CdnAccount\nmetadata: {name: a}\n...\n`,
    changes: 2,
  },
  {
    name: 'an unknown kind in the legacy group and our kind in another group are left alone',
    input: `apiVersion: ${OLD}\nkind: Gadget\n---\napiVersion: example.com/v1alpha1\nkind: DnsZone\n`,
    output: `apiVersion: ${OLD}\nkind: Gadget\n---\napiVersion: example.com/v1alpha1\nkind: DnsZone\n`,
    changes: 0,
  },
  {
    name: 'kustomize targets and Argo CD ignoreDifferences naming our kind in the legacy group move too',
    input: `patches:\n  - target:\n      group: cdn.operator.io\n      version: v1alpha1\n      kind: DnsRecord\n    path: p.yaml\nignoreDifferences:\n  - group: cdn.operator.io\n    kind: ContainerApp\n  - group: cdn.operator.io\n    kind: Other\n`,
    output: `patches:\n  - target:\n      group: dns.cdn.operator.io\n      version: v1beta1\n      kind: DnsRecord\n    path: p.yaml\nignoreDifferences:\n  - group: containers.cdn.operator.io\n    kind: ContainerApp\n  - group: cdn.operator.io\n    kind: Other\n`,
    changes: 2,
  },
  {
    name: 'a List of our objects: its items move',
    input: `apiVersion: v1\nkind: List\nitems:\n  - apiVersion: ${OLD}\n    kind: StorageZone\n    metadata: {name: s}\n`,
    output: `apiVersion: v1\nkind: List\nitems:\n  - apiVersion: storage.cdn.operator.io/v1beta1\n    kind: StorageZone\n    metadata: {name: s}\n`,
    changes: 1,
  },
  {
    name: 'CRLF line endings and no final newline are kept',
    input: `apiVersion: ${OLD}\r\nkind: DnsZone # z\r\nmetadata: {name: z}`,
    output: `apiVersion: dns.cdn.operator.io/v1beta1\r\nkind: DnsZone # z\r\nmetadata: {name: z}`,
    changes: 1,
  },
];

for (const c of CASES) {
  test(`migrate text: ${c.name}`, (t) => {
    const first = migrateManifestText(c.input);
    t.is(first.text, c.output);
    t.is(first.changes.length, c.changes, first.changes.join('\n'));
    const second = migrateManifestText(first.text);
    t.deepEqual(second.changes, [], 'a second run changes nothing');
    t.is(second.text, first.text);
  });
}

test('migrate text: the field moves of the kind apply (comments travel with the moved value)', (t) => {
  const moves = { DnsZone: [{ from: 'spec.dnssec', to: 'spec.security.dnssec' }] };
  const input = `apiVersion: ${OLD}\nkind: DnsZone\nmetadata: {name: z}\nspec:\n  domain: z.example\n  dnssec: true # signed\n---\napiVersion: v1\nkind: ConfigMap\ndata: {dnssec: "x"}\n`;
  const r = migrateManifestText(input, moves);
  t.deepEqual(r.changes, [
    'DnsZone z: -> dns.cdn.operator.io/v1beta1',
    'DnsZone z: spec.dnssec -> spec.security.dnssec',
  ]);
  t.regex(r.text, /security:\n {4}dnssec: true # signed\n/);
  t.notRegex(r.text, /^ {2}dnssec/m, 'moved, not copied');
  t.regex(r.text, /data: \{ dnssec: "x" \}|data: \{dnssec: "x"\}/, 'the ConfigMap is not ours');
  t.deepEqual(migrateManifestText(r.text, moves).changes, [], 'a second run moves nothing');
});

test('migrate text: DnsZone spec.dnssec becomes spec.dnssec.enabled, its comment kept, once', (t) => {
  const input = `apiVersion: ${OLD}\nkind: DnsZone\nmetadata: {name: z}\nspec:\n  domain: z.example\n  dnssec: true # signed\n`;
  const r = migrateManifestText(input);
  t.true(r.changes.includes('DnsZone z: spec.dnssec -> spec.dnssec.enabled'), r.changes.join('\n'));
  t.regex(r.text, /\n {2}dnssec: \{ enabled: true \} # signed\n/, 'nested where it stands');
  t.is(
    r.text.split('\n').length,
    input.split('\n').length,
    'no line added: the file is not printed again',
  );
  t.deepEqual(migrateManifestText(r.text).changes, [], 'a second run moves nothing');
});

test('migrate text: a rename and a respelled value are edits where they stand: the rest stays byte for byte', (t) => {
  const moves = {
    DnsRecord: [
      { from: 'spec.zoneRef', to: 'spec.dnsZoneRef' },
      { from: 'spec.monitorType', to: 'spec.monitorType', values: { Http: 'HTTP' } },
    ],
  };
  const long = 'x'.repeat(120);
  const input = `apiVersion: ${OLD}\nkind: DnsRecord\nmetadata: {name: r}\nspec:\n  zoneRef: {name: z}   # the zone\n  type: TXT\n  monitorType: 'Http'\n  value: ${long}\n`;
  const r = migrateManifestText(input, moves);
  t.is(
    r.text,
    `apiVersion: dns.cdn.operator.io/v1beta1\nkind: DnsRecord\nmetadata: {name: r}\nspec:\n  dnsZoneRef: {name: z}   # the zone\n  type: TXT\n  monitorType: 'HTTP'\n  value: ${long}\n`,
  );
});

const REFUSED: Array<{ name: string; input: string; error: RegExp; template?: true }> = [
  {
    name: 'invalid YAML is refused with the parser reason',
    input: 'a: [1, 2\nb: c: d\n',
    error: /not valid YAML/,
  },
  {
    name: 'a Helm template that is not YAML is skipped, not corrupted',
    input: `apiVersion: ${OLD}\nkind: DnsZone\nmetadata:\n  name: {{ .Values.name }}\n{{- if .Values.x }}\nspec: {}\n{{- end }}\n`,
    error: /template/,
    template: true,
  },
];

for (const c of REFUSED) {
  test(`migrate text: ${c.name}`, (t) => {
    const err = t.throws(() => migrateManifestText(c.input));
    t.regex(err.message, c.error);
    t.is(err instanceof SkippedTemplate, c.template === true);
  });
}

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cdnctl-migrate-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const ZONE = `apiVersion: ${OLD}\nkind: DnsZone\nmetadata: {name: z}\n`;

test('migrate files: folders recursively, *.yaml and *.yml only, dot folders skipped', (t) => {
  const dir = tree({ 'a.yaml': ZONE, 'sub/b.yml': ZONE, 'sub/c.json': ZONE, '.git/d.yaml': ZONE });
  const report = migrateFiles([dir], false);
  t.is(report.exitCode, 0);
  t.deepEqual(
    report.outcomes.filter((o) => o.changes.length > 0).map((o) => o.file.slice(dir.length)),
    ['/a.yaml', '/sub/b.yml'],
  );
  t.regex(readFileSync(join(dir, 'sub/b.yml'), 'utf8'), /dns\.cdn\.operator\.io\/v1beta1/);
  t.is(readFileSync(join(dir, 'sub/c.json'), 'utf8'), ZONE, 'not a YAML file name');
  t.is(readFileSync(join(dir, '.git/d.yaml'), 'utf8'), ZONE, 'dot folders are not manifests');
});

test('migrate files: one unparsable file means nothing is written, and the file is named', (t) => {
  const dir = tree({ 'a.yaml': ZONE, 'b.yaml': 'a: [1\n' });
  const report = migrateFiles([dir], false);
  t.is(report.exitCode, 1);
  t.regex(report.outcomes[1]?.error ?? '', /^cannot migrate .*b\.yaml: not valid YAML/);
  t.is(readFileSync(join(dir, 'a.yaml'), 'utf8'), ZONE, 'the good file is not written either');
});

test('migrate files: --dry-run writes nothing; a skipped template is a warning (exit 0)', (t) => {
  const dir = tree({ 'a.yaml': ZONE, 'tpl.yaml': `{{- if .x }}\n${ZONE}{{- end }}\n` });
  const report = migrateFiles([dir], true);
  t.is(report.exitCode, 0);
  t.is(readFileSync(join(dir, 'a.yaml'), 'utf8'), ZONE);
  t.truthy(report.outcomes[1]?.skipped);
});

test('cdnctl migrate: runs with no API key; exit 1 and "cannot migrate FILE" on bad YAML', async (t) => {
  const dir = tree({ 'a.yaml': ZONE, 'bad.yaml': 'a: [1\n' });
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (s: string) => (stdout += s),
    stderr: (s: string) => (stderr += s),
    env: {},
  };
  t.is(await run(['migrate', join(dir, 'a.yaml')], io), 0, stderr);
  t.regex(
    stdout,
    /a\.yaml: 1 change\(s\)\n {2}DnsZone z: -> dns\.cdn\.operator\.io\/v1beta1\n1 of 1 file\(s\) migrated/,
  );
  t.is(await run(['migrate', dir], io), 1);
  t.regex(stderr, /error: cannot migrate .*bad\.yaml: not valid YAML/);
  t.is(await run(['migrate'], io), 2, 'no PATH is a usage error');
});
