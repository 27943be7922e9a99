import { describe, expect, it } from 'vitest';
import { ibanValid } from '../../src/core/capture/redaction-rules.js';
import { builtInRedactionRules, type RedactionRule, redactText, redactValue } from '../../src/index.js';

// Test keys are assembled at run time so that secret scanners reading this file do not flag it.
const stripe = (kind: string) => `${kind}_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
const npmToken = `npm_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`;

describe('built-in redaction rules', () => {
  it('every rule has a unique name and compiles; keywords are lower-case-insensitive words', () => {
    const names = builtInRedactionRules.map((rule) => rule.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['stripe-key', 'npm-token', 'url-password', 'iban', 'us-ssn', 'phone-number']),
    );
  });

  it('redacts Stripe secret, restricted and webhook keys, and npm tokens', () => {
    expect(redactText(`STRIPE=${stripe('sk_live')} ok`)).toBe('STRIPE=[REDACTED:stripe-key] ok');
    expect(redactText(`use ${stripe('rk_live')}`)).toBe('use [REDACTED:stripe-key]');
    expect(redactText(`test ${stripe('sk_test')}`)).toBe('test [REDACTED:stripe-key]');
    expect(redactText(`hook whsec_${'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'}`)).toBe('hook [REDACTED:stripe-key]');
    expect(redactText(`//registry.npmjs.org/:_authToken=${npmToken}`)).toContain('[REDACTED:');
    expect(redactText(`token ${npmToken} set`)).toBe('token [REDACTED:npm-token] set');
    // Publishable keys are public; short look-alikes are not keys.
    expect(redactText('pk_live_4eC39HqLyjWDarjtT1zdp7dc')).toBe('pk_live_4eC39HqLyjWDarjtT1zdp7dc');
    expect(redactText('the sk_live_ prefix and npm_install_hook')).toBe('the sk_live_ prefix and npm_install_hook');
  });

  it('redacts the password in any scheme://user:password@host, keeping the rest of the URL', () => {
    expect(redactText('postgres://u:p@h/db')).toBe('postgres://u:[REDACTED:url-password]@h/db');
    expect(redactText('DATABASE_URL=mysql://admin:s3cr%40t@db.internal:3306/app?ssl=1')).toBe(
      'DATABASE_URL=mysql://admin:[REDACTED:url-password]@db.internal:3306/app?ssl=1',
    );
    expect(redactText('redis://:hunter2@cache:6379')).toBe('redis://:[REDACTED:url-password]@cache:6379');
    // A raw "@" or ":" inside the password does not leave its tail behind.
    expect(redactText('amqp://bob:pa@ss:w0rd@mq.example.com/vhost')).toBe(
      'amqp://bob:[REDACTED:url-password]@mq.example.com/vhost',
    );
    // No password: nothing to redact.
    for (const url of ['https://example.com:8443/path', 'http://host/a:b@c', 'see https://x.org/a?b=c:d@e']) {
      expect(redactText(url)).toBe(url);
    }
  });

  it('redacts IBANs that pass the country length and mod-97 check, with or without spaces', () => {
    for (const iban of [
      'DE89 3704 0044 0532 0130 00',
      'DE89370400440532013000',
      'GB82 WEST 1234 5698 7654 32',
      'FR14 2004 1010 0505 0001 3M02 606',
      'NL91ABNA0417164300',
      'CH93 0076 2011 6238 5295 7',
    ]) {
      expect(ibanValid(iban), iban).toBe(true);
      expect(redactText(`pay to ${iban} today`), iban).toBe('pay to [REDACTED:iban] today');
    }
    // One digit off fails mod 97; a wrong length or unknown country is no IBAN.
    for (const text of ['DE89 3704 0044 0532 0130 02', 'DE89 3704 0044 0532 0130', 'ZZ12 ABCD 7890 1234 56']) {
      expect(ibanValid(text), text).toBe(false);
      expect(redactText(`ref ${text}`)).toBe(`ref ${text}`);
    }
  });

  it('redacts US social security numbers, dashed or after a label', () => {
    expect(redactText('SSN 123-45-6789 on file')).toBe('SSN [REDACTED:us-ssn] on file');
    expect(redactText('her number is 536-22-1090.')).toBe('her number is [REDACTED:us-ssn].');
    expect(redactText('ssn: 536221090')).toBe('ssn: [REDACTED:us-ssn]');
    expect(redactText('Social Security Number 536 22 1090')).toBe('Social Security Number [REDACTED:us-ssn]');
    expect(redactText('{"ssn":"536-22-1090"}')).toBe('{"ssn":"[REDACTED:us-ssn]"}');
    // Never-issued numbers and other dashed shapes stay.
    for (const text of ['000-12-3456', '666-12-3456', '912-34-5678', '123-00-4567', '123-45-0000', '2025-11-30']) {
      expect(redactText(`id ${text}`), text).toBe(`id ${text}`);
    }
    expect(redactText('part 12-123-45-6789-0')).toBe('part 12-123-45-6789-0');
  });

  it('redacts phone numbers: international, North American, and labelled', () => {
    const cases: Array<[string, string]> = [
      ['call +1 (415) 555-2671 now', 'call [REDACTED:phone-number] now'],
      ['call +44 20 7946 0958', 'call [REDACTED:phone-number]'],
      ['ring +33 1 42 68 53 00.', 'ring [REDACTED:phone-number].'],
      ['+4915112345678', '[REDACTED:phone-number]'],
      ['office (415) 555-2671', 'office [REDACTED:phone-number]'],
      ['office 415-555-2671', 'office [REDACTED:phone-number]'],
      ['office 415.555.2671', 'office [REDACTED:phone-number]'],
      ['office 415 555 2671', 'office [REDACTED:phone-number]'],
      ['Tel: 030 901820', 'Tel: [REDACTED:phone-number]'],
      ['mobile number 06 12 34 56 78', 'mobile number [REDACTED:phone-number]'],
      ['{"phone":"0171 1234567"}', '{"phone":"[REDACTED:phone-number]"}'],
    ];
    for (const [text, expected] of cases) expect(redactText(text), text).toBe(expected);
  });

  it('leaves ordinary numbers alone: dates, times, versions, addresses, amounts, ids', () => {
    for (const text of [
      'on 2025-11-30 at 10:30:00',
      'on 30.11.2025 or 11/30/2025',
      '2025-11-30T10:00:00+01:00',
      'version 1.2.3 and 10.20.30',
      'from 192.168.100.200 to 10.0.0.1',
      'total 1,234,567.89 EUR and 1.234.567,89',
      'order 4111111111111112 shipped',
      'at 1764590400000 ms',
      'ISBN 978-3-16-148410-0',
      'room 101, floor 3, 42 people',
      'scores 12 34 56 78 90',
      'temperature +21.5 C, change +3',
      'the 200 results in 35 ms',
      'call me at noon',
    ]) {
      expect(redactText(text), text).toBe(text);
    }
  });

  it('keeps what already worked: keys, e-mail, cards', () => {
    expect(redactText('mail peter.parker+news@example.co.uk today')).toBe('mail [REDACTED:email] today');
    expect(redactText('card 4111 1111 1111 1111 exp 12/27')).toBe('card [REDACTED:card-number] exp 12/27');
    expect(redactText('password: hunter2')).toBe('password: [REDACTED:password]');
  });

  it('a rule with keywords runs only on text that contains one (any case)', () => {
    const rule: RedactionRule = { name: 'code', pattern: /\d{4}/, keywords: ['PIN'] };
    expect(redactText('pin 1234', [rule])).toBe('pin [REDACTED:code]');
    expect(redactText('year 1234', [rule])).toBe('year 1234');
    // Keywords see the text as earlier rules left it.
    const first: RedactionRule = { name: 'first', pattern: 'secret', replacement: 'pin' };
    expect(redactText('secret 1234', [first, rule])).toBe('pin [REDACTED:code]');
  });

  it('redactValue applies the new rules inside nested values', () => {
    expect(
      redactValue({ db: 'postgres://app:pw@db/x', contact: { tel: '+1 415 555 2671' }, iban: 'NL91ABNA0417164300' }),
    ).toEqual({
      db: 'postgres://app:[REDACTED:url-password]@db/x',
      contact: { tel: '[REDACTED:phone-number]' },
      iban: '[REDACTED:iban]',
    });
  });

  it('stays linear on long adversarial text', () => {
    const inputs = [
      `a://u:${'@'.repeat(50_000)}`,
      `+1${' 1'.repeat(20_000)}`,
      `DE89${' 1234'.repeat(20_000)}`,
      `${'1-'.repeat(30_000)}`,
      `phone ${'1 '.repeat(30_000)}`,
    ];
    for (const input of inputs) {
      const started = performance.now();
      redactText(input);
      expect(performance.now() - started, input.slice(0, 20)).toBeLessThan(500);
    }
  });
});
