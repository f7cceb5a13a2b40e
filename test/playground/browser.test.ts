/**
 * The playground page driven in a real browser (Debian's headless Chromium):
 * key, dropped files sent as multipart/form-data, preset schema, run, the
 * values, engine and timings it shows, lists of objects as tables, an error
 * as the service phrased it, and the per-value evidence the service gives:
 * confidence beside each value and in each cell, its box drawn over the page
 * on hover (and kept on click). Screenshots go to .test-output/playground/.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { decodeContents } from '../../src/ingest/decode.js';
import { startJobs, type JobsRuntime } from '../../src/jobs/create-jobs.js';
import { silentLogger } from '../../src/logger.js';
import type { PipelineDeps } from '../../src/pipeline.js';
import { makeReceiptImage, RECEIPT_EXPECTED } from '../fixtures/images.js';
import { ciiXml, sampleInvoice } from '../fixtures/einvoices.js';
import { INVOICE_EXPECTED, makeInvoicePdf } from '../fixtures/pdfs.js';
import { chromiumInstalled, CHROMIUM_PATH, launchChromium, type HeadlessBrowser } from '../helpers/browser.js';
import { partsOf, recordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { closeSharedServices, sharedServices, startTestServer, testConfig, TEST_API_KEY, type RunningServer } from '../helpers/test-server.js';

const OUTPUT = fileURLToPath(new URL('../../../.test-output/playground/', import.meta.url));

interface DroppedFile {
  name: string;
  type: string;
  base64: string;
}

/** Drops files on the drop zone the way a browser does: a drop event carrying a DataTransfer. */
async function dropFiles(page: Page, files: DroppedFile[]): Promise<void> {
  await page.evaluate((items) => {
    const transfer = new DataTransfer();
    for (const item of items) {
      const bytes = Uint8Array.from(atob(item.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], item.name, { type: item.type }));
    }
    const zone = document.getElementById('drop-zone')!;
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, files);
}

/** Where the words of `text` are printed on the invoice's only page, as fractions of it: pdf.js's text layer, as the service reads it. */
async function printedBox(services: PipelineDeps, pdf: Buffer, text: string, after = 0): Promise<number[]> {
  const [file] = decodeContents([{ mimeType: 'application/pdf', data: pdf }], { maxFiles: 1 });
  const page = (await services.pdf.inspect(file!, 10)).pages[0]!;
  const word = page.words.filter((w) => w.text === text)[after]!;
  return [word.bbox.x0 / page.width, word.bbox.y0 / page.height, word.bbox.x1 / page.width, word.bbox.y1 / page.height];
}

/** The boxes drawn over a page, as fractions of its sheet. */
function drawnBoxes(page: Page, file = 0, pageIndex = 0): Promise<Array<{ low: boolean; x0: number; y0: number; x1: number; y1: number }>> {
  return page.$$eval(`.page[data-file="${file}"][data-page="${pageIndex}"] .sheet`, ([sheet]) => {
    const frame = sheet!.getBoundingClientRect();
    return [...sheet!.querySelectorAll('.box')].map((box) => {
      const r = box.getBoundingClientRect();
      return { low: box.classList.contains('low'), x0: (r.left - frame.left) / frame.width, y0: (r.top - frame.top) / frame.height, x1: (r.right - frame.left) / frame.width, y1: (r.bottom - frame.top) / frame.height };
    });
  });
}

/** The answer of the page's next POST /v1/, once it has come. */
function nextAnswer<T>(page: Page): () => T | undefined {
  let answer: T | undefined;
  page.on('response', async (response) => {
    if (response.url().endsWith('/v1/')) answer = (await response.json()) as T;
  });
  return () => answer;
}

/** The page at `url` with the key entered, the invoice PDF dropped and drawn, and the invoice preset chosen. */
async function withInvoice(page: Page, url: string, pdf: Buffer): Promise<void> {
  await page.goto(`${url}/`);
  await page.fill('#api-key', TEST_API_KEY);
  await dropFiles(page, [{ name: 'invoice.pdf', type: 'application/pdf', base64: pdf.toString('base64') }]);
  await page.waitForSelector('.page[data-file="0"][data-page="0"] canvas');
  await page.selectOption('#preset', 'invoice');
}

/** The values table as {path: shown value}. */
async function shownValues(page: Page): Promise<Record<string, string>> {
  return page.$$eval('#fields tr[data-pointer]', (rows) =>
    Object.fromEntries(rows.map((row) => [row.children[0]!.textContent ?? '', row.children[1]!.textContent ?? ''])),
  );
}

