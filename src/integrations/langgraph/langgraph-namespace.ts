import { createHash } from 'node:crypto';
import type { Scope } from '../../index.js';

// How a LangGraph namespace maps onto memoir's scope (docs/guides/langgraph.md, "Namespaces
// and scopes"). Leading `"users", <id>` and `"agents", <id>` pairs name the memoir user and
// agent; every other label is a path memoir keeps verbatim. An item's memoir scope is the
// store's own scope (its client's) plus what its namespace names, and a store sees an item
// only when the item's scope is exactly that for the item's namespace: so no two scopes ever
// share an address, and a scoped store never reads another tenant's items.

const SCOPE_LABELS = { users: 'userId', agents: 'agentId' } as const;
const FIELDS = ['agentId', 'userId', 'namespace'] as const;

/**
 * The scope fields a namespace names: a leading `["users", id]` and/or `["agents", id]` pair
 * (in either order, each at most once). A label alone (`["users"]`) names nothing.
 */
export function namespaceScope(namespace: readonly string[]): Scope {
  const scope: Scope = {};
  let at = 0;
  while (at + 1 < namespace.length) {
    const label = namespace[at]!;
    const field = Object.hasOwn(SCOPE_LABELS, label) ? SCOPE_LABELS[label as keyof typeof SCOPE_LABELS] : undefined;
    if (field === undefined || scope[field] !== undefined) break;
    scope[field] = namespace[at + 1]!;
    at += 2;
  }
  return scope;
}

/** Where a scope-naming label sits in `namespace` (for an error's field), or -1. */
export function scopeLabelIndex(namespace: readonly string[], field: keyof Scope): number {
  const named = namespaceScope(namespace);
  if (named[field] === undefined) return -1;
  for (let at = 0; at + 1 < namespace.length; at += 2) {
    const label = namespace[at]!;
    if (Object.hasOwn(SCOPE_LABELS, label) && SCOPE_LABELS[label as keyof typeof SCOPE_LABELS] === field) return at + 1;
  }
  return -1;
}

/** The field the store's scope and a namespace disagree on, or undefined when they agree. */
export function scopeClash(own: Scope, named: Scope): keyof Scope | undefined {
  return FIELDS.find((field) => own[field] !== undefined && named[field] !== undefined && own[field] !== named[field]);
}

/** The scope an item of `namespace` has in a store of scope `own` (callers check `scopeClash` first). */
export function itemScope(own: Scope, namespace: readonly string[]): Scope {
  const scope: Scope = {};
  const named = namespaceScope(namespace);
  for (const field of FIELDS) {
    const value = own[field] ?? named[field];
    if (value !== undefined) scope[field] = value;
  }
  return scope;
}

/** True when two scopes set the same fields to the same values. */
export function sameScope(a: Scope, b: Scope): boolean {
  return FIELDS.every((field) => a[field] === b[field]);
}

/**
 * The memoir id of the item at (`namespace`, `key`) in `scope`: a hash, so a put finds the item
 * it replaces without a scan and an address in one scope never collides with one in another.
 */
export function itemId(scope: Scope, namespace: readonly string[], key: string): string {
  const address = JSON.stringify([FIELDS.map((field) => scope[field] ?? null), namespace, key]);
  return `langgraph-${createHash('sha256').update(address).digest('hex')}`;
}

/** True when `namespace` starts with `prefix`. */
export function hasPrefix(namespace: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= namespace.length && prefix.every((label, at) => namespace[at] === label);
}

/** True when `namespace` meets a listing condition (`"*"` matches any one label), as LangGraph's stores read it. */
export function matchesCondition(
  namespace: readonly string[],
  condition: { matchType: 'prefix' | 'suffix'; path: readonly string[] },
): boolean {
  const { path } = condition;
  if (path.length > namespace.length) return false;
  const start = condition.matchType === 'prefix' ? 0 : namespace.length - path.length;
  return path.every((label, at) => label === '*' || namespace[start + at] === label);
}
