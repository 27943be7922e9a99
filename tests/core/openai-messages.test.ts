import { describe, expect, it } from 'vitest';
import { type ConversationInput, ValidationError } from '../../src/index.js';
import { createScriptedLanguageModel } from '../../src/testing/index.js';
import { clientsClosedAfterEach } from '../helpers/clients.js';

const client = clientsClosedAfterEach();

// The shapes of the OpenAI SDK's ChatCompletionMessageParam (openai 4.x/5.x), declared as the
// SDK declares them — interfaces — so that the type check below is what a user's code meets.
interface TextPart {
  type: 'text';
  text: string;
}
interface ImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}
interface AudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: 'wav' | 'mp3' };
}
interface FilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}
interface RefusalPart {
  type: 'refusal';
  refusal: string;
}
interface FunctionToolCall {
  id: string;
  type: 'function';
  function: { arguments: string; name: string };
}
interface CustomToolCall {
  id: string;
  type: 'custom';
  custom: { input: string; name: string };
}
interface SystemMessage {
  role: 'system';
  content: string | TextPart[];
  name?: string;
}
interface DeveloperMessage {
  role: 'developer';
  content: string | TextPart[];
  name?: string;
}
interface UserMessage {
  role: 'user';
  content: string | Array<TextPart | ImagePart | AudioPart | FilePart>;
  name?: string;
}
interface AssistantMessage {
  role: 'assistant';
  content?: string | Array<TextPart | RefusalPart> | null;
  name?: string;
  refusal?: string | null;
  audio?: { id: string } | null;
  function_call?: { arguments: string; name: string } | null;
  tool_calls?: Array<FunctionToolCall | CustomToolCall>;
}
interface ToolMessage {
  role: 'tool';
  content: string | TextPart[];
  tool_call_id: string;
}
interface FunctionMessage {
  role: 'function';
  content: string | null;
  name: string;
}
// What `completion.choices[0].message` is, pushed back into the history as many agents do.
interface ResponseMessage {
  role: 'assistant';
  content: string | null;
  refusal: string | null;
  annotations?: Array<{ type: 'url_citation'; url_citation: { url: string; title: string } }>;
  tool_calls?: FunctionToolCall[];
}
type ChatCompletionMessageParam =
  | SystemMessage
  | DeveloperMessage
  | UserMessage
  | AssistantMessage
  | ToolMessage
  | FunctionMessage
  | ResponseMessage;

const history: ChatCompletionMessageParam[] = [
  { role: 'developer', content: 'You are a travel assistant.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is the weather where this photo was taken?' },
      { type: 'image_url', image_url: { url: 'https://example.com/photos/lisbon.jpg?sig=abc123', detail: 'low' } },
    ],
  },
  {
    role: 'assistant',
    content: null,
    refusal: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '{"temp_c":18,"sky":"clear"}' },
  { role: 'assistant', content: [{ type: 'text', text: 'It is 18 °C and clear in Lisbon.' }] },
  {
    role: 'user',
    content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg' } }],
  },
  { role: 'assistant', content: null, refusal: 'I cannot identify people in photos.', annotations: [] },
];

const expectedTranscript = [
  'system: You are a travel assistant.',
  'user: What is the weather where this photo was taken?\n[image: https://example.com/photos/lisbon.jpg]',
  'assistant: → get_weather({"city":"Lisbon"})',
  'tool get_weather: {"temp_c":18,"sky":"clear"}',
  'assistant: It is 18 °C and clear in Lisbon.',
  'user: [image]',
  'assistant: (refused: I cannot identify people in photos.)',
].join('\n');

describe('retain({ messages }) takes an OpenAI-SDK chat history as it is', () => {
  it('keeps tool calls, tool results and image markers in the episode (no model)', async () => {
    const memory = client();
    const input: ConversationInput = { messages: history, sessionId: 'trip' };
    const result = await memory.retain(input);
    const episode = await memory.get(result.episodeId!);
    expect(episode.content).toBe(expectedTranscript);
    expect(episode.content).not.toContain('base64');
    expect(episode.content).not.toContain('sig=');
  });

  it('shows the model the same transcript', async () => {
    const model = createScriptedLanguageModel([JSON.stringify({ memories: [] })]);
    const memory = client({ languageModel: model });
    await memory.retain({ messages: history });
    const prompt = JSON.stringify(model.calls[0]!.messages);
    for (const line of [
      '→ get_weather({\\"city\\":\\"Lisbon\\"})',
      'tool get_weather: ',
      '[image: https://example.com',
    ]) {
      expect(prompt).toContain(line);
    }
  });

  it('renders custom tool calls, the legacy function role, files, audio and several calls in one message', async () => {
    const memory = client();
    const messages: ChatCompletionMessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summarise this.' },
          { type: 'file', file: { filename: 'report.pdf', file_data: 'JVBERi0x' } },
          { type: 'input_audio', input_audio: { data: 'UklGRg', format: 'wav' } },
        ],
        name: 'Sam',
      },
      {
        role: 'assistant',
        content: 'Reading it.',
        tool_calls: [
          { id: 'c1', type: 'custom', custom: { name: 'grep', input: 'revenue' } },
          { id: 'c2', type: 'function', function: { name: 'read_pdf', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'Revenue grew 12 %.' }] },
      { role: 'tool', tool_call_id: 'unknown', content: 'orphan result' },
      { role: 'function', name: 'legacy_fn', content: null },
      { role: 'assistant', content: null, audio: { id: 'audio_1' } },
    ];
    const episode = await memory.get((await memory.retain({ messages })).episodeId!);
    expect(episode.content).toBe(
      [
        'Sam: Summarise this.\n[file: report.pdf]\n[audio]',
        'assistant: Reading it.\n→ grep(revenue)\n→ read_pdf({})',
        'tool read_pdf: Revenue grew 12 %.',
        'tool: orphan result',
        'legacy_fn: ',
        'assistant: [audio reply]',
      ].join('\n'),
    );
  });

  it('still refuses what is not a message', async () => {
    const memory = client();
    const field = async (message: unknown) => {
      const error = await memory.retain({ messages: [message] } as never).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(ValidationError.isInstance(error), JSON.stringify(message)).toBe(true);
      return (error as ValidationError).message;
    };
    expect(await field({ role: 'user' })).toContain('input.messages[0].content: expected a string, an array');
    expect(await field({ role: 'bot', content: 'hi' })).toContain('input.messages[0].role');
    expect(await field({ role: 'user', content: 42 })).toContain('input.messages[0].content');
    expect(await field({ role: 'tool', content: 'x', toolCallId: 'c1' })).toContain(
      '"toolCallId": did you mean tool_call_id?',
    );
    expect(await field({ role: 'user', content: [{ text: 'no type' }] })).toContain('input.messages[0].content');
  });
});
