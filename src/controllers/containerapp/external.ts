/**
 * The ContainerApp ExternalClient: observe (read-only), create (`POST /mc/apps`), update
 * (`PATCH`, or `PUT` when a setting PATCH cannot carry changed) and delete. The application's
 * log forwarding (`spec.logForwarding`) is observed and written beside it
 * (log-forwarding-sync.ts); it goes with the application when the application is deleted.
 *
 * References (Secret/ConfigMap values, PullZoneConfig ids) are resolved on each observe,
 * create and update, never on deletion, so a missing reference cannot block a delete.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { App, ContainerTemplateRead } from '../../cdn/types.js';
import { TerminalError } from '../../runtime/errors.js';
import { createNameOf, isProvisionalName, locate, type IdentityRules } from '../kit/identity.js';
import { deleteIgnoringNotFound, isNotFound, readUnlessGone } from '../shared/not-found.js';
import type {
  CreateResult,
  ExternalClient,
  ExternalContext,
  FieldDiff,
  Observation,
} from '../../runtime/types.js';
import { compareApp, isUpToDate } from './diff.js';
import { mapWriteErrors } from './errors.js';
import { specPathForField } from './field-path.js';
import {
  toContainerStatus,
  toCreateBody,
  toDesiredApp,
  toVolumeStatus,
  writeOnlyOf,
  type DesiredApp,
  type ResolvedRefs,
} from './mapping.js';
import {
  buildPatch,
  buildReplaceBody,
  needsReplace,
  needsVolumeIds,
  type VolumeIds,
} from './patch.js';
import type { LogForwardingPlan } from './log-forwarding.js';
import {
  applyLogForwarding,
  observeLogForwarding,
  type LogForwardingApi,
} from './log-forwarding-sync.js';
import { describeChanges } from './planned-changes.js';
import { environmentHash } from './references.js';
import {
  CONTAINER_APP_NAMES,
  type ContainerApp,
  type ContainerAppStatus,
  type WriteOnlyRecord,
} from './types.js';
import { samePlatformName } from '../../cdn/platform-names.js';

/** The subset of the CDN client this kind uses (a seam for tests). */
export type AppsApi = Pick<
  CdnClient,
  | 'listApps'
  | 'getApp'
  | 'createApp'
  | 'replaceApp'
  | 'patchApp'
  | 'deleteApp'
  | 'getContainer'
  | 'listVolumes'
> &
  LogForwardingApi;

/** Claim type of applications (the runtime's default: the kind). */
export const APP_CLAIM = 'ContainerApp';
/** Ready reason while the platform reports the application as failing or suspended. */
export const AppUnavailable = 'AppUnavailable';

const UNAVAILABLE_STATES = new Set(['failing', 'suspended']);

interface Desired {
  desired: DesiredApp;
  refs: ResolvedRefs;
}

/** What observe saw, for the update of the same pass (no second read). */
export interface AppSeen {
  d: Desired;
  appUpToDate: boolean;
  /** Undefined: the object has nothing to say about log forwarding (nothing was read). */
  forwarding?: LogForwardingPlan;
}

function secretValues(d: Desired): string[] {
  return [...d.refs.secretEnv].map((k) => d.refs.env.get(k)).filter((v): v is string => !!v);
}

/** Up to date when the application and its log forwarding (if this object has one) are. */
function verdict(
  appUpToDate: boolean,
  appDiff: FieldDiff[],
  forwarding: LogForwardingPlan | undefined,
): Pick<Observation, 'upToDate' | 'diff'> {
  const diff = [...appDiff, ...(forwarding?.diffs ?? [])];
  const upToDate = appUpToDate && (forwarding === undefined || forwarding.action === 'none');
  return { upToDate, diff: upToDate ? [] : diff };
}

/** `notReady` while the platform reports the application as failing or suspended. */
function unavailability(appId: string, live: App): Pick<Observation, 'notReady'> {
  if (!UNAVAILABLE_STATES.has(live.status)) return {};
  const message = `the platform reports application ${appId} as ${live.status}`;
  return { notReady: { reason: AppUnavailable, message } };
}

function recordedWriteOnly(obj: ContainerApp, appId: string): WriteOnlyRecord | undefined {
  // Only trust the record when it was made for this very application.
  return obj.status?.appId === appId ? obj.status.appliedWriteOnly : undefined;
}

