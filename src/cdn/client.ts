/**
 * `CdnClient`: typed methods for every management API operation the operator and `cdnctl`
 * use. Each method is a thin description of one endpoint (method, path, body, how to read the
 * answer); transport, error model, retries and rate limiting live in http.ts. Request shapes
 * follow the official OpenAPI documents (field names, query parameter names, content types).
 */
import { HttpTransport, type RequestSpec } from './http.js';
import type { CallOptions, CdnClientOptions, PagedCallOptions } from './options.js';
import * as pullZones from './pull-zones.js';
import * as account from './account.js';
import * as apps from './apps.js';
import * as shield from './shield.js';
import * as edgeRules from './edge-rules.js';
import * as purge from './purge.js';
import * as storageZones from './storage-zones.js';
import * as videoLibraries from './video-libraries.js';
import type * as vl from './video-library-types.js';
import * as dns from './dns.js';
import { fetchListPage, type ListPage } from './list-page.js';
import type {
  DnsRecord,
  DnsRecordAddRequest,
  DnsRecordScanJob,
  DnsRecordScanTrigger,
  DnsRecordType,
  DnsRecordUpdate,
  DnsScanTarget,
  DnsSecDsRecord,
  DnsZone,
  DnsZoneAddRequest,
  DnsZoneAvailability,
  DnsZoneImportResult,
  DnsZoneSettings,
  DnsZoneStatistics,
  ExternalDnsChallenge,
} from './dns-types.js';
import * as rules from './shield-rules.js';
import * as accessLists from './shield-access-lists.js';
import * as features from './shield-features.js';
import * as registries from './registries.js';
import * as logForwarding from './log-forwarding.js';
import * as scripts from './edge-scripts.js';
import * as scriptReleases from './edge-script-releases.js';
import * as scriptEnv from './edge-script-env.js';
import type * as es from './edge-script-types.js';
import type * as sec from './security-types.js';
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
export type { RequestSpec } from './http.js';

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

  /**
   * One call no typed method describes, through this client's transport (the account's limiter,
   * retries of idempotent calls, the leader fence, the error model): for a kind written on the
   * resource kit before its typed methods exist (the test's Gadget, docs/kit.md). Answers the
   * parsed body; fails with a CdnApiError like every method.
   */
  async request(spec: RequestSpec, opts?: CallOptions): Promise<unknown> {
    return (await this.#http.request(spec, opts)).body;
  }

  /** The account's request rate now, requests per second (its limiter's adaptive rate). */
  accountRate(): Promise<number> {
    return this.#http.accountRate();
  }

  // ---- list sweeps (observe by pages): one page of a whole listing, full models ----

  /** One page (1-based) of `GET /pullzone`, full models as `getPullZone` answers them. */
  pullZonePage(page: number, opts?: CallOptions): Promise<ListPage<PullZone>> {
    return fetchListPage(this.#http, { operation: 'listPullZones', path: '/pullzone' }, page, opts);
  }

  /** One page of `GET /dnszone` (the full view: records included, as `getDnsZone`). */
  dnsZonePage(page: number, opts?: CallOptions): Promise<ListPage<DnsZone>> {
    return fetchListPage(this.#http, { operation: 'listDnsZones', path: '/dnszone' }, page, opts);
  }

  /** One page of `GET /storagezone` (passwords registered as secrets, as every read does). */
  async storageZonePage(page: number, opts?: CallOptions): Promise<ListPage<StorageZone>> {
    const call = { operation: 'listStorageZones', path: '/storagezone' };
    const got = await fetchListPage<StorageZone>(this.#http, call, page, opts);
    return { ...got, items: got.items.map((z) => storageZones.registerPasswords(this.#http, z)) };
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

  /**
   * Libraries of the account (`search` filters by name), every page unless one is asked. Each
   * library's keys are registered as secrets; keep them out of logs, events and status.
   */
  listVideoLibraries(
    query?: { search?: string; page?: number; perPage?: number },
    opts?: CallOptions,
  ): Promise<vl.VideoLibrary[]> {
    return videoLibraries.listVideoLibraries(this.#http, query ?? {}, opts);
  }

  /** One library (`notFound` when it does not exist). */
  getVideoLibrary(id: number, opts?: CallOptions): Promise<vl.VideoLibrary> {
    return videoLibraries.getVideoLibrary(this.#http, id, opts);
  }

  /**
   * Adds a library; the platform gives it a pull zone and a storage zone. Retried only after a
   * 429 (a lost answer may still have created it).
   */
  addVideoLibrary(body: vl.VideoLibraryAddRequest, opts?: CallOptions): Promise<vl.VideoLibrary> {
    return videoLibraries.addVideoLibrary(this.#http, body, opts);
  }

  /** Changes the members present in `body`; answers the library. */
  updateVideoLibrary(
    id: number,
    body: vl.VideoLibraryUpdate,
    opts?: CallOptions,
  ): Promise<vl.VideoLibrary> {
    return videoLibraries.updateVideoLibrary(this.#http, id, body, opts);
  }

  /** Deletes a library with its pull zone and storage zone. */
  deleteVideoLibrary(id: number, opts?: CallOptions): Promise<void> {
    return videoLibraries.deleteVideoLibrary(this.#http, id, opts);
  }

  /** Adds a hostname to, or removes one from, the allowed or blocked referrers. */
  changeVideoLibraryReferrer(
    id: number,
    change: { list: vl.VideoLibraryReferrerList; action: 'add' | 'remove'; hostname: string },
    opts?: CallOptions,
  ): Promise<void> {
    return videoLibraries.changeVideoLibraryReferrer(this.#http, id, change, opts);
  }

  /** Replaces the library's API key or read-only API key (read the library for the new one). */
  resetVideoLibraryKey(id: number, key: vl.VideoLibraryKey, opts?: CallOptions): Promise<void> {
    return videoLibraries.resetVideoLibraryKey(this.#http, id, key, opts);
  }

  /** Uploads the watermark image, or removes it (`image` null). */
  setVideoLibraryWatermark(
    id: number,
    image: videoLibraries.WatermarkImage | null,
    opts?: CallOptions,
  ): Promise<void> {
    return videoLibraries.setVideoLibraryWatermark(this.#http, id, image, opts);
  }

  /** The languages of the player and the transcription. */
  listVideoLibraryLanguages(opts?: CallOptions): Promise<vl.VideoLibraryLanguage[]> {
    return videoLibraries.listVideoLibraryLanguages(this.#http, opts);
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

  // ---- DNS (/dnszone) ----

  /** DNS zones (`search` on the domain); every page unless `page` is given. */
  listDnsZones(
    query?: { search?: string; page?: number; perPage?: number },
    opts?: CallOptions,
  ): Promise<DnsZone[]> {
    return dns.listDnsZones(this.#http, query ?? {}, opts);
  }

  /** One zone with its records (`notFound` when it does not exist). */
  getDnsZone(id: number, opts?: CallOptions): Promise<DnsZone> {
    return dns.getDnsZone(this.#http, id, opts);
  }

  /** Creates a zone (optionally with its first records). Retried only after a 429. */
  addDnsZone(body: DnsZoneAddRequest, opts?: CallOptions): Promise<DnsZone> {
    return dns.addDnsZone(this.#http, body, opts);
  }

  /** Changes zone settings (only the members present); answers the zone. */
  updateDnsZone(id: number, settings: DnsZoneSettings, opts?: CallOptions): Promise<DnsZone> {
    return dns.updateDnsZone(this.#http, id, settings, opts);
  }

  deleteDnsZone(id: number, opts?: CallOptions): Promise<void> {
    return dns.deleteDnsZone(this.#http, id, opts);
  }

  /** Whether the account can add a zone for `domain`. */
  checkDnsZoneAvailability(domain: string, opts?: CallOptions): Promise<DnsZoneAvailability> {
    return dns.checkDnsZoneAvailability(this.#http, domain, opts);
  }

  /** Records of a zone (`type`, `search`); every page unless `page` is given. */
  listDnsRecords(
    zoneId: number,
    query?: { type?: DnsRecordType; search?: string; page?: number; perPage?: number },
    opts?: CallOptions,
  ): Promise<DnsRecord[]> {
    return dns.listDnsRecords(this.#http, zoneId, query ?? {}, opts);
  }

  /** Adds a record; answers it with its id. Retried only after a 429. */
  addDnsRecord(
    zoneId: number,
    record: DnsRecordAddRequest,
    opts?: CallOptions,
  ): Promise<DnsRecord> {
    return dns.addDnsRecord(this.#http, zoneId, record, opts);
  }

  /** Changes a record (only the members present; `Id` is taken from `recordId`). */
  updateDnsRecord(
    zoneId: number,
    recordId: number,
    record: DnsRecordUpdate,
    opts?: CallOptions,
  ): Promise<void> {
    return dns.updateDnsRecord(this.#http, zoneId, recordId, record, opts);
  }

  deleteDnsRecord(zoneId: number, recordId: number, opts?: CallOptions): Promise<void> {
    return dns.deleteDnsRecord(this.#http, zoneId, recordId, opts);
  }

  /** Turns DNSSEC on; answers the DS record for the registrar (the same while it stays on). */
  enableDnsSec(zoneId: number, opts?: CallOptions): Promise<DnsSecDsRecord> {
    return dns.setDnsSec(this.#http, zoneId, true, opts);
  }

  /** Turns DNSSEC off. */
  disableDnsSec(zoneId: number, opts?: CallOptions): Promise<DnsSecDsRecord> {
    return dns.setDnsSec(this.#http, zoneId, false, opts);
  }

  /** The zone as a master (BIND) file. */
  exportDnsZone(zoneId: number, opts?: CallOptions): Promise<string> {
    return dns.exportDnsZone(this.#http, zoneId, opts);
  }

  /** Imports the records of a master (BIND) file. Retried only after a 429. */
  importDnsRecords(
    zoneId: number,
    zoneFile: string,
    opts?: CallOptions,
  ): Promise<DnsZoneImportResult> {
    return dns.importDnsRecords(this.#http, zoneId, zoneFile, opts);
  }

  /** Query statistics of a zone (default range: the last 30 days). */
  getDnsZoneStatistics(
    zoneId: number,
    range?: { dateFrom?: Date | string; dateTo?: Date | string },
    opts?: CallOptions,
  ): Promise<DnsZoneStatistics> {
    return dns.getDnsZoneStatistics(this.#http, zoneId, range ?? {}, opts);
  }

  /** Issues the zone's wildcard certificate. Retried only after a 429. */
  issueWildcardCertificate(zoneId: number, domain?: string, opts?: CallOptions): Promise<void> {
    return dns.issueWildcardCertificate(this.#http, zoneId, domain, opts);
  }

  /** Starts a scan of a domain's existing public records. Retried only after a 429. */
  triggerDnsRecordScan(target: DnsScanTarget, opts?: CallOptions): Promise<DnsRecordScanTrigger> {
    return dns.triggerDnsRecordScan(this.#http, target, opts);
  }

  /** The latest record scan of a zone's domain (`notFound` when none). */
  getDnsRecordScan(zoneId: number, opts?: CallOptions): Promise<DnsRecordScanJob> {
    return dns.getDnsRecordScan(this.#http, zoneId, opts);
  }

  /** DNS-01 for a hostname whose DNS is elsewhere: the TXT record to publish. */
  requestExternalDnsCertificate(
    hostname: string,
    opts?: CallOptions,
  ): Promise<ExternalDnsChallenge> {
    return dns.requestExternalDnsCertificate(this.#http, hostname, opts);
  }

  /** Checks the published TXT record and loads the certificate. Retried only after a 429. */
  completeExternalDnsCertificate(hostname: string, opts?: CallOptions): Promise<void> {
    return dns.completeExternalDnsCertificate(this.#http, hostname, opts);
  }
  // ---- shield rules and settings (shield-rules.ts, shield-access-lists.ts, shield-features.ts) ----

  /** Every custom WAF rule of a shield zone (pages followed). */
  listCustomWafRules(shieldZoneId: number, opts?: PagedCallOptions): Promise<sec.CustomWafRule[]> {
    return rules.listRules(this.#http, rules.WAF_RULES, shieldZoneId, opts);
  }

  getCustomWafRule(id: number, opts?: CallOptions): Promise<sec.CustomWafRule> {
    return rules.getRule(this.#http, rules.WAF_RULES, id, opts);
  }

  /** Creates a custom WAF rule (403 on a zone whose plan allows no more). Retried only after a 429. */
  createCustomWafRule(
    body: sec.CustomWafRuleCreate,
    opts?: CallOptions,
  ): Promise<sec.CustomWafRule> {
    return rules.createRule(this.#http, rules.WAF_RULES, body, opts);
  }

  /** `PATCH`: only the members given; a `ruleConfiguration` given is taken whole. */
  updateCustomWafRule(
    id: number,
    patch: sec.CustomWafRuleUpdate,
    opts?: CallOptions,
  ): Promise<sec.CustomWafRule> {
    return rules.updateRule(this.#http, rules.WAF_RULES, id, patch, opts);
  }

  deleteCustomWafRule(id: number, opts?: CallOptions): Promise<void> {
    return rules.deleteRule(this.#http, rules.WAF_RULES, id, opts);
  }

  /** Every rate limit of a shield zone (pages followed). */
  listRateLimits(shieldZoneId: number, opts?: PagedCallOptions): Promise<sec.RateLimitRule[]> {
    return rules.listRules(this.#http, rules.RATE_LIMITS, shieldZoneId, opts);
  }

  getRateLimit(id: number, opts?: CallOptions): Promise<sec.RateLimitRule> {
    return rules.getRule(this.#http, rules.RATE_LIMITS, id, opts);
  }

  /** Creates a rate limit (403 beyond the plan's count). Retried only after a 429. */
  createRateLimit(body: sec.RateLimitCreate, opts?: CallOptions): Promise<sec.RateLimitRule> {
    return rules.createRule(this.#http, rules.RATE_LIMITS, body, opts);
  }

  /** `PATCH`: only the members given; a `ruleConfiguration` given is taken whole. */
  updateRateLimit(
    id: number,
    patch: sec.RateLimitUpdate,
    opts?: CallOptions,
  ): Promise<sec.RateLimitRule> {
    return rules.updateRule(this.#http, rules.RATE_LIMITS, id, patch, opts);
  }

  deleteRateLimit(id: number, opts?: CallOptions): Promise<void> {
    return rules.deleteRule(this.#http, rules.RATE_LIMITS, id, opts);
  }

  /** Curated and custom access lists of a zone with their configuration and the plan's limits. */
  listAccessLists(shieldZoneId: number, opts?: CallOptions): Promise<sec.AccessListsOverview> {
    return accessLists.listAccessLists(this.#http, shieldZoneId, opts);
  }

  getCustomAccessList(
    shieldZoneId: number,
    id: number,
    opts?: CallOptions,
  ): Promise<sec.CustomAccessList> {
    return accessLists.getCustomAccessList(this.#http, shieldZoneId, id, opts);
  }

  /** Creates a custom access list (disabled until configured). Retried only after a 429. */
  createCustomAccessList(
    shieldZoneId: number,
    body: sec.CustomAccessListCreate,
    opts?: CallOptions,
  ): Promise<sec.CustomAccessList> {
    return accessLists.createCustomAccessList(this.#http, shieldZoneId, body, opts);
  }

  /** `PATCH`: a new name and/or new entries. */
  updateCustomAccessList(
    shieldZoneId: number,
    id: number,
    patch: sec.CustomAccessListUpdate,
    opts?: CallOptions,
  ): Promise<sec.CustomAccessList> {
    return accessLists.updateCustomAccessList(this.#http, shieldZoneId, id, patch, opts);
  }

  deleteCustomAccessList(shieldZoneId: number, id: number, opts?: CallOptions): Promise<void> {
    return accessLists.deleteCustomAccessList(this.#http, shieldZoneId, id, opts);
  }

  /** Turns a curated or custom list on or off and sets its action (by `configurationId`). */
  updateAccessListConfiguration(
    shieldZoneId: number,
    configurationId: number,
    patch: sec.AccessListConfiguration,
    opts?: CallOptions,
  ): Promise<sec.AccessListConfiguration> {
    return accessLists.updateAccessListConfiguration(
      this.#http,
      shieldZoneId,
      configurationId,
      patch,
      opts,
    );
  }

  getBotDetection(shieldZoneId: number, opts?: CallOptions): Promise<sec.BotDetection> {
    return features.getBotDetection(this.#http, shieldZoneId, opts);
  }

  /** `PATCH`: top-level members given change; a nested object given is taken whole. */
  updateBotDetection(
    shieldZoneId: number,
    patch: sec.BotDetectionUpdate,
    opts?: CallOptions,
  ): Promise<sec.BotDetection> {
    return features.updateBotDetection(this.#http, shieldZoneId, patch, opts);
  }

  getUploadScanning(shieldZoneId: number, opts?: CallOptions): Promise<sec.UploadScanning> {
    return features.getUploadScanning(this.#http, shieldZoneId, opts);
  }

  updateUploadScanning(
    shieldZoneId: number,
    patch: sec.UploadScanningUpdate,
    opts?: CallOptions,
  ): Promise<sec.UploadScanning> {
    return features.updateUploadScanning(this.#http, shieldZoneId, patch, opts);
  }

  /** A custom response page's HTML; undefined when the zone has none of that type. */
  getCustomPage(
    shieldZoneId: number,
    pageType: string,
    opts?: CallOptions,
  ): Promise<string | undefined> {
    return features.getCustomPage(this.#http, shieldZoneId, pageType, opts);
  }

  /** Uploads a custom response page (raw `text/html`; Advanced plan or higher). */
  putCustomPage(
    shieldZoneId: number,
    pageType: string,
    html: string,
    opts?: CallOptions,
  ): Promise<void> {
    return features.putCustomPage(this.#http, shieldZoneId, pageType, html, opts);
  }

  deleteCustomPage(shieldZoneId: number, pageType: string, opts?: CallOptions): Promise<void> {
    return features.deleteCustomPage(this.#http, shieldZoneId, pageType, opts);
  }

  /** The managed WAF rules the zone's plan has. */
  listWafRules(shieldZoneId: number, opts?: CallOptions): Promise<sec.WafRuleGroup[]> {
    return features.listWafRules(this.#http, shieldZoneId, opts);
  }

  /** Each plan with the managed WAF rules it adds. */
  getWafRulesByPlan(opts?: CallOptions): Promise<sec.WafRulesByPlan[]> {
    return features.getWafRulesByPlan(this.#http, opts);
  }

  listTriggeredRules(
    shieldZoneId: number,
    opts?: CallOptions,
  ): Promise<{ rules: sec.TriggeredRule[]; total: number }> {
    return features.listTriggeredRules(this.#http, shieldZoneId, opts);
  }

  /** Ignores a triggered managed rule, makes it log-only or disables it on the zone. */
  reviewTriggeredRule(
    shieldZoneId: number,
    review: sec.TriggeredRuleReview,
    opts?: CallOptions,
  ): Promise<void> {
    return features.reviewTriggeredRule(this.#http, shieldZoneId, review, opts);
  }

  // ---- container registries and log forwarding (registries.ts, log-forwarding.ts) ----

  /** Every registry, the platform's public ones included (no password or pieces of it). */
  listRegistries(opts?: CallOptions): Promise<sec.ContainerRegistry[]> {
    return registries.listRegistries(this.#http, opts);
  }

  getRegistry(registryId: number, opts?: CallOptions): Promise<sec.ContainerRegistry> {
    return registries.getRegistry(this.#http, registryId, opts);
  }

  /** Adds a registry and returns its id; the password is a secret. Retried only after a 429. */
  addRegistry(body: sec.ContainerRegistryRequest, opts?: CallOptions): Promise<number> {
    return registries.addRegistry(this.#http, body, opts);
  }

  /** Replaces name and type; credentials given are rotated, left out are kept. */
  replaceRegistry(
    registryId: number,
    body: sec.ContainerRegistryRequest,
    opts?: CallOptions,
  ): Promise<void> {
    return registries.replaceRegistry(this.#http, registryId, body, opts);
  }

  /** Deletes a registry (`conflict` while an application uses it). */
  deleteRegistry(registryId: number, opts?: CallOptions): Promise<void> {
    return registries.deleteRegistry(this.#http, registryId, opts);
  }

  /** Every log forwarding configuration (tokens never returned, `tokenSet` says if one is). */
  listLogForwarding(opts?: CallOptions): Promise<sec.LogForwarding[]> {
    return logForwarding.listLogForwarding(this.#http, opts);
  }

  /**
   * An application's log forwarding; undefined when it has none. `opts.compareToken` is
   * compared with the platform's token in memory (`tokenMatches`), never sent.
   */
  getLogForwarding(
    appId: string,
    opts?: logForwarding.LogForwardingReadOptions,
  ): Promise<sec.LogForwarding | undefined> {
    return logForwarding.getLogForwarding(this.#http, appId, opts);
  }

  /** Creates an application's log forwarding; the token is a secret. Retried only after a 429. */
  createLogForwarding(
    body: sec.LogForwardingRequest,
    opts?: CallOptions,
  ): Promise<sec.LogForwarding> {
    return logForwarding.createLogForwarding(this.#http, body, opts);
  }

  /** Replaces an application's log forwarding (a token left out is kept). */
  replaceLogForwarding(
    appId: string,
    body: sec.LogForwardingRequest,
    opts?: CallOptions,
  ): Promise<sec.LogForwarding> {
    return logForwarding.replaceLogForwarding(this.#http, appId, body, opts);
  }

  deleteLogForwarding(appId: string, opts?: CallOptions): Promise<void> {
    return logForwarding.deleteLogForwarding(this.#http, appId, opts);
  }

  // ---- edge scripts (/compute: edge-scripts.ts, edge-script-releases.ts, edge-script-env.ts) ----

  /**
   * Scripts of the account, every page followed. Each `DeploymentKey` read is registered as a
   * secret (no error text carries it); keep it out of logs, events and status.
   */
  listEdgeScripts(
    query?: es.EdgeScriptListQuery,
    opts?: PagedCallOptions,
  ): Promise<es.EdgeScript[]> {
    return scripts.listEdgeScripts(this.#http, query ?? {}, opts);
  }

  /** One script with its variables and linked pull zones (`notFound` when it does not exist). */
  getEdgeScript(id: number, opts?: CallOptions): Promise<es.EdgeScript> {
    return scripts.getEdgeScript(this.#http, id, opts);
  }

  /**
   * Adds a script; `CreateLinkedPullZone` gives a standalone one its own pull zone. Retried only
   * after a 429 (a lost answer may still have created it).
   */
  addEdgeScript(body: es.EdgeScriptAddRequest, opts?: CallOptions): Promise<es.EdgeScript> {
    return scripts.addEdgeScript(this.#http, body, opts);
  }

  /** Changes a script's name or type (members left out keep their value). */
  updateEdgeScript(
    id: number,
    body: es.EdgeScriptUpdate,
    opts?: CallOptions,
  ): Promise<es.EdgeScript> {
    return scripts.updateEdgeScript(this.#http, id, body, opts);
  }

  /**
   * Deletes a script, with the pull zones linked to it when `deleteLinkedPullZones` (default:
   * they stay, a fronting zone pointed at the platform's landing page, a middleware dropped).
   */
  deleteEdgeScript(id: number, deleteLinkedPullZones = false, opts?: CallOptions): Promise<void> {
    return scripts.deleteEdgeScript(this.#http, id, deleteLinkedPullZones, opts);
  }

  /** The code as last set, and when. */
  getEdgeScriptCode(id: number, opts?: CallOptions): Promise<es.EdgeScriptCode> {
    return scripts.getEdgeScriptCode(this.#http, id, opts);
  }

  /** Sets the code; nothing is published until publishEdgeScript. */
  setEdgeScriptCode(id: number, code: string, opts?: CallOptions): Promise<void> {
    return scripts.setEdgeScriptCode(this.#http, id, code, opts);
  }

  /** Replaces the script's deployment key (read the script for the new one). */
  rotateEdgeScriptDeploymentKey(id: number, opts?: CallOptions): Promise<void> {
    return scripts.rotateEdgeScriptDeploymentKey(this.#http, id, opts);
  }

  /** Usage over a range (default the last 30 days), charted per day or per hour. */
  getEdgeScriptStatistics(
    id: number,
    query?: es.EdgeScriptStatisticsQuery,
    opts?: CallOptions,
  ): Promise<es.EdgeScriptStatistics> {
    return scripts.getEdgeScriptStatistics(this.#http, id, query ?? {}, opts);
  }

  /**
   * Publishes the current code as a new release (retried only after a 429), or with
   * `releaseUuid` makes an earlier release live again, a rollback (retried).
   */
  publishEdgeScript(id: number, publish?: es.EdgeScriptPublish, opts?: CallOptions): Promise<void> {
    return scriptReleases.publishEdgeScript(this.#http, id, publish ?? {}, opts);
  }

  /** The script's releases, newest first, every page followed. */
  listEdgeScriptReleases(id: number, opts?: PagedCallOptions): Promise<es.EdgeScriptRelease[]> {
    return scriptReleases.listEdgeScriptReleases(this.#http, id, opts);
  }

  /** The live release; undefined when none was published (or the script does not exist). */
  getActiveEdgeScriptRelease(
    id: number,
    opts?: CallOptions,
  ): Promise<es.EdgeScriptRelease | undefined> {
    return scriptReleases.getActiveEdgeScriptRelease(this.#http, id, opts);
  }

  /** Adds an environment variable (a name the script has is refused). */
  addEdgeScriptVariable(
    id: number,
    body: es.EdgeScriptVariableAdd,
    opts?: CallOptions,
  ): Promise<es.EdgeScriptVariable> {
    return scriptEnv.addEdgeScriptVariable(this.#http, id, body, opts);
  }

  /** Creates or updates the variable of that name: the new one, or undefined for an update. */
  upsertEdgeScriptVariable(
    id: number,
    body: es.EdgeScriptVariableUpsert,
    opts?: CallOptions,
  ): Promise<es.EdgeScriptVariable | undefined> {
    return scriptEnv.upsertEdgeScriptVariable(this.#http, id, body, opts);
  }

  getEdgeScriptVariable(
    id: number,
    variableId: number,
    opts?: CallOptions,
  ): Promise<es.EdgeScriptVariable> {
    return scriptEnv.getEdgeScriptVariable(this.#http, id, variableId, opts);
  }

  /** Changes a variable's default value or whether it is required (left out: kept). */
  updateEdgeScriptVariable(
    id: number,
    variableId: number,
    body: es.EdgeScriptVariableUpdate,
    opts?: CallOptions,
  ): Promise<es.EdgeScriptVariable> {
    return scriptEnv.updateEdgeScriptVariable(this.#http, id, variableId, body, opts);
  }

  deleteEdgeScriptVariable(id: number, variableId: number, opts?: CallOptions): Promise<void> {
    return scriptEnv.deleteEdgeScriptVariable(this.#http, id, variableId, opts);
  }

  /** The script's secrets: ids, names and when they changed, never their values. */
  listEdgeScriptSecrets(id: number, opts?: CallOptions): Promise<es.EdgeScriptSecret[]> {
    return scriptEnv.listEdgeScriptSecrets(this.#http, id, opts);
  }

  /** Adds a secret; its value is registered as a secret before it is sent. */
  addEdgeScriptSecret(
    id: number,
    body: es.EdgeScriptSecretWrite,
    opts?: CallOptions,
  ): Promise<es.EdgeScriptSecret> {
    return scriptEnv.addEdgeScriptSecret(this.#http, id, body, opts);
  }

  /** Creates or sets the secret of that name: the new one, or undefined for an update. */
  upsertEdgeScriptSecret(
    id: number,
    body: es.EdgeScriptSecretWrite,
    opts?: CallOptions,
  ): Promise<es.EdgeScriptSecret | undefined> {
    return scriptEnv.upsertEdgeScriptSecret(this.#http, id, body, opts);
  }

  /** Sets a secret's value by its id. */
  updateEdgeScriptSecret(
    id: number,
    secretId: number,
    value: string,
    opts?: CallOptions,
  ): Promise<es.EdgeScriptSecret> {
    return scriptEnv.updateEdgeScriptSecret(this.#http, id, secretId, value, opts);
  }

  deleteEdgeScriptSecret(id: number, secretId: number, opts?: CallOptions): Promise<void> {
    return scriptEnv.deleteEdgeScriptSecret(this.#http, id, secretId, opts);
  }
}
