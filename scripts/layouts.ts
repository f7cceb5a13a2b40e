/**
 * How well the parties and totals of invoices of layouts the dev sets do not
 * hold are read: every family of test/fixtures/invoice-layouts.ts in every
 * language, through the service's own pipeline, from the PDF's text layer
 * and from the same page rendered and read by OCR (the service's OCR engine,
 * as configured: PaddleOCR by default). Prints the strict accuracy per layout
 * family and per language of the seller's and the buyer's name and address
 * and of the net, VAT and total, with a flat schema and a nested one.
 *
 *   npm run layouts [-- --no-ocr] [-- --variants 2] [-- --families window,person] [-- --languages de,fr] [-- --misses]
 */
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { prepareRequest, runExtraction, type ExtractionRequest } from '../src/pipeline.js';
import { startServices, type Services } from '../src/services.js';
import { LAYOUT_FAMILIES, LAYOUT_LANGUAGES, makeLayoutInvoices, type LayoutFamily, type LayoutInvoice, type LayoutLanguage } from '../test/fixtures/invoice-layouts.js';
import { amountsEqual, normaliseText } from './eval/normalise.js';

const FLAT_SCHEMA = {
  type: 'object',
  properties: {
    seller: { type: 'string', description: 'Name of the company or person that issued the invoice (the supplier), without its address.' },
    buyer: { type: 'string', description: 'Name of the customer the invoice is addressed to, without its address.' },
    net_total: { type: 'number', description: 'Total amount without VAT.' },
    tax_total: { type: 'number', description: 'Total VAT amount.' },
    total: { type: 'number', description: 'Grand total including VAT.' },
  },
};

const PARTY = (role: string) => ({
  type: 'object',
  description: role,
  properties: {
    name: { type: 'string' },
    address: { type: 'string', description: 'Postal address: street and town, on one line.' },
    vat_id: { type: 'string', description: 'VAT identification number.' },
  },
});

const NESTED_SCHEMA = {
  type: 'object',
  properties: { seller: PARTY('The supplier that issued the invoice.'), buyer: PARTY('The customer the invoice is addressed to.') },
};

/** A value the reading got right or not; undefined when the truth has none. */
type Mark = boolean | undefined;

interface Scored {
  invoice: LayoutInvoice;
  source: 'text' | 'ocr';
  marks: Record<string, Mark>;
  /** What was read for each field that was wrong. */
  misses: Record<string, { read: unknown; truth: unknown }>;
}

const FIELDS = ['seller', 'buyer', 'net', 'vat', 'total', 'seller.address', 'buyer.address', 'seller.vat_id', 'buyer.vat_id', 'nested seller', 'nested buyer'] as const;

function sameText(read: unknown, truth: string): boolean {
  return typeof read === 'string' && normaliseText(read) === normaliseText(truth);
}

function sameAmount(read: unknown, truth: number): boolean {
  return (typeof read === 'number' || typeof read === 'string') && amountsEqual(String(read), truth.toFixed(2));
}

function score(invoice: LayoutInvoice, source: 'text' | 'ocr', flat: Record<string, unknown>, nested: Record<string, unknown>): Scored {
  const { truth } = invoice;
  const seller = (nested['seller'] ?? {}) as Record<string, unknown>;
  const buyer = (nested['buyer'] ?? {}) as Record<string, unknown>;
  const checks: Record<string, [unknown, string | number | null]> = {
    seller: [flat['seller'], truth.seller.name],
    buyer: [flat['buyer'], truth.buyer.name],
    net: [flat['net_total'], truth.net],
    vat: [flat['tax_total'], truth.vat],
    total: [flat['total'], truth.total],
    'seller.address': [seller['address'], truth.seller.address],
    'buyer.address': [buyer['address'], truth.buyer.address],
    'seller.vat_id': [seller['vat_id'], truth.seller.vatId],
    'buyer.vat_id': [buyer['vat_id'], truth.buyer.vatId],
    'nested seller': [seller['name'], truth.seller.name],
    'nested buyer': [buyer['name'], truth.buyer.name],
  };
  const marks: Record<string, Mark> = {};
  const misses: Scored['misses'] = {};
  for (const [field, [read, expected]] of Object.entries(checks)) {
    if (expected === null) {
      marks[field] = undefined;
      continue;
    }
    const right = typeof expected === 'number' ? sameAmount(read, expected) : sameText(read, expected);
    marks[field] = right;
    if (!right) misses[field] = { read: read ?? null, truth: expected };
  }
  return { invoice, source, marks, misses };
}

async function answer(services: Services, request: ExtractionRequest): Promise<Record<string, unknown>> {
  return (await runExtraction(services, request, AbortSignal.timeout(300_000))).result as Record<string, unknown>;
}

