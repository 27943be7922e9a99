import { ValidationError } from '../spec/errors.js';
import type { Scope } from '../spec/memory.js';
import { scopeMatches } from './memory-filter.js';

// Scope is a tenant boundary: a client created with a scope reads, counts and changes only
// inside it. A per-call scope can narrow the client's, never widen or replace it.

const FIELDS = ['agentId', 'userId', 'namespace'] as const;

/** True when nothing is set: an unscoped (admin) client, or a memory that belongs to no one. */
export function isEmptyScope(scope: Scope | undefined): boolean {
  return !scope || FIELDS.every((field) => scope[field] === undefined);
}

/**
 * The scope a read may see: the client's scope with the call's fields added. `null` when
 * the call names a different value for a field the client fixes: the call asks for another
 * tenant, and sees nothing, exactly as if there were nothing there.
 */
export function narrowScope(client: Scope | undefined, call: Scope | undefined): Scope | undefined | null {
  if (!call) return client;
  if (!client) return call;
  for (const field of FIELDS) {
    if (client[field] !== undefined && call[field] !== undefined && call[field] !== client[field]) return null;
  }
  return { ...call, ...client };
}

/**
 * The scope a new memory is stored with: the client's scope plus whatever the input adds.
 * An input that names another tenant is refused with a ValidationError on `field`.
 */
export function scopeForWrite(
  client: Scope | undefined,
  input: Scope | undefined,
  field: string,
  component: string,
): Scope {
  const scope = narrowScope(client, input);
  if (scope === null) {
    const clash = FIELDS.find(
      (key) => client?.[key] !== undefined && input?.[key] !== undefined && client[key] !== input[key],
    );
    throw new ValidationError(
      [
        {
          field: `${field}.${clash}`,
          message: `expected "${client?.[clash!]}", the client's own ${clash} (got "${input?.[clash!]}")`,
        },
      ],
      { component, suggestion: 'A scoped client writes only inside its scope; use a client created with that scope.' },
    );
  }
  return scope ?? {};
}

/** True when a record of `scope` lies inside the client's scope (always, for an unscoped client). */
export function insideScope(scope: Scope, client: Scope | undefined): boolean {
  return scopeMatches(scope, client);
}
