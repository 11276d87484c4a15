/**
 * The PullZoneConfig external client: observe / create / update / delete of one pull zone
 * and its custom hostnames, bound to one account's CdnClient.
 *
 * - Observe is read-only on the platform: one GET by id, found by the kit's identity rules
 *   (kit/identity.ts: names are unique on the platform, so adoption by name and the recovery
 *   of a lost create search by name and skip zones another object manages). It returns the outputs (outputs.ts) as connection details; the
 *   runtime publishes them, never the kind.
 * - Create is one `POST /pullzone` carrying every managed setting (the add model accepts
 *   every property of the update model). Creates of one account run concurrently: the
 *   platform refuses a second zone with a taken name, so two objects racing for one name end
 *   with one zone and one NameTaken, and the runtime's create-pending marker plus the claim
 *   index make a create whose answer was lost find its zone instead of making another. A
 *   taken name is reported (NameTaken) and never adopted.
 * - Update sends only the differing managed settings in one `POST /pullzone/{id}` (or one
 *   targeted referrer/IP call), then the hostname calls; all writes to one zone are
 *   serialized.
 */
import type { CdnClient } from '../../cdn/client.js';
import { isCdnApiError } from '../../cdn/errors.js';
import type { PullZone, PullZoneAddRequest } from '../../cdn/types.js';
import { TerminalError } from '../../runtime/errors.js';
import { Annotation, SyncedReason } from '../../runtime/reasons.js';
import type {
  ConnectionDetails,
  CreateResult,
  ExternalClient,
  ExternalContext,
  Observation,
  UpdateResult,
} from '../../runtime/types.js';
import { locate, type IdentityRules } from '../kit/identity.js';
import { PULL_ZONE_CLAIM } from '../shared/claim-types.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { deleteIgnoringNotFound, isDeleting } from '../shared/not-found.js';
import {
  CERTIFICATE_PENDING,
  certificateRecheckMs,
  certificatesCondition,
  countDnsRefusals,
  isNotPointingError,
} from './certificate-dns.js';
import { diffSettings, writeOnlyHashesAfter, type SettingsDiff } from './diff.js';
import { planHostnames, type HostnameAction, type HostnamePlan } from './hostnames.js';
import { applyEdgeRules } from './edge-rules-apply.js';
import {
  observePurge,
  pendingPurge,
  planPurge,
  purgeDiff,
  runPurge,
  type PurgeObservation,
  type PurgePlan,
} from './purge.js';
import {
  managesEdgeRules,
  planEdgeRules,
  type EdgeRulePlan,
  type EdgeRuleStatus,
} from './edge-rules.js';
import { toApiSettings } from './mapping.js';
import { outputsData } from './outputs.js';
import type { ResolvedSecrets } from './references.js';
import { chooseSettingsWrite } from './settings-writes.js';
import { PULL_ZONE_CONFIG_NAMES, type HostnameStatus, type PullZoneConfig } from './types.js';
import { samePlatformName } from '../../cdn/platform-names.js';
import { listSweep } from '../shared/list-sweep.js';

/** Reason of CertificatesReady=False while a free certificate is being issued. */
export const CertificatePending = CERTIFICATE_PENDING;
/** Reason when the zone name is already taken on the platform and adoption was not asked for. */
export const NameTaken = 'NameTaken';
/** Claim type of pull zones (the runtime's default: the kind). */
export { PULL_ZONE_CLAIM };

/** What an external client is bound to. */
export interface PullZoneExternalOptions {
  client: CdnClient;
  /** Stable, non-secret account identifier (the claim index's account fingerprint). */
  accountId: string;
  secrets: ResolvedSecrets;
  now?: () => Date;
}

/** What observe hands to update: the live zone and every plan made from it. */
export interface PullZoneSeen {
  record: PullZone;
  settings: SettingsDiff;
  hostnames: HostnamePlan;
  edgeRules: EdgeRulePlan;
  /** What this pass does about purges (decided once, in observe). */
  purge: PurgePlan;
}

