/** Parses the flags of `cdnctl export` into {@link ExportOptions} (usage errors name the flag). */
import type { KindModule } from '../../controllers/kind-module.js';
import { KINDS } from '../../controllers/kinds.js';
import type { AccountChoice, ExportOptions } from '../../controllers/shared/manifest-export.js';
import { UsageError } from '../usage-error.js';
import { exportableKinds } from './export-account.js';

/** Flags of `cdnctl export`, as given. */
export interface ExportFlags {
  namespace?: string;
  kinds?: string;
  deletionPolicy?: string;
  accountRef?: string;
  credentialsRef?: string;
  secretEnvPattern?: string;
  customCertificates?: string;
}

/** Default pattern of container variables that hold secrets. */
export const DEFAULT_SECRET_ENV_PATTERN =
  '(SECRET|PASSWORD|PASSWD|TOKEN|API_?KEY|PRIVATE|CREDENTIAL|ACCESS_KEY|AUTH)';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** Kind names accepted by --kinds: the kind, its plural or a short name, in any case. */
function kindOf(word: string, exportable: readonly KindModule[]): string {
  const w = word.trim().toLowerCase();
  const kind = exportable.find(
    (k) => w === k.kind.toLowerCase() || w === k.plural || k.shortNames.includes(w),
  );
  if (!kind) {
    throw new UsageError(
      `--kinds: unknown kind ${JSON.stringify(word)}; one of ${exportable.map((k) => k.kind).join(', ')}`,
    );
  }
  return kind.kind;
}

function parseKinds(value: string | undefined, kinds: readonly KindModule[]): Set<string> {
  const exportable = exportableKinds(kinds);
  if (value === undefined) return new Set(exportable.map((k) => k.kind));
  const words = value.split(',').filter((w) => w.trim() !== '');
  if (words.length === 0) throw new UsageError('--kinds must name at least one kind');
  return new Set(words.map((w) => kindOf(w, exportable)));
}

function parseCredentialsRef(value: string): AccountChoice {
  const [name = '', key = 'apiKey', ...rest] = value.split(':');
  if (!DNS_SUBDOMAIN.test(name) || key === '' || rest.length > 0) {
    throw new UsageError(
      `--credentials-ref must be SECRET or SECRET:KEY, got ${JSON.stringify(value)}`,
    );
  }
  return { credentialsRef: { name, key } };
}

function parseAccount(flags: ExportFlags): AccountChoice {
  if (flags.accountRef !== undefined && flags.credentialsRef !== undefined) {
    throw new UsageError('set either --account-ref or --credentials-ref, not both');
  }
  if (flags.credentialsRef !== undefined) return parseCredentialsRef(flags.credentialsRef);
  if (flags.accountRef === undefined) return {};
  if (!DNS_SUBDOMAIN.test(flags.accountRef)) {
    throw new UsageError(
      `--account-ref must be a CdnAccount name, got ${JSON.stringify(flags.accountRef)}`,
    );
  }
  return { accountRef: { name: flags.accountRef } };
}

function parseChoice<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  const found = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!found)
    throw new UsageError(
      `--${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`,
    );
  return found;
}

function parsePattern(value: string | undefined): RegExp {
  try {
    return new RegExp(value ?? DEFAULT_SECRET_ENV_PATTERN, 'i');
  } catch (e) {
    throw new UsageError(
      `--secret-env-pattern is not a regular expression: ${(e as Error).message}`,
    );
  }
}

/** See the module comment. */
export function parseExportOptions(
  flags: ExportFlags,
  kinds: readonly KindModule[] = KINDS,
): ExportOptions {
  const namespace = flags.namespace ?? 'default';
  if (!DNS_LABEL.test(namespace))
    throw new UsageError(`--namespace must be a namespace name, got ${JSON.stringify(namespace)}`);
  return {
    namespace,
    kinds: parseKinds(flags.kinds, kinds),
    deletionPolicy: parseChoice(
      'deletion-policy',
      flags.deletionPolicy,
      ['Orphan', 'Delete'],
      'Orphan',
    ),
    account: parseAccount(flags),
    secretEnvPattern: parsePattern(flags.secretEnvPattern),
    customCertificates: parseChoice(
      'custom-certificates',
      flags.customCertificates,
      ['omit', 'secret'],
      'omit',
    ),
  };
}
