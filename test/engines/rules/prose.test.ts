import { expect } from 'chai';
import { RulesEngine } from '../../../src/engines/rules/index.js';
import { readLines } from '../../../src/engines/rules/core/lines.js';
import { readSentences, subjectOf } from '../../../src/engines/rules/prose/prose.js';
import type { JsonSchema } from '../../../src/schema/schema.js';
import type { Document } from '../../../src/document/document.js';
import { buildDocument } from '../../helpers/document-builder.js';
import { extractFinal } from '../../helpers/extraction.js';

const engine = new RulesEngine();

async function extract(document: Document, schema: JsonSchema): Promise<Record<string, unknown>> {
  return (await extractFinal(engine, document, schema)).value;
}

/** Paragraphs wrapped at a fixed width, the way a PDF of a contract prints them; '' keeps a blank line. */
function contract(...paragraphs: string[]): Document {
  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line !== '' && line.length + 1 + word.length > 90) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return buildDocument(lines);
}

/** Generic running text, so that the document reads as prose. */
const BOILERPLATE = [
  'The Recipient shall hold and maintain the Confidential Information in strict confidence for the sole and exclusive benefit of the Discloser and shall not use it for any other purpose.',
  'The Recipient shall carefully restrict access to the Confidential Information to employees, contractors and third parties as is reasonably required and shall require those persons to sign agreements.',
  'Nothing in this Agreement is intended to grant any rights to the Recipient under any patent, copyright or other intellectual property right of the Discloser, nor shall this Agreement grant any rights.',
  'This Agreement and each party\'s obligations shall be binding on the representatives, assigns and successors of such party, and each party has signed this Agreement through its authorized representative.',
  'The Recipient shall return to the Discloser any and all records, notes, and other written, printed, or tangible materials in its possession pertaining to Confidential Information immediately on request.',
  'If any provision of this Agreement is held to be invalid or unenforceable, the remaining provisions shall continue to be valid and enforceable, and the parties shall replace the provision in good faith.',
  'No failure or delay by either party in exercising any right under this Agreement shall operate as a waiver of that right, nor shall any single or partial exercise of any right preclude any further exercise.',
  'This Agreement may be executed in counterparts, each of which shall be deemed an original and all of which together shall constitute one and the same instrument between the parties hereto.',
];

const ndaSchema: JsonSchema = {
  type: 'object',
  properties: {
    effective_date: { type: ['string', 'null'], format: 'date', description: 'Date from which the agreement is effective, YYYY-MM-DD.' },
    jurisdiction: { type: ['string', 'null'], description: 'State or country whose law governs the agreement, name only.' },
    parties: { type: 'array', items: { type: 'string' }, description: 'Names of all parties to the agreement.' },
    term: { type: ['string', 'null'], description: "Duration of the agreement (or of the confidentiality obligation), as '<number> <unit>'." },
  },
  required: ['effective_date', 'jurisdiction', 'parties', 'term'],
};