/** The zone's name: `spec.name`, defaulting to `metadata.name`. */
export function zoneNameOf(obj: PullZoneConfig): string {
  return obj.spec?.name ?? obj.metadata.name;
}

/** The system hostname (`<name>.b-cdn.net`) of a zone record. */
export function cdnHostnameOf(record: PullZone): string | undefined {
  const system = (record.Hostnames ?? []).find((h) => h.IsSystemHostname === true);
  return system?.Value ?? record.CnameDomain ?? undefined;
}

const zoneLock = (id: number): string => `pullzone:${id}`;

/**
 * Whether the create's answer leaves work for the same pass: hostnames, edge rules and purges
 * to apply, outputs to publish (from an observe of the new zone).
 */
function hasFollowUpWork(obj: PullZoneConfig): boolean {
  if ((obj.spec?.hostnames ?? []).length > 0 || obj.spec?.outputSecretRef?.name) return true;
  return managesEdgeRules(obj) || pendingPurge(obj) !== undefined;
}

/**
 * The next pass and the event a purge asks for (a deferred or unfinished purge), the sooner of
 * the purge's next pass and the certificates' (`certificates`, certificate-dns.ts).
 */
function purgeRequeue(
  p: PurgeObservation,
  certificates: number | undefined,
): Pick<Observation, 'requeueAfterMs' | 'events'> {
  const waits = [p.requeueAfterMs, certificates].filter((ms): ms is number => ms !== undefined);
  return {
    ...(waits.length > 0 ? { requeueAfterMs: Math.min(...waits) } : {}),
    ...(p.events ? { events: p.events } : {}),
  };
}

/** True when this pass's update will request a free certificate (never in dry-run). */
function requestsCertificate(obj: PullZoneConfig, plan: HostnamePlan): boolean {
  if (obj.metadata.annotations?.[Annotation.DryRun] === 'true') return false;
  return plan.actions.some((a) => a.op === 'loadFreeCertificate');
}

/** `status.edgeRules` from observe, only for resources that manage edge rules. */
function edgeRuleStatusOf(obj: PullZoneConfig, plan: EdgeRulePlan): Record<string, unknown> {
  return obj.spec?.edgeRules || obj.status?.edgeRules ? { edgeRules: plan.observed } : {};
}

/**
 * A zone keeps its creation name. A spec.name that differs from the live zone's (possible only
 * on objects created before the CRD made spec.name immutable) would otherwise be ignored while
 * the object reports Synced=True.
 */
function assertSameName(obj: PullZoneConfig, record: PullZone): void {
  const wanted = obj.spec?.name;
  if (wanted === undefined || record.Name == null) return;
  if (samePlatformName('pullZone', record.Name, wanted)) return;
  throw new TerminalError(
    SyncedReason.InvalidSpec,
    `cannot rename pull zone ${record.Id} from ${record.Name} to ${wanted} (spec.name): a zone keeps the name it was created with; restore spec.name or create a new PullZoneConfig`,
  );
}

/** How pull zones are found: by id, else by name (unique on the platform). */
export function pullZoneIdentity(client: CdnClient): IdentityRules<PullZone, PullZoneConfig> {
  return {
    what: 'pull zone',
    claimType: PULL_ZONE_CLAIM,
    names: PULL_ZONE_CONFIG_NAMES.platformNames,
    nameOf: zoneNameOf,
    read: (id, signal) => client.getPullZone(Number(id), { signal }),
    search: (name, signal) => client.listPullZones({ search: name }, { signal }),
    idOf: (z) => String(z.Id),
    recordNameOf: (z) => z.Name,
    sameName: (live, wanted) => samePlatformName('pullZone', live, wanted),
    sweep: listSweep(PULL_ZONE_CLAIM, client, (n, o) => client.pullZonePage(n, o)),
  };
}

/** See the module comment. */
export class PullZoneExternal implements ExternalClient<PullZoneConfig, PullZoneSeen> {
  private readonly now: () => Date;
  private readonly identity: IdentityRules<PullZone, PullZoneConfig>;

  constructor(private readonly opts: PullZoneExternalOptions) {
    this.now = opts.now ?? (() => new Date());
    this.identity = pullZoneIdentity(opts.client);
  }

