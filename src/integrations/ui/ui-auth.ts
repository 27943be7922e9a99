/**
 * Who may use the view: the shared loopback guard (bind address, Host, Origin), then the token —
 * from the printed URL (`?token=`) once, after which a cookie carries a value derived from it so
 * that links work — and, for every state-changing request, a form field derived from the token
 * (CSRF).
 *
 * The view is served under a name of its own, `memoir-<random>.localhost` (browsers resolve every
 * `*.localhost` name to this machine), and its cookie is host-only there. A cookie set on
 * `127.0.0.1` would go to every server on 127.0.0.1 whatever its port (cookies do not separate
 * ports, and SameSite counts another port as the same site): a dev server the user opens later
 * would receive it and could use the view as them. No other server shares the random name.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type HttpGuard, hostnameOf } from '../http-guard/http-guard.js';

/** What the auth check decided. */
export type AuthResult =
  | { readonly ok: true; readonly viaQuery: boolean }
  | { readonly ok: false; readonly status: 401 | 403; readonly message: string };

/** The name of the view's cookie, host-only on the view's own name. */
export const COOKIE_NAME = 'memoir_ui';

/** A new name for a view: a random label under `localhost`. */
export function viewHostName(random: string): string {
  return `memoir-${random}.localhost`;
}

/** Cookies of a request by name; a malformed pair is skipped. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    try {
      cookies.set(name, decodeURIComponent(part.slice(at + 1).trim()));
    } catch {
      // A value that is not valid percent-encoding is no token.
    }
  }
  return cookies;
}

const derived = (token: string, purpose: string) => createHmac('sha256', token).update(purpose).digest('base64url');

/** The CSRF value forms carry: derived from the token, so it is never the token itself. */
export function csrfFor(token: string): string {
  return derived(token, 'memoir-ui-csrf');
}

/** The cookie's value: derived from the token, so the cookie never carries the token itself. */
export function cookieValueFor(token: string): string {
  return derived(token, 'memoir-ui-cookie');
}

/** Whether two texts are equal, in time that does not depend on where they differ. */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Where the view is: its own host name and the origin the printed URL opens. */
export interface ViewAddress {
  /** `memoir-<random>.localhost`. */
  readonly hostName: string;
  /** `http://memoir-<random>.localhost:<port>`. */
  readonly origin: string;
  /** The cookie's value (see {@link cookieValueFor}). */
  readonly cookie: string;
}

/**
 * Check a request's addressing and credential: the token in the query (traded for the cookie,
 * on the view's own name only), the cookie (sent by a browser to that name only), or a bearer
 * header (for programs, on any loopback name the guard allows).
 */
export function authorize(
  guard: HttpGuard,
  req: Pick<IncomingMessage, 'headers'>,
  url: URL,
  view: ViewAddress,
): AuthResult {
  const refusal = guard.checkAddressing(req);
  if (refusal) return { ok: false, ...refusal };
  const ownName = hostnameOf(req.headers.host ?? '', false) === view.hostName;
  const fromQuery = url.searchParams.get('token') ?? undefined;
  if (fromQuery !== undefined && guard.isToken(fromQuery)) {
    if (ownName) return { ok: true, viaQuery: true };
    return {
      ok: false,
      status: 403,
      message: `Forbidden: open the view at ${view.origin} (the address \`memoir ui\` printed), where its sign-in cookie cannot reach other local servers`,
    };
  }
  const cookie = parseCookies(req.headers.cookie).get(COOKIE_NAME);
  if (ownName && cookie !== undefined && sameText(cookie, view.cookie)) return { ok: true, viaQuery: false };
  if (guard.isBearer(req.headers.authorization)) return { ok: true, viaQuery: false };
  return { ok: false, status: 401, message: 'Unauthorized: open the URL `memoir ui` printed (it carries the token)' };
}
