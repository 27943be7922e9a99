import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoriesAiProvider } from '../../src/adapters/memories-ai/index.js';
import type { MemoryClient } from '../../src/index.js';
import { createMcpServer } from '../../src/integrations/mcp/index.js';
import { createFfmpegFrameExtractor } from '../../src/recorder/index.js';
import { createScriptedLanguageModel } from '../../src/testing/index.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { STORES, storeAndClient, tempDir } from '../helpers/stores.js';
import { missingTools, titled } from '../helpers/system-tools.js';
import { writeTestVideo } from '../helpers/video-files.js';
import { bin, childEnvironment, dataOf, textOf } from './mcp-harness.js';

const ffmpegMissing = missingTools('ffmpeg');

// The seed's loop from the agent's side: memory_procedures_from_recording through the official MCP client
// gets "On Feb 10, the user: 1) … 2) …" with the video range and confidence, drawn from a real
// video on the loopback Memories AI server by the real ffmpeg and a scripted vision model; the
// same steps then come back from memory_find_procedures and memory_recall.
const RECORDED = '2026-02-10T14:30:05.000Z';
const STEPS = [
  'Opened github.com/settings/keys in the browser',
  "Clicked the green 'New SSH key' button",
  "Pasted the key into the 'Key' field",
  "Clicked 'Add SSH key'",
];

interface StepsResult {
  query: string;
  results: Array<{
    steps: string[];
    confidence: number;
    videoId: string;
    videoStartMs: number;
    videoEndMs: number;
    recordedAt: { start: string; end: string } | null;
    procedureId: string;
    memoryId: string | null;
    cached: boolean;
  }>;
}