  /** The account fingerprint (claims conflict only within one account). */
  get account(): string {
    return this.opts.accountId;
  }

  /** The desired settings in wire form (only managed fields; secrets resolved). */
  desiredSettings(obj: PullZoneConfig): Record<string, unknown> {
    return toApiSettings(obj.spec?.settings, this.opts.secrets.settings);
  }

  async observe(obj: PullZoneConfig, ctx: ExternalContext): Promise<Observation<PullZoneSeen>> {
    const record = (await locate(this.identity, obj, ctx))?.record;
    if (!record) return { exists: false, upToDate: false, diff: [] };
    if (!isDeleting(obj)) assertSameName(obj, record);
    const seen = this.compare(obj, record);
    const purge = observePurge(obj, seen.purge, this.now());
    const diff = [
      ...seen.settings.diffs,
      ...seen.hostnames.diffs,
      ...seen.edgeRules.diffs,
      ...purgeDiff(obj, seen.purge),
    ];
    const hostnames = seen.hostnames.observed;
    const certificates = certificatesCondition(obj, hostnames, cdnHostnameOf(record));
    const recheck = certificateRecheckMs(
      hostnames,
      requestsCertificate(obj, seen.hostnames),
      this.now(),
    );
    return {
      exists: true,
      externalId: String(record.Id),
      upToDate: diff.length === 0,
      diff,
      seen,
      status: {
        ...this.statusOf(record, hostnames, obj.status?.writeOnlySettings),
        ...edgeRuleStatusOf(obj, seen.edgeRules),
        ...(purge.status ? { purge: purge.status } : {}),
      },
      ...(certificates ? { conditions: [certificates] } : {}),
      ...purgeRequeue(purge, recheck),
      connectionDetails: outputsOf(obj, record, hostnames),
    };
  }

  /** Compares the spec with a live record (pure apart from the clock). */
  private compare(obj: PullZoneConfig, record: PullZone): PullZoneSeen {
    const settings = diffSettings(this.desiredSettings(obj), record, obj.status?.writeOnlySettings);
    const hostnames = planHostnames({
      spec: obj.spec ?? {},
      live: record.Hostnames ?? [],
      previous: obj.status?.hostnames,
      tlsHashes: new Map([...this.opts.secrets.tls].map(([h, m]) => [h, m.hash])),
      now: this.now(),
    });
    const edgeRules = planEdgeRules({
      rules: obj.spec?.edgeRules,
      policy: obj.spec?.edgeRulePolicy,
      live: record.EdgeRules ?? [],
      previous: obj.status?.edgeRules,
    });
    return { record, settings, hostnames, edgeRules, purge: planPurge(obj, this.now()) };
  }

  private statusOf(
    record: PullZone,
    hostnames: HostnameStatus[],
    writeOnly?: Record<string, string>,
  ): Record<string, unknown> {
    return {
      pullZoneId: record.Id,
      cdnHostname: cdnHostnameOf(record),
      hostnames,
      ...(writeOnly ? { writeOnlySettings: writeOnly } : {}),
    };
  }

  async create(obj: PullZoneConfig, ctx: ExternalContext): Promise<CreateResult> {
    const settings = this.desiredSettings(obj);
    const body = { ...settings, Name: zoneNameOf(obj) };
    const record = await this.add(body, ctx.signal);
    ctx.log.debug({ pullZoneId: record.Id, name: body.Name }, 'Created pull zone');
    const writeOnly = writeOnlyHashesAfter(settings);
    return {
      externalId: String(record.Id),
      status: {
        ...this.statusOf(record, [], writeOnly),
      },
      available: this.isCompleteAfterCreate(obj, record, writeOnly),
    };
  }

