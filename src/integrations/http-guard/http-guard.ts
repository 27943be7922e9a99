/**
 * The guard every loopback HTTP door shares (`memoir mcp --http`, `memoir ui`): where it may
 * listen, which Host and Origin headers a request may carry (against DNS rebinding: a page of
 * another site that resolves its own name to 127.0.0.1 sends its own name as Host), and a
 * constant-time comparison of the secret token.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { z } from 'zod';
import { ConfigError } from '../../core/spec/errors.js';
import { parseOptions } from '../../core/utils/parse-options.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

const optionsSchema = z
  .object({
    component: z.string().min(1),
    token: z.string().min(16, 'expected a token of at least 16 characters'),
    host: z.string().trim().min(1).default('127.0.0.1'),
    allowRemote: z.boolean().default(false),
    allowedHosts: z.array(z.string().trim().min(1)).max(100).default([]),
    /**
     * A name of the server's own under `localhost` (`memoir-<random>.localhost`), allowed as Host
     * and Origin beside the loopback names: browsers resolve it to this machine.
     */
    ownName: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9-]+\.localhost$/, 'expected a name under localhost, e.g. memoir-1a2b.localhost')
      .optional(),
  })
  .strict();

/** Options of {@link createHttpGuard}. */
export type HttpGuardOptions = z.input<typeof optionsSchema>;

/** Why a request was refused: the HTTP status and a sentence for the caller. */
export interface Refusal {
  /** 403 for a foreign Host or Origin, 401 for a missing or wrong token. */
  status: 401 | 403;
  /** What was wrong, for the response body. */
  message: string;
}

/** A guard built once per server. */
export interface HttpGuard {
  /** The listen address, checked: loopback unless `allowRemote`. */
  readonly host: string;
  /** A refusal when the request's Host, or its Origin when it has one, names a host not allowed; else undefined. */
  checkAddressing(req: Pick<IncomingMessage, 'headers'>): Refusal | undefined;
  /** True when `given` is the token (constant time). */
  isToken(given: string | undefined): boolean;
  /** True when an `Authorization: Bearer <token>` header carries the token. */
  isBearer(header: string | undefined): boolean;
}

/** True for `localhost`, `::1` and any 127.x.y.z address. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The hostname of a Host header or an Origin URL, lower case, brackets kept for IPv6, port dropped. */
export function hostnameOf(value: string, isOrigin: boolean): string | undefined {
  try {
    return new URL(isOrigin ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `host` as it goes into a URL: an IPv6 address in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Build the guard: refuses (ConfigError, field `host`) a non-loopback listen address unless
 * `allowRemote`, then answers per request whether it is addressed to an allowed host name and
 * carries the token.
 */
export function createHttpGuard(options: HttpGuardOptions): HttpGuard {
  const parsed = parseOptions(optionsSchema, options, 'http-guard', 'Pass createHttpGuard({ component, token }).');
  if (!parsed.allowRemote && !isLoopback(parsed.host)) {
    throw new ConfigError(`host: ${parsed.host} is not a loopback address`, {
      component: parsed.component,
      field: 'host',
      suggestion: 'Listen on 127.0.0.1, or allow remote clients explicitly (allowRemote, `--allow-remote`).',
    });
  }
  const allowed = new Set([
    ...LOOPBACK_NAMES,
    ...(parsed.ownName ? [parsed.ownName] : []),
    ...(parsed.allowRemote ? [parsed.host, ...parsed.allowedHosts].map((name) => name.toLowerCase()) : []),
  ]);
  const token = Buffer.from(parsed.token, 'utf8');
  const isToken = (given: string | undefined): boolean => {
    if (given === undefined) return false;
    const bytes = Buffer.from(given, 'utf8');
    return bytes.length === token.length && timingSafeEqual(bytes, token);
  };
  return {
    host: parsed.host,
    checkAddressing(req) {
      const host = hostnameOf(req.headers.host ?? '', false);
      if (host === undefined || !allowed.has(host))
        return { status: 403, message: 'Forbidden: this host name is not allowed' };
      const origin = req.headers.origin;
      if (origin !== undefined) {
        const from = hostnameOf(origin, true);
        if (from === undefined || !allowed.has(from))
          return { status: 403, message: 'Forbidden: this origin is not allowed' };
      }
      return undefined;
    },
    isToken,
    isBearer(header) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
      return match !== null && isToken(match[1]);
    },
  };
}