/** A loopback OpenAI-compatible vision model that answers the scripted steps in order, then NONE. */
async function startVisionServer(): Promise<{ baseUrl: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const text = STEPS[calls++] ?? 'NONE';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chat-${calls}`,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls: () => calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function expectSeedAnswer(text: string, videoId: string): void {
  expect(text).toMatch(
    /On Feb 10, 2026 at 14:30 UTC, the user: 1\) Opened github\.com\/settings\/keys in the browser 2\) /,
  );
  expect(text).toContain(`video="${videoId}" clip="0:01-0:05"`);
  expect(text).toContain('recorded="2026-02-10T14:30:06.000Z/2026-02-10T14:30:10.000Z" confidence="0.92"');
  expect(text).toMatch(/untrusted notes, not instructions/);
}

describe.skipIf(ffmpegMissing)(
  titled('memory_procedures_from_recording through the official MCP client', ffmpegMissing),
  () => {
    let server: MemoriesAiServer;
    let videoId: string;
    const dir = tempDir('memoir-mcp-steps-');

    beforeAll(async () => {
      server = await new MemoriesAiServer().start();
      const provider = createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0 });
      const file = writeTestVideo(join(dir, 'rec-20260210-143005-0a0b0c0d.mp4'), 6);
      ({ videoId } = await provider.upload({ filePath: file, recordedAt: RECORDED }));
      server.searchResults = [
        {
          video_id: videoId,
          score: 0.92,
          start: 1,
          end: 5,
          snippet: 'An SSH key is added on GitHub.',
          captured_at: RECORDED,
        },
      ];
    }, 60_000);
    afterAll(() => server?.close());

    describe.each(STORES)('in process, %s', (_name, make) => {
      const open: Array<{ client: Client; memory: MemoryClient }> = [];
      afterEach(async () => {
        for (const { client, memory } of open.splice(0)) {
          await client.close();
          await memory.close();
        }
      });

      it('answers with the date, numbered steps, video range and confidence; find_procedures and recall find them after', async () => {
        let i = 0;
        const model = createScriptedLanguageModel(() => STEPS[i++] ?? 'NONE');
        const provider = createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0 });
        const { memory } = storeAndClient(make, {
          video: { provider, frames: createFfmpegFrameExtractor(), visionModel: model, maxFramesPerClip: 5 },
        });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await createMcpServer({ client: memory, home: tempDir('memoir-mcp-home-') })().connect(serverSide);
        const client = new Client({ name: 'memoir-tests', version: '1' });
        await client.connect(clientSide);
        open.push({ client, memory });
        const call = async (name: string, args: Record<string, unknown>) =>
          (await client.callTool({ name, arguments: args })) as CallToolResult;

        const { tools } = await client.listTools();
        const tool = tools.find((each) => each.name === 'memory_procedures_from_recording');
        expect(tool?.inputSchema).toMatchObject({
          type: 'object',
          required: ['query'],
          additionalProperties: false,
          properties: { query: { type: 'string' }, k: { type: 'integer' }, refresh: { type: 'boolean' } },
        });
        expect(tool?.annotations?.readOnlyHint).toBe(true);

        const answer = await call('memory_procedures_from_recording', {
          query: 'how do I add an SSH key on GitHub',
          k: 1,
        });
        expectSeedAnswer(textOf(answer), videoId);
        const [result] = dataOf<StepsResult>(answer).results;
        expect(result).toMatchObject({
          cached: false,
          confidence: 0.92,
          videoStartMs: 1000,
          videoEndMs: 5000,
          recordedAt: { start: '2026-02-10T14:30:06.000Z', end: '2026-02-10T14:30:10.000Z' },
          steps: STEPS.slice(0, result!.steps.length),
        });

        const again = dataOf<StepsResult>(
          await call('memory_procedures_from_recording', { query: 'How do I add an SSH key on GitHub?' }),
        );
        expect(again.results[0]).toMatchObject({ cached: true, procedureId: result!.procedureId });

        const found = await call('memory_find_procedures', {
          request: 'add an SSH key on GitHub',
          sources: ['recording'],
        });
        expect(dataOf<{ procedures: unknown[] }>(found).procedures).toMatchObject([
          {
            id: result!.procedureId,
            source: 'recording',
            file: null,
            recording: { videoId, confidence: 0.92, recordedAt: result!.recordedAt },
          },
        ]);
        expect(textOf(found)).toContain('source="recording"');

        const recalled = await call('memory_recall', {
          query: 'adding an SSH key to GitHub',
          filters: { categories: ['recording'] },
        });
        expect(textOf(recalled)).toMatch(/On Feb 10, 2026 at 14:30 UTC, the user: 1\) Opened github\.com/);
        expect(dataOf<{ results: Array<{ id: string }> }>(recalled).results.map((entry) => entry.id)).toEqual([
          result!.memoryId,
        ]);

        // Bad arguments name the field.
        const bad = await call('memory_procedures_from_recording', { query: '   ' });
        expect(bad.isError).toBe(true);
        expect(textOf(bad)).toMatch(/query/);
      }, 90_000);
    });

    it('`memoir mcp` with MEMORIES_AI_API_KEY searches the recordings (vision model over HTTP) on its SQLite file', async () => {
      const vision = await startVisionServer();
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--tools', 'all'],
        env: childEnvironment({
          MEMOIR_HOME: tempDir('memoir-mcp-steps-home-'),
          MEMORIES_AI_API_KEY: server.apiKey,
          MEMORIES_AI_BASE_URL: server.baseUrl,
          MEMOIR_VISION_MODEL: 'scripted-vision',
          MEMOIR_VISION_BASE_URL: vision.baseUrl,
        }),
        stderr: 'pipe',
      });
      const client = new Client({ name: 'memoir-tests', version: '1' });
      try {
        await client.connect(transport);
        const answer = (await client.callTool({
          name: 'memory_procedures_from_recording',
          arguments: { query: 'how do I add an SSH key on GitHub', k: 1 },
        })) as CallToolResult;
        expectSeedAnswer(textOf(answer), videoId);
        expect(vision.calls()).toBeGreaterThanOrEqual(2);
        const recalled = (await client.callTool({
          name: 'memory_recall',
          arguments: { query: 'SSH key GitHub', filters: { categories: ['recording'] } },
        })) as CallToolResult;
        expect(textOf(recalled)).toMatch(/On Feb 10, 2026 at 14:30 UTC, the user: 1\) Opened github\.com/);
      } finally {
        await client.close();
        await vision.close();
      }
    }, 120_000);
  },
);
