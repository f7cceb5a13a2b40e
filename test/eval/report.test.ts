import { expect } from 'chai';
import { buildDatasetReport, renderText, variantName, type DocumentInput, type EvalReport } from '../../scripts/eval/report.js';
import type { FieldKind } from '../../scripts/eval/score.js';

const BORN_DIGITAL = 'born-digital PDF with its text layer (and the e-invoice XML it carries)';
const SCANNED = 'the same pages rasterised at 150 dpi into an image-only PDF (no text layer, no attachment)';

function document(id: string, variant: string | undefined, expected: string, predicted: string): DocumentInput {
  return {
    id,
    expected: { total: expected },
    run: { id, ok: true, seconds: 1, engine: 'rules', result: { total: predicted }, layout: undefined },
    ...(variant === undefined ? {} : { variant }),
  };
}

function report(documents: DocumentInput[]) {
  return buildDatasetReport({ name: 'eu-invoices', dir: '/tmp/eu', kinds: new Map<string, FieldKind>([['total', 'amount']]), nullMeaning: 'absent', dateOrder: 'day-first', documents });
}

describe('eval report: variants of a dataset', () => {
  it('names the variants of a manifest shortly', () => {
    expect(variantName(BORN_DIGITAL, ['eu_1', 'eu_2'])).to.equal('born-digital');
    expect(variantName(SCANNED, ['eu_1_scan', 'eu_2_scan'])).to.equal('scanned');
    expect(variantName('photo taken with a phone, then cropped', ['a', 'b'])).to.equal('photo taken with a phone');
  });

  it('scores born-digital and scanned documents apart as well as together', () => {
    const dataset = report([
      document('eu_1', BORN_DIGITAL, '10.00', '10,00'),
      document('eu_1_scan', SCANNED, '10.00', '1,00'),
      document('eu_2', BORN_DIGITAL, '5.00', '5.00'),
      document('eu_2_scan', SCANNED, '5.00', '5.00'),
    ]);
    expect(dataset.micro.strictAccuracy).to.equal(0.75);
    const variants = new Map((dataset.variants ?? []).map((variant) => [variant.name, variant]));
    expect([...variants.keys()]).to.deep.equal(['eu-invoices [born-digital]', 'eu-invoices [scanned]']);
    expect(variants.get('eu-invoices [born-digital]')?.micro.strictAccuracy).to.equal(1);
    expect(variants.get('eu-invoices [scanned]')?.micro.strictAccuracy).to.equal(0.5);
    const full: EvalReport = { generatedAt: '', mode: 'local', url: null, options: { dateOrder: 'day-first', limit: null, concurrency: 1 }, datasets: [dataset] };
    const overview = renderText(full).split('== overview')[1]!;
    expect(overview).to.match(/eu-invoices \[born-digital\]\s+2\s+0\s+100\.0%/);
    expect(overview).to.match(/eu-invoices \[scanned\]\s+2\s+0\s+50\.0%/);
  });

  it('adds no variant section to a dataset of one kind of document', () => {
    expect(report([document('a', undefined, '1.00', '1.00'), document('b', undefined, '2.00', '2.00')]).variants).to.equal(undefined);
    expect(report([document('a', BORN_DIGITAL, '1.00', '1.00'), document('b', BORN_DIGITAL, '2.00', '2.00')]).variants).to.equal(undefined);
  });
});