/** The PDF's page rendered as the service renders scanned pages, as a PNG: the same page without its text layer. */
async function pageImage(services: Services, pdf: Buffer): Promise<Buffer> {
  const prepared = await prepareRequest({ schema: FLAT_SCHEMA, contents: [{ mimeType: 'application/pdf', data: pdf.toString('base64') }] }, loadConfig().limits, AbortSignal.timeout(60_000));
  const raster = await services.pdf.render(prepared.files[0]!, 0);
  return sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), { raw: { width: raster.width, height: raster.height, channels: 1 } }).png().toBuffer();
}

async function read(services: Services, invoice: LayoutInvoice, source: 'text' | 'ocr'): Promise<Scored> {
  const content = source === 'text'
    ? { mimeType: 'application/pdf', data: invoice.pdf.toString('base64') }
    : { mimeType: 'image/png', data: (await pageImage(services, invoice.pdf)).toString('base64') };
  // the OCR'd page is read once: both schemas answer from the same reading when given the same bytes
  const flat = await answer(services, { schema: FLAT_SCHEMA, contents: [content] });
  const nested = await answer(services, { schema: NESTED_SCHEMA, contents: [content] });
  return score(invoice, source, flat, nested);
}

function percent(marks: readonly Mark[]): string {
  const graded = marks.filter((mark): mark is boolean => mark !== undefined);
  if (graded.length === 0) return '   -';
  return `${Math.round((100 * graded.filter(Boolean).length) / graded.length)}`.padStart(4);
}

function table(title: string, rows: ReadonlyArray<[string, readonly Scored[]]>): string {
  const header = `${title.padEnd(18)}${FIELDS.map((field) => field.replace('nested ', 'n.').replace('.address', '.addr').padStart(13)).join('')}`;
  const body = rows.map(([name, scored]) => `${name.padEnd(18)}${FIELDS.map((field) => percent(scored.map((s) => s.marks[field])).padStart(13)).join('')}`);
  return [header, ...body].join('\n');
}

function report(scored: readonly Scored[], source: 'text' | 'ocr', families: readonly LayoutFamily[], languages: readonly LayoutLanguage[]): string {
  const of = (filter: (s: Scored) => boolean) => scored.filter((s) => s.source === source && filter(s));
  const byFamily = families.map((family): [string, Scored[]] => [family, of((s) => s.invoice.family === family)]);
  const byLanguage = languages.map((language): [string, Scored[]] => [language, of((s) => s.invoice.language === language)]);
  const label = source === 'text' ? 'text layer' : 'OCR';
  return [table(`${label} (% right)`, [...byFamily, ['all', of(() => true)]]), '', table(`${label} by language`, byLanguage)].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'no-ocr': { type: 'boolean', default: false },
      variants: { type: 'string', default: '1' },
      families: { type: 'string' },
      languages: { type: 'string' },
      misses: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const families = (values.families?.split(',') ?? LAYOUT_FAMILIES) as LayoutFamily[];
  const languages = (values.languages?.split(',') ?? LAYOUT_LANGUAGES) as LayoutLanguage[];
  for (const family of families) if (!LAYOUT_FAMILIES.includes(family)) throw new Error(`unknown family ${family}; known: ${LAYOUT_FAMILIES.join(', ')}`);
  for (const language of languages) if (!LAYOUT_LANGUAGES.includes(language)) throw new Error(`unknown language ${language}; known: ${LAYOUT_LANGUAGES.join(', ')}`);
  const invoices = await makeLayoutInvoices({ families, languages, variants: Number(values.variants) });
  const sources: Array<'text' | 'ocr'> = values['no-ocr'] ? ['text'] : ['text', 'ocr'];
  const services = await startServices(loadConfig({ ...process.env, EXTRACTOR: 'rules' }), silentLogger());
  const scored: Scored[] = [];
  try {
    for (const invoice of invoices) for (const source of sources) scored.push(await read(services, invoice, source));
  } finally {
    await services.close();
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(scored.map(({ invoice, source, marks, misses }) => ({ family: invoice.family, language: invoice.language, variant: invoice.variant, source, marks, misses })), null, 2)}\n`);
    return;
  }
  console.log(`${invoices.length} invoices (${families.length} layout families x ${languages.length} languages x ${values.variants} variants), rules engine, OCR engine ${services.ocr.name}\n`);
  for (const source of sources) console.log(`${report(scored, source, families, languages)}\n`);
  if (values.misses) {
    for (const { invoice, source, misses } of scored) {
      for (const [field, { read: got, truth }] of Object.entries(misses)) console.log(`${source.padEnd(5)}${invoice.family.padEnd(17)}${invoice.language}/${invoice.variant}  ${field.padEnd(15)} read ${JSON.stringify(got)}  truth ${JSON.stringify(truth)}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
