import { expect } from 'chai';
import { combineReadings, FEATURE_NAMES, featureVector, sigmoid, singleReadingConfidence, SURE_LETTER, WEAK_LABEL_BELOW, type ConfidenceModel, type KindModel } from '../../src/evidence/confidence.js';
import { DocumentIndex, REPEATS_COUNTED } from '../../src/evidence/document-index.js';
import { buildEvidence, leafPointers } from '../../src/evidence/evidence.js';
import { exactness, irregular, schemaAt, signed, valueFeatures, valueKind, VALUE_KINDS, type ValueFeatures, type ValueKind } from '../../src/evidence/features.js';
import { locate } from '../../src/evidence/locate.js';
import type { Document, Page } from '../../src/document/document.js';
import { undoQuarterTurn } from '../../src/document/page-frame.js';
import { REREAD_BELOW } from '../../src/ingest/ocr/paddle/read-page.js';
import { buildDocument } from '../helpers/document-builder.js';
import { expectLinearGrowth } from '../helpers/growth.js';

const ref = (line: number, word: number, page = 0, file = 0) => ({ file, page, line, word });

describe('evidence: where a value was read', () => {
  const document = buildDocument(['ACME TOOLS LTD', '12 Harbour Road', 'Bristol BS1 4DJ', 'Total: 76.20'], { pageWidth: 600, pageHeight: 800 });

  it('boxes the words as fractions of the page, one box per line when the value spans lines', () => {
    const address = locate([ref(1, 0), ref(1, 1), ref(1, 2), ref(2, 0), ref(2, 1), ref(2, 2)], document)!;
    expect(address).to.include({ file: 0, page: 0, text: '12 Harbour Road\nBristol BS1 4DJ', source: 'text-layer' });
    expect(address.boxes).to.have.length(2);
    const [first, second] = address.boxes!;
    expect(first![1]).to.be.below(second![1]);
    expect(address.bbox).to.deep.equal([Math.min(first![0], second![0]), first![1], Math.max(first![2], second![2]), second![3]]);
    const page = document.files[0]!.pages[0]!;
    const word = page.lines[1]!.words[0]!;
    expect(first![0]).to.be.closeTo(word.bbox.x0 / 600, 1e-4);
    expect(first![1]).to.be.closeTo(word.bbox.y0 / 800, 1e-4);
  });

  it('has one box and no boxes list for a value on one line, and no OCR confidence for a text layer', () => {
    const total = locate([ref(3, 1)], document)!;
    expect(total).to.have.keys(['file', 'page', 'bbox', 'text', 'source']);
    expect(total.text).to.equal('76.20');
  });

  it('gives the lowest OCR confidence of OCR words, and nothing for words the Document does not have', () => {
    const ocr: Document = { files: [{ ...document.files[0]!, pages: [{ ...document.files[0]!.pages[0]!, source: 'ocr' }] }] };
    const line = ocr.files[0]!.pages[0]!.lines[1]!;
    line.words = line.words.map((w, i) => ({ ...w, source: 'ocr' as const, confidence: [0.9, 0.62, 0.97][i]! }));
    expect(locate([ref(1, 0), ref(1, 1), ref(1, 2)], ocr)).to.include({ source: 'ocr', ocrConfidence: 0.62 });
    expect(locate([ref(9, 0)], document)).to.equal(undefined);
    expect(locate([], document)).to.equal(undefined);
  });

  it('maps boxes of a page OCR read turned back onto the page as sent', () => {
    // the page was sent 100 wide and 200 tall and read turned by 90 degrees (200 wide, 100 tall)
    const turned: Page = {
      index: 0,
      units: 'raster-pixels',
      width: 200,
      height: 100,
      source: 'ocr',
      lines: [{ text: 'X', bbox: { x0: 20, y0: 10, x1: 60, y1: 30 }, words: [{ text: 'X', bbox: { x0: 20, y0: 10, x1: 60, y1: 30 }, confidence: 0.9, source: 'ocr' }] }],
      shown: { width: 100, height: 200, transform: undoQuarterTurn(90, 100, 200) },
    };
    const located = locate([ref(0, 0)], { files: [{ index: 0, filename: 'p.png', mimeType: 'image/png', pages: [turned] }] })!;
    // turned (x, y) shows the sent page's (y, 200 - x): x 10..30 of 100, y 140..180 of 200
    expect(located.bbox).to.deep.equal([0.1, 0.7, 0.3, 0.9]);
  });
});

