/**
 * The Document model every engine reads: files -> pages -> lines -> words.
 * Coordinates are in the page's own units (PDF points for text-layer pages,
 * pixels of the OCR raster for OCR pages), origin top-left, y growing down.
 */
export type WordSource = 'text-layer' | 'ocr';

export interface BBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Word {
  text: string;
  bbox: BBox;
  /** 0..1; 1 for text-layer words. */
  confidence: number;
  source: WordSource;
}

export interface Line {
  text: string;
  bbox: BBox;
  words: Word[];
}

export interface Page {
  /** 0-based index within its file (frame index for GIFs). */
  index: number;
  width: number;
  height: number;
  /** Where the words came from; 'empty' when neither text layer nor OCR found any. */
  source: WordSource | 'empty';
  lines: Line[];
}

export interface DocumentFile {
  /** 0-based position in the request's `contents`. */
  index: number;
  filename: string;
  mimeType: string;
  pages: Page[];
}

export interface Document {
  files: DocumentFile[];
}

export function countPages(document: Document, source?: Page['source']): number {
  let count = 0;
  for (const file of document.files) {
    for (const page of file.pages) if (source === undefined || page.source === source) count++;
  }
  return count;
}
