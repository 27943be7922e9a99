import { z } from 'zod';

// Answers of the Datalake API, as the official clients read them. Unknown fields pass;
// only what the adapter uses is checked, so a field the service adds breaks nothing.

/** `GET /collections`: the collections of the account. */
export const collectionsAnswer = z.object({
  collections: z.array(z.object({ id: z.string(), name: z.string().optional() })).default([]),
});

/** `POST /collections`: the new collection's id (some versions wrap it in `collection`). */
export const createdCollectionAnswer = z.union([
  z.object({ id: z.string() }),
  z.object({ collection: z.object({ id: z.string() }) }).transform((value) => ({ id: value.collection.id })),
]);

/** `POST /videos`: the video's id and the indexing operation. */
export const uploadAnswer = z.object({
  video_id: z.string().min(1),
  operation: z.union([z.string(), z.object({ id: z.string() })]).optional(),
});

/** `GET /videos/{id}`: its indexing status, progress and error. */
export const videoAnswer = z.object({
  status: z.string(),
  error: z.union([z.object({ message: z.string().optional() }).passthrough(), z.string(), z.null()]).optional(),
  progress: z.object({ percent: z.number().optional() }).passthrough().optional(),
});

/** `POST /search`: moments, with start and end in seconds. */
export const searchAnswer = z.object({
  results: z.array(
    z.object({
      video_id: z.string(),
      score: z.number(),
      start: z.number().nonnegative(),
      end: z.number().nonnegative(),
      snippet: z.string().nullable().optional(),
      captured_at: z.string().nullable().optional(),
    }),
  ),
});

/** `GET /videos/{id}/summary`. */
export const summaryAnswer = z.object({ summary: z.string() });

/** `GET /videos/{id}/caption`: captioned spans, seconds. */
export const captionAnswer = z.object({
  segments: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })).default([]),
});

/** `GET /videos/{id}/clip`: a signed download link (the field's name varies). */
export const clipAnswer = z
  .object({ url: z.string().optional(), clip_url: z.string().optional(), download_url: z.string().optional() })
  .refine((value) => value.url ?? value.clip_url ?? value.download_url, 'expected a url');
