/** The shape of one cdnctl subcommand. */
import type { CdnClient } from '../../cdn/client.js';
import type { CommandResult } from '../output.js';

/** Options shared by all commands (each command reads the ones it needs). */
export interface Flags {
  file?: string;
  search?: string;
  page?: string;
  perPage?: string;
  all?: boolean;
  showKeys?: boolean;
  certFile?: string;
  keyFile?: string;
}

export interface CommandContext {
  client: CdnClient;
  /** Positional arguments after `<group> <verb>`, already checked for count. */
  args: string[];
  flags: Flags;
}

export interface Command {
  group: string;
  verb: string;
  /** Positional argument names; a name in brackets is optional. */
  args: string[];
  summary: string;
  run(ctx: CommandContext): Promise<CommandResult>;
}

/** Result of an operation that returns no body. */
export function done(message: string, value: Record<string, unknown> = {}): CommandResult {
  return { value: { ok: true, ...value }, message };
}
