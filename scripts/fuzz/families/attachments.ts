/**
 * PDFs that carry an e-invoice, or claim to: the XML of the xml family
 * (bombs, external entities, broken, foreign) attached as factur-x.xml;
 * embedded files that inflate to hundreds of megabytes, hundreds of them,
 * streams that lie about their type, length or filter, a name tree that
 * loops, /AF entries pointing nowhere, an attachment that is a PDF carrying
 * an invoice. The page must still be read (200) or the PDF refused (400).
 */
import { deflateSync } from 'node:zlib';
import { entry, memo, requestCase, DOCUMENT_LINES, type Family, type FuzzCase } from '../case.js';
import { flateStream, onePagePdf, stream, textContent } from '../pdf-writer.js';
import type { Random } from '../random.js';
import { ciiXml, hybridPdf } from '../../../test/fixtures/einvoices.js';
import { eInvoiceSchema, hostileXml, markedInvoice } from './xml.js';

const FAMILY = 'attachments';
const CONTENT = () => stream('', textContent(DOCUMENT_LINES));

function attachmentCase(variant: string, pdf: Buffer, rng: Random): FuzzCase {
  const options = rng.chance(0.3) ? { options: { eInvoice: rng.pick(['auto', 'ignore']) } } : {};
  const contents = [entry(pdf, 'application/pdf', 'hybrid.pdf')];
  return { ...requestCase(FAMILY, variant, eInvoiceSchema(), contents), body: JSON.stringify({ schema: eInvoiceSchema(), contents, ...options }), allowed: [200, 400, 413] };
}

/** A one-page PDF whose catalog names `files` (object numbers from 6 on) as embedded files, in /Names and /AF. */
function rawAttachments(files: Buffer[], names = files.map((_, i) => `f${i}.xml`), catalogExtra?: string): Buffer {
  const objects: Buffer[] = [];
  const specs: string[] = [];
  files.forEach((file, i) => {
    const spec = 6 + 2 * i;
    objects.push(Buffer.from(`<< /Type /Filespec /F (${names[i]}) /UF (${names[i]}) /AFRelationship /Alternative /EF << /F ${spec + 1} 0 R >> >>`, 'latin1'), file);
    specs.push(`(${names[i]}) ${spec} 0 R`);
  });
  const af = files.map((_, i) => `${6 + 2 * i} 0 R`).join(' ');
  return onePagePdf({ content: CONTENT(), catalogExtra: catalogExtra ?? `/Names << /EmbeddedFiles << /Names [${specs.join(' ')}] >> >> /AF [${af}]`, extraObjects: objects });
}

const variants: Array<[(rng: Random) => Promise<FuzzCase> | FuzzCase, number]> = [
  [async (rng) => {
    const [xml, label] = rng.weighted(hostileXml)(rng);
    return attachmentCase(`attached: ${label}`, await hybridPdf(markedInvoice(), typeof xml === 'string' ? xml : xml, { filename: rng.pick(['factur-x.xml', 'ZUGFeRD-invoice.xml', 'xrechnung.xml', 'x.bin']), placement: rng.pick(['names', 'af'] as const) }), rng);
  }, 6],
  [(rng) => {
    const megabytes = rng.pick([30, 64]);
    // built once: deflating 300 MB holds the runner's own event loop (and its /healthz probe) for seconds
    const bomb = memo(`attachment bomb ${megabytes}`, () => flateStream('/Type /EmbeddedFile /Subtype /text#2Fxml', Buffer.alloc(megabytes * 1024 * 1024, 0x20)));
    return attachmentCase(`an embedded file inflating to ${megabytes} MB`, rawAttachments([bomb], ['factur-x.xml']), rng);
  }, 2],
  [(rng) => {
    const count = rng.pick([50, 400]);
    const small = flateStream('/Type /EmbeddedFile', `<?xml version="1.0"?><Order xmlns="urn:x"><ID>${'1'.repeat(100)}</ID></Order>`);
    return attachmentCase(`${count} attachments`, rawAttachments(Array.from({ length: count }, () => small)), rng);
  }, 1],
  [(rng) => {
    const xml = Buffer.from(ciiXml(markedInvoice()));
    const lie = rng.pick([
      () => stream('/Type /EmbeddedFile /Length 999999999', xml),
      () => Buffer.concat([Buffer.from('<< /Type /EmbeddedFile /Length 10 /Filter /FlateDecode >>\nstream\n', 'latin1'), xml, Buffer.from('\nendstream', 'latin1')]),
      () => stream('/Type /EmbeddedFile /Filter [/ASCIIHexDecode /FlateDecode /LZWDecode]', xml),
      () => stream('/Type /EmbeddedFile /Filter /JBIG2Decode', xml),
      () => stream('/Subtype /text#2Fxml', deflateSync(xml)),
      () => stream('/Type /EmbeddedFile /Filter /FlateDecode', deflateSync(xml).subarray(0, 200)),
    ])();
    return attachmentCase('an embedded stream that lies about itself', rawAttachments([lie], ['factur-x.xml']), rng);
  }, 2],
  [(rng) => {
    const loop = rng.pick([
      '/Names << /EmbeddedFiles 6 0 R >>',
      '/Names << /EmbeddedFiles << /Kids [1 0 R] >> >>',
      '/AF [99 0 R 1 0 R 2 0 R] /Names << /EmbeddedFiles << /Names [(a) 3 0 R (b) 99 0 R] >> >>',
      '/AF 5 0 R',
      '/Names << /EmbeddedFiles << /Names [(factur-x.xml)] >> >>',
    ]);
    return attachmentCase(`a catalog whose attachments loop or point nowhere: ${loop.slice(0, 40)}`, rawAttachments([flateStream('/Type /EmbeddedFile', '<r/>')], ['factur-x.xml'], loop), rng);
  }, 2],
  [async (rng) => {
    // an attachment that is itself a hybrid PDF: not the invoice; its invoice stays inside it
    const inner = await hybridPdf(markedInvoice(), ciiXml(markedInvoice()));
    return attachmentCase('an attached PDF that carries an invoice', await hybridPdf(markedInvoice(), inner, { filename: 'factur-x.xml' }), rng);
  }, 1],
];

export const attachmentsFamily: Family = {
  name: FAMILY,
  weight: 3,
  generate: (rng) => rng.weighted(variants)(rng),
};
