/**
 * The ContainerRegistry's fields, written once (kit/fields.ts): the CRD properties, the spec
 * type, the create and replace bodies, the status and the export come from this table. The
 * display name's bounds, the registry types and the user name's bounds are read from the Magic
 * Containers document at generation time (`ContainerRegistryRequest`, `Credentials`). The
 * credentials (user name and password together) are the hooks' (index.ts).
 */
import { REGISTRY_TYPE_NAMES } from '../containerapp/wire-enums.js';
import { enumByWireName, specEnumOf } from '../kit/enum-spelling.js';
import { text } from '../kit/codecs.js';
import { field } from '../kit/fields.js';

export const CONTAINER_REGISTRY_FIELDS = [
  // `name` as in the other kinds; the platform's member stays `displayName`.
  field('name', text(), {
    api: 'displayName',
    status: 'name',
    defaultOf: (obj) => obj.metadata.name,
    bounds: (docs) =>
      docs.bounds('mc', 'ContainerRegistryRequest.displayName', ['minLength', 'maxLength']),
    description:
      'Name of the registry on the platform (defaults to metadata.name). Registry names are not unique on the platform; adoption by name matches the exact name.',
  }),
  // The document's names (`RegistryType`, read at generation time) in UpperCamel; the platform
  // receives its own (kit/enum-spelling.ts).
  field('type', enumByWireName(REGISTRY_TYPE_NAMES), {
    api: 'type',
    record: false,
    required: true,
    bounds: (docs) =>
      specEnumOf(REGISTRY_TYPE_NAMES, docs.bounds('mc', 'ContainerRegistryRequest.type', ['enum'])),
    description:
      'Kind of registry the platform pulls from. The platform does not report it back, so a change made outside the operator is not detected; every update sends this value.',
  }),
  field('username', text({ maxLength: 253 }), {
    record: 'userName',
    status: 'username',
    required: true,
    bounds: (docs) => docs.bounds('mc', 'Credentials.userName', ['minLength']),
    description: 'User name of the registry credentials.',
  }),
] as const;