/** How applications are found: by id, else by name (not unique on the platform). */
export function appIdentity(api: AppsApi): IdentityRules<App, ContainerApp> {
  return {
    what: 'application',
    claimType: APP_CLAIM,
    names: CONTAINER_APP_NAMES.platformNames,
    nameOf: (obj) => obj.spec.name,
    read: (id, signal) => api.getApp(id, { signal }),
    // A listing answers summaries (AppListItem): a match is read again by id.
    search: (_name, signal) => api.listApps({ signal }) as Promise<App[]>,
    summaries: true,
    idOf: (a) => a.id,
    recordNameOf: (a) => a.name,
    sameName: (live, wanted) => samePlatformName('containerApp', live, wanted),
  };
}

/** ExternalClient of one ContainerApp, bound to one account's CDN client. */
export class ContainerAppExternal implements ExternalClient<ContainerApp, AppSeen> {
  private readonly identity: IdentityRules<App, ContainerApp>;

  constructor(
    private readonly api: AppsApi,
    private readonly resolve: (obj: ContainerApp) => Promise<ResolvedRefs>,
    /** Account fingerprint (claims conflict only within one account). */
    readonly account?: string,
  ) {
    this.identity = appIdentity(api);
  }

  async observe(obj: ContainerApp, ctx: ExternalContext): Promise<Observation<AppSeen>> {
    const located = await locate(this.identity, obj, ctx);
    if (!located) return { exists: false, upToDate: false, diff: [] };
    const { id: appId, record: live } = located;
    const found = appId !== ctx.externalId ? { externalId: appId } : {};
    if (obj.metadata.deletionTimestamp) return { exists: true, upToDate: true, diff: [], ...found };
    const d = await this.desiredOf(obj);
    const recorded = recordedWriteOnly(obj, appId);
    const cmp = compareApp(d.desired, live, recorded);
    const status: Record<string, unknown> = {
      ...(await this.observedStatus(obj, appId, live, d.refs, ctx)),
    };
    const token = d.refs.logForwardingToken;
    const forwarding = await observeLogForwarding(this.api, obj, appId, token, ctx);
    const appUpToDate = isUpToDate(cmp);
    const appDiff = appUpToDate ? [] : describeChanges(cmp, d.desired, live, recorded);
    return {
      exists: true,
      ...found,
      ...verdict(appUpToDate, appDiff, forwarding),
      status: forwarding ? { ...status, logForwarding: forwarding.status } : status,
      ...unavailability(appId, live),
      seen: { d, appUpToDate, ...(forwarding ? { forwarding } : {}) },
    };
  }

  async create(obj: ContainerApp, ctx: ExternalContext): Promise<CreateResult> {
    const d = await this.desiredOf(obj);
    // Under the provisional name (identity.ts): the update of the same pass sets the real one.
    const body = { ...toCreateBody(d.desired), name: createNameOf(this.identity, obj, ctx)! };
    const answer = await mapWriteErrors(
      () => this.api.createApp(body, { signal: ctx.signal }),
      specPathForField(d.desired, obj.spec),
      secretValues(d),
    );
    const appId = answer.id;
    ctx.log.debug({ appId }, 'Created container application');
    // Nothing else is read here: the id must reach status as soon as possible.
    // The rename that follows in this pass removes the proof: the id goes to status first.
    const recordFirst = isProvisionalName(body.name);
    return { externalId: appId, status: this.appliedStatus(obj, appId, d), recordFirst };
  }

  /**
   * Applies what observe found different: the application (one PATCH or PUT) unless it was up
   * to date, then the log forwarding configuration (one POST, PUT or DELETE) when it differs.
   * With an observation this client did not make, both are read again.
   */
  async update(
    obj: ContainerApp,
    observation: Observation<AppSeen>,
    ctx: ExternalContext,
  ): Promise<{ status?: Record<string, unknown> } | void> {
    const appId = ctx.externalId!;
    const seen = observation.seen;
    const d = seen?.d ?? (await this.desiredOf(obj));
    const status = seen?.appUpToDate ? {} : await this.updateApp(obj, appId, d, ctx);
    const forwarding = seen
      ? seen.forwarding
      : await observeLogForwarding(this.api, obj, appId, d.refs.logForwardingToken, ctx);
    if (forwarding && forwarding.action !== 'none') {
      status.logForwarding = await applyLogForwarding(this.api, obj, appId, forwarding, ctx);
    }
    return { status };
  }

