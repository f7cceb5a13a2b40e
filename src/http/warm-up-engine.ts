/**
 * The engine's half of a request warmed at start, without pdf.js: a
 * generated one-page invoice, given as the Document pdf.js would make of it,
 * read by the rules engine and finalized against the warm-up's schemas
 * (pipeline.answerFromDocument). The first PDF after a start spent ~0.3 s
 * on the event loop compiling the rules engine's code and regular
 * expressions (dates, amounts, labels) and each of the next ones several
 * milliseconds more than later ones. Unlike WARM_UP (http/warm-up.ts) it
 * starts no pdf.js thread and loads no pdf.js, so it costs a photo-only
 * service no memory (docs/deployment.md, memory).
 */
import type { Document, Line, Word } from '../document/document.js';
import { compileCallerSchemaOffThread } from '../schema/schema.js';
import { answerFromDocument, type AnswerDeps } from '../pipeline.js';
import { invoiceLines } from '../ingest/warm-up-pdf.js';
import { repeatWithin, WARM_UP_SCHEMAS } from './warm-up.js';

/** The warm-up PDF's page (A4), in points. */
const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
/** Helvetica's advance of a typical character and its ascent and descent, in ems: word boxes near pdf.js's. */
const MEAN_ADVANCE = 0.5;
const ASCENT = 0.718;
const DESCENT = 0.207;
/** No reading may take longer than this; a host that slow starts without the rest. */
const READING_TIMEOUT_MS = 10_000;

/** The warm-up PDF's lines as pdf.js reads them (ingest/warm-up-pdf.ts): words with boxes, top-left origin. */
export function warmUpInvoiceDocument(): Document {
  const lines: Line[] = invoiceLines().map(({ text, x, y, size = 10 }) => {
    const top = PAGE_HEIGHT - y - size * ASCENT;
    const bottom = PAGE_HEIGHT - y + size * DESCENT;
    let at = x;
    const words: Word[] = text.split(' ').map((word) => {
      const x0 = at;
      at += (word.length + 1) * size * MEAN_ADVANCE;
      return { text: word, bbox: { x0, y0: top, x1: x0 + word.length * size * MEAN_ADVANCE, y1: bottom }, confidence: 1, source: 'text-layer' };
    });
    return { text, words, bbox: { x0: x, y0: top, x1: words.at(-1)!.bbox.x1, y1: bottom } };
  });
  const page = { index: 0, width: PAGE_WIDTH, height: PAGE_HEIGHT, units: 'pdf-points' as const, source: 'text-layer' as const, lines };
  return { files: [{ index: 0, filename: 'warm-up.pdf', mimeType: 'application/pdf', pages: [page] }] };
}

export interface EngineWarmUpOptions {
  /** Readings, one after another, the warm-up's schemas in turn (WARM_UP_ENGINE). */
  runs: number;
  /** No reading starts later than this many milliseconds after the first one ended (a busy host). */
  budgetMs: number;
}

/** Reads the warm-up invoice `runs` times with `deps.engine` (the rules engine); resolves with the readings made, rejects on the first failure. */
export async function warmUpEngine(deps: AnswerDeps, options: EngineWarmUpOptions): Promise<number> {
  const document = warmUpInvoiceDocument();
  const schemas = await Promise.all(WARM_UP_SCHEMAS.map((schema) => compileCallerSchemaOffThread(schema)));
  let runs = 0;
  return repeatWithin(options.runs, options.budgetMs, () =>
    answerFromDocument(deps, { compiled: schemas[runs++ % schemas.length]!, files: [], options: {} }, document, AbortSignal.timeout(READING_TIMEOUT_MS)),
  );
}
