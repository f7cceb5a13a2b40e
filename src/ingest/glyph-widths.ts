/**
 * How wide a run of text is in each of its characters, so that a pdf.js
 * text run ("Invoice no. INV-2024-0042", one position and one width for the
 * whole run) can be cut into words at the right places. Glyphs differ a lot
 * ("i" is a quarter of "W" in Helvetica), so giving every character the same
 * share of the run puts word edges off by up to a character.
 *
 * The advances come from the fonts pdfjs-dist ships for the standard PDF
 * fonts, which are metric-compatible with them: Liberation Sans
 * (Helvetica/Arial), Foxit Serif (Times) and Foxit Fixed (Courier). pdf.js
 * reports a run's font only as a generic family; of that family's shipped
 * faces (regular, bold, italic) the one whose width comes closest to the
 * run's is used, and its widths are scaled to the run's real width, so a
 * font that is only similar (condensed, embedded) still places each word
 * well within the run. Measured once per character and face with
 * @napi-rs/canvas (already pdf.js's canvas in Node).
 *
 * Measured on generated PDFs (test/ingest/pdf-word-boxes.test.ts's fixture,
 * 11 pt, word edges against pdfkit's own placement): the mean error of a word
 * edge fell from 4.6-5.4 pt by character count to 0.3-0.7 pt (Courier: 0
 * either way).
 */
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';

/**
 * Where each character of a run starts, as a share of the run's width:
 * offsets[i] for UTF-16 index i, offsets[text.length] = 1. `family` is the
 * generic family pdf.js reports, `runEms` the run's width in ems (its width
 * over its font size), which picks the weight and slant that fit it.
 */
export type RunOffsets = (text: string, family: string | undefined, runEms: number) => Float64Array;

/** Every character the same share of the run: how runs are split when no font can be measured. */
export const sameSharePerCharacter: RunOffsets = (text) => {
  const offsets = new Float64Array(text.length + 1);
  const count = [...text].length;
  let position = 0;
  let index = 0;
  for (const character of text) {
    offsets[position] = index / count;
    if (character.length === 2) offsets[position + 1] = index / count;
    position += character.length;
    index++;
  }
  offsets[text.length] = 1;
  return offsets;
};

/** The shipped faces for each generic family; a run is measured with the one whose width comes closest to its own. */
const FACES = {
  sans: ['LiberationSans-Regular.ttf', 'LiberationSans-Bold.ttf'],
  serif: ['FoxitSerif.pfb', 'FoxitSerifBold.pfb', 'FoxitSerifItalic.pfb', 'FoxitSerifBoldItalic.pfb'],
  fixed: ['FoxitFixed.pfb'],
} as const;
type Family = keyof typeof FACES;

/** Measured at this size in pixels, then divided back to ems. */
const MEASURE_SIZE = 100;
/** A character the font cannot measure (no glyph, zero width) counts as a typical Latin letter. */
const TYPICAL_ADVANCE = 0.5;

function familyOf(name: string | undefined): Family {
  const lower = (name ?? '').toLowerCase();
  if (lower.includes('mono') || lower.includes('courier') || lower.includes('fixed')) return 'fixed';
  if ((lower.includes('serif') && !lower.includes('sans')) || lower.includes('times')) return 'serif';
  return 'sans';
}

/**
 * RunOffsets measuring with the shipped fonts, or undefined when they cannot
 * be loaded (runs are then split by character count).
 */
export function measuredRunOffsets(): RunOffsets | undefined {
  let context: SKRSContext2D;
  try {
    const require = createRequire(import.meta.url);
    for (const file of Object.values(FACES).flat()) {
      if (!GlobalFonts.registerFromPath(require.resolve(`pdfjs-dist/standard_fonts/${file}`), faceName(file))) return undefined;
    }
    context = createCanvas(1, 1).getContext('2d');
  } catch {
    return undefined;
  }
  const measure = (face: string, character: string): number => {
    context.font = `${MEASURE_SIZE}px ${face}`;
    const measured = context.measureText(character).width / MEASURE_SIZE;
    return Number.isFinite(measured) && measured > 0 ? measured : TYPICAL_ADVANCE;
  };
  // one table per face: a slot per UTF-16 code unit (NaN until measured), a map for the rest
  const tables = new Map<string, { basic: Float64Array; astral: Map<string, number> }>();
  const advancesOf = (face: string) => {
    let table = tables.get(face);
    if (!table) tables.set(face, (table = { basic: new Float64Array(0x10000).fill(NaN), astral: new Map() }));
    const { basic, astral } = table;
    return (character: string): number => {
      if (character.length === 1) {
        const code = character.charCodeAt(0);
        let advance = basic[code]!;
        if (Number.isNaN(advance)) basic[code] = advance = measure(face, character);
        return advance;
      }
      let advance = astral.get(character);
      if (advance === undefined) astral.set(character, (advance = measure(face, character)));
      return advance;
    };
  };
  return (text, family, runEms) => {
    let best: Float64Array | undefined;
    let bestMisfit = Infinity;
    for (const file of FACES[familyOf(family)]) {
      const widths = cumulativeWidths(text, advancesOf(faceName(file)));
      const misfit = Math.abs(widths[text.length]! - runEms);
      if (misfit < bestMisfit) {
        best = widths;
        bestMisfit = misfit;
      }
    }
    const total = best![text.length]!;
    if (!(total > 0)) return sameSharePerCharacter(text, family, runEms);
    return best!.map((width) => width / total);
  };
}

function faceName(file: string): string {
  return `docshape-metrics-${file.replace(/\.\w+$/, '')}`;
}

/**
 * Width of the text before each UTF-16 index, in ems. Kerning is left out:
 * a PDF run's glyphs are placed by their advances plus the run's own
 * adjustments, and scaling to the run's width spreads those out.
 */
function cumulativeWidths(text: string, advance: (character: string) => number): Float64Array {
  const widths = new Float64Array(text.length + 1);
  let at = 0;
  let position = 0;
  for (const character of text) {
    widths[position] = at;
    if (character.length === 2) widths[position + 1] = at;
    at += advance(character);
    position += character.length;
  }
  widths[text.length] = at;
  return widths;
}
