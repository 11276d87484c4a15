/**
 * In-process runtime harness for the runtime e2e tests: a Manager running only the Widget
 * kind against a real apiserver, with logs captured in memory and metrics readable directly.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { defaultConfig, type OperatorConfig } from '../../../src/config.js';
import { Manager } from '../../../src/runtime/manager.js';
import type { ReconcilerTimings } from '../../../src/runtime/reconciler.js';
import { applyCrd } from '../support/kube.js';
import { createWidgetKind } from './fixtures/widget-kind.js';
import type { WidgetApi } from './fixtures/widget-api.js';

/** `kubectl` resource name of the Widget kind. */
export const WIDGETS = 'widgets.test.cdn.operator.io';

/** Applies the Widget CRD to the cluster of `kubeconfig`. */
export async function applyWidgetCrd(kubeconfig?: string): Promise<void> {
  const yaml = await readFile(
    fileURLToPath(new URL('./fixtures/widget-crd.yaml', import.meta.url)),
    'utf8',
  );
  await applyCrd(yaml, WIDGETS, kubeconfig ? { kubeconfig } : undefined);
}

/** A Widget manifest. */
export function widgetYaml(
  ns: string,
  name: string,
  spec: Record<string, unknown>,
  annotations: Record<string, string> = {},
): string {
  return JSON.stringify({
    apiVersion: 'test.cdn.operator.io/v1alpha1',
    kind: 'Widget',
    metadata: { name, namespace: ns, annotations },
    spec,
  });
}

/** A running in-process manager. */
export interface Harness {
  manager: Manager;
  log: Logger;
  lines: Array<Record<string, unknown>>;
  /** Current value of a counter/gauge (summed over label sets matching `labels`). */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  stop(): Promise<void>;
}

/** Starts a manager for the Widget kind watching `namespace`. */
export async function startHarness(opts: {
  kubeconfig: string;
  namespace: string;
  api: WidgetApi;
  config?: Partial<OperatorConfig>;
  timings?: Partial<ReconcilerTimings>;
}): Promise<Harness> {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  const log = pino({ level: 'debug', base: undefined }, sink);
  const config = defaultConfig({
    kubeconfig: opts.kubeconfig,
    namespaces: [opts.namespace],
    metricsBindAddress: '0',
    healthProbeBindAddress: '0',
    workers: 2,
    ...opts.config,
  });
  const manager = new Manager({
    config,
    kinds: [createWidgetKind(opts.api.url)],
    log,
    timings: { afterCreateMs: 300, ...opts.timings },
  });
  await manager.start();
  for (const c of manager.controllers.values()) await c.waitForSync();
  return {
    manager,
    log,
    lines,
    metric: async (name, labels = {}) => {
      const m = await manager.metrics.registry.getSingleMetric(name)?.get();
      return (m?.values ?? [])
        .filter((v) =>
          Object.entries(labels).every(
            ([k, val]) => String((v.labels as Record<string, unknown>)[k]) === val,
          ),
        )
        .reduce((n, v) => n + v.value, 0);
    },
    stop: async () => {
      await manager.stop();
    },
  };
}
