/** One file of a type the formats thread reads, by its media type, to pages (and an e-mail's attachments). */
import type { Page } from '../../document/document.js';
import { readCsv } from './csv.js';
import { readEmail, type EmailAttachment, type EmailLimits } from './email.js';
import { readHtml } from './html.js';
import { readDocx, readOdt, readPptx } from './office.js';
import { readOds } from './ods.js';
import { WordAllowance } from './page-builder.js';
import { FormatProblem } from './problem.js';
import { readJson, readXml } from './structured.js';
import { readText } from './text.js';
import { readXlsx } from './xlsx.js';

export interface FormatLimits {
  /** Words the file may still add to the request (MAX_WORDS less what the request has read). */
  maxWords: number;
  /** What a ZIP archive may inflate to in all (MAX_INFLATE_MB). */
  maxInflateBytes: number;
  email: EmailLimits;
}

export interface FormatReading {
  pages: Page[];
  /** An e-mail's attachments, for ingest to read by their own types. */
  attachments?: EmailAttachment[];
}

const OOXML = 'application/vnd.openxmlformats-officedocument';

export async function readFormat(mimeType: string, bytes: Uint8Array, limits: FormatLimits): Promise<FormatReading> {
  const allowance = new WordAllowance(limits.maxWords);
  const inflate = limits.maxInflateBytes;
  switch (mimeType) {
    case `${OOXML}.wordprocessingml.document`:
      return { pages: readDocx(bytes, inflate, allowance) };
    case `${OOXML}.spreadsheetml.sheet`:
      return { pages: readXlsx(bytes, inflate, allowance) };
    case `${OOXML}.presentationml.presentation`:
      return { pages: readPptx(bytes, inflate, allowance) };
    case 'application/vnd.oasis.opendocument.text':
      return { pages: readOdt(bytes, inflate, allowance) };
    case 'application/vnd.oasis.opendocument.spreadsheet':
      return { pages: readOds(bytes, inflate, allowance) };
    case 'text/csv':
      return { pages: readCsv(bytes, false, allowance) };
    case 'text/tab-separated-values':
      return { pages: readCsv(bytes, true, allowance) };
    case 'text/html':
      return { pages: readHtml(bytes, allowance) };
    case 'text/plain':
      return { pages: readText(bytes, false, allowance) };
    case 'text/markdown':
      return { pages: readText(bytes, true, allowance) };
    case 'application/json':
      return { pages: readJson(bytes, allowance) };
    case 'application/xml':
      return { pages: readXml(bytes, allowance) };
    case 'message/rfc822':
      return readEmail(bytes, limits.email, allowance);
    default:
      throw new FormatProblem(`it is ${mimeType}, which the formats reader does not read`);
  }
}
