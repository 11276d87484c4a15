/**
 * `cdnctl purge url|pullzone`: cache purges through the client's purge calls. A purge is
 * retried by the client only after a 429 (it does work on the platform), like every write.
 */
import { parseId } from '../usage-error.js';
import { done, type Command } from './types.js';

export const purgeCommands: Command[] = [
  {
    group: 'purge',
    verb: 'url',
    args: ['URL'],
    summary:
      'Purge one URL from the cache; a trailing * purges every URL with that prefix (--async, --exact-path)',
    run: async ({ client, args, flags }) => {
      const url = args[0]!;
      await client.purgeUrl(url, {
        ...(flags.async ? { async: true } : {}),
        ...(flags.exactPath ? { exactPath: true } : {}),
      });
      return done(`Purged ${url}${flags.async ? ' (asynchronously)' : ''}`, { url });
    },
  },
  {
    group: 'purge',
    verb: 'pullzone',
    args: ['ID'],
    summary: "Purge a pull zone's whole cache (--cache-tag TAG: only the objects with that tag)",
    run: async ({ client, args, flags }) => {
      const id = parseId('ID', args[0]);
      await client.purgePullZone(id, flags.cacheTag);
      const what = flags.cacheTag === undefined ? 'the cache' : `cache tag ${flags.cacheTag}`;
      return done(`Purged ${what} of pull zone ${id}`, {
        pullZoneId: id,
        ...(flags.cacheTag === undefined ? {} : { cacheTag: flags.cacheTag }),
      });
    },
  },
];