describe('evidence: what is known about a value', () => {
  it('sorts values into kinds by schema and shape', () => {
    const view = (schema: object) => schemaAt({ type: 'object', properties: { v: schema } }, '/v');
    expect(valueKind('2024-03-14', view({ type: 'string', format: 'date' }), 1)).to.equal('date');
    expect(valueKind('14 Mar 2024', view({ type: 'string' }), 1)).to.equal('date');
    expect(valueKind('09:47:16PM', view({ type: 'string' }), 1)).to.equal('time');
    expect(valueKind(76.2, view({ type: 'number' }), 1)).to.equal('amount');
    expect(valueKind('RM 1,234.50', view({ type: 'string' }), 1)).to.equal('amount');
    expect(valueKind('(714) 879 35 74', view({ type: 'string' }), 1)).to.equal('code');
    expect(valueKind('Store #72', view({ type: 'string' }), 1)).to.equal('code');
    expect(valueKind('ACME Tools Ltd', view({ type: 'string' }), 1)).to.equal('name');
    expect(valueKind('12 Harbour Road Bristol', view({ type: 'string' }), 2)).to.equal('text');
    // what the engine read it as comes before its shape; a date's format before both
    expect(valueKind('12 Harbour Road Bristol', view({ type: 'string' }), 2, 'address')).to.equal('address');
    expect(valueKind('Bristol', view({ type: 'string' }), 1, 'address')).to.equal('address');
    expect(valueKind('99 Ranch Market', view({ type: 'string' }), 1, 'business-name')).to.equal('business');
    expect(valueKind('2024-03-14', view({ type: 'string', format: 'date' }), 1, 'address')).to.equal('date');
  });

  it('finds the schema of a list item and of a nested property', () => {
    const schema = { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { when: { type: 'string', format: 'date' } } } } } };
    expect(schemaAt(schema, '/items/3/when').format).to.equal('date');
  });

  it('measures how exactly the words spell a value, re-printed dates and parsed amounts included', () => {
    expect(exactness('2024-03-14', '14/03/2024', 'date', 'dmy')).to.equal(1);
    expect(exactness(76.2, 'RM76.20', 'amount', 'dmy')).to.equal(1);
    expect(exactness('ACME Tools', 'ACME TOOLS LTD', 'name', 'dmy')).to.equal(1);
    expect(exactness('ACME Toots', 'ACME Tools', 'name', 'dmy')).to.be.closeTo(1 - 1 / 9, 1e-9);
    expect(exactness(76.2, '67.20', 'amount', 'dmy')).to.be.below(1);
  });

  it('reads a printed date in the request\'s date order: a right date on a US (mdy) document has the features of a right one on a day-first document, the other reading is not spelled', () => {
    const schema = { type: 'object', properties: { invoice_date: { type: 'string', format: 'date' } } };
    const evidenceOf = (printed: string, value: string, dateOrder: 'dmy' | 'mdy') => {
      const document = buildDocument(['ACME TOOLS INC', `Invoice date: ${printed}`, 'Total: 76.20']);
      const answer = { value: { invoice_date: value }, provenance: new Map([['/invoice_date', { words: [ref(1, 2)], score: 1 }]]) };
      const report = buildEvidence({ answer, document, schema, dateOrder });
      return { features: report.features.get('/invoice_date')!, confidence: report.evidence['/invoice_date']!.confidence };
    };
    // 4 March 2024, printed month first on a US document and day first on a European one
    const us = evidenceOf('03/04/2024', '2024-03-04', 'mdy');
    const european = evidenceOf('04/03/2024', '2024-03-04', 'dmy');
    expect(us.features).to.include({ kind: 'date', exactness: 1, irregular: false });
    expect(us).to.deep.equal(european);
    // the same print read the other way round is another day: not what the words spell
    expect(evidenceOf('03/04/2024', '2024-04-03', 'mdy').features.exactness).to.be.below(1);
    expect(evidenceOf('04/03/2024', '2024-04-03', 'dmy').features.exactness).to.be.below(1);
    expect(exactness('2024-03-04', 'March 4, 2024', 'date', 'dmy')).to.equal(1);
  });

  it('calls cut-off names, dates in another century and open brackets irregular', () => {
    expect(irregular('& TEA LEAF (M) SDN BHD', 'name', 'dmy')).to.equal(true);
    expect(irregular('14-02-1614', 'date', 'dmy')).to.equal(true);
    expect(irregular('$3.13)', 'amount', 'dmy')).to.equal(true);
    expect(irregular('THE COFFEE BEAN & TEA LEAF', 'name', 'dmy')).to.equal(false);
    expect(irregular('14-02-2016', 'date', 'dmy')).to.equal(false);
  });

  it('sees an amount printed again and two other amounts adding up to it, not its own line nor coincidences under 1', () => {
    const document = buildDocument(['Subtotal 10.00', 'Tax 0.80', 'Total 10.80', 'Cash 20.00', 'Change 9.20', 'Paid 10.80', 'Tip 0.00', 'Fee 0.00']);
    const index = new DocumentIndex(document);
    expect(index.repeats(10.8, [ref(2, 1)])).to.equal(1);
    expect(index.repeats(10.8, [ref(2, 1), ref(5, 1)])).to.equal(0);
    expect(index.addsUp(10.8, [ref(2, 1)])).to.equal(true); // 10.00 + 0.80, 20.00 - 9.20
    expect(index.addsUp(10.0, [ref(0, 1)])).to.equal(true); // 10.80 - 0.80
    expect(index.addsUp(3.33, [])).to.equal(false);
    expect(index.addsUp(0, [ref(6, 1)])).to.equal(false);
    expect(index.repeats('Subtotal', [])).to.equal(1);
  });

  it('counts the other lines that print a text, up to REPEATS_COUNTED, for texts given when the index is built and others alike', () => {
    const lines = ['Service fee 10.00', 'Article 1  2  5.00', 'Article 12  1  5.00', 'Service fee 10.00', ...Array.from({ length: 40 }, (_, i) => `Unit pcs ${i}`)];
    const document = buildDocument(lines);
    const texts = ['Service fee', 'Article 1', 'Article 12', 'PCS', 'Unit pcs 3', 'fee', 'xy'];
    const own = [ref(0, 0), ref(3, 0)];
    const given = new DocumentIndex(document, texts);
    const later = new DocumentIndex(document);
    for (const index of [given, later]) {
      // "article12500" (Article 1, 2 of them) prints "Article 12" too: letters and digits are compared, not words
      expect(texts.map((text) => index.repeats(text, own))).to.deep.equal([0, 2, 2, REPEATS_COUNTED, 11, 0, 0]);
      expect(index.repeats('Service fee', [ref(0, 0)])).to.equal(1);
      expect(index.repeats(5, [ref(1, 3)])).to.equal(1);
    }
    // beyond the bound, as many other lines as the bound, however many of its own lines print it too
    const ownLines = (count: number) => Array.from({ length: count }, (_, line) => ref(line, 0));
    const printedOn = (count: number) => new DocumentIndex(buildDocument(Array.from({ length: count }, () => 'pcs')), ['pcs']);
    expect(printedOn(200).repeats('pcs', ownLines(1))).to.equal(REPEATS_COUNTED);
    expect(printedOn(200).repeats('pcs', ownLines(60))).to.equal(REPEATS_COUNTED);
    expect(printedOn(70).repeats('pcs', ownLines(60))).to.equal(10);
  });

  it('indexes a table and counts every row\'s repeats in time linear in the rows (n vs 4n)', async () => {
    const rowsOf = (count: number) => Array.from({ length: count }, (_, i) => `Article ${i + 1}  ${1 + (i % 5)}  ${(5 + (i % 13)).toFixed(2)}  ${((1 + (i % 5)) * (5 + (i % 13))).toFixed(2)}`);
    const documents = new Map([2000, 8000].map((count) => [count, buildDocument(rowsOf(count))]));
    await expectLinearGrowth((count) => {
      const descriptions = Array.from({ length: count }, (_, i) => `Article ${i + 1}`);
      const index = new DocumentIndex(documents.get(count)!, descriptions);
      return descriptions.map((description, line) => index.repeats(description, [ref(line, 0), ref(line, 1)]) + index.repeats(5 + (line % 13), [ref(line, 3)]) + Number(index.addsUp(5 + (line % 13), [ref(line, 3)])));
    }, 2000);
  });

  it('collects a value\'s features from its words, the engine\'s reading and the document', () => {
    const document = buildDocument(['Total 10.80', { text: 'Paid 10.80', confidence: 0.7 }, 'Subtotal 10.00', 'Tax 0.80']);
    document.files[0]!.pages[0]!.lines[0]!.words.forEach((w) => {
      w.source = 'ocr';
      w.confidence = 0.93;
    });
    const schema = { type: 'object', properties: { total: { type: 'number' } } };
    document.files[0]!.pages[0]!.lines[0]!.words[1]!.weakest = 0.41;
    const features = valueFeatures('/total', 10.8, { words: [ref(0, 1)], score: 0.9, competition: { rivals: 1, margin: 0.3 } }, 'none', { document, index: new DocumentIndex(document), schema, dateOrder: 'dmy' });
    expect(features).to.deep.equal({
      kind: 'amount', located: true, exactness: 1, textLayer: false, ocrMin: 0.93, weakestLetter: 0.41, lines: 1, score: 0.9, rivals: 1, margin: 0.3, repeats: 1, addsUp: true, answerSum: undefined, negative: false, irregular: false, agreement: 'none', meaning: 0.92,
    });
  });

  it('knows a value\'s weakest character, and the OCR engine that read its page', () => {
    const document = buildDocument([['Total 10.80', 'Tax 0.80'], ['Paid 10.80']]);
    const first = document.files[0]!.pages[0];
    first!.lines.flatMap((line) => line.words).forEach((word, i) => Object.assign(word, { source: 'ocr', confidence: [0.5, 0.6, 0.7, 0.9][i] }));
    const index = new DocumentIndex(document);
    const schema = { type: 'object', properties: { total: { type: 'number' } } };
    const features = (refs: ReturnType<typeof ref>[]) => valueFeatures('/total', 10.8, { words: refs }, 'none', { document, index, schema, dateOrder: 'dmy' });
    // no character probabilities (Tesseract, a text layer): the word's own confidence stands in
    expect(features([ref(0, 1)])).to.include({ weakestLetter: 0.6, ocrMin: 0.6 });
    // the engine that read the page; none for a text layer
    first!.ocrEngine = 'tesseract';
    expect(features([ref(0, 1)]).ocrEngine).to.equal('tesseract');
    expect(features([ref(0, 1, 1)])).to.not.have.property('ocrEngine');
    expect(features([])).to.include({ weakestLetter: 0, located: false });
  });

  it('calls an amount negative when it is returned or printed negative (a minus before or after, brackets), whatever its words hold besides', () => {
    const document = buildDocument(['Gesamtbetrag -233,47 EUR', 'MwSt. 14,99-', 'Net (218.48)', 'Total 104,90', 'Ref 2024-233']);
    const index = new DocumentIndex(document);
    const schema = { type: 'object', properties: { amount: { type: 'string' }, number: { type: 'number' }, reference: { type: 'string' } } };
    const negative = (pointer: string, value: unknown, words: ReturnType<typeof ref>[]) => valueFeatures(pointer, value, { words }, 'none', { document, index, schema, dateOrder: 'dmy' }).negative;
    // printed negative, returned positive or negative: the sign is the caller's convention either way
    expect(negative('/amount', '233.47', [ref(0, 1)])).to.equal(true);
    expect(negative('/amount', '-233.47', [ref(0, 1)])).to.equal(true);
    expect(negative('/number', 14.99, [ref(1, 1)])).to.equal(true);
    expect(negative('/amount', '218.48', [ref(2, 1)])).to.equal(true);
    // returned negative with no words to show for it
    expect(negative('/number', -8.79, [])).to.equal(true);
    // positive as printed and as returned; a dash in a reference is no sign, nor a minus on another number
    expect(negative('/amount', '104.90', [ref(3, 1)])).to.equal(false);
    expect(negative('/number', 104.9, [ref(3, 0), ref(3, 1)])).to.equal(false);
    expect(signed(233, ['2024-233'])).to.equal(false);
    expect(signed(233.47, ['-233.48'])).to.equal(false);
    // a value that is no amount has no sign
    expect(negative('/reference', 'Ref 2024-233', [ref(4, 0), ref(4, 1)])).to.equal(false);
  });

  it('sees amounts of the answer that sum up (a + b = c, whichever fields), only outside lists and with three amounts at least', () => {
    const document = buildDocument(['WEST END GROCERS LTD', 'Subtotal 10.00', 'Tax 0.80', 'Total 10.80']);
    const schema = { type: 'object', properties: { store: { type: 'string' }, subtotal: { type: 'string' }, tax: { type: 'string' }, total: { type: 'string' }, items: { type: 'array', items: { type: 'number' } } } };
    const featuresOf = (value: Record<string, unknown>) => buildEvidence({ answer: { value, provenance: new Map() }, document, schema, dateOrder: 'dmy' }).features;
    const summing = featuresOf({ store: 'WEST END GROCERS LTD', subtotal: '$10.00', tax: '0.80', total: '10.80' });
    expect(['/subtotal', '/tax', '/total'].map((pointer) => summing.get(pointer)!.answerSum)).to.deep.equal([true, true, true]);
    expect(summing.get('/store')).to.include({ answerSum: undefined });
    // whichever fields hold them: a tax and a total read the wrong way round still sum
    expect(featuresOf({ subtotal: '10.00', tax: '10.80', total: '0.80' }).get('/total')!.answerSum).to.equal(true);
    expect(featuresOf({ subtotal: '10.00', tax: '0.08', total: '10.80' }).get('/total')!.answerSum).to.equal(false);
    // two amounts cannot make a sum; line items are not summed
    expect(featuresOf({ subtotal: '10.00', total: '10.80' }).get('/total')!.answerSum).to.equal(undefined);
    expect(featuresOf({ total: '10.80', items: [10, 0.8] }).get('/total')!.answerSum).to.equal(undefined);
  });
});