describe('rules engine: values stated in prose', () => {
  it('reads a whole agreement: date, parties, governing law and term', async () => {
    const document = contract(
      'MUTUAL NONDISCLOSURE AGREEMENT',
      'This Mutual Nondisclosure Agreement (this "Agreement") is made and entered into as of the 3rd day of June, 2011 by and between Northwind Traders, Inc., a Delaware corporation having its principal office at 12 Harbor Road, Portland, Oregon 97201 ("Northwind"), and Blue Heron Analytics LLC, a Texas limited liability company ("Blue Heron"). Northwind and Blue Heron are each a "Party".',
      ...BOILERPLATE.slice(0, 4),
      '9. Term. This Agreement shall remain in effect for a period of three (3) years from the Effective Date, unless terminated earlier by either Party upon thirty (30) days\' prior written notice.',
      'The Recipient shall not solicit any employee of the Discloser for a period of one (1) year following the termination of this Agreement.',
      ...BOILERPLATE.slice(4),
      '11. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of New York, without regard to its conflict of laws rules. The Supply Agreement dated as of January 5, 2009 between the Parties is not affected.',
    );
    expect(await extract(document, ndaSchema)).to.deep.equal({
      effective_date: '2011-06-03',
      jurisdiction: 'New York',
      parties: ['Northwind Traders, Inc.', 'Blue Heron Analytics LLC'],
      term: '3 years',
    });
  });

  it('returns null for values the agreement does not state, also when other dates and durations are there', async () => {
    const document = contract(
      'CONFIDENTIALITY AGREEMENT',
      'The undersigned employee agrees with the Employer as follows, in consideration of employment and of the compensation paid.',
      ...BOILERPLATE,
      'The Employee shall not compete with the Employer for a period of eighteen (18) months following the termination of employment. Either party may end this Agreement on ninety (90) days notice.',
      'The Employer may amend the Employee Handbook issued on March 1, 2015 at any time, and this Agreement survives any such change.',
    );
    const result = await extract(document, ndaSchema);
    expect(result).to.include({ effective_date: null, jurisdiction: null, term: null });
  });

  it('does not take the date of a document the agreement cites', async () => {
    const cited = contract(...BOILERPLATE, 'Nothing herein changes the Supply Agreement, dated as of January 5, 2009, between the parties, which remains in force.');
    expect((await extract(cited, ndaSchema)).effective_date).to.equal(null);
    const both = contract('This Agreement is made this 9th day of April, 2003 by the undersigned parties.', ...BOILERPLATE, 'It supersedes the Letter Agreement, dated as of May 13, 2001.');
    expect((await extract(both, ndaSchema)).effective_date).to.equal('2003-04-09');
  });

  it('takes the place after "governed by" over a lower-case detour, and strips "the Commonwealth of"', async () => {
    const document = contract(...BOILERPLATE, 'This Agreement is to be construed, performed and enforced in accordance with, and governed by, the internal laws of the Commonwealth of Massachusetts, without giving effect to its principles of conflicts of laws.');
    expect((await extract(document, ndaSchema)).jurisdiction).to.equal('Massachusetts');
  });

  it('reads the governing law under its heading, and keeps "England and Wales" whole', async () => {
    const heading = contract(...BOILERPLATE, '14. Governing Law.', 'This Agreement is interpreted under Ontario law and the parties submit to its courts.');
    expect((await extract(heading, ndaSchema)).jurisdiction).to.equal('Ontario');
    const joined = contract(...BOILERPLATE, 'This Agreement and any dispute arising from it shall be governed by the laws of England and Wales.');
    expect((await extract(joined, ndaSchema)).jurisdiction).to.equal('England and Wales');
  });

  it('does not take a capitalised word that is not a place ("Jurisdiction and Venue" heading, "This Agreement")', async () => {
    const document = contract(...BOILERPLATE, '(9) Governing Law; Jurisdiction and Venue.', 'Each party consents to the jurisdiction of the courts located in Cook County, Illinois.');
    expect((await extract(document, ndaSchema)).jurisdiction).to.equal('Cook County');
  });

  it('reads a term that is a count of anniversaries and one from a "Term" heading', async () => {
    const anniversary = contract(...BOILERPLATE, 'The obligations of the Recipient under Section 1 of this Agreement will terminate on the second anniversary of the date hereof.');
    expect((await extract(anniversary, ndaSchema)).term).to.equal('2 years');
    const headed = contract(...BOILERPLATE, '5. Term.', 'This Agreement shall continue for twelve (12) months from the date of this Agreement.');
    expect((await extract(headed, ndaSchema)).term).to.equal('12 months');
  });

  it('ignores a duration counted from a later event, or about someone else', async () => {
    const event = contract(...BOILERPLATE, 'The provisions of this Agreement relating to confidentiality shall terminate one (1) year after the Director ceases to be a director of the Company.');
    expect((await extract(event, ndaSchema)).term).to.equal(null);
    const other = contract(...BOILERPLATE, 'For a period of one year following the date of this Agreement, you will not solicit for employment any officer of the Company.');
    expect((await extract(other, ndaSchema)).term).to.equal(null);
  });

  it('reads a "Term:" form label and gives a number in the unit a numeric property asks for', async () => {
    const form = buildDocument(['Service order', 'Term:   two (2) years', 'Start:  01/02/2024']);
    expect(await extract(form, { type: 'object', properties: { term: { type: 'string', description: "Contract term as '<number> <unit>'" } } })).to.deep.equal({ term: '2 years' });
    expect(await extract(form, { type: 'object', properties: { term_months: { type: 'integer', description: 'Contract term in months' } } })).to.deep.equal({ term_months: 24 });
  });

  it('prefers the date the agreement states over a bare "Date:" of a signature block and a date in its title', async () => {
    const document = contract(
      'EMPLOYMENT CONTRACT WITH J. SMITH, DATED JULY 10, 2006',
      'THIS NON-DISCLOSURE AGREEMENT ("Agreement") is entered into this 2nd day of February, 2006 by and between Sun Harbor Solar, Inc., a Delaware company ("Company"), and Robert Smith, an individual ("Recipient").',
      ...BOILERPLATE,
      'Sun Harbor Solar, Inc.',
      'By: /s/ Carl Jones',
      'Date:',
      'July 10, 2006',
    );
    const result = await extract(document, ndaSchema);
    expect(result.effective_date).to.equal('2006-02-02');
    expect(result.parties).to.deep.equal(['Sun Harbor Solar, Inc.', 'Robert Smith']);
  });

  it('dates a letter agreement by the date at its head', async () => {
    const document = contract('March 15, 2007', 'Mr. Thomas Hook', 'Dear Mr. Hook:', ...BOILERPLATE, 'Very truly yours,', 'ENPATH MEDICAL, INC.', 'By: /s/ James Hartman', 'GREATBATCH, INC.', 'By: /s/ Thomas Hook');
    const result = await extract(document, ndaSchema);
    expect(result.effective_date).to.equal('2007-03-15');
    expect(result.parties).to.deep.equal(['ENPATH MEDICAL, INC.', 'GREATBATCH, INC.']);
  });

  it('never takes a term the agreement defines in quotes for a party, nor a party\'s quoted short name for another party', async () => {
    // no "between" clause and no signature block: the names before role labels are all there is
    const letter = contract(
      'Acme Holdings, Inc. (the “Company”) will furnish you with information about its business (collectively, the “Evaluation Material”); provided that any Evaluation Material may be disclosed to your Representatives (as defined below) (the “Permitted Recipients”).',
      ...BOILERPLATE,
    );
    expect((await extract(letter, ndaSchema)).parties).to.deep.equal(['Acme Holdings, Inc.']);
    const short = contract('This Agreement is made as of May 1, 2010 between Verso Paper Holdings LLC (“Verso Paper”) and Michael Weinhold (“Executive”).', ...BOILERPLATE);
    expect((await extract(short, ndaSchema)).parties).to.deep.equal(['Verso Paper Holdings LLC', 'Michael Weinhold']);
  });

  it('reads parties whose role label holds a bracket of its own, after a place before "by", and after "Ph.D."', async () => {
    const nested = contract('This Agreement is entered into as of August 11, 2011, between AMGEN INC., a Delaware corporation (together with its Affiliates (as defined in section 14), “Amgen”), and MICROMET, INC., a Delaware corporation (together with its Affiliates, “Micromet”).', ...BOILERPLATE);
    expect((await extract(nested, ndaSchema)).parties).to.deep.equal(['AMGEN INC.', 'MICROMET, INC.']);
    const placed = contract('This Agreement made and entered into in Cambridge, Massachusetts, by Jeffrey M. Leiden, M.D., Ph.D. (the “Executive”) and Vertex Pharmaceuticals Incorporated (the “Company”), effective as of the first day of employment.', ...BOILERPLATE);
    expect((await extract(placed, ndaSchema)).parties).to.deep.equal(['Jeffrey M. Leiden', 'Vertex Pharmaceuticals Incorporated']);
  });

  it('reads governing law and effective date from the cues of the other language tables', async () => {
    const french = contract(
      'ACCORD DE CONFIDENTIALITÉ',
      'Le présent accord prend effet à compter du 01/03/2020 et lie les parties soussignées.',
      'Tout litige relève de la compétence exclusive des tribunaux de Lyon.',
    );
    expect(await extract(french, ndaSchema)).to.include({ effective_date: '2020-03-01', jurisdiction: 'Lyon' });
    const german = contract('GEHEIMHALTUNGSVEREINBARUNG', 'Die Vereinbarung gilt mit Wirkung zum 15.04.2021.', 'Diese Vereinbarung unterliegt dem Recht der Schweiz.');
    expect(await extract(german, ndaSchema)).to.include({ effective_date: '2021-04-15', jurisdiction: 'Schweiz' });
  });

  it('leaves receipt-like documents to the labels', async () => {
    const receipt = buildDocument(['ACME MART', 'Date: 12/03/2024', 'Total   9.99']);
    expect(await extract(receipt, { type: 'object', properties: { effective_date: { type: 'string', format: 'date' } } })).to.deep.equal({ effective_date: '2024-03-12' });
  });
});

describe('rules engine: sentences', () => {
  it('joins wrapped lines, cuts at sentence ends but not after "Inc." or initials, and keeps headings apart', () => {
    const lines = readLines(contract('12. Term.', 'Acme Holdings, Inc. and L.E.K. Consulting LLC agree as follows. The State of New York governs this Agreement in every respect whatsoever.'));
    expect(readSentences(lines).map((s) => [s.text, s.heading])).to.deep.equal([
      ['12. Term.', true],
      ['Acme Holdings, Inc. and L.E.K. Consulting LLC agree as follows.', false],
      ['The State of New York governs this Agreement in every respect whatsoever.', false],
    ]);
  });

  it('finds the subject of a sentence after a leading clause', () => {
    expect(subjectOf('Notwithstanding the foregoing, the obligations of the Recipient shall survive.')).to.equal('the obligations of the Recipient');
    expect(subjectOf('(e) This Agreement will terminate.')).to.equal('This Agreement');
    expect(subjectOf('Witnesseth')).to.equal(undefined);
  });
});
