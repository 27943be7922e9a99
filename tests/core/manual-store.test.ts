import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemory, NotFoundError, ValidationError } from '../../src/index.js';
import { quiet, STORES, tempDir } from '../helpers/stores.js';

// The Context Persistence spec's manual-storage scenarios, on every store.

const root = tempDir('memoir-manual-');

describe.each(STORES)('manual storage (%s)', (_name, makeStore) => {
  it('Store custom memory with metadata', async () => {
    const memory = createMemory({ store: makeStore(), logger: quiet });
    const { ids } = await memory.retain({
      content: 'Important workflow completed successfully',
      category: 'workflow',
      bookmarked: true,
      metadata: { bookmarked: true, priority: 'high', nested: { tags: ['a', 'b'], n: 1.5 } },
    });
    const stored = await memory.get(ids[0]!);
    expect(stored.metadata).toEqual({ bookmarked: true, priority: 'high', nested: { tags: ['a', 'b'], n: 1.5 } });
    expect(stored.bookmarked).toBe(true);
    await memory.close();
  });

  it('Store memory with file attachment reference', async () => {
    const home = mkdtempSync(join(root, 'home-'));
    const screenshots = mkdtempSync(join(root, 'shots-'));
    const screenshot = join(screenshots, 'screenshot_1234.png');
    writeFileSync(screenshot, Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
    const memory = createMemory({ store: makeStore(), logger: quiet, attachmentDirectory: join(home, 'attachments') });
    const { ids } = await memory.retain({
      content: 'Login screen of the admin panel',
      metadata: { screenshot_path: screenshot },
    });
    const attachment = await memory.attach(ids[0]!, screenshot);
    expect(attachment).toMatchObject({ name: 'screenshot_1234.png', bytes: 7, originalPath: screenshot });
    expect(existsSync(screenshot)).toBe(true); // copied, not moved
    const stored = await memory.get(ids[0]!);
    expect(stored.metadata.screenshot_path).toBe(screenshot);
    expect(stored.metadata.attachments).toEqual([attachment]);
    rmSync(screenshot);
    expect([...(await memory.readAttachment(ids[0]!, 'screenshot_1234.png'))]).toEqual([
      0x89, 0x50, 0x4e, 0x47, 1, 2, 3,
    ]);

    await expect(memory.attach(ids[0]!, join(screenshots, 'missing.png'))).rejects.toSatisfy(NotFoundError.isInstance);
    const folder = join(screenshots, 'a-folder');
    mkdirSync(folder);
    await expect(memory.attach(ids[0]!, folder)).rejects.toSatisfy(
      (error: unknown) => ValidationError.isInstance(error) && /directory/.test(error.message),
    );
    await expect(memory.attach('no-such-memory', folder)).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(memory.readAttachment(ids[0]!, 'other.png')).rejects.toSatisfy(NotFoundError.isInstance);
    // A recorded path that escapes the attachments directory is refused, not followed.
    await memory.update(ids[0]!, {
      metadata: { attachments: [{ name: 'evil', path: '../../etc/passwd' }] },
    });
    await expect(memory.readAttachment(ids[0]!, 'evil')).rejects.toSatisfy(
      (error: unknown) => ValidationError.isInstance(error) && /leaves the attachments directory/.test(error.message),
    );
    await memory.close();
  });
});
