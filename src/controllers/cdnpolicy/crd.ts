/** The CdnPolicy CRD schema. Rendered by hack/generate-crds.ts. */
import type { KindPart } from '../kit/kind-parts.js';
import { accountFragment } from '../shared/account-schema.js';
import {
  nameRefSchema,
  withFragments,
  type KindSchema,
  type PrinterColumn,
  type Schema,
} from '../shared/crd-schema.js';
import { booleanSchema, listSchema, objectSchema, stringSchema } from '../shared/schema-nodes.js';
import { conditionsSchema } from '../shared/status-schema.js';
import { CDN_POLICY_ANNOTATION, GATEWAY_GROUP, INGRESS_GROUP } from './types.js';

const TARGET_REF: Schema = {
  ...objectSchema(
    {
      group: {
        type: 'string',
        maxLength: 253,
        description: `API group of the target: ${GATEWAY_GROUP} for a Gateway or an HTTPRoute, ${INGRESS_GROUP} for an Ingress.`,
      },
      kind: {
        type: 'string',
        enum: ['Gateway', 'HTTPRoute', 'Ingress'],
        description:
          "Kind of the target. A Gateway: every listener's hostname, origin its status.addresses. An HTTPRoute: its hostnames, origin the status.addresses of its parent Gateway. An Ingress: its rules' hosts, origin its status.loadBalancer.",
      },
      name: { type: 'string', minLength: 1, maxLength: 253, description: 'Name of the target.' },
      namespace: {
        type: 'string',
        maxLength: 63,
        description:
          "Namespace of the target; only the policy's own namespace is allowed (direct attachment, one namespace). Any other is refused: Accepted=False TargetNotPermitted.",
      },
    },
    {
      description: 'One Gateway, HTTPRoute or Ingress the policy attaches to.',
      required: ['group', 'kind', 'name'],
    },
  ),
  'x-kubernetes-validations': [
    {
      rule: "self.kind == 'Ingress' ? self.group == 'networking.k8s.io' : self.group == 'gateway.networking.k8s.io'",
      message:
        'group must be networking.k8s.io for an Ingress and gateway.networking.k8s.io for a Gateway or an HTTPRoute',
    },
  ],
};

const TEMPLATE_NOTE =
  "Validated by that kind's CRD when the composition applies it: an invalid template shows as Accepted=False ApplyFailed with the apiserver's message.";

const SPEC: Schema = withFragments(
  objectSchema(
    {
      targetRefs: listSchema(
        `The routes the policy puts the CDN in front of (Gateway API policy attachment, direct). An Ingress may instead name the policy in its annotation ${CDN_POLICY_ANNOTATION}. A route two policies target is held by the older one; the newer is refused (Accepted=False Conflicted).`,
        TARGET_REF,
        { maxItems: 16 },
      ),
      dnsZoneRefs: listSchema(
        "DnsZone objects of this namespace in which the routes' hostnames are published: one DnsRecord per hostname, in the zone whose domain is the longest suffix of it. A hostname in none of them is reported (HostnameNotInZones) and not published; a zone that is not in this namespace or belongs to another account is refused (ZoneNotAllowed).",
        nameRefSchema('One DnsZone of this namespace.', 'Name of the DnsZone.'),
        { maxItems: 16 },
      ),
      origin: objectSchema(
        {
          scheme: {
            type: 'string',
            enum: ['HTTP', 'HTTPS'],
            description: "How the edge reaches the route's address (default HTTP).",
          },
          port: {
            type: 'integer',
            minimum: 1,
            maximum: 65535,
            description: "Port of the route's address (default: the scheme's).",
          },
        },
        { description: "How the pull zone reaches the route's address (its origin URL)." },
      ),
      pullZone: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        description: `A PullZoneConfig spec (settings, edgeRules, optimizer classes, cache, ...) for every route. The composition sets settings.originUrl from the route's address, hostnames (each with a free certificate), accountRef, credentialsRef and deletionPolicy itself. ${TEMPLATE_NOTE}`,
      },
      shieldPolicy: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        description: `A ShieldPolicy spec (waf, ddos, botDetection, ...): when set, one ShieldPolicy per route protects its pull zone. The composition sets pullZoneRef, accountRef, credentialsRef and deletionPolicy itself. ${TEMPLATE_NOTE}`,
      },
      deletionPolicy: {
        type: 'string',
        enum: ['Delete', 'Orphan'],
        description:
          'What happens to the objects made for a route when the policy is deleted or the route detached. Delete (default): they are deleted, and their platform resources with them (a ShieldPolicy is Reset). Orphan: they are left, without owner, as ordinary objects of the namespace.',
      },
    },
    {
      description:
        'Which routes get the CDN, in which DNS zones their hostnames are published and how the pull zone and shield are set.',
      required: ['dnsZoneRefs'],
    },
  ),
  [accountFragment()],
);

const ANCESTOR: Schema = objectSchema(
  {
    ancestorRef: objectSchema(
      {
        group: stringSchema('API group of the target.'),
        kind: stringSchema('Kind of the target.'),
        namespace: stringSchema('Namespace of the target.'),
        name: stringSchema('Name of the target.'),
      },
      { description: 'The target (Gateway API ParentReference).', required: ['name'] },
    ),
    controllerName: stringSchema('The controller that wrote this entry (cdn.operator.io/routes).'),
    conditions: conditionsSchema(
      'Accepted: the policy applies to this target (reasons Accepted, Conflicted, TargetNotFound, TargetNotPermitted, Invalid).',
    ),
  },
  {
    description: "The policy's status for one target (Gateway API PolicyAncestorStatus).",
    required: ['ancestorRef', 'controllerName'],
  },
);

const GENERATED: Schema = objectSchema(
  {
    kind: stringSchema('PullZoneConfig, DnsRecord or ShieldPolicy.'),
    name: stringSchema('Name of the object, in this namespace.'),
    ready: booleanSchema('The object reports Ready=True.'),
  },
  { description: 'One object the policy made.', required: ['kind', 'name', 'ready'] },
);

const STATUS: Schema = objectSchema(
  {
    conditions: conditionsSchema(
      'Accepted: every target and hostname is taken (False names the first refusal). Ready: every generated object is Ready.',
    ),
    observedGeneration: {
      type: 'integer',
      format: 'int64',
      description: 'The metadata.generation the status was computed for.',
    },
    ancestors: {
      ...listSchema('One entry per target (Gateway API PolicyAncestorStatus).', ANCESTOR, {
        maxItems: 16,
      }),
    },
    generated: listSchema('The objects the policy made, in this namespace.', GENERATED),
  },
  { description: 'Observed state of the policy, written by the composition controller.' },
);

const COLUMNS: readonly PrinterColumn[] = [
  {
    name: 'ACCEPTED',
    type: 'string',
    jsonPath: ".status.conditions[?(@.type=='Accepted')].status",
  },
  { name: 'READY', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
  {
    name: 'TARGETS',
    type: 'string',
    description: 'Names of the targets.',
    jsonPath: '.spec.targetRefs[*].name',
  },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** The CdnPolicy schema (cdnpolicies). */
export function cdnPolicySchema(): KindSchema {
  return {
    description:
      "Puts the CDN in front of Gateways, HTTPRoutes or Ingresses of its namespace: per route a PullZoneConfig whose origin is the route's address, with its hostnames and free certificates, one DnsRecord per hostname and optionally a ShieldPolicy, all ordinary objects owned by the policy (docs/routes.md).",
    requireSpec: true,
    spec: SPEC,
    status: STATUS,
    columns: COLUMNS,
    categories: ['cdn'],
  };
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = cdnPolicySchema;