  /** The application's PATCH or PUT; returns the status fields it learned. */
  private async updateApp(
    obj: ContainerApp,
    appId: string,
    d: Desired,
    ctx: ExternalContext,
  ): Promise<Record<string, unknown>> {
    const live = await this.readApp(appId, ctx);
    if (!live) throw new TerminalError('NotFound', `cannot update application ${appId}: not found`);
    const recorded = recordedWriteOnly(obj, appId);
    const cmp = compareApp(d.desired, live, recorded);
    const mapper = specPathForField(d.desired, obj.spec);
    const opts = { signal: ctx.signal };
    if (needsReplace(cmp)) {
      const body = buildReplaceBody(d.desired, cmp, live, recorded);
      await mapWriteErrors(() => this.api.replaceApp(appId, body, opts), mapper, secretValues(d));
      ctx.log.info({ appId }, 'Replaced container application');
    } else {
      const patch = buildPatch(d.desired, cmp, await this.volumeIds(appId, cmp, ctx));
      if (!patch) return this.appliedStatus(obj, appId, d, recorded);
      await mapWriteErrors(() => this.api.patchApp(appId, patch, opts), mapper, secretValues(d));
      ctx.log.info({ appId, fields: Object.keys(patch) }, 'Patched container application');
    }
    const after = await this.readApp(appId, ctx);
    const observed = after ? await this.observedStatus(obj, appId, after, d.refs, ctx) : {};
    return { ...observed, ...this.appliedStatus(obj, appId, d, recorded) };
  }

  async delete(_obj: ContainerApp, ctx: ExternalContext): Promise<void> {
    const appId = ctx.externalId;
    if (!appId) return;
    const deleted = await deleteIgnoringNotFound(() =>
      this.api.deleteApp(appId, { signal: ctx.signal }),
    );
    if (deleted) ctx.log.info({ appId }, 'Deleted container application');
  }

  private async desiredOf(obj: ContainerApp): Promise<Desired> {
    const refs = await this.resolve(obj);
    return { desired: toDesiredApp(obj.spec, refs), refs };
  }

  /** After create/replace: the write-only settings now in force and the env hash. */
  private appliedStatus(
    obj: ContainerApp,
    appId: string,
    d: Desired,
    previous?: WriteOnlyRecord,
  ): Record<string, unknown> {
    const applied = { ...previous, ...writeOnlyOf(d.desired) };
    const hash = environmentHash(obj.metadata.uid, d.refs);
    return {
      appId,
      appliedWriteOnly: applied,
      ...(hash ? { environmentHash: hash } : {}),
    };
  }

  private async observedStatus(
    obj: ContainerApp,
    appId: string,
    live: App,
    refs: ResolvedRefs,
    ctx: ExternalContext,
  ): Promise<ContainerAppStatus> {
    const containers: ContainerTemplateRead[] = [];
    for (const t of live.containerTemplates ?? [])
      containers.push(await this.readContainer(appId, t, ctx));
    const hash = environmentHash(obj.metadata.uid, refs);
    return {
      appStatus: live.status,
      containers: containers.map(toContainerStatus),
      volumes: (live.volumes ?? []).map(toVolumeStatus),
      ...(hash ? { environmentHash: hash } : {}),
    };
  }

  /** One container template read back; the app's copy when it vanished meanwhile. */
  private async readContainer(
    appId: string,
    template: ContainerTemplateRead,
    ctx: ExternalContext,
  ): Promise<ContainerTemplateRead> {
    try {
      return await this.api.getContainer(appId, template.id, { signal: ctx.signal });
    } catch (err) {
      if (isNotFound(err)) return template;
      throw err;
    }
  }

  /** Ids of the live volumes when a PATCH must name them (only then: one read less). */
  private async volumeIds(
    appId: string,
    cmp: ReturnType<typeof compareApp>,
    ctx: ExternalContext,
  ): Promise<VolumeIds> {
    if (!needsVolumeIds(cmp)) return new Map();
    const listed = await this.api.listVolumes(appId, { signal: ctx.signal });
    return new Map(listed.filter((v) => v.name && v.id).map((v) => [v.name!, v.id!]));
  }

  private readApp(appId: string, ctx: ExternalContext): Promise<App | undefined> {
    return readUnlessGone(() => this.api.getApp(appId, { signal: ctx.signal }));
  }
}
