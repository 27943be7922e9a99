import { describe, expect, it } from 'vitest';
import { parseEvidence, parseSessionDate, type Quirks, readConversations } from '../../bench/locomo-data.js';

// Every fixture here is synthetic: invented people and sentences shaped like the LoCoMo
// format. The real data set is licensed for benchmarking only and is never read by tests.

function noQuirks(): Quirks {
  return {
    malformedEvidence: 0,
    questionsWithoutEvidence: 0,
    unknownEvidence: 0,
    datesWithoutSession: 0,
    sessionsWithoutDate: 0,
    unparsableDates: 0,
    turnsWithoutText: 0,
  };
}

type RawTurn = Record<string, unknown>;

function turn(speaker: string, diaId: string, text: string, extra: RawTurn = {}): RawTurn {
  return { speaker, dia_id: diaId, text, ...extra };
}

/** One sample with two dated sessions and no question; tests add what they need. */
function sample(overrides: { conversation?: Record<string, unknown>; qa?: unknown; sample_id?: unknown } = {}) {
  return {
    sample_id: 'synthetic-1',
    conversation: {
      speaker_a: 'Orla',
      speaker_b: 'Tamsin',
      session_1_date_time: '9:15 am on 3 March, 2022',
      session_1: [
        turn('Orla', 'D1:1', 'I finally repaired the blue canoe last weekend.'),
        turn('Tamsin', 'D1:2', 'Nice! Are you taking it to Lake Pemberly?'),
        turn('Orla', 'D1:3', 'Yes, on Saturday with my cousin Bram.'),
      ],
      session_2_date_time: '4:40 pm on 12 March, 2022',
      session_2: [
        turn('Tamsin', 'D2:1', 'How was the lake?'),
        turn('Orla', 'D2:2', 'Cold, but Bram caught three perch.'),
      ],
      ...overrides.conversation,
    },
    qa: overrides.qa ?? [],
    ...(overrides.sample_id === undefined ? {} : { sample_id: overrides.sample_id }),
  };
}

/** What {@link readConversations} makes of the one {@link sample} with `overrides`. */
const readSample = (overrides?: Parameters<typeof sample>[0]) => readConversations([sample(overrides)]);

describe('parseEvidence', () => {
  it('keeps a clean id without counting anything', () => {
    const quirks = noQuirks();
    expect(parseEvidence(['D1:3'], quirks)).toEqual(['D1:3']);
    expect(parseEvidence(['  D12:40 '], quirks)).toEqual(['D12:40']);
    expect(quirks).toEqual(noQuirks());
  });

  it('splits "D8:6; D9:17" into both ids and counts it as malformed but repaired', () => {
    const quirks = noQuirks();
    expect(parseEvidence(['D8:6; D9:17'], quirks)).toEqual(['D8:6', 'D9:17']);
    expect(quirks.malformedEvidence).toBe(1);
  });

  it('yields nothing for "D" and counts it', () => {
    const quirks = noQuirks();
    expect(parseEvidence(['D'], quirks)).toEqual([]);
    expect(quirks.malformedEvidence).toBe(1);
  });

  it('counts non-string entries, drops duplicates and treats a non-array as empty', () => {
    const quirks = noQuirks();
    expect(parseEvidence(['D1:1', 7, null, 'D1:1', 'D2:2,D1:1'], quirks)).toEqual(['D1:1', 'D2:2']);
    expect(quirks.malformedEvidence).toBe(3);
    const untouched = noQuirks();
    expect(parseEvidence(undefined, untouched)).toEqual([]);
    expect(parseEvidence('D1:1', untouched)).toEqual([]);
    expect(parseEvidence({ 0: 'D1:1' }, untouched)).toEqual([]);
    expect(untouched).toEqual(noQuirks());
  });
});

