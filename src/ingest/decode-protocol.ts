/** What decode-off-thread.ts and its worker (decode-worker.ts) send each other; kept apart so neither imports the other. */
import type { ContentItem, DecodedFile } from './decode.js';

export interface DecodeJob {
  contents: ContentItem[];
  maxFiles: number;
  maxXmlBytes?: number;
}

export type DecodeOutcome = { ok: true; files: DecodedFile[] } | { ok: false; badRequest: string } | { ok: false; fault: string };
