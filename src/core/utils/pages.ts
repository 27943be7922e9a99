import type { Memory } from '../spec/memory.js';
import type { ListMemoriesQuery, MemoryFilter } from '../spec/store.js';

/** What a pass over memories reads from: the core's view of a store, or anything listing memories the same way. */
export interface MemoryLister {
  /** Memories matching a filter, sorted and paged. */
  listMemories(query?: ListMemoriesQuery): Promise<Memory[]>;
}

/** Page size for full passes over a store: large enough to amortise a query, small enough to stay lean. */
export const PAGE_SIZE = 1_000;

/**
 * Read a paged source from offset 0 until a short page, yielding each non-empty page.
 * The source must keep a stable order for the pass to see every item once.
 */
export async function* pagesOf<T>(
  readPage: (offset: number, limit: number) => Promise<T[]>,
  pageSize: number = PAGE_SIZE,
): AsyncGenerator<T[]> {
  for (let offset = 0; ; offset += pageSize) {
    const page = await readPage(offset, pageSize);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
  }
}

/** Every memory matching `filter`, in pages, oldest `createdAt` first. */
export function memoryPages(
  store: MemoryLister,
  filter: MemoryFilter | undefined,
  pageSize: number = PAGE_SIZE,
): AsyncGenerator<Memory[]> {
  return pagesOf(
    (offset, limit) => store.listMemories({ filter, orderBy: 'createdAt', direction: 'asc', limit, offset }),
    pageSize,
  );
}