  /**
   * Adds the zone. When the platform refuses the create and a zone with exactly this name
   * exists, the name is taken: reported as NameTaken, never adopted (the zone may belong to
   * another team; adoption must be asked for in the spec).
   */
  private async add(
    body: PullZoneAddRequest & { Name: string },
    signal: AbortSignal,
  ): Promise<PullZone> {
    try {
      return await this.opts.client.addPullZone(body, { signal });
    } catch (err) {
      if (!isCdnApiError(err) || err.kind !== 'invalid') throw err;
      const existing = await this.identity.search(body.Name, signal);
      if (!existing.some((z) => samePlatformName('pullZone', z.Name, body.Name))) throw err;
      throw new TerminalError(
        NameTaken,
        `cannot create pull zone ${JSON.stringify(body.Name)}: the name is already taken on the platform (pull zone names are unique); set spec.name to another name, or adopt that zone explicitly with spec.adoption (policy ById or ByName)`,
      );
    }
  }

  /**
   * True when the create's answer already is the desired state: every managed setting matches
   * and nothing is left for a later pass (hostnames are added, and outputs written, by the next
   * observe/update).
   */
  private isCompleteAfterCreate(
    obj: PullZoneConfig,
    record: PullZone,
    writeOnly: ReturnType<typeof writeOnlyHashesAfter>,
  ): boolean {
    if (hasFollowUpWork(obj)) return false;
    return diffSettings(this.desiredSettings(obj), record, writeOnly).diffs.length === 0;
  }

  async update(
    obj: PullZoneConfig,
    observation: Observation<PullZoneSeen>,
    ctx: ExternalContext,
  ): Promise<UpdateResult> {
    const seen = observation.seen;
    if (!seen) throw new Error('cannot update pull zone: observation was not made by this client');
    const id = Number(seen.record.Id);
    return withKeyedLock(zoneLock(id), async () => {
      await this.writeSettings(id, seen, ctx.signal);
      const projected = await this.runHostnames(id, obj, seen, ctx);
      const { hostnames, details } = await this.hostnamesAfter(obj, seen, projected, ctx.signal);
      const edgeRules = await this.edgeRulesAfter(obj, seen, ctx.signal);
      const zone = { id, cdnHostname: cdnHostnameOf(seen.record) };
      const purge = await runPurge(this.opts.client, obj, seen.purge, zone, this.now(), ctx.signal);
      // The per-object purge bound stands on this record: it must survive a refused write.
      if (purge) ctx.recordEffect?.({ purge });
      const certificates = certificatesCondition(obj, hostnames, zone.cdnHostname);
      return {
        ...(details ? { connectionDetails: details } : {}),
        ...(certificates ? { conditions: [certificates] } : {}),
        status: {
          hostnames,
          ...(edgeRules ? { edgeRules } : {}),
          ...(purge ? { purge } : {}),
          writeOnlySettings: writeOnlyHashesAfter(
            seen.settings.changed,
            obj.status?.writeOnlySettings,
          ),
        },
      };
    });
  }

  /** The one settings write observe planned (an update, or a targeted list call), if any. */
  private async writeSettings(id: number, seen: PullZoneSeen, signal: AbortSignal): Promise<void> {
    const write = chooseSettingsWrite(seen.settings.changed, seen.record);
    if (write.kind === 'update') await this.opts.client.updatePullZone(id, write.body, { signal });
    if (write.kind === 'list')
      await this.opts.client[write.call.op](id, write.call.value, { signal });
  }

  /**
   * Runs the hostname calls; answers the hostname status they lead to. Certificate requests
   * and their refusals are facts a later pass must know (the retry bound): recorded at once
   * (`ctx.recordEffect`), whatever happens to this pass's status write.
   */
  private async runHostnames(
    id: number,
    obj: PullZoneConfig,
    seen: PullZoneSeen,
    ctx: ExternalContext,
  ): Promise<HostnameStatus[]> {
    const refused = new Set<string>();
    for (const action of seen.hostnames.actions)
      await this.runHostnameAction(id, action, ctx.signal, refused);
    const projected = countDnsRefusals(seen.hostnames.projected, refused, obj.status?.hostnames);
    if (seen.hostnames.actions.length > 0) ctx.recordEffect?.({ hostnames: projected });
    return projected;
  }

