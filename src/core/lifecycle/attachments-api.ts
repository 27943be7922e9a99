import { z } from 'zod';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { requireMemory } from '../shared/require-memory.js';
import { NotFoundError } from '../spec/errors.js';
import type { Memory } from '../spec/memory.js';
import { idSchema } from '../utils/common-schemas.js';
import { parseInput } from '../utils/validate.js';
import { type Attachment, copyAttachment, readAttachmentFile } from './attachments.js';

const pathSchema = z.string().min(1, 'expected a file path');

/**
 * Files kept beside a memory (screenshots, documents), copied into the store's `attachments/` directory.
 *
 * @group Client
 */
export interface AttachmentsApi {
  /**
   * Copy a file (never move it) into the store's `attachments/` directory and record it in
   * the memory's `metadata.attachments`. A missing file, a directory or a memory that
   * doesn't exist is refused with a clear error.
   */
  attach(memoryId: string, path: string): Promise<Attachment>;
  /** Read back an attachment of a memory by its name. */
  readAttachment(memoryId: string, name: string): Promise<Buffer>;
}

function attachmentsOf(memory: Memory): unknown[] {
  return Array.isArray(memory.metadata.attachments) ? memory.metadata.attachments : [];
}

const nameOf = (item: unknown) => (item as { name?: unknown } | null)?.name;

/** The attachments feature over an engine. */
export function createAttachmentsApi(engine: MemoryEngine): AttachmentsApi {
  const { store } = engine;
  return drained<AsyncMembers<AttachmentsApi>>({
    async attach(idInput, pathInput) {
      const memoryId = parseInput(idSchema, idInput, 'attach', 'memoryId');
      const path = parseInput(pathSchema, pathInput, 'attach', 'path');
      await engine.ready('attach');
      await requireMemory(engine, memoryId, 'attach');
      const attachment = await copyAttachment(engine.attachmentDirectory(), memoryId, path);
      await store.transaction(async () => {
        const memory = await requireMemory(engine, memoryId, 'attach');
        const others = attachmentsOf(memory).filter((item) => nameOf(item) !== attachment.name);
        const embedding = (await store.getEmbeddings([memoryId])).get(memoryId) ?? null;
        await store.upsertMemories([
          {
            memory: {
              ...memory,
              metadata: { ...memory.metadata, attachments: [...(others as Memory['metadata'][]), { ...attachment }] },
              updatedAt: engine.nowIso(),
            },
            embedding,
          },
        ]);
      });
      return attachment;
    },
    async readAttachment(idInput, nameInput) {
      const memoryId = parseInput(idSchema, idInput, 'readAttachment', 'memoryId');
      const name = parseInput(z.string().min(1), nameInput, 'readAttachment', 'name');
      await engine.ready('readAttachment');
      const memory = await requireMemory(engine, memoryId, 'readAttachment');
      const found = attachmentsOf(memory).find((item) => nameOf(item) === name) as { path?: unknown } | undefined;
      if (typeof found?.path !== 'string') throw new NotFoundError('attachment', name, { component: 'readAttachment' });
      return readAttachmentFile(engine.attachmentDirectory(), found.path);
    },
  });
}
