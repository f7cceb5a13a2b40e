/**
 * XML read as a stream of events with saxes, on the terms of the e-invoice
 * reader (einvoice/xml.ts): a DOCTYPE is refused outright (no DTD is read, so
 * no entity of one is expanded and nothing external is fetched: how
 * billion-laughs and XXE come in; OOXML and ODF parts never have one), only
 * the predefined entities exist, and depth is bounded. Text comes in chunks,
 * so a part inflated as a stream (zip.ts) is parsed as it comes.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { FormatProblem } from './problem.js';

/** Deeper than any office document's XML (a table in a table in a frame: some 30). */
const MAX_DEPTH = 256;

export interface XmlHandlers {
  open?: (tag: SaxesTagNS) => void;
  close?: (tag: SaxesTagNS) => void;
  text?: (text: string) => void;
}

export class SafeXmlStream {
  private readonly parser = new SaxesParser({ xmlns: true, position: false });
  private depth = 0;
  private failure: FormatProblem | undefined;

  constructor(
    private readonly part: string,
    handlers: XmlHandlers,
  ) {
    const parser = this.parser;
    parser.on('doctype', () => this.fail(`its ${part} declares a DTD (<!DOCTYPE>), which docshape does not read (no entities, no external references)`));
    parser.on('opentag', (tag) => {
      if (++this.depth > MAX_DEPTH) this.fail(`its ${part} nests elements more than ${MAX_DEPTH} deep`);
      handlers.open?.(tag as SaxesTagNS);
    });
    parser.on('closetag', (tag) => {
      this.depth--;
      handlers.close?.(tag as SaxesTagNS);
    });
    if (handlers.text) {
      parser.on('text', handlers.text);
      parser.on('cdata', handlers.text);
    }
    parser.on('error', (error) => this.fail(`its ${part} is not well-formed XML (${(error.message.split('\n')[0] ?? '').slice(0, 160)})`));
  }

  private fail(message: string): never {
    this.failure ??= new FormatProblem(message);
    throw this.failure;
  }

  write(text: string): void {
    try {
      this.parser.write(text);
    } catch (error) {
      throw this.failure ?? error;
    }
  }

  close(): void {
    try {
      this.parser.close();
    } catch (error) {
      throw this.failure ?? error;
    }
  }
}

/** A tag's attribute by local name ("r:id" -> "id" with prefix "r"), whatever its prefix. */
export function attribute(tag: SaxesTagNS, local: string, prefix?: string): string | undefined {
  for (const value of Object.values(tag.attributes)) {
    if (value.local === local && (prefix === undefined || value.prefix === prefix)) return value.value;
  }
  return undefined;
}
