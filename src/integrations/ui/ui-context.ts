/** What every page handler gets: the client, the view's scope, the request's parameters, and helpers for links and forms. */
import type { MemoryClient, Scope } from '../../index.js';
import type { Datum } from './ui-charts.js';
import { html, query, type SafeHtml } from './ui-html.js';
import type { LatencyLog } from './ui-latency.js';

/** The counts behind the charts, as of `at`. */
export interface HealthFigures {
  /** When they were counted. */
  at: string;
  /** Memories of the scope. */
  total: number;
  /** Of those, the ones valid now. */
  current: number;
  /** Memories per kind. */
  byKind: Datum[];
  /** Memories per category (known ones, then `other`). */
  byCategory: Datum[];
  /** Memories that occurred by the end of each month. */
  growth: Datum[];
}

/** State kept while the view runs: the last doctor report and full statistics, run on request. */
export interface UiState {
  /** The last `doctor()` report and when it ran. */
  doctor?: { at: string; report: Awaited<ReturnType<MemoryClient['doctor']>> };
  /** The last `stats()` (a pass over the scope) and when it ran. */
  stats?: { at: string; stats: Awaited<ReturnType<MemoryClient['stats']>> };
  /** The Health page's counts per view scope, and the recount under way. */
  health?: Map<string, { figures?: HealthFigures; pending?: Promise<void> }>;
  /** Recall latencies seen by the client. */
  latency: LatencyLog;
  /** Passes over a scope's memories (for the orders the store has no index for, and counts per user), kept briefly. */
  scans?: Map<string, ScanEntry>;
}

/** A pass over the memories: its rows once read (and when, and how long it took), or the pass under way. */
export interface ScanEntry {
  /** When the rows were read (ms since the epoch). */
  at: number;
  /** How long the pass took, ms: a slow pass is kept longer. */
  took: number;
  /** The rows, once read. */
  rows?: ScanRow[];
  /** The pass under way. */
  pending?: Promise<ScanRow[]>;
}

/** What a pass over the memories keeps of each: enough to sort and count, not the text. */
export interface ScanRow {
  /** Memory id. */
  id: string;
  /** Whose it is. */
  scope: Scope;
  /** Its category. */
  category: string;
  /** When it occurred (ISO). */
  occurredAt: string;
  /** True while it holds (not invalidated or superseded). */
  current: boolean;
  /** Bookmarked: a user chose to keep it. */
  bookmarked: boolean;
}

/** One request, as a page handler sees it. */
export interface UiRequest {
  /** The client the view was started with (scoped, or unscoped for an admin view). */
  client: MemoryClient;
  /** True when the client is unscoped: the view may choose a scope. */
  admin: boolean;
  /** True with `--read-only`: no action forms, and every state-changing request is refused. */
  readOnly: boolean;
  /** The scope an admin view chose (query or form `userId`, `agentId`, `namespace`); always undefined in a scoped view. */
  viewScope: Scope | undefined;
  /** The path's captured parts. */
  params: string[];
  /** Query parameters (GET) or form fields (POST). */
  input: URLSearchParams;
  /** The CSRF value forms must carry. */
  csrf: string;
  /** Running state. */
  state: UiState;
}

/** True when a record's scope is inside the admin view's chosen scope (always, when none is chosen). */
export function inView(request: Pick<UiRequest, 'viewScope'>, scope: Scope): boolean {
  const chosen = request.viewScope;
  if (!chosen) return true;
  return (Object.entries(chosen) as Array<[keyof Scope, string]>).every(([key, value]) => scope[key] === value);
}

/** The `scope` option a call takes: the admin view's chosen scope, or nothing. */
export function scopeOption(request: Pick<UiRequest, 'viewScope'>): { scope?: Scope } {
  return request.viewScope ? { scope: request.viewScope } : {};
}

/** The view scope's query parameters, for links that keep it. */
export function scopeParams(request: Pick<UiRequest, 'viewScope'>): Record<string, string | undefined> {
  const scope = request.viewScope ?? {};
  return { userId: scope.userId, agentId: scope.agentId, namespace: scope.namespace };
}

/** A link to `path` with `params` and the view's scope. */
export function link(
  request: Pick<UiRequest, 'viewScope'>,
  path: string,
  params: Record<string, string | number | undefined | null> = {},
): string {
  return `${path}${query({ ...scopeParams(request), ...params })}`;
}

/** Hidden inputs every form carries: the CSRF value and the view's scope. */
export function formFields(request: Pick<UiRequest, 'viewScope' | 'csrf'>): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${request.csrf}">${Object.entries(scopeParams(request)).map(
    ([name, value]) => (value === undefined ? '' : html`<input type="hidden" name="${name}" value="${value}">`),
  )}`;
}

/** The scope read from parameters, or undefined when none is given. */
export function scopeFrom(input: URLSearchParams): Scope | undefined {
  const scope: Scope = {};
  const pick = (name: string) => input.get(name)?.trim() || undefined;
  const userId = pick('userId');
  const agentId = pick('agentId');
  const namespace = pick('namespace');
  if (userId !== undefined) scope.userId = userId;
  if (agentId !== undefined) scope.agentId = agentId;
  if (namespace !== undefined) scope.namespace = namespace;
  return Object.keys(scope).length > 0 ? scope : undefined;
}

/** A positive page number from `page` (1 when absent or bad). */
export function pageNumber(input: URLSearchParams): number {
  const value = Number(input.get('page') ?? '1');
  return Number.isInteger(value) && value >= 1 && value <= 1_000_000 ? value : 1;
}
