/**
 * The chart's install notes (templates/NOTES.txt, as `helm install --dry-run=client` prints
 * them) say what the templates install: for the README's own `helm install` line and for every
 * branch of the notes, each claim is checked against the objects `helm template` renders with
 * the same values (the default account's selector, Secret access from the RBAC, the watched
 * namespaces, the metrics Service and the helm test). An e2e file only because helm's install
 * wants a reachable cluster even for a client-side dry run; nothing is installed.
 */
import test, { type ExecutionContext } from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isEmptySelector } from '../../../src/controllers/shared/label-selector.js';
import { readmeHelmInstall } from '../../support/readme-quickstart.js';
import { applyAllCrds } from '../support/crds.js';
import {
  CHART,
  ROOT,
  objectsOf,
  onlyOf,
  renderChart,
  resolveHelm,
  run,
  type KubeObject,
} from '../../unit/packaging/tools.js';

const NS = 'cdn-operator';

// The dry run maps every object to a served resource: the CdnAccount needs its CRD.
test.before(async () => {
  await applyAllCrds();
});

/** The notes `helm install --dry-run=client` prints for these arguments. */
async function notesOf(args: string[]): Promise<string> {
  const helm = await resolveHelm();
  const r = await run(helm, ['install', '--dry-run=client', ...args], { cwd: ROOT });
  if (r.code !== 0) throw new Error(`cannot dry-run the install: ${r.stderr}`);
  const at = r.stdout.indexOf('\nNOTES:\n');
  if (at < 0) throw new Error(`no NOTES in the dry-run output:\n${r.stdout.slice(-2000)}`);
  return r.stdout.slice(at + '\nNOTES:\n'.length);
}

/** Notes and objects for `--set`/`--set-json` values, as the chart tests render them. */
async function render(
  sets: string[],
  json: string[] = [],
): Promise<{ notes: string; objects: KubeObject[] }> {
  const flags = [...sets.flatMap((v) => ['--set', v]), ...json.flatMap((v) => ['--set-json', v])];
  const [notes, objects] = await Promise.all([
    notesOf(['cdn-operator', CHART, '--namespace', NS, ...flags]),
    renderChart(sets, { extra: json.flatMap((v) => ['--set-json', v]) }),
  ]);
  return { notes, objects };
}

interface RoleLike extends KubeObject {
  rules: { resources: string[]; verbs: string[] }[];
}

const readsSecrets = (o: KubeObject): boolean =>
  (o as RoleLike).rules.some((r) => r.resources.includes('secrets') && r.verbs.includes('get'));

/** Where the rendered RBAC lets the operator read Secrets: "all namespaces" or the list. */
function secretNamespacesOf(objects: KubeObject[]): string {
  if (objectsOf(objects, 'ClusterRole').some(readsSecrets)) return 'all namespaces';
  const namespaces = objectsOf(objects, 'Role')
    .filter(readsSecrets)
    .map((r) => r.metadata.namespace ?? '');
  return [...new Set(namespaces)].sort().join(', ');
}

/** The notes' Secret line, with its namespaces sorted like {@link secretNamespacesOf}. */
function notesSecretNamespaces(notes: string): string {
  const line = /^Secrets\/ConfigMaps readable in: (.*?)(?: \(.*\))?$/m.exec(notes)?.[1];
  if (line === undefined) return '(no Secret line)';
  return line === 'all namespaces' ? line : line.split(', ').sort().join(', ');
}

interface Container {
  args: string[];
}

function deploymentArgs(objects: KubeObject[]): string[] {
  const d = onlyOf(objects, 'Deployment') as unknown as {
    spec: { replicas: number; template: { spec: { containers: Container[] } } };
  };
  return d.spec.template.spec.containers[0]!.args;
}

/** Every claim of the notes that a rendered object can confirm or refute. */
function checkAgainstTemplates(t: ExecutionContext, notes: string, objects: KubeObject[]): void {
  const account = objectsOf(objects, 'CdnAccount')[0] as
    (KubeObject & { spec: { namespaceSelector?: Record<string, unknown> } }) | undefined;
  if (!account) t.regex(notes, /^No default account/m, notes);
  else {
    t.true(notes.includes(`Default account: CdnAccount ${account.metadata.name} `), notes);
    const closed = isEmptySelector(account.spec.namespaceSelector);
    t.is(/CLOSED/.test(notes), closed, `CLOSED in the notes for ${JSON.stringify(account.spec)}`);
    t.is(/^ {2}Open to /m.test(notes), !closed, notes);
  }
  t.is(notesSecretNamespaces(notes), secretNamespacesOf(objects), notes);
  const args = deploymentArgs(objects);
  const watched = args.find((a) => a.startsWith('--namespace='))?.slice('--namespace='.length);
  t.regex(
    notes,
    new RegExp(`^Watching: ${watched ? watched.split(',').join(', ') : 'all namespaces'}$`, 'm'),
  );
  const lease = args.find((a) => a.startsWith('--leader-election-id='));
  t.is(notes.includes('leader election on Lease'), lease !== undefined, notes);
  if (lease) t.true(notes.includes(`Lease ${lease.slice('--leader-election-id='.length)}`));
  const service = objectsOf(objects, 'Service')[0];
  t.is(notes.includes('port-forward svc/'), service !== undefined, notes);
  if (service) t.true(notes.includes(`svc/${service.metadata.name} `), notes);
  t.is(notes.includes('helm test '), objectsOf(objects, 'Pod').length > 0, notes);
  const argocd = /or\n?\s*(argocd\/argocd-cm\.yaml) in the chart/.exec(notes)?.[1];
  t.truthy(argocd, notes);
  t.true(existsSync(join(CHART, argocd ?? 'missing')), 'the notes name a file of the chart');
}