/** Share of dark pixels in a canvas: a rendered page has text, a failed render is blank. */
function inkOf(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (canvas) => {
    const c = canvas as HTMLCanvasElement;
    const pixels = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let dark = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! < 128) dark++;
    return dark / (pixels.length / 4);
  });
}

function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A 401/5xx answer is logged by Chromium as a failed resource; that is the service speaking, not a page fault.
    if (message.type() === 'error' && !/Failed to load resource: the server responded/.test(message.text())) problems.push(message.text());
  });
  return problems;
}

describe('playground page in headless Chromium', function () {
  this.timeout(180_000);
  let services: PipelineDeps;
  let server: RunningServer;
  /** In front of the server: keeps what the page sent. */
  let proxy: RecordingProxy;
  let jobs: JobsRuntime | undefined;
  let browser: HeadlessBrowser | undefined;
  let invoicePdf: Buffer;
  let receiptPng: Buffer;

  before(async function () {
    if (!chromiumInstalled()) {
      process.stdout.write(`    browser test skipped: no Chromium at ${CHROMIUM_PATH} (Debian: apt-get install chromium; .ci/run installs it)\n`);
      this.skip();
    }
    mkdirSync(OUTPUT, { recursive: true });
    services = await sharedServices();
    jobs = await startJobs(testConfig(), silentLogger());
    server = await startTestServer(services, {}, { jobs });
    proxy = await recordingProxy(server.url);
    browser = await launchChromium();
    [invoicePdf, receiptPng] = await Promise.all([makeInvoicePdf(), makeReceiptImage('png')]);
  });

  after(async () => {
    await browser?.close();
    await proxy?.close();
    await server?.close();
    await jobs?.close(0);
    await closeSharedServices();
  });

  it('runs the extraction as a job when asked: submits it, follows it, and shows the result', async () => {
    const page = await browser!.context.newPage();
    const problems = watchProblems(page);
    const paths: string[] = [];
    page.on('request', (request) => paths.push(`${request.method()} ${new URL(request.url()).pathname}`));
    await page.goto(`${server.url}/`);
    await page.fill('#api-key', TEST_API_KEY);
    await page.waitForSelector('#as-job-label:not([hidden])');
    await dropFiles(page, [{ name: 'invoice.pdf', type: 'application/pdf', base64: invoicePdf.toString('base64') }]);
    await page.selectOption('#preset', 'invoice');
    await page.check('#as-job');
    await page.click('#run');
    await page.waitForSelector('#fields:not([hidden]) tr[data-pointer]', { timeout: 120_000 });
    expect((await shownValues(page)).invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);
    expect(await page.textContent('#run-status')).to.match(/^Job [0-9a-f]{8}: succeeded in [\d.]+ s \(1 run\)\.$/);
    expect(paths.filter((path) => path.includes('/v1/'))).to.satisfy((sent: string[]) =>
      sent[0] === 'POST /v1/jobs' && sent.some((path) => /^GET \/v1\/jobs\/[0-9a-f-]+$/.test(path)) && /^GET \/v1\/jobs\/[0-9a-f-]+\/result$/.test(sent.at(-1)!),
    );
    expect(await page.isHidden('#job-progress')).to.equal(true);
    await page.screenshot({ path: `${OUTPUT}job.png`, fullPage: true });
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('extracts from a dropped PDF and image and shows the values, the engine and the stage timings', async () => {
    const page = await browser!.context.newPage();
    const problems = watchProblems(page);
    const sentBefore = proxy.passed.length;
    await page.goto(`${proxy.url}/`);
    await page.waitForFunction(() => document.getElementById('service-status')!.textContent!.startsWith('ready'));
    expect(await page.textContent('#service-status')).to.equal('ready - engine rules');

    await page.fill('#api-key', TEST_API_KEY);
    expect(await page.evaluate(() => sessionStorage.getItem('docshape.apiKey'))).to.equal(TEST_API_KEY);
    await dropFiles(page, [
      { name: 'invoice.pdf', type: 'application/pdf', base64: invoicePdf.toString('base64') },
      { name: 'receipt.png', type: 'image/png', base64: receiptPng.toString('base64') },
    ]);
    expect(await page.$$eval('#file-list li', (items) => items.map((li) => li.textContent))).to.have.length(2);
    // The PDF page is drawn by the locally served pdf.js, the image shown as it is.
    await page.waitForSelector('.page[data-file="0"][data-page="0"] canvas');
    await page.waitForFunction(() => (document.querySelector('.page[data-file="1"] img') as HTMLImageElement | null)?.complete === true);
    await page.waitForTimeout(300);
    expect(await inkOf(page, '.page[data-file="0"] canvas')).to.be.greaterThan(0.002);

    await page.selectOption('#preset', 'invoice');
    expect(await page.textContent('#schema-status')).to.equal('valid JSON');
    await page.click('#run');
    await page.waitForSelector('#fields:not([hidden]) tr[data-pointer]', { timeout: 120_000 });

    const values = await shownValues(page);
    expect(values.invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);
    expect(values.invoice_date).to.equal(INVOICE_EXPECTED.invoiceDateIso);
    expect(values.total).to.equal(String(INVOICE_EXPECTED.total));
    expect(await page.textContent('table.list[data-pointer="/line_items"] td[data-pointer="/line_items/0/description"] .value')).to.equal(INVOICE_EXPECTED.lineItems[0].description);
    expect(await page.textContent('#engine')).to.equal('rules');
    const stages = await page.$$eval('#timings tr', (rows) => rows.map((row) => row.children[0]!.textContent));
    expect(stages).to.deep.equal(['decode', 'ocr', 'extract', 'validate', 'total']);
    expect(await page.isHidden('#error')).to.equal(true);

    // Both files went in one multipart request, as they are, and the page asked for the evidence the service offers.
    const posted = proxy.passed.slice(sentBefore).filter((passed) => passed.method === 'POST');
    expect(posted.map((passed) => passed.path)).to.deep.equal(['/v1/']);
    expect(posted[0]!.headers['content-type']).to.match(/^multipart\/form-data; boundary=/);
    const sent = await partsOf(posted[0]!);
    expect([...sent.keys()]).to.deep.equal(['schema', 'options', 'file', 'file']);
    const files = sent.getAll('file') as File[];
    expect(files.map((file) => [file.name, file.type])).to.deep.equal([
      ['invoice.pdf', 'application/pdf'],
      ['receipt.png', 'image/png'],
    ]);
    expect(JSON.parse(String(sent.get('options'))).evidence).to.equal(true);
    expect(Buffer.from(await files[1]!.arrayBuffer()).equals(receiptPng)).to.equal(true);

    await page.screenshot({ path: `${OUTPUT}extraction.png`, fullPage: true });
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('reads the dropped image with the receipt preset', async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${server.url}/`);
    await page.fill('#api-key', TEST_API_KEY);
    await dropFiles(page, [{ name: 'receipt.png', type: 'image/png', base64: receiptPng.toString('base64') }]);
    await page.selectOption('#preset', 'receipt');
    await page.click('#run');
    await page.waitForSelector('#fields:not([hidden]) tr[data-pointer]', { timeout: 120_000 });
    const values = await shownValues(page);
    expect(values.store_name).to.equal(RECEIPT_EXPECTED.store);
    expect(values.date).to.equal(RECEIPT_EXPECTED.date);
    expect(values.total).to.equal(String(Number(RECEIPT_EXPECTED.total)));
    await page.close();
  });

  it('takes a dropped e-invoice XML, says it has no page to show, and shows the values the service read from it', async () => {
    const page = await browser!.context.newPage();
    const problems = watchProblems(page);
    const invoice = sampleInvoice();
    await page.goto(`${server.url}/`);
    await page.fill('#api-key', TEST_API_KEY);
    // A browser names an .xml file text/xml; the page sends what it was given and the service takes both names.
    await dropFiles(page, [{ name: 'xrechnung.xml', type: 'text/xml', base64: Buffer.from(ciiXml(invoice)).toString('base64') }]);
    expect(await page.$$eval('#file-list li', (items) => items.length)).to.equal(1);
    await page.waitForFunction(() => /no page to show/.test(document.getElementById('pages')?.textContent ?? ''));
    await page.selectOption('#preset', 'invoice');
    await page.click('#run');
    await page.waitForSelector('#fields:not([hidden]) tr[data-pointer]', { timeout: 120_000 });
    const values = await shownValues(page);
    expect(values.invoice_number).to.equal(invoice.number);
    expect(values.invoice_date).to.equal(invoice.issueDate);
    expect(values.seller).to.equal(invoice.seller.name);
    expect(values.currency).to.equal(invoice.currency);
    expect(await page.isHidden('#error')).to.equal(true);
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('shows the service\'s own error message, and checks the schema as it is typed', async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${server.url}/`);
    await page.fill('#api-key', 'not-the-key');
    await dropFiles(page, [{ name: 'invoice.pdf', type: 'application/pdf', base64: invoicePdf.toString('base64') }]);

    await page.fill('#schema', '{"type": "object", "properties": {');
    expect(await page.getAttribute('#schema-status', 'class')).to.equal('bad');
    expect(await page.isDisabled('#run')).to.equal(true);
    expect(await page.textContent('#run-status')).to.contain('fix the schema');
    await page.fill('#schema', '{"type": "object", "properties": {"total": {"type": "number"}}}');
    expect(await page.textContent('#schema-status')).to.equal('valid JSON');
    expect(await page.inputValue('#preset')).to.equal('custom');

    await page.click('#run');
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.textContent('#error')).to.equal('401: Unauthorized');
    await page.close();
  });

  it('asks the service for evidence, shows each value\'s confidence, and outlines the hovered value where the service says it was read', async () => {
    const page = await browser!.context.newPage();
    const problems = watchProblems(page);
    // Where the invoice number really is on the page, from the same pdf.js text layer the service reads.
    const printed = await printedBox(services, invoicePdf, INVOICE_EXPECTED.invoiceNumber);

    const sentBefore = proxy.passed.length;
    const answered = nextAnswer<{ data: Record<string, unknown>; evidence: Record<string, { bbox?: number[]; confidence: number }> }>(page);
    await withInvoice(page, proxy.url, invoicePdf);
    // Options the service describes become controls; evidence is asked for by the page itself.
    await page.selectOption('#options select[name="dateOrder"]', { label: 'dmy' });
    expect(await page.$$('#options input[name="evidence"]')).to.have.length(0);
    await page.click('#run');
    await page.waitForSelector('#fields:not([hidden]) tr[data-pointer="/invoice_number"]', { timeout: 120_000 });
    await page.waitForFunction(() => document.querySelectorAll('#fields th').length === 3);
    const answer = answered();
    const [posted] = proxy.passed.slice(sentBefore).filter((passed) => passed.method === 'POST');
    expect(JSON.parse(String((await partsOf(posted!)).get('options')))).to.deep.equal({ dateOrder: 'dmy', evidence: true });
    expect(answer?.data.invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);

    // Every value shows the confidence the service gave it, beside it or in its list's cell; values under 0.9 are marked for review.
    const rows = await page.$$eval('#fields tr[data-pointer], table.list td[data-pointer]', (elements) =>
      elements.map((element) => ({ pointer: element.dataset.pointer!, shown: (element.tagName === 'TR' ? element.children[2] : element.querySelector('.confidence'))?.textContent ?? '', review: element.classList.contains('review') })),
    );
    const withEvidence = rows.filter((row) => answer!.evidence[row.pointer]);
    expect(withEvidence.map((row) => row.pointer)).to.have.members(Object.keys(answer!.evidence));
    for (const row of withEvidence) {
      const given = answer!.evidence[row.pointer]!;
      expect(row.shown, row.pointer).to.match(new RegExp(`^${Math.round(given.confidence * 100)}%`));
      expect(row.review, row.pointer).to.equal(given.confidence < 0.9);
    }

    await page.hover('#fields tr[data-pointer="/invoice_number"]');
    const drawn = await drawnBoxes(page);
    expect(drawn).to.have.length(1);
    const tolerance = 0.01;
    expect(drawn[0]!.low).to.equal(answer!.evidence['/invoice_number']!.confidence < 0.9);
    // drawn where the service says, and that is where the invoice number is printed
    [drawn[0]!.x0, drawn[0]!.y0, drawn[0]!.x1, drawn[0]!.y1].forEach((value, i) => {
      expect(value).to.be.closeTo(answer!.evidence['/invoice_number']!.bbox![i]!, tolerance);
      expect(value).to.be.closeTo(printed[i]!, tolerance);
    });
    // the full-page screenshot resizes the view under the mouse: show the box by keyboard focus instead
    await page.mouse.move(0, 0);
    await page.focus('#fields tr[data-pointer="/invoice_number"]');
    expect(await page.$$('.sheet .box')).to.have.length(1);
    await page.screenshot({ path: `${OUTPUT}evidence.png`, fullPage: true });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    const review = withEvidence.find((row) => row.review);
    if (review) {
      await page.hover(`[data-pointer="${review.pointer}"]`);
      expect(await page.$$eval('.sheet .box', (boxes) => boxes.map((box) => box.className))).to.include('box low');
    }
    await page.hover('h1');
    expect(await page.$$('.sheet .box')).to.have.length(0);
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('shows a list of objects as a table: a row per item, a column per property, each cell\'s confidence, its box on hover and kept on click', async () => {
    const page = await browser!.context.newPage();
    const problems = watchProblems(page);
    const answered = nextAnswer<{ data: { line_items: Array<Record<string, unknown>> }; evidence: Record<string, { bbox?: number[]; confidence: number }> }>(page);
    await withInvoice(page, server.url, invoicePdf);
    await page.click('#run');
    const table = 'table.list[data-pointer="/line_items"]';
    await page.waitForSelector(`${table} tbody tr`, { timeout: 120_000 });
    const answer = answered();
    const items = answer!.data.line_items;
    expect(items).to.have.length(INVOICE_EXPECTED.lineItems.length);

    // a column per property of the items, a row per item, each cell the item's value
    expect(await page.$$eval(`${table} thead th`, (cells) => cells.map((cell) => cell.textContent))).to.deep.equal(['#', 'description', 'quantity', 'unit_price', 'amount']);
    const cells = await page.$$eval(`${table} tbody tr`, (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => ({ pointer: td.dataset.pointer!, value: td.querySelector('.value')!.textContent, confidence: td.querySelector('.confidence')?.textContent ?? null, review: td.classList.contains('review') }))));
    expect(cells).to.have.length(items.length);
    cells.forEach((row, i) => {
      expect(row.map((cell) => cell.pointer)).to.deep.equal(['description', 'quantity', 'unit_price', 'amount'].map((key) => `/line_items/${i}/${key}`));
      row.forEach((cell) => {
        const key = cell.pointer.split('/').pop()!;
        expect(cell.value, cell.pointer).to.equal(String(items[i]![key]));
        const given = answer!.evidence[cell.pointer]!;
        expect(cell.confidence, cell.pointer).to.match(new RegExp(`^${Math.round(given.confidence * 100)}%`));
        expect(cell.review, cell.pointer).to.equal(given.confidence < 0.9);
      });
    });
    expect(cells.map((row) => row[0]!.value)).to.deep.equal(INVOICE_EXPECTED.lineItems.map((item) => item.description));
    // the list is in the table, not also in the values above it
    expect(await page.$$('#fields tr[data-pointer^="/line_items"]')).to.have.length(0);

    // hovering a cell outlines its value where the service says it was read, which is where the page prints it
    const pointer = '/line_items/1/quantity';
    const printed = await printedBox(services, invoicePdf, String(INVOICE_EXPECTED.lineItems[1].quantity));
    await page.hover(`${table} td[data-pointer="${pointer}"]`);
    const drawn = await drawnBoxes(page);
    expect(drawn).to.have.length(1);
    [drawn[0]!.x0, drawn[0]!.y0, drawn[0]!.x1, drawn[0]!.y1].forEach((value, i) => {
      expect(value).to.be.closeTo(answer!.evidence[pointer]!.bbox![i]!, 0.01);
      expect(value).to.be.closeTo(printed[i]!, 0.01);
    });
    await page.hover('h1');
    expect(await page.$$('.sheet .box')).to.have.length(0);
    // a click keeps it while the mouse is elsewhere; a second click lets it go
    await page.click(`${table} td[data-pointer="${pointer}"]`);
    await page.hover('h1');
    expect(await drawnBoxes(page)).to.deep.equal(drawn);
    expect(await page.getAttribute(`${table} td[data-pointer="${pointer}"]`, 'class')).to.contain('pinned');
    await page.screenshot({ path: `${OUTPUT}list.png`, fullPage: true });
    await page.click(`${table} td[data-pointer="${pointer}"]`);
    await page.hover('h1');
    expect(await page.$$('.sheet .box')).to.have.length(0);
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('asks a service that does not offer evidence for none, and shows no confidence column', async () => {
    const page = await browser!.context.newPage();
    const problems = watchProblems(page);
    // an older service: its description has no options.evidence
    await page.route('**/openapi.json', async (route) => {
      const spec = await (await route.fetch()).json();
      delete spec.components.schemas.ExtractionRequest.properties.options.properties.evidence;
      await route.fulfill({ json: spec });
    });
    const sentBefore = proxy.passed.length;
    await page.goto(`${proxy.url}/`);
    await page.fill('#api-key', TEST_API_KEY);
    await dropFiles(page, [{ name: 'invoice.pdf', type: 'application/pdf', base64: invoicePdf.toString('base64') }]);
    await page.selectOption('#preset', 'invoice');
    await page.click('#run');
    await page.waitForSelector('#fields:not([hidden]) tr[data-pointer="/invoice_number"]', { timeout: 120_000 });
    const [posted] = proxy.passed.slice(sentBefore).filter((passed) => passed.method === 'POST');
    const options = (await partsOf(posted!)).get('options');
    expect(options === null ? undefined : JSON.parse(String(options)).evidence).to.equal(undefined);
    expect(await page.$$eval('#fields th', (cells) => cells.map((cell) => cell.textContent))).to.deep.equal(['field', 'value']);
    expect(problems).to.deep.equal([]);
    await page.close();
  });
});
