/**
 * message/rfc822 (.eml): a page of the message (From, To, Cc, Date and
 * Subject, each a labelled line whose place is its header; then the text
 * body, or the HTML body read as HTML when there is no text one; then a line
 * per attachment), and the attachments' bytes, which ingest reads each by its
 * own type through the registry (a PDF, an image, an Office file, an
 * e-invoice XML, a forwarded e-mail, read again here). postal-mime (pure JS,
 * no dependencies, by the author of Nodemailer) parses the message in one
 * pass; every message/rfc822 part is kept as an attachment so that the
 * nesting is counted here, and MIME parts nested past MAX_EMAIL_DEPTH or more
 * than MAX_EMAIL_PARTS attachments are a 400.
 */
import PostalMime, { type Address } from 'postal-mime';
import type { Page } from '../../document/document.js';
import { writeHtml } from './html.js';
import { PageBuilder, type WordAllowance } from './page-builder.js';
import { FormatProblem } from './problem.js';
import { linesOf } from './text-decoding.js';

export interface EmailAttachment {
  filename: string;
  /** As the message declares it (lower case, no parameters); the registry checks it against the bytes. */
  mimeType: string;
  bytes: Uint8Array;
}

export interface EmailReading {
  pages: Page[];
  attachments: EmailAttachment[];
}

export interface EmailLimits {
  maxParts: number;
  maxDepth: number;
}

function addresses(list: Address | Address[] | undefined): string {
  const all = list === undefined ? [] : Array.isArray(list) ? list : [list];
  return all
    .flatMap((address) => (address.group ? address.group : [address]))
    .map((mailbox) => (mailbox.name ? `${mailbox.name} <${mailbox.address}>` : mailbox.address ?? ''))
    .filter((text) => text !== '')
    .join(', ');
}

export async function readEmail(bytes: Uint8Array, limits: EmailLimits, allowance: WordAllowance): Promise<EmailReading> {
  let email;
  try {
    email = await PostalMime.parse(bytes, { forceRfc822Attachments: true, attachmentEncoding: 'arraybuffer', maxNestingDepth: limits.maxDepth });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/nesting depth/i.test(message)) throw new FormatProblem(`its MIME parts nest more than ${limits.maxDepth} deep; the limit is MAX_EMAIL_DEPTH`);
    throw new FormatProblem(`it is not a readable e-mail (${message.slice(0, 160)})`);
  }
  if (email.attachments.length > limits.maxParts) {
    throw new FormatProblem(`it has ${email.attachments.length} attachments; the limit is ${limits.maxParts} parts (MAX_EMAIL_PARTS)`);
  }
  const builder = new PageBuilder(allowance);
  const headers: Array<[string, string, string | undefined]> = [
    ['From', 'from', addresses(email.from)],
    ['To', 'to', addresses(email.to)],
    ['Cc', 'cc', addresses(email.cc)],
    ['Date', 'date', email.date],
    ['Subject', 'subject', email.subject],
  ];
  for (const [label, name, value] of headers) if (value) builder.labelled(label, value, { kind: 'header', name });
  builder.gap();
  if (email.text?.trim()) {
    let line = 0;
    for (const text of linesOf(email.text)) {
      line++;
      if (text.trim() === '') builder.gap();
      else builder.text(text, { kind: 'line', line });
    }
  } else if (email.html) writeHtml(email.html, builder);
  builder.gap();
  const attachments = email.attachments.map((attachment, i): EmailAttachment => ({
    filename: attachment.filename?.trim() || `attachment-${i + 1}${attachment.mimeType === 'message/rfc822' ? '.eml' : ''}`,
    mimeType: attachment.mimeType,
    bytes: attachment.content instanceof ArrayBuffer ? new Uint8Array(attachment.content) : typeof attachment.content === 'string' ? Buffer.from(attachment.content) : attachment.content,
  }));
  for (const attachment of attachments) builder.labelled('Attachment', `${attachment.filename} (${attachment.mimeType})`, { kind: 'header', name: 'attachment' });
  return { pages: [builder.build(0)], attachments };
}
