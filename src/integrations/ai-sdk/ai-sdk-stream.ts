import type { AiSdkResponsePart } from './ai-sdk-types.js';

/** How a watched stream ended. */
export type StreamEnd =
  | { readonly how: 'finished'; readonly finishReason: unknown }
  | { readonly how: 'aborted' }
  | { readonly how: 'failed' };

/** What a stream carried, collected as the parts of a generate result would be. */
export interface StreamedResponse {
  /** Text blocks in the order they started, and tool calls and files where they came. */
  readonly content: AiSdkResponsePart[];
}

/** Collects a streamed answer part by part. */
function createCollector() {
  const content: AiSdkResponsePart[] = [];
  const texts = new Map<string, { type: 'text'; text: string }>();
  let finishReason: unknown;
  let failed = false;
  const textBlock = (id: string) => {
    let block = texts.get(id);
    if (!block) {
      block = { type: 'text', text: '' };
      texts.set(id, block);
      content.push(block);
    }
    return block;
  };
  return {
    add(part: AiSdkResponsePart) {
      switch (part.type) {
        case 'text-start':
          textBlock(part.id ?? '');
          break;
        case 'text-delta':
          textBlock(part.id ?? '').text += part.delta ?? '';
          break;
        case 'tool-call':
        case 'file':
          content.push(part);
          break;
        case 'finish':
          finishReason = part.finishReason;
          break;
        case 'error':
          failed = true;
          break;
      }
    },
    get response(): StreamedResponse {
      return { content };
    },
    get finishReason() {
      return finishReason;
    },
    get failed() {
      return failed;
    },
  };
}

/**
 * Pass `source` through part by part and call `onEnd` once, when the stream is read to its
 * end, fails, or is cancelled or aborted (by the reader or through `signal`) — with what it
 * carried until then. The parts reach the reader unchanged and unbuffered.
 */
export function watchStream<Part extends AiSdkResponsePart>(
  source: ReadableStream<Part>,
  signal: AbortSignal | undefined,
  onEnd: (end: StreamEnd, response: StreamedResponse) => void,
): ReadableStream<Part> {
  const collector = createCollector();
  const reader = source.getReader();
  let ended = false;
  const end = (how: StreamEnd) => {
    if (ended) return;
    ended = true;
    signal?.removeEventListener('abort', onAbort);
    onEnd(how, collector.response);
  };
  const onAbort = () => end({ how: 'aborted' });
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return new ReadableStream<Part>({
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        end(signal?.aborted ? { how: 'aborted' } : { how: 'failed' });
        controller.error(error);
        return;
      }
      if (next.done) {
        end(collector.failed ? { how: 'failed' } : { how: 'finished', finishReason: collector.finishReason });
        controller.close();
        return;
      }
      collector.add(next.value);
      controller.enqueue(next.value);
    },
    async cancel(reason) {
      end({ how: 'aborted' });
      await reader.cancel(reason);
    },
  });
}
