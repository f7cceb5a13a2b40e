/**
 * DOCX, PPTX and ODT: their XML parts inflated as streams from the ZIP
 * archive (zip.ts, within MAX_INFLATE_MB) straight into the safe SAX parser
 * (xml-stream.ts), and their paragraphs and tables onto pages (flow.ts).
 * A DOCX is one page: its headers, its body, its footers; a PPTX a page per
 * slide, in the order of their file names (slide1, slide2, ...); an ODT one page.
 */
import type { Page } from '../../document/document.js';
import { DOCX_NAMES, ODF_NAMES, PPTX_NAMES, flowHandlers, type FlowCounters, type FlowNames } from './flow.js';
import { PageBuilder, type WordAllowance } from './page-builder.js';
import { FormatProblem } from './problem.js';
import { InflateBudget, readZipDirectory, streamEntryText, type ZipEntry } from './zip.js';
import { SafeXmlStream, type XmlHandlers } from './xml-stream.js';

/** An Office file's ZIP archive and the budget its parts inflate against. */
export interface OfficeArchive {
  bytes: Uint8Array;
  entries: Map<string, ZipEntry>;
  budget: InflateBudget;
}

export function openArchive(bytes: Uint8Array, maxInflateBytes: number): OfficeArchive {
  const entries = readZipDirectory(bytes);
  if (!entries) throw new FormatProblem('its ZIP archive cannot be read (damaged, or ZIP64)');
  return { bytes, entries, budget: new InflateBudget(maxInflateBytes) };
}

/** Streams one XML part of the archive through the safe parser into `handlers`. */
export function parsePart(archive: OfficeArchive, name: string, handlers: XmlHandlers): void {
  const entry = archive.entries.get(name);
  if (!entry) throw new FormatProblem(`it has no ${name}`);
  const stream = new SafeXmlStream(name, handlers);
  streamEntryText(archive.bytes, entry, archive.budget, (text) => stream.write(text));
  stream.close();
}

/** Part names matching `pattern`, by the number in them: slide2 before slide10. */
export function numberedParts(archive: OfficeArchive, pattern: RegExp): string[] {
  const number = (name: string) => Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
  return [...archive.entries.keys()].filter((name) => pattern.test(name)).sort((a, b) => number(a) - number(b));
}

function readFlow(archive: OfficeArchive, parts: Array<{ name: string; place?: string }>, names: FlowNames, allowance: WordAllowance): Page {
  const builder = new PageBuilder(allowance);
  const counters: FlowCounters = { paragraphs: 0, tables: 0 };
  for (const { name, place } of parts) {
    parsePart(archive, name, flowHandlers(builder, names, counters, place));
    builder.gap();
  }
  return builder.build(0);
}

export function readDocx(bytes: Uint8Array, maxInflateBytes: number, allowance: WordAllowance): Page[] {
  const archive = openArchive(bytes, maxInflateBytes);
  const around = (kind: string) => numberedParts(archive, new RegExp(`^word/${kind}\\d*\\.xml$`)).map((name) => ({ name, place: name.slice('word/'.length) }));
  // body paragraphs are numbered apart from the headers' and footers', which name their part
  const builder = new PageBuilder(allowance);
  for (const part of around('header')) parsePart(archive, part.name, flowHandlers(builder, DOCX_NAMES, { paragraphs: 0, tables: 0 }, part.place));
  builder.gap();
  parsePart(archive, 'word/document.xml', flowHandlers(builder, DOCX_NAMES, { paragraphs: 0, tables: 0 }));
  builder.gap();
  for (const part of around('footer')) parsePart(archive, part.name, flowHandlers(builder, DOCX_NAMES, { paragraphs: 0, tables: 0 }, part.place));
  return [builder.build(0)];
}

export function readPptx(bytes: Uint8Array, maxInflateBytes: number, allowance: WordAllowance): Page[] {
  const archive = openArchive(bytes, maxInflateBytes);
  const slides = numberedParts(archive, /^ppt\/slides\/slide\d+\.xml$/);
  return slides.map((name, i) => ({ ...readFlow(archive, [{ name }], PPTX_NAMES, allowance), index: i, part: { slide: i + 1 } }));
}

export function readOdt(bytes: Uint8Array, maxInflateBytes: number, allowance: WordAllowance): Page[] {
  return [readFlow(openArchive(bytes, maxInflateBytes), [{ name: 'content.xml' }], ODF_NAMES, allowance)];
}
