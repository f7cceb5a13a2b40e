import { expect } from 'chai';
import { parseExtractionRequest, parseJobRequest } from '../../src/http/request-schema.js';

/** The 400's message and details for a body, or undefined when it is accepted. */
function refusal(parse: (body: unknown) => unknown, body: unknown): { message: string; details: unknown } | undefined {
  try {
    parse(body);
    return undefined;
  } catch (error) {
    return { message: (error as Error).message, details: (error as { details?: unknown }).details };
  }
}

describe('the request body check (http/request-schema.ts)', () => {
  const schema = { type: 'object' };
  const file = (filename: string) => ({ mimeType: 'image/png', data: 'AAAA', filename });

  it('counts a filename\'s length in characters (code points), up to 1024', () => {
    expect(refusal(parseExtractionRequest, { schema, contents: [file('😀'.repeat(1024))] })).to.equal(undefined);
    expect(refusal(parseExtractionRequest, { schema, contents: [file('😀'.repeat(1025))] })?.message).to.equal('contents[0].filename must NOT have more than 1024 characters');
    expect(refusal(parseExtractionRequest, { schema, contents: [file('a'.repeat(1024))] })).to.equal(undefined);
  });

  it('refuses a far too long filename or webhook URL with the message and details of one just too long', () => {
    for (const length of [2049, 8_000_000]) {
      const long = 'a'.repeat(length);
      // with other mistakes beside it, the list of problems is the same too
      const body = { schema, contents: [file(long), { data: 'AAAA' }], options: { evidence: 'yes' } };
      const justTooLong = { ...body, contents: [file('a'.repeat(1025)), { data: 'AAAA' }] };
      expect(refusal(parseExtractionRequest, body)).to.deep.equal(refusal(parseExtractionRequest, justTooLong));
      expect(refusal(parseExtractionRequest, body)?.message).to.equal('contents[0].filename must NOT have more than 1024 characters');
      const job = { schema, contents: [file('a.png')], webhook: { url: `https://example.com/${long}` } };
      expect(refusal(parseJobRequest, job)?.message).to.equal('webhook.url must NOT have more than 2048 characters');
    }
  });

  it('gives back the body as sent: a long filename is only shortened for the check', () => {
    const body = { schema, contents: [file('a'.repeat(1000))] };
    expect(parseExtractionRequest(body)).to.equal(body);
  });
});