test("the README's helm install: the notes call the default account open to its namespace", async (t) => {
  const argv = await readmeHelmInstall();
  // helm install <release> <chart> ...: run as written (from the repository root), dry-run.
  const notes = await notesOf(argv.slice(2));
  const namespaces = /defaultAccount\.namespaces=\{([^}]*)\}/.exec(argv.join(' '))?.[1];
  t.truthy(namespaces, 'the README opens the default account by name');
  t.notRegex(notes, /CLOSED/, notes);
  t.true(notes.includes(`Open to namespace(s) ${namespaces!.split(',').join(', ')} `), notes);
  const sets = argv.flatMap((w, i) => (argv[i - 1] === '--set' ? [w] : []));
  const { objects } = await render(sets);
  checkAgainstTemplates(t, notes, objects);
});

const cases: Array<{ what: string; sets: string[]; json?: string[]; says: RegExp[] }> = [
  { what: 'defaults: no default account', sets: [], says: [/^No default account/m] },
  {
    what: 'a Secret without a selector: closed, with both ways to open it',
    sets: ['defaultAccount.secretName=bunny'],
    says: [/It is CLOSED/, /defaultAccount\.namespaces=\{<namespace>\}/, /--set-json/],
  },
  {
    what: 'the namespaces shorthand: open to those names',
    sets: ['defaultAccount.secretName=bunny', 'defaultAccount.namespaces={team-a,team-b}'],
    says: [/Open to namespace\(s\) team-a, team-b/, /kubectl apply -n team-a -f examples\//],
  },
  {
    what: 'a label selector: open, with the label command',
    sets: ['defaultAccount.secretName=bunny'],
    json: [
      'defaultAccount.namespaceSelector={"matchLabels":{"cdn.operator.io/default-account":"true"}}',
    ],
    says: [/kubectl label namespace <namespace> cdn\.operator\.io\/default-account=true/],
  },
  {
    what: 'an expression selector: open, no label command',
    sets: ['defaultAccount.secretName=bunny'],
    json: [
      'defaultAccount.namespaceSelector={"matchExpressions":[{"key":"tier","operator":"Exists"}]}',
    ],
    says: [/Open to the namespaces its namespaceSelector selects/],
  },
  {
    what: 'a selector with empty terms selects nothing: closed',
    sets: ['defaultAccount.secretName=bunny'],
    json: ['defaultAccount.namespaceSelector={"matchLabels":{}}'],
    says: [/It is CLOSED/],
  },
  {
    what: 'namespaces and a selector: the shorthand wins, as in cdnaccount.yaml',
    sets: ['defaultAccount.secretName=bunny', 'defaultAccount.namespaces={team-a}'],
    json: ['defaultAccount.namespaceSelector={"matchLabels":{"x":"y"}}'],
    says: [/Open to namespace\(s\) team-a /],
  },
  {
    what: 'secretAccess.namespaces: the release namespace and those',
    sets: ['secretAccess.namespaces={team-a,team-b}'],
    says: [/readable in: cdn-operator, team-a, team-b/],
  },
  {
    what: 'watchNamespaces: a sharded release reading Secrets where it watches',
    sets: ['watchNamespaces={w1,w2}', 'secretAccess.namespaces={w2,s1}'],
    says: [/^Watching: w1, w2$/m, /Sharded release/],
  },
  {
    what: 'secretAccess.clusterWide: all namespaces',
    sets: ['secretAccess.clusterWide=true'],
    says: [/readable in: all namespaces/],
  },
  {
    what: 'clusterWide with watchNamespaces: only where the Roles grant it',
    sets: ['secretAccess.clusterWide=true', 'watchNamespaces={w1}'],
    says: [/readable in: cdn-operator, w1/],
  },
  {
    what: 'no metrics, one replica without leader election',
    sets: ['metrics.enabled=false', 'replicas=1', 'leaderElection.enabled=false'],
    says: [/\(1 replica\(s\)\)\./],
  },
];

for (const c of cases) {
  test(`notes match the templates: ${c.what}`, async (t) => {
    const { notes, objects } = await render(c.sets, c.json);
    for (const says of c.says) t.regex(notes, says);
    checkAgainstTemplates(t, notes, objects);
  });
}
