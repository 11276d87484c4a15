/** What main.ts hands to every kind's controller factory. */
import type { Logger } from 'pino';
import type { RateLimitOptions } from '../../cdn/options.js';

/** One CDN API call as reported to metrics (never carries credentials). */
export interface CdnRequestEvent {
  operation: string;
  method: string;
  status: number | undefined;
  kind?: string;
  durationMs: number;
  attempt: number;
}

/** Dependencies shared by the three controllers. */
export interface ControllerDeps {
  /** Base URL of the management API (https://api.bunny.net or a cdn-sim URL). */
  apiBaseUrl: string;
  /** CdnAccount used by objects with neither `spec.accountRef` nor `spec.credentialsRef`. */
  defaultAccount?: string;
  /** Namespace of the CdnAccount credentials Secrets (the operator's own namespace). */
  operatorNamespace?: string;
  log: Logger;
  /** Metrics hook for every CDN API call. */
  onCdnRequest?: (e: CdnRequestEvent) => void;
  /** Operator-wide default drift poll interval (`--poll-interval`); kinds use it for their own caches. */
  pollIntervalMs?: number;
  /** `--disable-url-sources`: refuse specs that make the operator fetch a URL. */
  disableUrlSources?: boolean;
  /** Per-account client-side rate limit (start, floor, ceiling, burst, concurrency). */
  cdnRateLimit?: Partial<RateLimitOptions>;
}