describe('evidence: confidence', () => {
  const base: ValueFeatures = { kind: 'amount', located: true, exactness: 1, textLayer: false, ocrMin: 0.95, weakestLetter: 0.9, lines: 1, score: 1, rivals: 0, margin: 1, repeats: 0, addsUp: false, answerSum: undefined, irregular: false, agreement: 'none' };

  it('is a probability that rises with what supports the value and falls with what speaks against it', () => {
    const p = singleReadingConfidence(base);
    expect(p).to.be.within(0, 1);
    expect(singleReadingConfidence({ ...base, addsUp: true, repeats: 1 })).to.be.above(p);
    // a word read at 0.4 has no letter surer than that (features.ts: the weakest letter is at most its word's confidence)
    expect(singleReadingConfidence({ ...base, ocrMin: 0.4, weakestLetter: 0.4 })).to.be.below(p);
    expect(singleReadingConfidence({ ...base, score: 0.6 })).to.be.below(p);
    expect(singleReadingConfidence({ ...base, answerSum: true })).to.be.above(p);
    // an irregular shape never makes a date surer (the PP-OCRv6 readings of the dev sets hold no irregular date,
    // so the fit gives the feature no weight for dates)
    const date = { ...base, kind: 'date' as const };
    expect(singleReadingConfidence({ ...date, irregular: true })).to.be.at.most(singleReadingConfidence(date));
    // a name under a strong label is surer than one under a weak label
    const name = { ...base, kind: 'name' as const, ocrMin: 0.99 };
    expect(singleReadingConfidence({ ...name, score: 1 })).to.be.above(singleReadingConfidence({ ...name, score: 0.5 }));
  });

  it('scores a value with the set fitted for the OCR engine that read it, and a text layer\'s with the default engine\'s', () => {
    const flat = (intercept: number) => ({ fittedOn: 'test', kinds: Object.fromEntries(VALUE_KINDS.map((kind): [ValueKind, KindModel] => [kind, { intercept, weights: [] }])) as Record<ValueKind, KindModel> });
    const model: ConfidenceModel = { features: FEATURE_NAMES, byOcr: { paddle: flat(2), tesseract: flat(-1) }, negativeSign: 0.5, combine: { fitted: false, modelPrior: Object.fromEntries(VALUE_KINDS.map((kind) => [kind, 0.5])) as Record<ValueKind, number>, coincidence: 0.3 } };
    expect(singleReadingConfidence({ ...base, ocrEngine: 'paddle' }, model)).to.be.closeTo(sigmoid(2), 1e-12);
    expect(singleReadingConfidence({ ...base, ocrEngine: 'tesseract' }, model)).to.be.closeTo(sigmoid(-1), 1e-12);
    expect(singleReadingConfidence({ ...base, textLayer: true }, model)).to.be.closeTo(sigmoid(2), 1e-12);
  });

  it('scores a negative amount as a reading whose sign is right with the fitted rate, below the same amount unsigned', () => {
    const flat = { fittedOn: 'test', kinds: Object.fromEntries(VALUE_KINDS.map((kind): [ValueKind, KindModel] => [kind, { intercept: 3, weights: [] }])) as Record<ValueKind, KindModel> };
    const model: ConfidenceModel = { features: FEATURE_NAMES, byOcr: { paddle: flat, tesseract: flat }, negativeSign: 0.6, combine: { fitted: false, modelPrior: Object.fromEntries(VALUE_KINDS.map((kind) => [kind, 0.5])) as Record<ValueKind, number>, coincidence: 0.3 } };
    expect(singleReadingConfidence({ ...base, negative: true }, model)).to.be.closeTo(sigmoid(3) * 0.6, 1e-12);
    expect(singleReadingConfidence({ ...base, negative: false }, model)).to.be.closeTo(sigmoid(3), 1e-12);
    // the shipped model: a sure reading of a credit's total is not sure of its sign
    const sure = { ...base, ocrMin: 0.999, weakestLetter: 0.999, addsUp: true, answerSum: true };
    expect(singleReadingConfidence({ ...sure, negative: true })).to.be.below(0.9).and.below(singleReadingConfidence(sure));
  });

  it('counts a label the engine scored weak as a doubt of its own, and only a scored one', () => {
    const weakLabel = (features: ValueFeatures) => featureVector(features)[FEATURE_NAMES.indexOf('weakLabel')];
    expect(weakLabel({ ...base, score: WEAK_LABEL_BELOW - 0.05 })).to.equal(1);
    expect(weakLabel({ ...base, score: WEAK_LABEL_BELOW })).to.equal(0);
    expect(weakLabel({ ...base, score: 1 })).to.equal(0);
    // a value found without a label (a date by its pattern) has no label to be weak
    expect(weakLabel({ ...base, score: undefined })).to.equal(0);
    // the shipped model: a value under a weak label is less sure than under a label just strong enough
    const sure = { ...base, ocrMin: 0.999, weakestLetter: 0.999 };
    expect(singleReadingConfidence({ ...sure, score: WEAK_LABEL_BELOW - 0.01 })).to.be.below(singleReadingConfidence({ ...sure, score: WEAK_LABEL_BELOW }) - 0.05);
  });

  it('reads a PP-OCR letter as sure from the cascade\'s re-read threshold up, and Tesseract\'s word confidence on its own scale', () => {
    // the cascade re-reads every line with a letter below the threshold: above it, letters differ by recogniser, not by doubt
    expect(SURE_LETTER).to.equal(REREAD_BELOW);
    const letter = (features: ValueFeatures) => featureVector(features)[FEATURE_NAMES.indexOf('weakestLetter')]!;
    const paddle = { ...base, ocrEngine: 'paddle' as const };
    expect(letter({ ...paddle, weakestLetter: 0.995 })).to.equal(letter({ ...paddle, weakestLetter: 0.9999 }));
    expect(letter({ ...paddle, weakestLetter: SURE_LETTER })).to.equal(letter({ ...paddle, weakestLetter: 0.9999 }));
    expect(letter({ ...paddle, weakestLetter: 0.95 })).to.be.below(letter({ ...paddle, weakestLetter: SURE_LETTER }));
    // a text layer is as sure as the surest letter
    expect(letter({ ...base, textLayer: true, weakestLetter: 1 })).to.equal(letter({ ...paddle, weakestLetter: 0.9999 }));
    const tesseract = { ...base, ocrEngine: 'tesseract' as const };
    expect(letter({ ...tesseract, weakestLetter: 0.995 })).to.be.below(letter({ ...tesseract, weakestLetter: 0.999 }));
    // the shipped model: a letter the full recogniser still doubts makes the value less sure
    expect(singleReadingConfidence({ ...paddle, ocrMin: 0.999, weakestLetter: 0.9 })).to.be.below(singleReadingConfidence({ ...paddle, ocrMin: 0.999, weakestLetter: 0.999 }));
  });

  it('weighs a model\'s value by the rules engine\'s reading: agreement raises it, disagreement lowers it, an invented value is weak', () => {
    const alone = combineReadings('amount', 'none', undefined, 1);
    expect(combineReadings('amount', 'agrees', 0.6, 1)).to.be.above(alone).and.above(0.6);
    expect(combineReadings('amount', 'agrees', 0.9, 1)).to.be.above(combineReadings('amount', 'agrees', 0.6, 1));
    expect(combineReadings('amount', 'differs', 0.9, 1)).to.be.below(alone);
    expect(combineReadings('amount', 'none', undefined, 0)).to.equal(alone / 2);
  });
});

describe('evidence: the map for an answer', () => {
  it('lists every non-null leaf, located or not', () => {
    const value = { a: 'ACME', b: null, list: [{ x: 1 }, { x: null }], nested: { y: true } };
    expect(leafPointers(value)).to.deep.equal(['/a', '/list/0/x', '/nested/y']);
    const document = buildDocument(['ACME TOOLS LTD']);
    const schema = { type: 'object', properties: { a: { type: 'string' }, list: { type: 'array', items: { type: 'object', properties: { x: { type: 'number' } } } }, nested: { type: 'object', properties: { y: { type: 'boolean' } } } } };
    const report = buildEvidence({ answer: { value, provenance: new Map([['/a', { words: [ref(0, 0)] }]]) }, document, schema, dateOrder: 'dmy' });
    expect(Object.keys(report.evidence)).to.deep.equal(['/a', '/list/0/x', '/nested/y']);
    expect(report.evidence['/a']).to.include({ file: 0, page: 0, text: 'ACME' });
    expect(report.evidence['/list/0/x']).to.have.keys(['confidence']);
    expect(report.evidence['/list/0/x']!.confidence).to.be.below(report.evidence['/a']!.confidence);
    expect(report.features.get('/a')!.located).to.equal(true);
  });
});
