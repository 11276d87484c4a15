/**
 * The ContainerApp CRD schema: the field table below (descriptions written for this project)
 * with every bound, enum and pattern the official Magic Containers document gives read from it
 * at generation time (`doc(...)`), so `kubectl apply` refuses what the platform would refuse.
 * Account, adoption and status fragments are shared with the other kinds. Rendered by
 * hack/generate-crds.ts.
 */
import {
  nameRefSchema,
  objectNameSchema,
  type BoundKey,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { managedKindSchema } from '../shared/managed-spec.js';
import { APP_ID_PATTERN, REGISTRY_ID_PATTERN } from '../shared/platform-id.js';
import { booleanSchema, listSchema, objectSchema, stringSchema } from '../shared/schema-nodes.js';
import { LOG_FORWARDING_STATUS, logForwardingSpecSchema } from './log-forwarding-crd.js';
import { ANYCAST_IP_VERSION_NAMES, ENDPOINT_TYPE_NAMES, PROTOCOL_NAMES } from './wire-enums.js';
import { specEnumOf } from '../kit/enum-spelling.js';
import type { KindPart } from '../kit/kind-parts.js';

/** Bounds of a property of the Magic Containers document (`Schema.property`). */
type Doc = (path: string, take?: BoundKey[]) => Schema;

const PROBE_TIMING = {
  initialDelaySeconds:
    'Seconds after the container starts before the first probe (platform default when unset).',
  periodSeconds: 'Seconds between two probes (platform default when unset).',
  timeoutSeconds: 'Seconds after which one probe counts as failed (platform default when unset).',
  failureThreshold:
    'Failed probes in a row after which the probe is considered failing (platform default when unset).',
  successThreshold:
    'Successful probes in a row after which the probe is considered passing again (platform default when unset).',
} as const;

function port(doc: Doc, description: string, docPath: string): Schema {
  return { type: 'integer', ...doc(docPath), description };
}

/** A key of a Secret or ConfigMap of this namespace that an environment variable takes. */
function sourceKeyRefSchema(source: 'Secret' | 'ConfigMap'): Schema {
  return objectSchema(
    {
      name: objectNameSchema(`Name of a ${source} in the same namespace.`),
      key: objectNameSchema(`Key inside the ${source} data.`),
      optional: booleanSchema(
        `When true, a missing ${source} or key leaves the variable out instead of holding the update back.`,
      ),
    },
    {
      description: `One key of a ${source} in the namespace of this resource. The operator reads it and watches the ${source}: a change updates the application.`,
      required: ['name', 'key'],
    },
  );
}

/** One port mapping of an endpoint: the container's port, the exposed one, the protocols. */
function portMappingSchema(doc: Doc): Schema {
  return {
    type: 'object',
    required: ['containerPort'],
    properties: {
      containerPort: {
        type: 'integer',
        minimum: 1,
        maximum: 65535,
        format: 'int32',
        description: 'Port the container listens on.',
        ...doc('ContainerPortMappingRequest.containerPort'),
      },
      exposedPort: {
        type: 'integer',
        minimum: 1,
        maximum: 65535,
        format: 'int32',
        description: 'Port exposed to clients (the platform chooses when unset).',
        ...doc('ContainerPortMappingRequest.exposedPort'),
      },
      protocols: {
        type: 'array',
        description: 'Transport protocols of the mapping.',
        maxItems: 3,
        'x-kubernetes-list-type': 'set',
        items: { type: 'string', ...specEnumOf(PROTOCOL_NAMES, doc('Protocol')) },
      },
    },
  };
}

/** `endpoints[].anycast`: the container on an anycast IP address (AnycastEndpointRequest). */
function anycastEndpointSchema(doc: Doc): Schema {
  return objectSchema(
    {
      ipVersion: {
        type: 'string',
        description:
          "Address family of the anycast address (the platform's anycast.type); IPv4 when unset, the only one the platform offers.",
        ...specEnumOf(ANYCAST_IP_VERSION_NAMES, doc('AnycastIpProtocolVersion')),
      },
      portMappings: {
        type: 'array',
        description:
          'The ports clients reach on the anycast address and the container ports they lead to. Owned whole by this resource.',
        minItems: 1,
        maxItems: 20,
        'x-kubernetes-list-type': 'atomic',
        items: portMappingSchema(doc),
        ...doc('AnycastEndpointRequest.portMappings'),
      },
    },
    {
      description:
        'Expose the container on an anycast IP address the platform assigns (status.containers[].endpoints[].publicIpAddresses); traffic goes to the nearest region. Not together with cdn; changing an endpoint between cdn and anycast replaces it.',
      required: ['portMappings'],
    },
  );
}

/** One environment variable: a literal value or a Secret or ConfigMap key, not both. */
function environmentVariableSchema(doc: Doc): Schema {
  const valueFrom = objectSchema(
    {
      secretKeyRef: sourceKeyRefSchema('Secret'),
      configMapKeyRef: sourceKeyRefSchema('ConfigMap'),
    },
    {
      description:
        'Take the value from a Secret or ConfigMap key. A value read from a Secret never appears in status, events or logs.',
    },
  );
  const properties = {
    name: {
      ...objectNameSchema('Variable name.'),
      ...doc('EnvironmentVariable.name', ['minLength']),
    },
    value: stringSchema('Literal value.'),
    valueFrom: {
      ...valueFrom,
      'x-kubernetes-validations': [
        {
          rule: 'has(self.secretKeyRef) != has(self.configMapKeyRef)',
          message: 'valueFrom needs exactly one of secretKeyRef and configMapKeyRef',
        },
      ],
    },
  };
  return {
    ...objectSchema(properties, { required: ['name'] }),
    'x-kubernetes-validations': [
      {
        rule: '!(has(self.value) && has(self.valueFrom))',
        message: 'set value or valueFrom, not both',
      },
    ],
  };
}

/** One probe (startup, readiness or liveness); only one of httpGet, tcpSocket and grpc. */
function probe(doc: Doc, description: string): Schema {
  const timing = Object.fromEntries(
    Object.entries(PROBE_TIMING).map(([field, text]) => [
      field,
      { type: 'integer', ...doc(`ContainerProbe.${field}`), description: text },
    ]),
  );
  return {
    type: 'object',
    description,
    properties: {
      ...timing,
      httpGet: {
        type: 'object',
        description: 'Probe with an HTTP GET request.',
        properties: {
          request: {
            type: 'object',
            description: 'The request the probe sends.',
            properties: {
              path: { type: 'string', description: 'HTTP path requested, e.g. /healthz.' },
              portNumber: port(
                doc,
                'Container port the request is sent to.',
                'HttpGetProbeRequestDetails.portNumber',
              ),
            },
          },
          response: {
            type: 'object',
            description: 'What the answer must look like for the probe to pass.',
            properties: {
              expectedStatusCode: {
                type: 'integer',
                minimum: 100,
                maximum: 599,
                description:
                  'HTTP status code the answer must have (200). Sent to the platform by its name there (ok); a code the platform does not name is reported in Synced.',
              },
            },
          },
        },
      },
      tcpSocket: {
        type: 'object',
        description: 'Probe that opens a TCP connection.',
        properties: {
          request: {
            type: 'object',
            description: 'The connection the probe opens.',
            properties: {
              portNumber: port(
                doc,
                'Container port that must accept a TCP connection.',
                'TcpSocketProbeRequestDetails.portNumber',
              ),
            },
          },
        },
      },
      grpc: {
        type: 'object',
        description: 'Probe using the gRPC health checking protocol.',
        properties: {
          request: {
            type: 'object',
            description: 'The health check the probe sends.',
            properties: {
              portNumber: port(
                doc,
                'Container port of the gRPC server.',
                'GrpcProbeRequestDetails.portNumber',
              ),
              serviceName: {
                type: 'string',
                description: 'Service whose health is asked for; the server as a whole when unset.',
              },
            },
          },
        },
      },
    },
    'x-kubernetes-validations': [
      {
        rule: '[has(self.httpGet), has(self.tcpSocket), has(self.grpc)].filter(x, x).size() <= 1',
        message: 'a probe uses at most one of httpGet, tcpSocket and grpc',
      },
    ],
  };
}

function ownSpec(doc: Doc): Schema {
  return {
    type: 'object',
    description: 'Desired state of one container application.',
    required: ['name', 'autoScaling', 'containerTemplates'],
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        pattern: '^[A-Za-z0-9 -]+$',
        description:
          'Name of the application on the platform (letters, digits, dashes and spaces).',
        ...doc('AddApplicationRequest.name', ['minLength', 'maxLength']),
      },
      autoScaling: {
        type: 'object',
        description: 'Instance count range the platform scales within.',
        required: ['min', 'max'],
        properties: {
          min: {
            type: 'integer',
            minimum: 1,
            format: 'int32',
            description: 'Fewest instances.',
            ...doc('AutoscalingSettings.min'),
          },
          max: {
            type: 'integer',
            minimum: 1,
            format: 'int32',
            description: 'Most instances.',
            ...doc('AutoscalingSettings.max'),
          },
        },
        'x-kubernetes-validations': [
          {
            rule: 'self.min <= self.max',
            message: 'autoScaling.min must be less than or equal to autoScaling.max',
          },
        ],
      },
      regionSettings: {
        type: 'object',
        description: 'Where the application runs. A field left out keeps the platform value.',
        properties: {
          allowedRegionIds: {
            type: 'array',
            description: 'Regions the application may run in, by region id (e.g. DE).',
            maxItems: 100,
            'x-kubernetes-list-type': 'set',
            items: {
              type: 'string',
            },
          },
          requiredRegionIds: {
            type: 'array',
            description: 'Regions the application always runs in.',
            maxItems: 100,
            'x-kubernetes-list-type': 'set',
            items: {
              type: 'string',
            },
          },
          maxAllowedRegions: {
            type: 'integer',
            minimum: 1,
            format: 'int32',
            description: 'Most regions the application runs in at once.',
            ...doc('UpdateRegionSettingsRequest.maxAllowedRegions'),
          },
          nodeSelectors: {
            type: 'object',
            additionalProperties: {
              type: 'string',
            },
            description:
              'Labels the nodes running the application must carry. The platform does not report them back; the operator records what it applied in status.appliedWriteOnly.',
          },
        },
      },
      terminationGracePeriodSeconds: {
        type: 'integer',
        minimum: 1,
        format: 'int64',
        description:
          'Seconds a stopping container gets to shut down. Changing it replaces the application configuration (PUT), see docs/containerapp.md.',
        ...doc('AddApplicationRequest.terminationGracePeriodSeconds'),
      },
      repositorySettings: {
        type: 'object',
        description:
          'Source repository information. Changing it replaces the application configuration (PUT).',
        properties: {
          templateRepository: {
            type: 'string',
            description: 'Template repository the application was made from.',
          },
          repositoryName: {
            type: 'string',
            description: 'Source repository name.',
          },
          owner: {
            type: 'string',
            description: 'Owner of the source repository.',
          },
        },
      },
      containerTemplates: {
        type: 'array',
        description:
          'Containers of the application, identified by name. Owned by this resource: a container removed here is deleted on the platform; the others keep their platform ids.',
        maxItems: 50,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name', 'imageName', 'imageNamespace', 'imageTag'],
          'x-kubernetes-validations': [
            {
              rule: 'has(self.imageRegistryId) != has(self.registryRef)',
              message: 'set exactly one of imageRegistryId (a raw registry id) and registryRef',
            },
          ],
          properties: {
            name: {
              type: 'string',
              minLength: 1,
              maxLength: 50,
              description: 'Container name; identifies the container in the application.',
              ...doc('ContainerRequest.name'),
            },
            image: {
              type: 'string',
              description:
                'Full image reference. Optional: the platform derives it from the parts below when unset.',
            },
            imageName: {
              type: 'string',
              minLength: 1,
              maxLength: 255,
              description: 'Image repository name, e.g. nginx.',
              ...doc('ContainerRequest.imageName'),
            },
            imageNamespace: {
              type: 'string',
              minLength: 1,
              maxLength: 255,
              description: 'Image namespace or owner, e.g. library.',
              ...doc('ContainerRequest.imageNamespace'),
            },
            imageTag: {
              type: 'string',
              minLength: 1,
              maxLength: 255,
              description: 'Image tag, e.g. 1.27. Changing it rolls out the new image.',
              ...doc('ContainerRequest.imageTag'),
            },
            imageRegistryId: {
              type: 'string',
              minLength: 1,
              maxLength: 255,
              pattern: REGISTRY_ID_PATTERN,
              description:
                "Registry the image is pulled from, as the platform identifies it: a public registry's name (dockerhub, github) or a registry id (digits, no sign or leading zero) managed elsewhere. A registry managed by a ContainerRegistry of another namespace is refused (ReferenceNotAllowed). Exactly one of imageRegistryId and registryRef.",
              ...doc('ContainerRequest.imageRegistryId'),
            },
            registryRef: nameRefSchema(
              'The ContainerRegistry in this namespace the image is pulled from: its status.registryId is sent as the registry id (the app waits, Synced=False ReferenceNotReady, until the registry has one). Exactly one of imageRegistryId and registryRef.',
              'Name of the ContainerRegistry.',
            ),
            imageDigest: {
              type: 'string',
              pattern: '^sha256:[a-z0-9]{64}$',
              description: 'Pin the image to this digest (sha256:...).',
              ...doc('ContainerRequest.imageDigest'),
            },
            imagePullPolicy: {
              type: 'string',
              enum: ['Always', 'IfNotPresent'],
              description:
                'When the image is pulled: Always, or IfNotPresent (only when not cached).',
            },
            entryPoint: {
              type: 'object',
              description:
                'Overrides of the image entry point. Fields left out keep the platform value.',
              properties: {
                command: {
                  type: 'string',
                  description: 'Command line that replaces the image entry point.',
                },
                commandArray: {
                  type: 'array',
                  description: 'Command as separate arguments.',
                  items: {
                    type: 'string',
                  },
                },
                arguments: {
                  type: 'string',
                  description: 'Arguments passed to the command.',
                },
                argumentsArray: {
                  type: 'array',
                  description: 'Arguments as separate items.',
                  items: {
                    type: 'string',
                  },
                },
                workingDirectory: {
                  type: 'string',
                  description: 'Working directory of the process.',
                },
              },
            },
            probes: {
              type: 'object',
              description:
                'Health probes. A probe or probe field left out keeps the platform value.',
              properties: {
                startup: probe(
                  doc,
                  'Checks that the container has started; the other probes wait until it passes.',
                ),
                readiness: probe(
                  doc,
                  'Checks that the container can serve traffic; a failing container gets no requests.',
                ),
                liveness: probe(
                  doc,
                  'Checks that the container still works; a failing container is restarted.',
                ),
              },
            },
            environmentVariables: listSchema(
              'Environment variables. The list is owned by this resource: a variable removed here is removed from the container.',
              environmentVariableSchema(doc),
              { maxItems: 200, key: 'name' },
            ),
            endpoints: {
              type: 'array',
              description:
                'Ways to reach the container. Owned by this resource: an endpoint removed here is deleted on the platform.',
              maxItems: 20,
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['displayName'],
              items: {
                type: 'object',
                required: ['displayName'],
                properties: {
                  displayName: {
                    type: 'string',
                    minLength: 1,
                    maxLength: 50,
                    description:
                      "Name of the endpoint; identifies it within the container (the platform's displayName).",
                    ...doc('EndpointRequest.displayName'),
                  },
                  cdn: {
                    type: 'object',
                    description:
                      'Expose the container through the CDN. When neither pullZoneId nor pullZoneRef is set, the platform creates and manages a pull zone for the endpoint.',
                    properties: {
                      sslEnabled: {
                        type: 'boolean',
                        description: "Serve the endpoint over HTTPS (the platform's isSslEnabled).",
                      },
                      pullZoneId: {
                        type: 'integer',
                        minimum: 1,
                        description: 'Pull zone, by platform id, that fronts the endpoint.',
                        ...doc('CdnEndpointRequest.pullZoneId'),
                        // int64 like every pull zone id (the document says int32).
                        format: 'int64',
                      },
                      pullZoneRef: nameRefSchema(
                        'A PullZoneConfig in the same namespace whose pull zone fronts the endpoint. The operator waits (condition reason ReferenceNotReady) until that resource reports a pull zone id.',
                        'Name of a PullZoneConfig in the same namespace.',
                      ),
                      portMappings: {
                        type: 'array',
                        description:
                          'The port the endpoint forwards to (the platform accepts exactly one mapping).',
                        minItems: 1,
                        maxItems: 1,
                        'x-kubernetes-list-type': 'atomic',
                        items: portMappingSchema(doc),
                        ...doc('CdnEndpointRequest.portMappings'),
                      },
                      stickySessions: {
                        type: 'object',
                        description: 'Session affinity.',
                        required: ['sessionHeaders'],
                        properties: {
                          enabled: {
                            type: 'boolean',
                            description: 'Route a client to the same instance.',
                          },
                          sessionHeaders: {
                            type: 'array',
                            description: 'Request headers that identify a session.',
                            minItems: 1,
                            maxItems: 3,
                            items: {
                              type: 'string',
                            },
                            ...doc('StickySessionSettings.sessionHeaders'),
                          },
                          cookieName: {
                            type: 'string',
                            description: 'Cookie that identifies a session.',
                          },
                        },
                      },
                    },
                    'x-kubernetes-validations': [
                      {
                        rule: '!(has(self.pullZoneId) && has(self.pullZoneRef))',
                        message: 'set pullZoneId or pullZoneRef, not both',
                      },
                    ],
                  },
                  anycast: anycastEndpointSchema(doc),
                },
                'x-kubernetes-validations': [
                  {
                    rule: '!(has(self.cdn) && has(self.anycast))',
                    message: 'an endpoint is either cdn or anycast, not both',
                  },
                ],
              },
            },
            volumeMounts: {
              type: 'array',
              description: 'Volumes mounted into the container, one per path.',
              maxItems: 20,
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['mountPath'],
              items: {
                type: 'object',
                required: ['name', 'mountPath'],
                properties: {
                  name: {
                    type: 'string',
                    minLength: 1,
                    maxLength: 50,
                    description: 'Name of a volume in spec.volumes.',
                    ...doc('VolumeMountRequest.name'),
                  },
                  mountPath: {
                    type: 'string',
                    minLength: 1,
                    pattern: '^/',
                    description: 'Absolute path inside the container.',
                    ...doc('VolumeMountRequest.mountPath'),
                  },
                },
              },
            },
          },
        },
        minItems: 1,
      },
      volumes: {
        type: 'array',
        description:
          'Persistent volumes, identified by name. Owned by this resource: a volume removed here is deleted on the platform, with its data.',
        maxItems: 50,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name', 'sizeGigabytes'],
          properties: {
            name: {
              type: 'string',
              minLength: 1,
              maxLength: 50,
              description: 'Volume name; identifies the volume.',
              ...doc('VolumeRequest.name'),
            },
            sizeGigabytes: {
              type: 'integer',
              minimum: 1,
              format: 'int32',
              description: "Size in gigabytes (the platform's size).",
              ...doc('VolumeRequest.size'),
            },
          },
        },
      },
      logForwarding: logForwardingSpecSchema(doc),
    },
  };
}

