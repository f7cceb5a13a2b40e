/**
 * The warm-up page each OCR worker reads once at start: the first recognition
 * initialises the LSTM, and a blank image would not exercise it. Drawn from a
 * tiny built-in glyph table so no font or file is needed.
 */
import type { GreyRaster } from '../../document/raster.js';

/** 5x7 bitmaps of the glyphs in WARM_UP_TEXT. */
const WARM_UP_GLYPHS: Record<string, string> = {
  T: '11111 00100 00100 00100 00100 00100 00100',
  O: '01110 10001 10001 10001 10001 10001 01110',
  A: '01110 10001 10001 11111 10001 10001 10001',
  L: '10000 10000 10000 10000 10000 10000 11111',
  '1': '00100 01100 00100 00100 00100 00100 01110',
  '2': '01110 10001 00001 00010 00100 01000 11111',
  '5': '11111 10000 11110 00001 00001 10001 01110',
  '0': '01110 10001 10011 10101 11001 10001 01110',
  '.': '00000 00000 00000 00000 00000 01100 01100',
  ' ': '00000 00000 00000 00000 00000 00000 00000',
};
const WARM_UP_TEXT = 'TOTAL 12.50';

/**
 * A tiny page with a line of blocky text. A blank page would not do: Tesseract
 * skips recognition when it finds no text, and the first real recognition
 * pays the set-up (about a second) instead.
 */
function warmUpRaster(): GreyRaster {
  const pixel = 5;
  const margin = 20;
  const width = WARM_UP_TEXT.length * 6 * pixel + 2 * margin;
  const height = 7 * pixel + 2 * margin;
  const data = new Uint8Array(width * height).fill(255);
  [...WARM_UP_TEXT].forEach((char, index) => {
    const rows = (WARM_UP_GLYPHS[char] ?? '').split(' ');
    rows.forEach((bits, row) => {
      [...bits].forEach((bit, column) => {
        if (bit !== '1') return;
        const left = margin + (index * 6 + column) * pixel;
        const top = margin + row * pixel;
        for (let y = top; y < top + pixel; y++) data.fill(0, y * width + left, y * width + left + pixel);
      });
    });
  });
  return { width, height, data, dpi: 300 };
}

export const WARM_UP_RASTER = warmUpRaster();
