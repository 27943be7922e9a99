/**
 * The English parser claims are read with: wink-nlp's small English model (pure JavaScript,
 * no download, about 0.05 ms for a sentence). It gives each token its part of speech, lemma and
 * negation, and its shape (word, number, URL, time, currency). Loaded on first use, once per process:
 * the model costs about 60 ms to load, which a process that never retains a fact never pays.
 */

/** One token of a parsed text. */
export interface Token {
  /** As written. */
  text: string;
  /** Lower case. */
  lower: string;
  /** Dictionary form, lower case ("moved" → "move", "'s" → "be" when a verb). */
  lemma: string;
  /** Universal part of speech (`PROPN`, `NOUN`, `VERB`, `AUX`, `ADP`, …). */
  pos: string;
  /** Inside the scope of a negation ("not", "no longer", "n't"). */
  negated: boolean;
  /** What the tokenizer saw: `word`, `number`, `url`, `email`, `currency`, `time`, `punctuation`, … */
  shape: string;
  /** Index of the sentence the token is in. */
  sentence: number;
}

/**
 * Verb forms the small model sometimes tags as nouns ("Maria lives in Toronto", "The plan costs
 * $20"): an inflected form of a verb the families read, between a subject and what follows a
 * verb, is read as that verb.
 */
export function retagVerbs(tokens: Token[], verbs: ReadonlyMap<string, string>): Token[] {
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token.pos !== 'NOUN' && token.pos !== 'PROPN' && token.pos !== 'ADJ') continue;
    const lemma = verbs.get(token.lower);
    if (!lemma) continue;
    const previous = tokens[index - 1];
    const next = tokens[index + 1];
    const afterSubject =
      !previous ||
      previous.sentence !== token.sentence ||
      ['PROPN', 'PRON', 'NOUN', 'PUNCT', 'ADV'].includes(previous.pos);
    const beforeObject =
      next !== undefined && ['ADP', 'DET', 'NUM', 'SYM', 'PROPN', 'PRON', 'ADV', 'PART', 'NOUN'].includes(next.pos);
    if (afterSubject && beforeObject) tokens[index] = { ...token, pos: 'VERB', lemma };
  }
  return tokens;
}

/** Parses text into tokens. */
export type Parse = (text: string) => Token[];

interface WinkItem {
  out(what?: unknown): unknown;
}
interface WinkCollection {
  out(what?: unknown): unknown[];
  each(fn: (item: WinkItem) => void): void;
}
interface WinkDoc {
  tokens(): WinkCollection;
  sentences(): WinkCollection;
}
interface WinkNlp {
  readDoc(text: string): WinkDoc;
  its: Record<'value' | 'pos' | 'lemma' | 'negationFlag' | 'type' | 'span', unknown>;
}

let loading: Promise<Parse> | undefined;

function parserOver(nlp: WinkNlp): Parse {
  const { its } = nlp;
  return (text) => {
    const doc = nlp.readDoc(text);
    const tokens = doc.tokens();
    const values = tokens.out(its.value) as string[];
    const pos = tokens.out(its.pos) as string[];
    const lemmas = tokens.out(its.lemma) as string[];
    const negation = tokens.out(its.negationFlag) as boolean[];
    const shapes = tokens.out(its.type) as string[];
    const sentence = new Array<number>(values.length).fill(0);
    let count = 0;
    doc.sentences().each((item) => {
      const [start, end] = item.out(its.span) as [number, number];
      for (let index = start; index <= end; index += 1) sentence[index] = count;
      count += 1;
    });
    return values.map((value, index) => ({
      text: value,
      lower: value.toLowerCase(),
      lemma: (lemmas[index] ?? value).toLowerCase(),
      pos: pos[index] ?? 'X',
      negated: negation[index] === true,
      shape: shapes[index] ?? 'word',
      sentence: sentence[index] ?? 0,
    }));
  };
}

/** The parser, loading the model the first time it is asked for. */
export function loadParser(): Promise<Parse> {
  loading ??= (async () => {
    const [{ default: winkNLP }, { default: model }] = await Promise.all([
      import('wink-nlp'),
      import('wink-eng-lite-web-model'),
    ]);
    // Sentence breaks, negation and parts of speech only: sentiment, named entities and custom
    // entities cost a third of a parse, and dates, times, amounts and URLs are read from the
    // tokens' own shapes and words (values.ts).
    return parserOver(winkNLP(model, ['sbd', 'negation', 'pos']) as unknown as WinkNlp);
  })();
  return loading;
}
