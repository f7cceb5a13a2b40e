import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadParaphrases, mapAnswer, paraphraseDir, paraphraseProblems, selectParaphrases, type Paraphrase, type ParaphraseTarget } from '../../scripts/eval/paraphrases.js';
import { buildDatasetReport, renderMarkdown, renderText, type DocumentInput, type EvalReport, type ParaphraseRun } from '../../scripts/eval/report.js';
import { classifyFields } from '../../scripts/eval/score.js';

const DATASET_SCHEMA = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    total: { type: 'string' },
    line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' } } } },
  },
};

const GERMAN: Paraphrase = {
  name: 'de',
  schema: {
    type: 'object',
    properties: {
      rechnungsnummer: { type: 'string' },
      bruttobetrag: { type: 'number' },
      positionen: { type: 'array', items: { type: 'object', properties: { bezeichnung: { type: 'string' }, menge: { type: 'number' } } } },
    },
  },
  map: { rechnungsnummer: 'invoice_number', bruttobetrag: 'total', positionen: { field: 'line_items', items: { bezeichnung: 'description', menge: 'quantity' } } },
};

describe('eval schema paraphrases', () => {
  it('maps an answer back to the dataset\'s fields, items too, and drops what the map does not name', () => {
    const answer = { rechnungsnummer: 'R-7', bruttobetrag: 12.5, positionen: [{ bezeichnung: 'Äpfel', menge: 3, extra: 1 }, 'not an object'], notiz: 'x' };
    expect(mapAnswer(answer, GERMAN.map)).to.deep.equal({ invoice_number: 'R-7', total: 12.5, line_items: [{ description: 'Äpfel', quantity: 3 }, 'not an object'] });
    expect(mapAnswer({ positionen: null }, GERMAN.map)).to.deep.equal({ line_items: null });
    expect(mapAnswer('not an object', GERMAN.map)).to.deep.equal({});
  });

  it('accepts a paraphrase that asks for every field once', () => {
    expect(paraphraseProblems(GERMAN, DATASET_SCHEMA)).to.deep.equal([]);
  });

  it('names what is wrong with a map', () => {
    const broken: Paraphrase = {
      ...GERMAN,
      map: { rechnungsnummer: 'invoice_number', bruttobetrag: 'invoice_number', positionen: { field: 'line_items', items: { bezeichnung: 'description', menge: 'qty' } } } as Record<string, ParaphraseTarget>,
    };
    const problems = paraphraseProblems(broken, DATASET_SCHEMA);
    expect(problems).to.include('dataset field "invoice_number" is asked for 2 times, not once');
    expect(problems).to.include('dataset field "total" is asked for 0 times, not once');
    expect(problems).to.include('map entry "positionen.menge" names "qty", which is not an item property of "line_items"');
    expect(problems).to.include('item property "line_items.quantity" is asked for 0 times, not once');
    const flat = paraphraseProblems({ ...GERMAN, map: { ...GERMAN.map, positionen: 'line_items' } }, DATASET_SCHEMA);
    expect(flat).to.deep.equal(['"line_items" is an array of objects: map "positionen" with { field, items }']);
    const unmapped = paraphraseProblems({ ...GERMAN, map: { rechnungsnummer: 'invoice_number', bruttobetrag: 'total' } }, DATASET_SCHEMA);
    expect(unmapped).to.include('property "positionen" has no entry in the map');
  });

  it('loads a dataset\'s paraphrases from its file, refuses a wrong map before any document is read, and has none without a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paraphrases-'));
    try {
      await writeFile(join(dir, 'invoices.json'), JSON.stringify({ dataset: 'invoices', paraphrases: [GERMAN] }));
      expect((await loadParaphrases('invoices', DATASET_SCHEMA, dir)).map((paraphrase) => paraphrase.name)).to.deep.equal(['de']);
      expect(await loadParaphrases('receipts', DATASET_SCHEMA, dir)).to.deep.equal([]);
      await writeFile(join(dir, 'broken.json'), JSON.stringify({ paraphrases: [{ ...GERMAN, map: { rechnungsnummer: 'invoice_number' } }] }));
      const error = await loadParaphrases('broken', DATASET_SCHEMA, dir).catch((caught: unknown) => caught);
      expect(String(error)).to.match(/paraphrase "de": property "bruttobetrag" has no entry in the map/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('picks paraphrases by name and refuses a name no dataset has', () => {
    const all = new Map([['invoices', [GERMAN, { ...GERMAN, name: 'fr' }]], ['receipts', [{ ...GERMAN, name: 'fr' }]]]);
    const picked = selectParaphrases(all, ['fr']);
    expect([...picked].map(([dataset, list]) => [dataset, list.map((paraphrase) => paraphrase.name)])).to.deep.equal([['invoices', ['fr']], ['receipts', ['fr']]]);
    expect(() => selectParaphrases(all, ['fr', 'it'])).to.throw(/no paraphrase named "it"/);
  });

  it('keeps, per dataset in the repository, six or more paraphrases that all ask for the same fields', async () => {
    const files = (await readdir(paraphraseDir())).filter((name) => name.endsWith('.json'));
    expect(files.length).to.be.greaterThan(0);
    for (const file of files) {
      const { dataset, paraphrases } = JSON.parse(await readFile(join(paraphraseDir(), file), 'utf8')) as { dataset: string; paraphrases: Paraphrase[] };
      expect(`${dataset}.json`).to.equal(file);
      expect(paraphrases.length, file).to.be.at.least(6);
      // the fields the first paraphrase asks for, as a dataset schema: every other one must ask for exactly these
      const properties: Record<string, unknown> = {};
      for (const target of Object.values(paraphrases[0]!.map)) {
        if (typeof target === 'string') properties[target] = { type: 'string' };
        else properties[target.field] = { type: 'array', items: { type: 'object', properties: Object.fromEntries(Object.values(target.items).map((item) => [item, {}])) } };
      }
      for (const paraphrase of paraphrases) expect(paraphraseProblems(paraphrase, { type: 'object', properties }), `${file} ${paraphrase.name}`).to.deep.equal([]);
    }
  });

  it('scores each paraphrase like the dataset\'s own schema, per variant too, and reports them side by side', () => {
    const expected = { invoice_number: 'R-7', total: '12.50', line_items: [{ description: 'Äpfel', quantity: 3 }] };
    const answered = (result: Record<string, unknown>): ParaphraseRun => ({ ok: true, seconds: 0.1, result, answer: result });
    const document = (id: string, variant: string, paraphraseTotal: string): DocumentInput => ({
      id,
      expected,
      variant,
      run: { id, ok: true, seconds: 1, engine: 'rules', result: expected, layout: undefined },
      paraphrases: {
        de: answered({ ...mapAnswer({ rechnungsnummer: 'R-7', bruttobetrag: paraphraseTotal, positionen: [{ bezeichnung: 'äpfel', menge: '3,00' }] }, GERMAN.map) }),
        fr: { ok: false, seconds: 0.1, status: 500, message: 'engine failed' },
      },
    });
    const report = buildDatasetReport({
      name: 'invoices',
      dir: '/tmp/invoices',
      schema: DATASET_SCHEMA,
      kinds: classifyFields(DATASET_SCHEMA, [expected]),
      nullMeaning: 'absent',
      dateOrder: 'day-first',
      documents: [document('a', 'born-digital PDF', '12,50'), document('a_scan', 'scanned copy', '21.50')],
      paraphrases: ['de', 'fr'],
    });
    const [german, french] = report.paraphrases!;
    expect(report.micro.strictAccuracy).to.equal(1);
    expect(german!.micro).to.include({ expected: 4, strictCorrect: 3 });
    expect(german!.fields.find((field) => field.field === 'line_items')?.items).to.include({ f1: 1, sameCount: 2 });
    expect(french).to.include({ failed: 2 });
    expect(french!.micro.strictAccuracy).to.equal(0);
    const scanned = report.variants!.find((variant) => variant.name.endsWith('[scanned]'))!;
    expect(scanned.paraphrases!.find((paraphrase) => paraphrase.name === 'de')!.micro.strictAccuracy).to.equal(0.5);

    const full: EvalReport = { generatedAt: '', mode: 'local', url: null, options: { dateOrder: 'day-first', limit: null, concurrency: 1 }, datasets: [report] };
    const overview = renderText(full).split('== schema paraphrases')[1]!;
    expect(overview).to.match(/invoices \[scanned\]\s+strict\s+100\.0%\s+50\.0%\s+0\.0%/);
    expect(overview).to.match(/invoices\s+line_items F1\s+1\.000\s+1\.000\s+0\.000/);
    expect(renderMarkdown(full)).to.include('## Schema paraphrases');
  });
});
