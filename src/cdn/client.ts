/**
 * `CdnClient`: typed methods for every management API operation the operator and `cdnctl`
 * use. Each method is a thin description of one endpoint (method, path, body, how to read the
 * answer); transport, error model, retries and rate limiting live in http.ts. Request shapes
 * follow the official OpenAPI documents (field names, query parameter names, content types).
 */
import { HttpTransport } from './http.js';
import type { CallOptions, CdnClientOptions, PagedCallOptions } from './options.js';
import * as pullZones from './pull-zones.js';
import * as account from './account.js';
import * as apps from './apps.js';
import * as shield from './shield.js';
import * as edgeRules from './edge-rules.js';
import * as purge from './purge.js';
import * as storageZones from './storage-zones.js';
import type {
  ApiKeyList,
  App,
  AppIdResponse,
  AppListItem,
  AppPatch,
  AppRequest,
  CertificateUpload,
  ContainerTemplateRead,
  EdgeRule,
  PagedShieldZones,
  PrivateKeyUpdate,
  PullZone,
  PullZoneAddRequest,
  PullZoneSettings,
  PurgeUrlOptions,
  ShieldZone,
  ShieldZoneCreate,
  ShieldZoneListItem,
  ShieldZoneUpdate,
  StorageZone,
  StorageZoneAddRequest,
  StorageZoneAvailability,
  StorageZoneSettings,
  VolumeListItem,
  WafRuleMetrics,
} from './types.js';

export type {
  CallOptions,
  CdnClientOptions,
  CdnClientHooks,
  PagedCallOptions,
  RequestEvent,
} from './options.js';
export type { CredentialProvider } from './credentials.js';

/**
 * Client of the management API for one account. Safe to share between callers; clients
 * built with the same API key share one token bucket and concurrency cap. Every method throws
 * `CdnApiError` on failure; reads are retried within a small budget, writes never are.
 */
export class CdnClient {
  readonly #http: HttpTransport;

  constructor(options: CdnClientOptions) {
    this.#http = new HttpTransport(options);
  }

  /** The API root this client talks to. */
  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** Releases keep-alive sockets; the client must not be used afterwards. */
  close(): void {
    this.#http.close();
  }

  // ---- pull zones ----