describe('parseSessionDate', () => {
  it('reads the LoCoMo "h:mm am/pm on D Month, YYYY" form as UTC', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00.000Z');
    expect(parseSessionDate('7:02 AM on 30 November, 2021')).toBe('2021-11-30T07:02:00.000Z');
    expect(parseSessionDate('3:00 pm on 14 Feb 2020')).toBe('2020-02-14T15:00:00.000Z');
  });

  it('maps 12 am to hour 0 and 12 pm to hour 12', () => {
    const midnight = parseSessionDate('12:05 am on 1 January, 2024');
    expect(midnight).toBe('2024-01-01T00:05:00.000Z');
    expect(new Date(midnight!).getUTCHours()).toBe(0);
    expect(parseSessionDate('12:30 pm on 1 January, 2024')).toBe('2024-01-01T12:30:00.000Z');
  });

  it('returns null for garbage and non-strings', () => {
    for (const value of [
      'garbage',
      '',
      'not a date at all',
      '1:56 pm on 8 Smarch, 2023',
      undefined,
      null,
      42,
      {},
      [],
    ]) {
      expect(parseSessionDate(value), JSON.stringify(value)).toBeNull();
    }
  });

  // V8's legacy Date.parse turns "session 2" into 1 Feb 2001 in local time; the reader must not guess.
  it('returns null for junk that only contains a number', () => {
    for (const value of ['session 2', '1', 'around 3']) {
      expect(parseSessionDate(value), value).toBeNull();
    }
  });
});

