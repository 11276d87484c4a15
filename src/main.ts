#!/usr/bin/env node
/**
 * Entry point of `cdn-operator`: parses flags/env, builds the logger and metrics, registers
 * every kind from the controller registry and runs the manager until SIGTERM.
 * Exit codes: 0 clean shutdown, 1 runtime failure (or lost leadership), 2 bad configuration.
 */
import { accountRates } from './cdn/rate-limit.js';
import { ConfigError, parseConfig } from './config.js';
import { createClusterKinds, createManagedKinds } from './controllers/registry.js';
import { createLogger } from './log.js';
import { OperatorMetrics } from './runtime/metrics.js';
import { runOperator } from './runtime/manager.js';
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
  const kinds = await createManagedKinds({
    apiBaseUrl: config.apiUrl,
    ...(config.defaultAccount ? { defaultAccount: config.defaultAccount } : {}),
    operatorNamespace: config.operatorNamespace,
    pollIntervalMs: config.pollIntervalMs,
    ...(config.disableUrlSources ? { disableUrlSources: true } : {}),
    log,
    onCdnRequest: (e) => metrics.recordCdnRequest(e),
    ...(config.apiRateLimitMax > 0
      ? { cdnRateLimit: { maxRequestsPerSecond: config.apiRateLimitMax } }
      : {}),
  });
  metrics.setAccountRateSource(accountRates);
  log.info(
    { version: VERSION, apiUrl: config.apiUrl, kinds: kinds.map((k) => k.name) },
    'Starting cdn-operator',
  );
  // CdnAccounts (their Ready condition) and Namespaces (labels), watched by the runtime.
  const clusterKinds = await createClusterKinds({ operatorNamespace: config.operatorNamespace });
  return runOperator(config, kinds, { log, metrics, clusterKinds });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`cdn-operator: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
