// Reads conversation sets in the LoCoMo format (a JSON array of samples with
// `conversation.session_N`, `conversation.session_N_date_time` and `qa`) into plain
// turns and questions, tolerating the format's known quirks and counting what it skips.

/** One dialogue turn, ready to retain. */
export interface Turn {
  sampleId: string;
  sessionKey: string;
  diaId: string;
  speaker: string;
  text: string;
  caption: string | null;
  occurredAt: string | null;
}

/** One question with the turns that answer it. */
export interface Question {
  sampleId: string;
  index: number;
  question: string;
  category: number;
  evidence: string[];
}

/** What the reader left out or repaired, by reason. */
export interface Quirks {
  malformedEvidence: number;
  questionsWithoutEvidence: number;
  unknownEvidence: number;
  datesWithoutSession: number;
  sessionsWithoutDate: number;
  unparsableDates: number;
  turnsWithoutText: number;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * "1:56 pm on 8 May, 2023" (or an ISO date such as 2023-05-08T13:56) → ISO in UTC, or null
 * when it doesn't parse or names a time that doesn't exist. Never guesses from local time.
 */
export function parseSessionDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const spoken = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(value);
  const iso = /^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(value);
  let parts: { year: number; month: number; day: number; hour: number; minute: number } | null = null;
  if (spoken) {
    const [, hourText, minute, meridiem, day, monthName, year] = spoken;
    const month = MONTHS.findIndex((name) => monthName!.length >= 3 && name.startsWith(monthName!.toLowerCase()));
    const hour12 = Number(hourText);
    if (month < 0 || hour12 < 1 || hour12 > 12) return null;
    const hour = (hour12 % 12) + (meridiem!.toLowerCase() === 'pm' ? 12 : 0);
    parts = { year: Number(year), month, day: Number(day), hour, minute: Number(minute) };
  } else if (iso) {
    const [, year, month, day, hour, minute] = iso;
    parts = {
      year: Number(year),
      month: Number(month) - 1,
      day: Number(day),
      hour: Number(hour ?? 0),
      minute: Number(minute ?? 0),
    };
  }
  if (!parts) return null;
  const date = new Date(Date.UTC(parts.year, parts.month, parts.day, parts.hour, parts.minute));
  // Date.UTC rolls 31 February into March; a date that doesn't come back unchanged didn't exist.
  const exists =
    date.getUTCFullYear() === parts.year &&
    date.getUTCMonth() === parts.month &&
    date.getUTCDate() === parts.day &&
    date.getUTCHours() === parts.hour &&
    date.getUTCMinutes() === parts.minute;
  return exists ? date.toISOString() : null;
}

/** Evidence entries such as "D8:6; D9:17" hold several ids; "D" holds none. */
export function parseEvidence(entries: unknown, quirks: Quirks): string[] {
  const ids: string[] = [];
  const list = Array.isArray(entries) ? entries : [];
  for (const entry of list) {
    if (typeof entry !== 'string') {
      quirks.malformedEvidence++;
      continue;
    }
    const found = entry.match(/D\d+:\d+/g) ?? [];
    const clean = /^\s*D\d+:\d+\s*$/.test(entry);
    if (!clean) quirks.malformedEvidence++;
    ids.push(...found);
  }
  return [...new Set(ids)];
}

/** Turns and questions of every sample in `raw` (the parsed JSON file). */
export function readConversations(raw: unknown) {
  const quirks: Quirks = {
    malformedEvidence: 0,
    questionsWithoutEvidence: 0,
    unknownEvidence: 0,
    datesWithoutSession: 0,
    sessionsWithoutDate: 0,
    unparsableDates: 0,
    turnsWithoutText: 0,
  };
  const turns: Turn[] = [];
  const questions: Question[] = [];
  const samples = Array.isArray(raw) ? raw : [];
  samples.forEach((value: unknown, sampleIndex) => {
    if (value === null || typeof value !== 'object') return;
    const sample = value as Record<string, unknown>;
    const sampleId = typeof sample.sample_id === 'string' ? sample.sample_id : `sample-${sampleIndex}`;
    const conversation = (sample.conversation ?? {}) as Record<string, unknown>;
    const sessionKeys = Object.keys(conversation).filter((key) => /^session_\d+$/.test(key));
    const dateKeys = Object.keys(conversation).filter((key) => /^session_\d+_date_time$/.test(key));
    quirks.datesWithoutSession += dateKeys.filter(
      (key) => !sessionKeys.includes(key.replace(/_date_time$/, '')),
    ).length;
    const known = new Set<string>();
    for (const sessionKey of sessionKeys.sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)))) {
      const rawDate = conversation[`${sessionKey}_date_time`];
      if (rawDate === undefined) quirks.sessionsWithoutDate++;
      const occurredAt = parseSessionDate(rawDate);
      if (rawDate !== undefined && occurredAt === null) quirks.unparsableDates++;
      const sessionTurns = Array.isArray(conversation[sessionKey]) ? (conversation[sessionKey] as unknown[]) : [];
      sessionTurns.forEach((value, turnIndex) => {
        const turn = (value ?? {}) as Record<string, unknown>;
        const text = typeof turn.text === 'string' ? turn.text.trim() : '';
        const caption = typeof turn.blip_caption === 'string' ? turn.blip_caption.trim() : '';
        if (!text && !caption) {
          quirks.turnsWithoutText++;
          return;
        }
        const diaId = typeof turn.dia_id === 'string' ? turn.dia_id : `${sessionKey}:${turnIndex + 1}`;
        known.add(diaId);
        turns.push({
          sampleId,
          sessionKey,
          diaId,
          speaker: typeof turn.speaker === 'string' ? turn.speaker : 'unknown',
          text,
          caption: caption || null,
          // Turns of a session share its date; a minute apart keeps their order.
          occurredAt: occurredAt ? new Date(Date.parse(occurredAt) + turnIndex * 60_000).toISOString() : null,
        });
      });
    }
    const qa = Array.isArray(sample.qa) ? (sample.qa as unknown[]) : [];
    qa.forEach((entry, index) => {
      if (entry === null || typeof entry !== 'object') {
        quirks.questionsWithoutEvidence++;
        return;
      }
      const item = entry as Record<string, unknown>;
      const evidence = parseEvidence(item.evidence, quirks);
      const resolvable = evidence.filter((id) => known.has(id));
      quirks.unknownEvidence += evidence.length - resolvable.length;
      if (resolvable.length === 0 || typeof item.question !== 'string' || !item.question.trim()) {
        quirks.questionsWithoutEvidence++;
        return;
      }
      questions.push({
        sampleId,
        index,
        question: item.question,
        category: typeof item.category === 'number' ? item.category : 0,
        evidence: resolvable,
      });
    });
  });
  return { turns, questions, quirks };
}