/** One IP address of an endpoint, in status. */
function addresses(description: string): Schema {
  return {
    type: 'array',
    description,
    items: {
      type: 'object',
      properties: {
        address: { type: 'string', description: 'The IP address.' },
        region: { type: 'string', description: 'Region the address is served from.' },
      },
    },
  };
}

const ENDPOINT_STATUS: Schema = {
  type: 'object',
  properties: {
    displayName: { type: 'string', description: 'Name of the endpoint (spec displayName).' },
    id: { type: 'string', description: 'Platform id of the endpoint.' },
    type: {
      type: 'string',
      description: `The endpoint's type: ${Object.keys(ENDPOINT_TYPE_NAMES).join(', ')} (InternalIP is the platform's publicIp type).`,
    },
    publicHost: {
      type: 'string',
      description: 'Host name (CDN) or address (Anycast) clients use to reach the endpoint.',
    },
    pullZoneId: {
      type: 'integer',
      format: 'int64',
      description: 'Id of the pull zone fronting the endpoint.',
    },
    portMappings: {
      type: 'array',
      description: 'Port mappings as the platform reports them, with the exposed ports it chose.',
      items: {
        type: 'object',
        properties: {
          containerPort: { type: 'integer', description: 'Port the container listens on.' },
          exposedPort: { type: 'integer', description: 'Port clients connect to.' },
          protocols: {
            type: 'array',
            description: 'Transport protocols (TCP, UDP, SCTP).',
            items: { type: 'string' },
          },
        },
      },
    },
    publicIpAddresses: addresses(
      'Public IP addresses of the endpoint (an Anycast endpoint: its anycast address).',
    ),
    internalIpAddresses: addresses('Addresses of the endpoint inside the platform network.'),
  },
};