describe('readConversations', () => {
  it('reads turns in session order with dates one minute apart and the questions that resolve', () => {
    const raw = [
      sample({
        qa: [
          { question: 'What did Orla repair?', answer: 'the blue canoe', evidence: ['D1:1'], category: 4 },
          { question: 'Who caught perch?', answer: 'Bram', evidence: ['D2:2', 'D1:3'], category: 1 },
        ],
      }),
    ];
    const { turns, questions, quirks } = readConversations(raw);
    expect(quirks).toEqual(noQuirks());
    expect(turns.map((t) => t.diaId)).toEqual(['D1:1', 'D1:2', 'D1:3', 'D2:1', 'D2:2']);
    expect(turns[0]).toEqual({
      sampleId: 'synthetic-1',
      sessionKey: 'session_1',
      diaId: 'D1:1',
      speaker: 'Orla',
      text: 'I finally repaired the blue canoe last weekend.',
      caption: null,
      occurredAt: '2022-03-03T09:15:00.000Z',
    });
    expect(turns.slice(0, 3).map((t) => t.occurredAt)).toEqual([
      '2022-03-03T09:15:00.000Z',
      '2022-03-03T09:16:00.000Z',
      '2022-03-03T09:17:00.000Z',
    ]);
    expect(turns.slice(3).map((t) => t.occurredAt)).toEqual(['2022-03-12T16:40:00.000Z', '2022-03-12T16:41:00.000Z']);
    expect(questions).toEqual([
      { sampleId: 'synthetic-1', index: 0, question: 'What did Orla repair?', category: 4, evidence: ['D1:1'] },
      { sampleId: 'synthetic-1', index: 1, question: 'Who caught perch?', category: 1, evidence: ['D2:2', 'D1:3'] },
    ]);
  });

  it('resolves "D8:6; D9:17"-style evidence to both turns and counts the repair', () => {
    const { questions, quirks } = readSample({
      qa: [{ question: 'Where and with whom?', evidence: ['D1:2; D1:3'], category: 2 }],
    });
    expect(questions).toHaveLength(1);
    expect(questions[0]!.evidence).toEqual(['D1:2', 'D1:3']);
    expect(quirks.malformedEvidence).toBe(1);
    expect(quirks.questionsWithoutEvidence).toBe(0);
  });

  it('skips and counts questions whose evidence is "D", empty or missing', () => {
    const { questions, quirks } = readSample({
      qa: [
        { question: 'Only a bare D?', evidence: ['D'], category: 1 },
        { question: 'Empty list?', evidence: [], category: 1 },
        { question: 'No evidence key at all?', category: 1 },
        { question: 'Evidence is not a list?', evidence: 'D1:1', category: 1 },
        { question: 'A good one?', evidence: ['D', 'D2:1'], category: 3 },
      ],
    });
    expect(questions.map((q) => q.index)).toEqual([4]);
    expect(questions[0]!.evidence).toEqual(['D2:1']);
    expect(quirks.questionsWithoutEvidence).toBe(4);
    expect(quirks.malformedEvidence).toBe(2);
  });

  it('counts evidence naming a turn that does not exist and skips questions with only such evidence', () => {
    const { questions, quirks } = readSample({
      qa: [
        { question: 'Partly unknown?', evidence: ['D1:1', 'D7:3'], category: 1 },
        { question: 'All unknown?', evidence: ['D9:9', 'D1:99'], category: 1 },
      ],
    });
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ index: 0, evidence: ['D1:1'] });
    expect(quirks.unknownEvidence).toBe(3);
    expect(quirks.questionsWithoutEvidence).toBe(1);
  });

  it('does not resolve evidence against another sample', () => {
    const other = {
      sample_id: 'synthetic-2',
      conversation: { session_1_date_time: '8:00 am on 2 June, 2021', session_1: [turn('Ike', 'D1:1', 'Hello')] },
      qa: [{ question: 'Cross-sample?', evidence: ['D2:2'], category: 1 }],
    };
    const { questions, quirks } = readConversations([sample(), other]);
    expect(questions).toEqual([]);
    expect(quirks.unknownEvidence).toBe(1);
    expect(quirks.questionsWithoutEvidence).toBe(1);
  });

  it('skips and counts questions with a missing or blank question text', () => {
    const { questions, quirks } = readSample({
      qa: [
        { evidence: ['D1:1'], category: 1 },
        { question: '   ', evidence: ['D1:1'], category: 1 },
        { question: 'Kept, category defaults to 0', evidence: ['D1:1'] },
      ],
    });
    expect(questions).toEqual([
      { sampleId: 'synthetic-1', index: 2, question: 'Kept, category defaults to 0', category: 0, evidence: ['D1:1'] },
    ]);
    expect(quirks.questionsWithoutEvidence).toBe(2);
  });

  it('counts date keys without a session and does not crash on them', () => {
    const { turns, quirks } = readSample({
      conversation: {
        session_3_date_time: '10:00 am on 20 March, 2022',
        session_4_date_time: 'garbage',
      },
    });
    expect(turns).toHaveLength(5);
    expect(new Set(turns.map((t) => t.sessionKey))).toEqual(new Set(['session_1', 'session_2']));
    expect(quirks.datesWithoutSession).toBe(2);
    expect(quirks.unparsableDates).toBe(0);
    expect(quirks.sessionsWithoutDate).toBe(0);
  });

  it('gives turns of a session without a date occurredAt null and counts the session', () => {
    const { turns, quirks } = readSample({
      conversation: { session_3: [turn('Orla', 'D3:1', 'No date on this one.'), turn('Tamsin', 'D3:2', 'Odd.')] },
    });
    const undated = turns.filter((t) => t.sessionKey === 'session_3');
    expect(undated.map((t) => t.occurredAt)).toEqual([null, null]);
    expect(turns.filter((t) => t.sessionKey !== 'session_3').every((t) => t.occurredAt !== null)).toBe(true);
    expect(quirks.sessionsWithoutDate).toBe(1);
    expect(quirks.unparsableDates).toBe(0);
  });

  it('gives turns of a session with an unparsable date occurredAt null and counts it', () => {
    const { turns, quirks } = readSample({ conversation: { session_2_date_time: 'sometime in spring, probably' } });
    expect(turns.filter((t) => t.sessionKey === 'session_2').map((t) => t.occurredAt)).toEqual([null, null]);
    expect(quirks.unparsableDates).toBe(1);
    expect(quirks.sessionsWithoutDate).toBe(0);
  });

  it('keeps occurredAt strictly increasing within a session, one minute per turn', () => {
    const many = Array.from({ length: 30 }, (_, i) => turn(i % 2 ? 'Tamsin' : 'Orla', `D1:${i + 1}`, `Line ${i + 1}.`));
    const { turns } = readSample({ conversation: { session_1: many } });
    const times = turns.filter((t) => t.sessionKey === 'session_1').map((t) => Date.parse(t.occurredAt!));
    expect(times).toHaveLength(30);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(60_000);
  });

  it('carries image captions from blip_caption, and skips and counts turns with neither text nor caption', () => {
    const { turns, quirks } = readSample({
      conversation: {
        session_1: [
          turn('Orla', 'D1:1', 'Look at this!', {
            img_url: ['https://example.invalid/canoe.jpg'],
            blip_caption: '  a photo of a blue canoe on a lake ',
          }),
          turn('Tamsin', 'D1:2', '', { blip_caption: 'a photo of a fish' }),
          { speaker: 'Orla', dia_id: 'D1:3' },
          turn('Tamsin', 'D1:4', '   ', { blip_caption: '  ' }),
          null,
          'not a turn',
          turn('Orla', 'D1:7', 'Back to words.'),
        ],
      },
    });
    const session = turns.filter((t) => t.sessionKey === 'session_1');
    expect(session.map((t) => [t.diaId, t.text, t.caption])).toEqual([
      ['D1:1', 'Look at this!', 'a photo of a blue canoe on a lake'],
      ['D1:2', '', 'a photo of a fish'],
      ['D1:7', 'Back to words.', null],
    ]);
    expect(quirks.turnsWithoutText).toBe(4);
    const times = session.map((t) => Date.parse(t.occurredAt!));
    expect(times[1]! - times[0]!).toBe(60_000);
    expect(times[2]! > times[1]!).toBe(true);
  });

  it('defaults a missing speaker and dia_id, and a missing sample_id to its position', () => {
    const { turns } = readConversations([
      {
        conversation: {
          session_1_date_time: '6:00 pm on 1 April, 2022',
          session_1: [{ text: 'Anonymous words.' }],
        },
        qa: [],
      },
    ]);
    expect(turns).toEqual([
      {
        sampleId: 'sample-0',
        sessionKey: 'session_1',
        diaId: 'session_1:1',
        speaker: 'unknown',
        text: 'Anonymous words.',
        caption: null,
        occurredAt: '2022-04-01T18:00:00.000Z',
      },
    ]);
  });

  it('reads sessions in numeric order: session_10 after session_2', () => {
    const conversation: Record<string, unknown> = {};
    for (const n of [10, 2, 11, 1, 3]) {
      conversation[`session_${n}_date_time`] = `10:00 am on ${n} July, 2023`;
      conversation[`session_${n}`] = [turn('Orla', `D${n}:1`, `Session ${n} opens.`)];
    }
    const { turns, quirks } = readConversations([{ sample_id: 'ordering', conversation, qa: [] }]);
    expect(turns.map((t) => t.sessionKey)).toEqual(['session_1', 'session_2', 'session_3', 'session_10', 'session_11']);
    expect(quirks).toEqual(noQuirks());
  });

  it('ignores keys that only look like sessions', () => {
    const { turns, quirks } = readSample({
      conversation: {
        session_1_summary: 'Orla talks about a canoe.',
        session_x: [turn('Orla', 'Dx:1', 'Should be ignored.')],
        session_5: 'not a list',
        session_5_date_time: '1:00 pm on 1 May, 2022',
      },
    });
    expect(turns.map((t) => t.diaId)).toEqual(['D1:1', 'D1:2', 'D1:3', 'D2:1', 'D2:2']);
    expect(quirks).toEqual(noQuirks());
  });

  it('returns empty lists without throwing for non-array or garbage input', () => {
    for (const raw of [null, undefined, {}, 'a string', 42, true, [], { conversation: {}, qa: [] }]) {
      const result = readConversations(raw);
      expect(result.turns, JSON.stringify(raw)).toEqual([]);
      expect(result.questions, JSON.stringify(raw)).toEqual([]);
      expect(result.quirks).toEqual(noQuirks());
    }
  });

  it('tolerates samples whose fields have the wrong type', () => {
    const raw = [42, 'sample', { conversation: 'abc', qa: 'xyz' }, { conversation: null, qa: null }, { sample_id: 7 }];
    const result = readConversations(raw);
    expect(result.turns).toEqual([]);
    expect(result.questions).toEqual([]);
  });

  // A null sample or qa entry inside an otherwise valid array is skipped, not a TypeError.
  it('does not throw on a null sample inside the array', () => {
    expect(() => readConversations([null])).not.toThrow();
  });

  it('does not throw on a null question inside qa', () => {
    expect(() => readSample({ qa: [null] })).not.toThrow();
  });
});

describe('parseSessionDate rejects times that do not exist', () => {
  it('returns null for 31 February and 13:70', () => {
    expect(parseSessionDate('1:56 pm on 31 February, 2023')).toBeNull();
    expect(parseSessionDate('13:70 pm on 8 May, 2023')).toBeNull();
    expect(parseSessionDate('2023-05-08T13:56')).toBe('2023-05-08T13:56:00.000Z');
  });
});
