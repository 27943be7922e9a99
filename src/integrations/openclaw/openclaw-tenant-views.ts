import type { MemoryClient, Scope } from '../../index.js';

// The plugin keeps one unscoped client for every sender (one store, one engine). A tool call
// runs on the sender's view of it (`withScope`): the core holds every read, count and change
// inside the sender's scope. One view per sender, kept for as long as the plugin runs, so what
// a sender resumed with memory_resume_session (the view's own session) lasts across tool calls
// and never moves another sender's memory_store calls.

const keyOf = (scope: Scope) => JSON.stringify([scope.agentId ?? null, scope.userId ?? null, scope.namespace ?? null]);

/** The senders' views of the plugin's client, made on first use. */
export class TenantViews {
  readonly #byClient = new WeakMap<MemoryClient, Map<string, MemoryClient>>();

  /**
   * The view of `client` held inside `scope`, the same object for the same scope.
   *
   * @param searchRecordings - Whether the caller may search the account's screen recordings; when
   *   not, `procedures.fromRecording` answers only from the steps already cached in the scope.
   */
  of(client: MemoryClient, scope: Scope, searchRecordings: boolean): MemoryClient {
    let views = this.#byClient.get(client);
    if (!views) {
      views = new Map();
      this.#byClient.set(client, views);
    }
    const key = keyOf(scope);
    let view = views.get(key);
    if (!view) {
      view = client.withScope(scope);
      views.set(key, view);
    }
    return searchRecordings ? view : cachedStepsOnly(view);
  }
}

// The recordings belong to the whole account, not to a sender: a caller who may not search
// them gets the steps already cached in their own scope, and nothing new.
function cachedStepsOnly(view: MemoryClient): MemoryClient {
  const procedures: MemoryClient['procedures'] = Object.create(view.procedures, {
    fromRecording: {
      value: (query: string, options?: Parameters<MemoryClient['procedures']['fromRecording']>[1]) =>
        view.procedures.fromRecording(query, { ...options, search: false }),
    },
  });
  return Object.create(view, { procedures: { value: procedures } }) as MemoryClient;
}
