/**
 * The chart's opt-in monitoring: the Grafana dashboard ConfigMap (for the Grafana sidecar)
 * and the PrometheusRule. Rules and every dashboard query are parsed by Prometheus' own
 * packages (hack/rulecheck), and every metric and label they use must exist in the operator's
 * metrics registry, so a renamed metric breaks this test instead of a dashboard.
 */
import test from 'ava';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { OperatorMetrics } from '../../../src/runtime/metrics.js';
import { checkExpressions, checkRuleFiles, type RuleReport } from './rulecheck.js';
import { CHART, objectsOf, onlyOf, renderChart, type KubeObject } from './tools.js';

const ENABLED = ['metrics.grafanaDashboard.enabled=true', 'metrics.prometheusRule.enabled=true'];

interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}

/** Grafana's variables replaced by values Prometheus accepts. */
function asPromQL(expr: string): string {
  return expr
    .replace(/\$__rate_interval|\$__interval/g, '5m')
    .replace(/\$__range/g, '1h')
    .replace(/\$namespace/g, '.*');
}

/** Labels Prometheus adds to every scraped series, or histograms have per bucket. */
const SCRAPE_LABELS = new Set(['namespace', 'job', 'instance', 'pod', 'service', 'container']);

/** Every metric family in the registry with its label names. */
function registryFamilies(): Map<string, { type: string; labels: string[] }> {
  const m = new OperatorMetrics({ defaultMetrics: false });
  const out = new Map<string, { type: string; labels: string[] }>();
  for (const metric of m.registry.getMetricsAsArray()) {
    const { name, type, labelNames } = metric as unknown as {
      name: string;
      type: string;
      labelNames: string[];
    };
    out.set(name, { type: String(type), labels: [...labelNames] });
  }
  return out;
}

/** Checks that each queried metric (and its labels) exists; returns the problems. */
function missingIn(report: RuleReport): string[] {
  const families = registryFamilies();
  const problems: string[] = [];
  for (const name of report.metrics) {
    const base = name.replace(/_(bucket|sum|count)$/, '');
    const family = families.get(name) ?? (base !== name ? families.get(base) : undefined);
    if (!family || (family !== families.get(name) && family.type !== 'histogram')) {
      problems.push(`${name}: no such metric`);
      continue;
    }
    const known = new Set([...family.labels, ...(name.endsWith('_bucket') ? ['le'] : [])]);
    for (const label of report.labels[name] ?? [])
      if (!known.has(label) && !SCRAPE_LABELS.has(label))
        problems.push(`${name}: no label ${label}`);
  }
  return problems;
}

let tmp = '';
let objects: KubeObject[] = [];

test.before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'cdn-operator-monitoring-'));
  objects = await renderChart(ENABLED);
});

test.after.always(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

test('both are off by default', async (t) => {
  const defaults = await renderChart();
  t.is(objectsOf(defaults, 'PrometheusRule').length, 0);
  t.is(objectsOf(defaults, 'ConfigMap').length, 0);
});

test('the dashboard ConfigMap carries the sidecar label and the chart JSON', async (t) => {
  const cm = onlyOf(objects, 'ConfigMap') as KubeObject & { data: Record<string, string> };
  t.is(cm.metadata.labels?.grafana_dashboard, '1');
  const file = await readFile(join(CHART, 'dashboards/cdn-operator.json'), 'utf8');
  t.deepEqual(JSON.parse(cm.data['cdn-operator.json']!), JSON.parse(file));
});

test('the PrometheusRule passes Prometheus rule validation and names every alert', async (t) => {
  const rule = onlyOf(objects, 'PrometheusRule') as KubeObject & { spec: { groups: unknown[] } };
  const file = join(tmp, 'rules.yaml');
  await writeFile(file, stringify({ groups: rule.spec.groups }));
  const r = await checkRuleFiles([file]);
  t.is(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as RuleReport;
  t.is(report.rules, 6);
  t.deepEqual(missingIn(report), []);
  const alerts = JSON.stringify(rule.spec.groups);
  for (const alert of [
    'CdnOperatorObjectsNotReady',
    'CdnOperatorUnauthorized',
    'CdnOperatorApiErrors',
    'CdnOperatorWatchStalled',
    'CdnOperatorNoLeader',
  ])
    t.true(alerts.includes(`"alert":"${alert}"`), alert);
});

test('every dashboard query parses and uses only metrics and labels the operator exports', async (t) => {
  const dash = JSON.parse(
    await readFile(join(CHART, 'dashboards/cdn-operator.json'), 'utf8'),
  ) as Dashboard;
  const exprs = dash.panels.flatMap((p) => p.targets.map((x) => asPromQL(x.expr)));
  t.true(exprs.length >= 10);
  const r = await checkExpressions(exprs);
  t.is(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as RuleReport;
  t.deepEqual(missingIn(report), []);
  for (const needed of [
    'cdn_operator_reconcile_total',
    'cdn_operator_reconcile_errors_total',
    'cdn_operator_workqueue_depth',
    'cdn_operator_workqueue_queue_duration_seconds_bucket',
    'cdn_operator_cdn_api_requests_total',
    'cdn_operator_informer_watch_restarts_total',
    'cdn_operator_resources',
  ])
    t.true(report.metrics.includes(needed), needed);
});

test('the checks can fail: a bad rule, a bad query and an unknown metric are reported', async (t) => {
  const file = join(tmp, 'bad.yaml');
  await writeFile(
    file,
    stringify({ groups: [{ name: 'g', rules: [{ alert: 'A', expr: 'sum((' }] }] }),
  );
  t.is((await checkRuleFiles([file])).code, 1);
  t.is((await checkExpressions(['rate(x[5m]'])).code, 1);
  const r = await checkExpressions([
    'sum by (account) (cdn_operator_reconcile_totl)',
    'sum by (bogus) (cdn_operator_leader)',
  ]);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(missingIn(JSON.parse(r.stdout) as RuleReport), [
    'cdn_operator_leader: no label bogus',
    'cdn_operator_reconcile_totl: no such metric',
  ]);
});
