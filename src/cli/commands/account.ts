/** `cdnctl storagezone|videolibrary|apikeys ...`: account-level operations no resource drives. */
import { maskKey } from '../../cdn/redact.js';
import type { ApiKeyList } from '../../cdn/types.js';
import { col } from '../output.js';
import { parseId, parseOptionalInt } from '../usage-error.js';
import { done, type Command } from './types.js';

/** Replaces every `Key` with its masked form unless the user asked to see them. */
function maskKeys(list: ApiKeyList, show: boolean): ApiKeyList {
  if (show) return list;
  return { ...list, Items: (list.Items ?? []).map((k) => ({ ...k, Key: maskKey(k.Key) })) };
}

export const accountCommands: Command[] = [
  {
    group: 'storagezone',
    verb: 'check',
    args: ['NAME'],
    summary: 'Check whether a storage zone name is available',
    run: async ({ client, args }) => {
      const { available } = await client.checkStorageZoneAvailability(args[0]!);
      return {
        value: { name: args[0], available },
        message: `${args[0]!}: ${available ? 'available' : 'not available'}`,
      };
    },
  },
  {
    group: 'videolibrary',
    verb: 'block-referrer',
    args: ['ID', 'HOST'],
    summary: 'Add a blocked referrer to a video library',
    run: async ({ client, args }) => {
      const id = parseId('ID', args[0]);
      await client.addVideoLibraryBlockedReferrer(id, args[1]!);
      return done(`Blocked referrer ${args[1]!} (video library ${id})`, {
        videoLibraryId: id,
        hostname: args[1],
      });
    },
  },
  {
    group: 'apikeys',
    verb: 'list',
    args: [],
    summary: 'List API keys (masked unless --show-keys; --page, --per-page)',
    run: async ({ client, flags }) => {
      const list = await client.listApiKeys({
        page: parseOptionalInt('page', flags.page),
        perPage: parseOptionalInt('per-page', flags.perPage),
      });
      const shown = maskKeys(list, flags.showKeys === true);
      return {
        value: shown,
        columns: [col('ID', 'Id'), col('KEY', 'Key'), col('ROLES', 'Roles')],
        rows: shown.Items ?? [],
      };
    },
  },
];
