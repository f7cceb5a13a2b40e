/** What formats-thread.ts and its worker (formats-worker.ts) send each other. */
import type { PackedPage } from './document-pack.js';
import type { FormatLimits } from './formats/read.js';

export interface FormatTask {
  mimeType: string;
  bytes: Uint8Array;
  limits: FormatLimits;
}

export interface PackedAttachment {
  filename: string;
  mimeType: string;
  bytes: Uint8Array;
}

export type FormatOutcome =
  | { ok: true; pages: PackedPage[]; attachments: PackedAttachment[] }
  /** The caller's file is the problem: a 400 with this message (said of the file). */
  | { ok: false; problem: string; tooManyWords?: number }
  /** Anything else: a 500. */
  | { ok: false; fault: string };
