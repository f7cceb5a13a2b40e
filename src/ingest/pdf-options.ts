/**
 * The options pdf.js opens a document with, for reading its text and for
 * rendering a page (pdf-worker.ts; `npm run bench` reads text with the same
 * ones to compare the service with pdf.js alone).
 */
import { createRequire } from 'node:module';
import path from 'node:path';

const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** Larger embedded images are skipped rather than decoded: a guard against decompression bombs (a 600 dpi A3 scan is ~70 Mpx). */
const MAX_EMBEDDED_IMAGE_PIXELS = 100_000_000;

const RENDER_OPTIONS = {
  standardFontDataUrl: `${pdfjsDir}/standard_fonts/`,
  cMapUrl: `${pdfjsDir}/cmaps/`,
  cMapPacked: true,
  wasmUrl: `${pdfjsDir}/wasm/`,
  isEvalSupported: false,
  useSystemFonts: false,
  // Node has no FontFace API; glyphs are drawn as paths instead.
  disableFontFace: true,
  maxImageSize: MAX_EMBEDDED_IMAGE_PIXELS,
  verbosity: 0,
};

/**
 * Reading text needs no glyph outlines. A standard font the PDF does not
 * embed (Helvetica, Times, Courier and their aliases such as Arial) is read
 * with its metrics and encoding as pdf.js knows them, the way pdf.js reads a
 * font the system has, instead of loading its font program from
 * standard_fonts/ and converting it for every document: that was a third of
 * pdf.js's CPU on a one-page invoice, plus file reads on libuv's thread pool.
 * The words are the same; their boxes span the font's own ascent and descent
 * (Helvetica 0.718/-0.207 of the size, the substitute program's 0.905/-0.212
 * before; Times and Courier had no metrics and got a generic 0.8/-0.2).
 */
const TEXT_OPTIONS = { ...RENDER_OPTIONS, useSystemFonts: true };

export function pdfDocumentOptions(purpose: 'text' | 'render'): typeof RENDER_OPTIONS {
  return purpose === 'text' ? TEXT_OPTIONS : RENDER_OPTIONS;
}