const OWN_STATUS: Record<string, Schema> = {
  appId: { type: 'string', description: 'Id of the managed application.' },
  appStatus: {
    type: 'string',
    description: "The platform's state of the application (active, progressing, failing, ...).",
  },
  containers: listSchema(
    'Containers as read back from the platform, with their ids and endpoints; keyed by name.',
    objectSchema(
      {
        name: stringSchema('Container name (spec containerTemplates[].name).'),
        id: stringSchema('Platform id of the container template.'),
        image: stringSchema('Image as the platform reports it.'),
        endpoints: listSchema(
          'Endpoints of the container as the platform reports them.',
          ENDPOINT_STATUS,
        ),
      },
      { required: ['name'] },
    ),
    { key: 'name' },
  ),
  volumes: listSchema(
    'Volumes as read back from the platform; keyed by name.',
    objectSchema(
      {
        name: stringSchema('Volume name (spec volumes[].name).'),
        id: stringSchema('Platform id of the volume.'),
        sizeGigabytes: { type: 'integer', description: 'Size in gigabytes.' },
      },
      { required: ['name'] },
    ),
    { key: 'name' },
  ),
  environmentHash: {
    type: 'string',
    description:
      'Digest of the values read from referenced Secrets and ConfigMaps (never the values themselves).',
  },
  appliedWriteOnly: {
    type: 'object',
    description:
      'Settings the platform accepts but never returns, as last applied by the operator.',
    properties: {
      terminationGracePeriodSeconds: {
        type: 'integer',
        format: 'int64',
        description: 'spec.terminationGracePeriodSeconds as last applied.',
      },
      nodeSelectors: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'spec.regionSettings.nodeSelectors as last applied.',
      },
    },
  },
  logForwarding: LOG_FORWARDING_STATUS,
};

/** The ContainerApp schema (containerapps). */
export function containerAppSchema(docs: DocumentBounds): KindSchema {
  const doc: Doc = (path, take) => docs.bounds('mc', path, take);
  return managedKindSchema({
    description: 'A Magic Containers application (bunny.net /mc API) managed by cdn-operator.',
    spec: ownSpec(doc),
    idSchema: { type: 'string', minLength: 1, pattern: APP_ID_PATTERN },
    idDescription:
      'Adopt the existing application with this id (letters, digits, - and _) instead of creating one. Immutable.',
    what: 'application',
    nameField: 'spec.name',
    status: {
      description: 'Observed state of the application.',
      conditions:
        'Ready (the application matches the spec) and Synced (the last reconcile succeeded).',
      plannedChangesNote: 'Values read from Secrets are shown as <redacted>.',
      properties: OWN_STATUS,
    },
    columns: [{ name: 'ID', type: 'string', jsonPath: '.status.appId' }],
  });
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = containerAppSchema;
