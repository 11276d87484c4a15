/**
 * The DNS-01 solver as a companion of the operator (`--dns01-solver`, runtime/companion.ts): it
 * has no workers, so it serves on every replica, leader or not — it keeps no state, and its
 * writes are idempotent (acme-challenge-records.ts), so any replica may answer any call; it has
 * no `hasSynced`, so it does not gate readiness.
 *
 * It listens once the DnsZone informer and the request-header ConfigMap (followed by a watch of
 * that one object) are read, then logs `DNS-01 solver listening` with its host and port; the
 * serving certificate is read at start (a missing one fails the start: exit 1), a port it
 * cannot listen on ends the operator (CompanionContext.fail). The
 * zones come from the DnsZone informer's cache (the namespaces the operator watches); the
 * record is written with the zone object's own account, as the DnsZone controller connects; a
 * caller is authorized with a SubjectAccessReview through the operator's client. The serving
 * certificate is read again every minute and used for new connections when it changed.
 */
import type { Logger } from 'pino';
import { API_DOMAIN } from '../api-group.js';
import { connectAccount } from '../controllers/kit/connector.js';
import type { ControllerDeps } from '../controllers/shared/deps.js';
import { keepMetadataAndData, type KubeObject } from '../runtime/cache.js';
import { Informer } from '../runtime/informer.js';
import { CONFIG_MAPS } from '../runtime/resource.js';
import type { Companion, CompanionContext, KindCache } from '../runtime/companion.js';
import { subjectAccessReviewer } from './authorize.js';
import type { ChallengeRequest } from './challenge.js';
import { SolverMetrics } from './metrics.js';
import {
  parseRequestHeaderConfig,
  REQUEST_HEADER_CONFIG_MAP,
  RequestHeaderConfigError,
} from './request-header-config.js';
import { solveChallenge, type SolveOutcome, type SolverDeps } from './solve.js';
import { readTlsPair, tlsPairChanged, type TlsPair } from './tls-files.js';
import {
  startSolverWebhook,
  type RequestHeaderAuth,
  type SolverWebhook,
} from './webhook-server.js';

/** The version of the solver's API group. */
export const SOLVER_VERSION = 'v1alpha1';
/** The solver's resource: what an Issuer names as `solverName`. */
export const SOLVER_NAME = 'cdn-operator';

/** The DnsZone kind, whose objects say which namespace may write in which zone. */
const DNS_ZONE = { group: `dns.${API_DOMAIN}`, kind: 'DnsZone' } as const;

/** The ConfigMap as logs name it (a `name` field would replace the logger's name). */
const CONFIG_MAP_KEY = `${REQUEST_HEADER_CONFIG_MAP.namespace}/${REQUEST_HEADER_CONFIG_MAP.name}`;

/** How often the serving certificate is read again. */
export const TLS_RELOAD_MS = 60_000;

/** Options of {@link createSolverCompanion}. */
export interface SolverCompanionOptions {
  host: string;
  port: number;
  tlsDir: string;
  group: string;
  /** What the kinds connect with (credentials, the client pool). */
  deps: ControllerDeps;
  /** Reload period of the serving certificate (tests). */
  tlsReloadMs?: number;
}

/** The request-header configuration in the cached ConfigMap; a bad one is logged and refused. */
function readAuth(informer: Informer, log: Logger): RequestHeaderAuth | undefined {
  const cm = informer.store.get(CONFIG_MAP_KEY);
  try {
    return parseRequestHeaderConfig(cm?.data as Record<string, string> | undefined);
  } catch (err) {
    if (!(err instanceof RequestHeaderConfigError)) throw err;
    log.error({ err: err.message }, 'Cannot read the request-header configuration');
    return undefined;
  }
}

/** See the module comment. */
class SolverCompanion implements Companion {
  readonly name = 'dns01-solver';
  private webhook?: SolverWebhook;
  private informer?: Informer;
  private reload?: NodeJS.Timeout;
  private tls?: TlsPair;
  private stopped = false;

  constructor(private readonly o: SolverCompanionOptions) {}