  /**
   * Lists pull zones, optionally filtered by `search`. Without `page` every page is followed
   * and all items returned; with `page` only that page's items.
   */
  listPullZones(
    query?: { search?: string; page?: number; perPage?: number },
    opts?: CallOptions,
  ): Promise<PullZone[]> {
    return pullZones.listPullZones(this.#http, query ?? {}, opts);
  }

  /** Reads one pull zone (`notFound` when it does not exist). */
  getPullZone(id: number, opts?: CallOptions): Promise<PullZone> {
    return pullZones.getPullZone(this.#http, id, opts);
  }

  /**
   * Creates a pull zone. Retried only after a 429 (refused unprocessed): a lost response may still
   * have created it.
   */
  addPullZone(body: PullZoneAddRequest, opts?: CallOptions): Promise<PullZone> {
    return pullZones.addPullZone(this.#http, body, opts);
  }

  /** Updates pull zone settings (only the properties present are changed). */
  updatePullZone(id: number, settings: PullZoneSettings, opts?: CallOptions): Promise<PullZone> {
    return pullZones.updatePullZone(this.#http, id, settings, opts);
  }

  /** Deletes a pull zone. */
  deletePullZone(id: number, opts?: CallOptions): Promise<void> {
    return pullZones.deletePullZone(this.#http, id, opts);
  }

  /** Adds a custom hostname to a pull zone. */
  addHostname(id: number, hostname: string, opts?: CallOptions): Promise<void> {
    return pullZones.hostnameCall(this.#http, 'addHostname', id, hostname, opts);
  }

  /** Removes a custom hostname from a pull zone. */
  removeHostname(id: number, hostname: string, opts?: CallOptions): Promise<void> {
    return pullZones.hostnameCall(this.#http, 'removeHostname', id, hostname, opts);
  }

  /** Turns HTTP-to-HTTPS redirection on or off for one hostname. */
  setForceSSL(id: number, hostname: string, forceSSL: boolean, opts?: CallOptions): Promise<void> {
    return pullZones.setForceSSL(this.#http, id, hostname, forceSSL, opts);
  }

  /** Asks the platform to issue a free certificate for a hostname already on a pull zone. */
  loadFreeCertificate(hostname: string, opts?: CallOptions): Promise<void> {
    return pullZones.loadFreeCertificate(this.#http, hostname, opts);
  }

  /** Uploads a custom certificate and key (base64-encoded PEM) for a hostname. */
  addCertificate(id: number, cert: CertificateUpload, opts?: CallOptions): Promise<void> {
    return pullZones.addCertificate(this.#http, id, cert, opts);
  }

  /** Removes the certificate of a hostname. */
  removeCertificate(id: number, hostname: string, opts?: CallOptions): Promise<void> {
    return pullZones.hostnameCall(this.#http, 'removeCertificate', id, hostname, opts);
  }

  /** Changes the private key type (0 = ECDSA, 1 = RSA) of a hostname's certificate. */
  updatePrivateKeyType(id: number, body: PrivateKeyUpdate, opts?: CallOptions): Promise<void> {
    return pullZones.updatePrivateKeyType(this.#http, id, body, opts);
  }

  addAllowedReferrer(id: number, hostname: string, opts?: CallOptions): Promise<void> {
    return pullZones.hostnameCall(this.#http, 'addAllowedReferrer', id, hostname, opts);
  }

  removeAllowedReferrer(id: number, hostname: string, opts?: CallOptions): Promise<void> {
    return pullZones.hostnameCall(this.#http, 'removeAllowedReferrer', id, hostname, opts);
  }

  addBlockedReferrer(id: number, hostname: string, opts?: CallOptions): Promise<void> {
    return pullZones.hostnameCall(this.#http, 'addBlockedReferrer', id, hostname, opts);
  }

  removeBlockedReferrer(id: number, hostname: string, opts?: CallOptions): Promise<void> {
    return pullZones.hostnameCall(this.#http, 'removeBlockedReferrer', id, hostname, opts);
  }

  addBlockedIp(id: number, ip: string, opts?: CallOptions): Promise<void> {
    return pullZones.blockedIpCall(this.#http, 'addBlockedIp', id, ip, opts);
  }

  removeBlockedIp(id: number, ip: string, opts?: CallOptions): Promise<void> {
    return pullZones.blockedIpCall(this.#http, 'removeBlockedIp', id, ip, opts);
  }

  // ---- video libraries, storage zones, API keys ----

  /** Adds a blocked referrer hostname to a video library. */
  addVideoLibraryBlockedReferrer(id: number, hostname: string, opts?: CallOptions): Promise<void> {
    return account.addVideoLibraryBlockedReferrer(this.#http, id, hostname, opts);
  }

  /** Checks whether a storage zone name is still free. */
  checkStorageZoneAvailability(name: string, opts?: CallOptions): Promise<StorageZoneAvailability> {
    return account.checkStorageZoneAvailability(this.#http, name, opts);
  }

  /**
   * Lists one page of API keys (`page` 1..2147483647, `perPage` 5..1000, checked before any
   * request). The returned `Key` values are secrets; the client scrubs them from its errors.
   */
  listApiKeys(
    query?: { page?: number; perPage?: number },
    opts?: CallOptions,
  ): Promise<ApiKeyList> {
    return account.listApiKeys(this.#http, query ?? {}, opts);
  }

  // ---- container applications (/mc) ----

  /** Lists all applications (summaries), following the cursor across pages. */
  listApps(opts?: PagedCallOptions): Promise<AppListItem[]> {
    return apps.listApps(this.#http, opts);
  }

  getApp(appId: string, opts?: CallOptions): Promise<App> {
    return apps.getApp(this.#http, appId, opts);
  }

  /**
   * Creates an application. Retried only after a 429 (refused unprocessed): a lost response may
   * still have created it.
   */
  createApp(body: AppRequest, opts?: CallOptions): Promise<AppIdResponse> {
    return apps.writeApp(this.#http, 'createApp', 'POST', undefined, body, opts);
  }

  /** Replaces every configuration field of an application. */
  replaceApp(appId: string, body: AppRequest, opts?: CallOptions): Promise<AppIdResponse> {
    return apps.writeApp(this.#http, 'replaceApp', 'PUT', appId, body, opts);
  }

  /** Partially updates an application (merge-patch semantics; arrays matched by item `id`). */
  patchApp(appId: string, patch: AppPatch, opts?: CallOptions): Promise<AppIdResponse> {
    return apps.writeApp(this.#http, 'patchApp', 'PATCH', appId, patch, opts);
  }

  deleteApp(appId: string, opts?: CallOptions): Promise<void> {
    return apps.deleteApp(this.#http, appId, opts);
  }

  /** Reads one container template of an application. */
  getContainer(
    appId: string,
    containerId: string,
    opts?: CallOptions,
  ): Promise<ContainerTemplateRead> {
    return apps.getContainer(this.#http, appId, containerId, opts);
  }

  /** The volumes of an application with their ids. */
  listVolumes(appId: string, opts?: CallOptions): Promise<VolumeListItem[]> {
    return apps.listVolumes(this.#http, appId, opts);
  }

  // ---- shield (/shield) ----

  /** The shield zone attached to a pull zone, or undefined when it has none. */
  getShieldZoneByPullZone(pullZoneId: number, opts?: CallOptions): Promise<ShieldZone | undefined> {
    return shield.getShieldZoneByPullZone(this.#http, pullZoneId, opts);
  }

  getShieldZone(shieldZoneId: number, opts?: CallOptions): Promise<ShieldZone> {
    return shield.getShieldZone(this.#http, shieldZoneId, opts);
  }

  /** One page of shield zones (`page` from 1). */
  listShieldZones(
    query?: { page?: number; perPage?: number },
    opts?: CallOptions,
  ): Promise<PagedShieldZones> {
    return shield.listShieldZones(this.#http, query ?? {}, opts);
  }

  /** Every shield zone, following pages. */
  listAllShieldZones(opts?: PagedCallOptions): Promise<ShieldZoneListItem[]> {
    return shield.listAllShieldZones(this.#http, opts);
  }

  /** Creates the shield zone of a pull zone. Retried only after a 429. */
  createShieldZone(body: ShieldZoneCreate, opts?: CallOptions): Promise<ShieldZone> {
    return shield.createShieldZone(this.#http, body, opts);
  }

  /** Updates a shield zone (`shieldZoneId` in the body, settings in `shieldZone`). */
  updateShieldZone(body: ShieldZoneUpdate, opts?: CallOptions): Promise<ShieldZone> {
    return shield.updateShieldZone(this.#http, body, opts);
  }

  /** Trigger metrics of one WAF rule; an `error` member in the answer becomes a CdnApiError. */
  getWafRuleMetrics(
    shieldZoneId: number,
    ruleId: string,
    opts?: CallOptions,
  ): Promise<WafRuleMetrics> {
    return shield.getWafRuleMetrics(this.#http, shieldZoneId, ruleId, opts);
  }
  // ---- edge rules, cache purge, storage zones ----

  /** Creates an edge rule (no `Guid`) or replaces the rule with that `Guid`. */
  addOrUpdateEdgeRule(pullZoneId: number, rule: EdgeRule, opts?: CallOptions): Promise<void> {
    return edgeRules.addOrUpdateEdgeRule(this.#http, pullZoneId, rule, opts);
  }

  deleteEdgeRule(pullZoneId: number, guid: string, opts?: CallOptions): Promise<void> {
    return edgeRules.deleteEdgeRule(this.#http, pullZoneId, guid, opts);
  }

  /** Turns one edge rule on or off without sending the whole rule. */
  setEdgeRuleEnabled(
    pullZoneId: number,
    guid: string,
    enabled: boolean,
    opts?: CallOptions,
  ): Promise<void> {
    return edgeRules.setEdgeRuleEnabled(this.#http, pullZoneId, guid, enabled, opts);
  }

  /**
   * Purges a pull zone's whole cache, or only the objects with `cacheTag`. Retried only after a
   * 429.
   */
  purgePullZone(id: number, cacheTag?: string, opts?: CallOptions): Promise<void> {
    return purge.purgePullZone(this.#http, id, cacheTag, opts);
  }

  /**
   * Purges one URL (a trailing `*` purges every URL with that prefix). Retried only after a 429.
   */
  purgeUrl(url: string, options: PurgeUrlOptions = {}, opts?: CallOptions): Promise<void> {
    return purge.purgeUrl(this.#http, url, options, opts);
  }

  /** Every storage zone, optionally filtered by name. Passwords are registered as secrets. */
  listStorageZones(query?: { search?: string }, opts?: CallOptions): Promise<StorageZone[]> {
    return storageZones.listStorageZones(this.#http, query ?? {}, opts);
  }

  getStorageZone(id: number, opts?: CallOptions): Promise<StorageZone> {
    return storageZones.getStorageZone(this.#http, id, opts);
  }

  /**
   * Creates a storage zone. Retried only after a 429 (refused unprocessed): a lost response may
   * still have created it.
   */
  addStorageZone(body: StorageZoneAddRequest, opts?: CallOptions): Promise<StorageZone> {
    return storageZones.addStorageZone(this.#http, body, opts);
  }

  updateStorageZone(id: number, settings: StorageZoneSettings, opts?: CallOptions): Promise<void> {
    return storageZones.updateStorageZone(this.#http, id, settings, opts);
  }

  /** Deletes a storage zone; with `deleteLinkedPullZones` the pull zones using it go too. */
  deleteStorageZone(id: number, deleteLinkedPullZones = false, opts?: CallOptions): Promise<void> {
    return storageZones.deleteStorageZone(this.#http, id, deleteLinkedPullZones, opts);
  }

  /** Replaces a storage zone's read-write or read-only password. */
  resetStorageZonePassword(
    id: number,
    which: 'read-write' | 'read-only',
    opts?: CallOptions,
  ): Promise<void> {
    return storageZones.resetStorageZonePassword(this.#http, id, which, opts);
  }
}
