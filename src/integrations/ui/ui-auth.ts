/**
 * Who may use the view: the shared loopback guard (bind address, Host, Origin), then the token —
 * from the printed URL (`?token=`) once, after which a cookie carries it so that links work —
 * and, for every state-changing request, a form field derived from the token (CSRF).
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { HttpGuard } from '../http-guard/http-guard.js';

/** What the auth check decided. */
export type AuthResult =
  | { readonly ok: true; readonly viaQuery: boolean }
  | { readonly ok: false; readonly status: 401 | 403; readonly message: string };

/** The name of the cookie holding the token: per port, as cookies do not tell ports apart. */
export function cookieName(port: number): string {
  return `memoir_ui_${port}`;
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

/** The CSRF value forms carry: derived from the token, so it is never the token itself. */
export function csrfFor(token: string): string {
  return createHmac('sha256', token).update('memoir-ui-csrf').digest('base64url');
}

/** Check a request's addressing and token (query, cookie or bearer header). */
export function authorize(guard: HttpGuard, req: IncomingMessage, url: URL, port: number): AuthResult {
  const refusal = guard.checkAddressing(req);
  if (refusal) return { ok: false, ...refusal };
  const fromQuery = url.searchParams.get('token') ?? undefined;
  if (fromQuery !== undefined && guard.isToken(fromQuery)) return { ok: true, viaQuery: true };
  if (guard.isToken(parseCookies(req.headers.cookie).get(cookieName(port)))) return { ok: true, viaQuery: false };
  if (guard.isBearer(req.headers.authorization)) return { ok: true, viaQuery: false };
  return { ok: false, status: 401, message: 'Unauthorized: open the URL `memoir ui` printed (it carries the token)' };
}
