#!/usr/bin/env node
/**
 * Entry point of `cdn-operator`: parses flags/env, builds the logger and metrics, registers
 * every kind from the controller registry and runs the manager until SIGTERM.
 * Exit codes: 0 clean shutdown, 1 runtime failure (or lost leadership), 2 bad configuration.
 */
import { accountRates } from './cdn/rate-limit.js';
import { RoutesController } from './composition/routes-controller.js';
import { ConfigError, parseConfig } from './config.js';
import { createClusterKinds, createManagedKinds } from './controllers/registry.js';
import type { CdnRequestEvent } from './controllers/shared/deps.js';
import { createLogger } from './log.js';
import { OperatorMetrics } from './runtime/metrics.js';
import { runOperator } from './runtime/manager.js';
import type { Companion } from './runtime/companion.js';
import { createSolverCompanion } from './solver/solver-companion.js';
import { VERSION } from './version.js';

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseConfig(argv);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`cdn-operator: ${err.message}\n`);
    return 2;
  }
  if (parsed.command === 'help') {
    process.stdout.write(parsed.text);
    return 0;
  }
  if (parsed.command === 'version') {
    process.stdout.write(`cdn-operator ${VERSION}\n`);
    return 0;
  }
  const { config } = parsed;
  const log = createLogger({ level: config.logLevel, name: 'cdn-operator' });
  const metrics = new OperatorMetrics();
  const deps = {
    apiBaseUrl: config.apiUrl,
    ...(config.defaultAccount ? { defaultAccount: config.defaultAccount } : {}),
    operatorNamespace: config.operatorNamespace,
    pollIntervalMs: config.pollIntervalMs,
    ...(config.disableUrlSources ? { disableUrlSources: true } : {}),
    log,
    onCdnRequest: (e: CdnRequestEvent) => metrics.recordCdnRequest(e),
    ...(config.apiRateLimitMax > 0
      ? { cdnRateLimit: { maxRequestsPerSecond: config.apiRateLimitMax } }
      : {}),
  };
  const kinds = await createManagedKinds(deps);
  metrics.setAccountRateSource(accountRates);
  log.info(
    { version: VERSION, apiUrl: config.apiUrl, kinds: kinds.map((k) => k.name) },
    'Starting cdn-operator',
  );
  // CdnAccounts (their Ready condition) and Namespaces (labels), watched by the runtime.
  const clusterKinds = await createClusterKinds({ operatorNamespace: config.operatorNamespace });
  // CdnPolicies (docs/routes.md) are composed only when asked: the composition needs RBAC on
  // routes and on creating and deleting objects that the operator does not otherwise have.
  const companions: Companion[] = config.routes ? [new RoutesController()] : [];
  // The DNS-01 solver (docs/certificates.md) connects as the kinds do, with the same deps.
  if (config.dns01Solver) companions.push(createSolverCompanion({ ...config.dns01Solver, deps }));
  return runOperator(config, kinds, { log, metrics, clusterKinds, companions });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`cdn-operator: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