  async start(ctx: CompanionContext): Promise<void> {
    const { log } = ctx;
    const zones = ctx.cacheOf(DNS_ZONE.group, DNS_ZONE.kind);
    if (!zones)
      throw new Error('cannot start the DNS-01 solver: the operator does not manage DnsZones');
    this.tls = await readTlsPair(this.o.tlsDir);
    const metrics = new SolverMetrics(ctx.metrics.registry);
    this.informer = this.watchRequestHeaderConfig(ctx, log);
    // In the background: the caches may take long (or the DnsZone CRD be missing), and the
    // operator must still stop on SIGTERM meanwhile.
    this.serve(ctx, zones, metrics, log).catch((err: unknown) => {
      if (this.stopped) return;
      const why = err instanceof Error ? err.message : String(err);
      ctx.fail(new Error(`cannot start the DNS-01 solver: ${why}`, { cause: err }));
    });
  }

  /** Listens once the DnsZone cache and the request-header ConfigMap are read. */
  private async serve(
    ctx: CompanionContext,
    zones: KindCache,
    metrics: SolverMetrics,
    log: Logger,
  ): Promise<void> {
    const informer = this.informer!;
    await Promise.all([zones.waitForSync(), informer.waitForSync()]);
    if (this.stopped || !this.tls) return;
    const auth = readAuth(informer, log);
    if (!auth)
      log.warn(
        { configMap: CONFIG_MAP_KEY },
        'No request-header configuration: refusing every call',
      );
    const solverDeps = this.solverDeps(ctx, zones, log);
    const webhook = await startSolverWebhook({
      host: this.o.host,
      port: this.o.port,
      tlsCert: this.tls.cert,
      tlsKey: this.tls.key,
      auth,
      group: this.o.group,
      version: SOLVER_VERSION,
      solverName: SOLVER_NAME,
      authorize: subjectAccessReviewer(ctx.client, { group: this.o.group, resource: SOLVER_NAME }),
      solve: async (req: ChallengeRequest): Promise<SolveOutcome> => {
        const outcome = await solveChallenge(req, solverDeps);
        metrics.recordChallenge(req.action, outcome.result);
        return outcome;
      },
      log,
    });
    if (this.stopped) return webhook.close();
    this.webhook = webhook;
    this.reload = setInterval(() => void this.reloadTls(log), this.o.tlsReloadMs ?? TLS_RELOAD_MS);
    this.reload.unref();
    log.info({ host: this.o.host, port: webhook.port }, 'DNS-01 solver listening');
  }

  /** The one ConfigMap, listed and watched by name (what its RBAC role grants). */
  private watchRequestHeaderConfig(ctx: CompanionContext, log: Logger): Informer {
    const { namespace, name } = REQUEST_HEADER_CONFIG_MAP;
    const changed = (): void => {
      if (!this.webhook) return;
      const auth = readAuth(informer, log);
      this.webhook.update({ auth: auth ?? null });
      log.info(
        { configMap: CONFIG_MAP_KEY, frontProxy: auth !== undefined },
        'Request-header configuration changed',
      );
    };
    const informer = new Informer({
      client: ctx.client,
      type: CONFIG_MAPS,
      namespace,
      fieldSelector: `metadata.name=${name}`,
      transform: (o: KubeObject) => keepMetadataAndData(o),
      handlers: { onAdd: changed, onUpdate: changed, onDelete: changed },
      hooks: ctx.metrics.informerHooks(`${CONFIG_MAPS.plural}/${name}`),
      log,
      stallTimeoutMs: ctx.stallTimeoutMs,
    });
    informer.start();
    return informer;
  }

  private solverDeps(ctx: CompanionContext, zones: KindCache, log: Logger): SolverDeps {
    const connectContext = ctx.connectContext(log);
    return {
      dnsZones: () => zones.list(),
      connect: (zone) => connectAccount(this.o.deps, zone, connectContext),
      signal: ctx.signal,
    };
  }

  /** Serves a renewed certificate to new connections; a failed read keeps the current one. */
  private async reloadTls(log: Logger): Promise<void> {
    try {
      const next = await readTlsPair(this.o.tlsDir);
      if (!this.tls || !tlsPairChanged(this.tls, next)) return;
      this.tls = next;
      this.webhook?.update({ tlsCert: next.cert, tlsKey: next.key });
      log.info({ tlsDir: this.o.tlsDir }, 'Serving certificate reloaded');
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'Cannot reload the serving certificate');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.reload);
    await this.webhook?.close();
    await this.informer?.stop();
  }
}

/** The solver as a companion of the manager (see the module comment). */
export function createSolverCompanion(o: SolverCompanionOptions): Companion {
  return new SolverCompanion(o);
}
