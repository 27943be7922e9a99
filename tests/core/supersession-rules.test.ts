import { describe, expect, it } from 'vitest';
import { supersedingReason } from '../../src/core/supersession/decide.js';
import { extractClaims } from '../../src/core/supersession/extract-claims.js';

// The rule set without a model: each concern reads the phrasings that state a new value,
// and leaves detail, other attributes and other people alone.

const claims = (text: string, entities: string[] = []) =>
  extractClaims(text, { entities }).map(
    (claim) =>
      `${claim.subject}|${claim.family}|${claim.key}|${claim.negated ? '!' : ''}${claim.value}${claim.from ? `<${claim.from}` : ''}`,
  );
const supersedes = (older: string, newer: string, entities: string[] = []) =>
  supersedingReason(extractClaims(newer, { entities }), extractClaims(older, { entities }));

describe('supersession rules: what a fact claims', () => {
  it.each([
    ['Lives in Vienna, works from home.', ['Peter'], 'peter|residence||vienna'],
    ['Now lives in Lisbon; reminders go to his phone.', ['Peter'], 'peter|residence||lisbon'],
    ['Peter is the owner of this workspace and lives in Vienna.', ['Peter'], 'peter|residence||vienna'],
    ['I moved to Berlin last month', [], 'user|residence||berlin'],
    ['The user relocated from Vienna to Lisbon.', [], 'user|residence||lisbon<vienna'],
    ['My sister lives in Rome.', [], 'user/sister|residence||rome'],
    ['I no longer live in Berlin.', [], 'user|residence||!berlin'],
    ['Alice is a data scientist at Spotify.', [], 'alice|employer||spotify'],
    ['I left Google.', [], 'user|employer||!google'],
    ['I was promoted to staff engineer.', [], 'user|job title||staff engineer'],
    ['We got engaged last week.', [], 'we|relationship||engaged'],
    ['I broke up with Jo.', [], 'user|relationship||single'],
    ["I don't like spicy food anymore.", [], 'user|stance|spicy food|dislike'],
    ['Her favourite band is Radiohead.', ['Mia'], 'mia|favourite|band|radiohead'],
    ['I went vegan in March.', [], 'user|diet||vegan'],
    ['I stopped being vegetarian.', [], 'user|diet||!vegetarian'],
    ['I drive a Honda Civic.', [], 'user|owns|car|honda civic'],
    ['My phone is a Pixel 8.', [], 'user|owns|phone|pixel 8'],
    ['Actually, my rent is $1,900, not $1,800.', [], 'user|amount|rent|$1,900'],
    ["Peter's salary went up to 95k.", ['Peter'], 'peter|amount|salary|95k'],
    ['We upgraded Node from 20 to 22.', [], 'user|version|node|22'],
    ['The weekly sync is on Tuesdays at 10am.', [], 'user|schedule|sync|tuesdays at 10am'],
    ['Our trip to Japan is cancelled.', [], 'user|schedule|trip to japan|cancelled'],
    ['I misspoke: the launch is on May 5, not May 3.', [], 'user|schedule|launch|may 5'],
    ['We switched from jest to vitest.', [], 'user|tool|test runner|vitest<jest'],
    ['The API base URL is now https://api.example.com/v2.', [], 'user|setting|api base url|https://api.example.com/v2'],
  ])('%s', (text, entities, expected) => {
    expect(claims(text, entities)).toContain(expected);
  });

  it.each([
    ["I'd like to book a table for two."],
    ['The standup moved to Room 4.'],
    ['Signed a lease in Lisbon; moves there at the start of December.'],
    ['Lives in a small flat near the river.'],
    ['I work from home on Fridays.'],
    ['It looks like rain.'],
    ['I has a car.'],
    ['The weather is nice today.'],
  ])('reads nothing from "%s"', (text) => {
    expect(claims(text)).toEqual([]);
  });
});

describe('supersession rules: which older fact a newer one replaces', () => {
  it.each([
    ['Lives in Vienna, works from home.', 'Now lives in Lisbon.', ['Peter']],
    ['I work at Google.', 'I left Google and joined Stripe.', []],
    ['I am single.', 'I got married to Sam.', []],
    ['I love spicy food.', "I don't like spicy food anymore.", []],
    ["I'm vegetarian.", 'I started eating meat again.', []],
    ['I drive a Honda Civic.', 'I bought a Tesla Model 3.', []],
    ['My monthly rent is 1,800 euros.', 'Actually, my rent is 1,900 euros.', []],
    ['The weekly sync is on Tuesdays.', 'The sync moved to Wednesday.', []],
    ['Our trip to Japan is from March 3 to March 10.', 'Our trip to Japan is cancelled.', []],
    ['We use jest for tests.', 'We switched from jest to vitest.', []],
    ['The API base URL is https://api.example.com/v1.', 'The API base URL is now https://api.example.com/v2.', []],
    ['We are on Postgres 15.', 'We upgraded Postgres to 16.', []],
  ])('"%s" → "%s"', (older, newer, entities) => {
    expect(supersedes(older, newer, entities)).toBeTruthy();
  });

  it.each([
    ['I live in Lisbon.', 'I live in Lisbon, near the beach.', 'detail only'],
    ['I live in Lisbon.', 'My sister lives in Rome.', 'another person'],
    ['Alice lives in Paris.', 'Bob lives in Berlin.', 'another person'],
    ['I live in Lisbon.', 'I work at Stripe.', 'another attribute'],
    ['I like tea.', 'I dislike coffee.', 'another object'],
    ['My rent is 1,800 euros.', 'My salary is 4,000 euros.', 'another amount'],
    ['The weekly sync is on Tuesdays.', 'The design review is on Thursdays.', 'another event'],
    ['We use jest for tests.', 'We use pnpm.', 'another tool role'],
    ['I drive a Honda Civic.', 'My phone is a Pixel 8.', 'another kind of thing'],
    ['I no longer live in Berlin.', 'I live in Lisbon.', 'a negation of another value'],
    ['Caroline: I love painting.', "Melanie: I don't like painting anymore.", 'another speaker'],
    ['The Berlin team uses pnpm.', 'Our package manager is yarn.', 'another team'],
  ])('"%s" stays current after "%s" (%s)', (older, newer) => {
    expect(supersedes(older, newer)).toBeUndefined();
  });
});
