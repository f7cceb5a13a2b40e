/**
 * The grounding check on values a real model writes differently from the
 * document: it must find them (no false null), and still null what the
 * document does not print.
 */
import { expect } from 'chai';
import { checkGrounding, DocumentText } from '../../../src/engines/llm/grounding.js';
import { wordAt } from '../../../src/document/document.js';
import { renderLayoutText } from '../../../src/ingest/layout.js';
import { buildDocument } from '../../helpers/document-builder.js';

const document = buildDocument([
  'UNIHAKKA INTERNATIONAL SDN BHD          Tel 07-355 1234',
  '12, Jln Tampoi 7/4, Kawasan             Invoice 999999',
  'Perindustrian Tampoi                    BRIGHT MART & Sons',
  'Acme Tools Limited',
  'Issued 05 May 2018 18:21',
  'TOTAL RM 11.20',
  'Paid 60.44 USD',
  'Rounding 76. 20',
]);
const text = new DocumentText(renderLayoutText(document));
const schema = {
  type: 'object',
  properties: { company: { type: 'string' }, address: { type: 'string' }, total: { type: 'string' }, paid: { type: 'string' }, issued: { type: 'string' }, amount: { type: 'number' }, code: { type: 'string' } },
};
const check = (value: Record<string, unknown>) => checkGrounding(value, schema, text, true);
const words = (source: { words: Parameters<typeof wordAt>[1][] } | undefined) => (source?.words ?? []).map((ref) => wordAt(document, ref)!.word.text).join(' ');

describe('grounding: values written otherwise than printed', () => {
  it('finds abbreviations written out or the other way round (Ltd/Limited, Sdn Bhd/Sendirian Berhad, Jln/Jalan, &/and)', () => {
    const result = check({ company: 'Acme Tools Ltd', address: '12, Jalan Tampoi 7/4', code: 'Unihakka International Sendirian Berhad', paid: 'Bright Mart and Sons' });
    expect(result.ungrounded).to.deep.equal([]);
    expect(words(result.provenance.get('/company'))).to.equal('Acme Tools Limited');
    expect(words(result.provenance.get('/address'))).to.equal('12, Jln Tampoi 7/4,');
  });

  it('finds an address joined across lines that other text stands between', () => {
    const result = check({ address: '12, Jln Tampoi 7/4, Kawasan Perindustrian Tampoi' });
    expect(result.ungrounded).to.deep.equal([]);
    expect(words(result.provenance.get('/address'))).to.contain('Perindustrian');
  });

  it('finds an amount written with a currency the document prints apart, or not at all, by its number', () => {
    const result = check({ total: 'RM11.20', paid: '$60.44' });
    expect(result.ungrounded).to.deep.equal([]);
    expect(words(result.provenance.get('/total'))).to.equal('RM 11.20');
    expect(words(result.provenance.get('/paid'))).to.equal('60.44');
  });

  it('finds a date written in another form in a field not named as a date, and a number OCR split in two', () => {
    const result = check({ issued: '2018-05-05', amount: 76.2 });
    expect(result.ungrounded).to.deep.equal([]);
    expect(words(result.provenance.get('/issued'))).to.equal('05 May 2018');
  });

  it('still nulls what is not printed: part of a word, a digit inside a longer number, a different amount or day, an invented name', () => {
    const result = check({ company: 'Acme Tools Incorporated', address: 'art', code: 'INV 9', total: 'RM 19.20', paid: '$6.44', issued: '2018-05-06', amount: 9 });
    expect(result.value).to.deep.equal({ company: null, address: null, code: null, total: null, paid: null, issued: null, amount: null });
    // several amounts the document prints, written into one value, are not that value
    expect(check({ total: '11.20, 60.44, 76.20' }).value).to.deep.equal({ total: null });
  });

  it('in a date field, keeps a day or a time of day the document prints in another form, and nulls one it does not print', () => {
    const dated = buildDocument(['Corner Cafe', 'Date: 05/11/13 21:47:16', 'TOTAL 8.60']);
    const dates = new DocumentText(renderLayoutText(dated), true);
    const dateSchema = { type: 'object', properties: { date: { type: 'string', format: 'date' }, time: { type: 'string' }, year: { type: 'string', description: 'Year of the purchase' } } };
    const kept = checkGrounding({ date: '2013-11-05', time: '9:47 PM', year: 'the year 2013' }, dateSchema, dates, true);
    expect(kept.ungrounded).to.deep.equal([]);
    expect(kept.provenance.get('/time')!.words.map((ref) => wordAt(dated, ref)!.word.text)).to.deep.equal(['21:47:16']);
    // read month first, an hour without am/pm, no seconds: a printed date or time misread or shortened, not invented
    expect(checkGrounding({ date: '2013-05-11', time: '09:47' }, dateSchema, dates, true).ungrounded).to.deep.equal([]);
    // SmolLM2 wrote 2015-05-01 for a receipt dated 30/05/18
    const invented = checkGrounding({ date: '2015-05-01', time: '21:48', year: 'the year 2013' }, dateSchema, dates, true);
    expect(invented.value).to.deep.equal({ date: null, time: null, year: 'the year 2013' });
    expect(checkGrounding({ time: '21:47:15' }, dateSchema, dates, true).value).to.deep.equal({ time: null });
    // a date with a time: its day must be printed (the time may be one a date-time format asks for); SmolLM2 wrote this one into an NDA's effective date
    expect(checkGrounding({ date: '2022-06-06 12:12:52.125' }, dateSchema, dates, true).value).to.deep.equal({ date: null });
    expect(checkGrounding({ date: '2013-11-05T00:00:00Z' }, dateSchema, dates, true).ungrounded).to.deep.equal([]);
  });

  it('finds a date at the start of a line after a line ending in a number (read across the break, "1" and "Feb 11" made 1 Feb 2011)', () => {
    const table = buildDocument(['Table No: 1', 'Feb 11.2012--10:03am']);
    const dateSchema = { type: 'object', properties: { date: { type: 'string' } } };
    const result = checkGrounding({ date: '2012-02-11' }, dateSchema, new DocumentText(renderLayoutText(table)), true);
    expect(result.value).to.deep.equal({ date: '2012-02-11' });
    expect(result.provenance.get('/date')!.words.map((ref) => wordAt(table, ref)!.word.text)).to.deep.equal(['Feb', '11.2012--10:03am']);
  });
});
