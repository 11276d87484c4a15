/**
 * The StorageZone's fields, written once (kit/fields.ts): the CRD properties, the spec type, the
 * create body, the diff and the update body, the observed status, the export and the spec path
 * of a platform member named in an error all come from this table. Region codes and tier names
 * are read from the official core document at generation time (`StorageZoneModelAdd`: the
 * region lists sit in the property descriptions; `StorageZoneTier`, `StorageZoneS3Type`).
 */
import { samePlatformName } from '../../cdn/platform-names.js';
import { enumByIndex, flag, text, textSet } from '../kit/codecs.js';
import { field } from '../kit/fields.js';

/** Tier names in the order of the platform's integer enum (`StorageZoneTier`). */
export const ZONE_TIERS = ['Standard', 'Edge'] as const;
/** S3 support names in the order of the platform's integer enum (`StorageZoneS3Type`). */
export const S3_TYPES = ['NotSupported', 'Supported'] as const;

export const STORAGE_ZONE_FIELDS = [
  field('name', text({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9-]+$' }), {
    api: 'Name',
    write: 'create',
    same: (live, wanted) => samePlatformName('storageZone', live, wanted),
    status: 'name',
    description:
      'Name of the storage zone (defaults to metadata.name): letters, digits and dashes. Storage zone names are unique across the whole platform: the operator checks the name before creating and reports Synced=False NameTaken when it is not available, unless spec.adoption asks to adopt a zone of this account. Immutable.',
  }),
  field('region', text(), {
    api: 'Region',
    write: 'create',
    status: 'region',
    bounds: (docs) => ({ enum: docs.listedValues('core', 'StorageZoneModelAdd.Region') }),
    description:
      'Code of the main storage region. Required to create a zone; may be left out when adopting (status.region shows the live one). Immutable.',
  }),
  field('replicationRegions', textSet(), {
    api: 'ReplicationRegions',
    updateApi: 'ReplicationZones',
    addOnly: true,
    status: 'replicationRegions',
    bounds: (docs) => {
      const regions = docs.listedValues('core', 'StorageZoneModelAdd.ReplicationRegions');
      return { maxItems: regions.length, items: { type: 'string', enum: regions } };
    },
    schema: {
      'x-kubernetes-validations': [
        {
          rule: 'oldSelf.all(r, r in self)',
          message: 'replication regions can only be added: the platform cannot remove one',
        },
      ],
    },
    description:
      'Regions the files are replicated to. The platform can add a replication region but never remove one, so entries can only be added here; live regions not listed are left in place.',
  }),
  field('zoneTier', enumByIndex(ZONE_TIERS), {
    api: 'ZoneTier',
    write: 'create',
    unset: 'Standard',
    status: 'zoneTier',
    description:
      'Storage tier the files are kept on: Standard, or Edge (the faster tier). Unset means the platform default, Standard. Immutable.',
  }),
  field('storageZoneType', enumByIndex(S3_TYPES), {
    api: 'StorageZoneType',
    write: 'create',
    unset: 'NotSupported',
    description:
      'S3 support: Supported creates a zone that also answers the S3-compatible API (its endpoint is in status.s3Hostname and the password Secret). Unset means NotSupported. Set at creation only. Immutable.',
  }),
  field('rewrite404To200', flag(), {
    api: 'Rewrite404To200',
    write: 'update',
    unset: false,
    description:
      'Answer a request for a missing file whose URL has no extension with 200 instead of 404 (single-page applications).',
  }),
  field('custom404FilePath', text({ maxLength: 1024 }), {
    api: 'Custom404FilePath',
    write: 'update',
    unset: '',
    description: 'Path of the file in the zone served when a requested file does not exist.',
  }),
] as const;