  /**
   * Hostname status after the hostname calls: read back once (certificates may be issued
   * at once or stay pending), carrying over what the calls established (added flags, hashes,
   * request times). Also the outputs, which list the hostnames.
   */
  private async hostnamesAfter(
    obj: PullZoneConfig,
    seen: PullZoneSeen,
    projected: HostnameStatus[],
    signal: AbortSignal,
  ): Promise<{ hostnames: HostnameStatus[]; details?: ConnectionDetails }> {
    if (seen.hostnames.actions.length === 0) return { hostnames: seen.hostnames.observed };
    const record = await this.opts.client.getPullZone(Number(seen.record.Id), { signal });
    const after = this.compare({ ...obj, status: { ...obj.status, hostnames: projected } }, record)
      .hostnames.observed;
    return { hostnames: after, details: outputsOf(obj, record, after) };
  }

  /** Runs the edge rule calls; undefined when the resource does not manage edge rules. */
  private async edgeRulesAfter(
    obj: PullZoneConfig,
    seen: PullZoneSeen,
    signal: AbortSignal,
  ): Promise<EdgeRuleStatus[] | undefined> {
    if (!obj.spec?.edgeRules && !obj.status?.edgeRules && seen.edgeRules.actions.length === 0) {
      return undefined;
    }
    const order = (obj.spec?.edgeRules ?? []).map((r) => r.name);
    const id = Number(seen.record.Id);
    return applyEdgeRules(
      this.opts.client,
      id,
      seen.edgeRules,
      seen.record.EdgeRules ?? [],
      order,
      signal,
    );
  }

  /** Runs one call; a free certificate refused for its DNS is added to `refused` (lowercase). */
  private async runHostnameAction(
    id: number,
    a: HostnameAction,
    signal: AbortSignal,
    refused: Set<string>,
  ): Promise<void> {
    const c = this.opts.client;
    const opts = { signal };
    switch (a.op) {
      case 'addHostname':
      case 'removeHostname':
      case 'removeCertificate':
        return c[a.op](id, a.hostname, opts);
      case 'setForceSSL':
        return c.setForceSSL(id, a.hostname, a.forceSSL, opts);
      case 'updatePrivateKeyType':
        return c.updatePrivateKeyType(
          id,
          { Hostname: a.hostname, KeyType: a.keyType as 0 | 1 },
          opts,
        );
      case 'loadFreeCertificate':
        return c.loadFreeCertificate(a.hostname, opts).catch((err: unknown) => {
          if (!isNotPointingError(err)) throw err;
          refused.add(a.hostname.toLowerCase());
        });
      case 'addCertificate': {
        const tls = this.opts.secrets.tls.get(a.hostname.toLowerCase());
        if (!tls)
          throw new Error(
            `cannot upload certificate of ${a.hostname}: its Secret was not resolved`,
          );
        return c.addCertificate(
          id,
          {
            hostname: a.hostname,
            certificate: tls.certificate,
            certificateKey: tls.certificateKey,
          },
          opts,
        );
      }
    }
  }

  async delete(obj: PullZoneConfig, ctx: ExternalContext): Promise<void> {
    if (!ctx.externalId || obj.spec?.deletionPolicy === 'Orphan') return;
    const id = Number(ctx.externalId);
    const deleted = await withKeyedLock(zoneLock(id), () =>
      deleteIgnoringNotFound(() => this.opts.client.deletePullZone(id, { signal: ctx.signal })),
    );
    if (deleted) ctx.log.info({ pullZoneId: id }, 'Deleted pull zone');
  }
}

/** The outputs of a zone (outputs.ts), published by the runtime when the spec asks for them. */
function outputsOf(
  obj: PullZoneConfig,
  record: PullZone,
  hostnames: HostnameStatus[],
): ConnectionDetails {
  const cdnHostname = cdnHostnameOf(record) ?? '';
  return outputsData({
    pullZoneId: String(record.Id),
    pullZoneName: record.Name ?? zoneNameOf(obj),
    cdnHostname,
    cdnUrl: cdnHostname ? `https://${cdnHostname}` : '',
    hostnames: hostnames.map((h) => h.hostname).join(','),
    ...(record.ZoneSecurityKey ? { zoneSecurityKey: record.ZoneSecurityKey } : {}),
  });
}
