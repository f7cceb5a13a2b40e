/**
 * How PP-OCRv6 tiny's line readings compare with small's on the same lines,
 * to choose the default set's re-read threshold (read-page.ts REREAD_BELOW):
 * each page's lines are found once (tiny detector, as the default), read by
 * both recognisers, and for thresholds from 0.5 to 0.99 the script prints the
 * share of lines tiny would hand to small and the characters in which the
 * cascade's text then differs from small's reading alone. Pages as
 * ocr-timing takes them (images, and PDF pages without a text layer).
 *
 *   npm run build && node dist/scripts/cascade-study.js [--limit n] <dataset-dir>...
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import type { GreyRaster } from '../src/document/raster.js';
import { decodeContents } from '../src/ingest/decode.js';
import { loadImagePages } from '../src/ingest/image.js';
import { bundledModelFiles } from '../src/ingest/ocr/paddle/bundled-models.js';
import { orientedLines, recogniseLines, type LineReading } from '../src/ingest/ocr/paddle/read-page.js';
import { loadModels } from '../src/ingest/ocr/paddle/sessions.js';
import { PdfProcessor } from '../src/ingest/pdf.js';
import { levenshtein as editDistance } from '../src/engines/rules/core/fuzzy.js';

const THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.99];

interface Line {
  tiny: LineReading;
  small: string;
}

const textOf = (reading: LineReading) => reading.words.map((word) => word.text).join(' ');

async function pagesOf(path: string, pdf: PdfProcessor, config: ReturnType<typeof loadConfig>): Promise<GreyRaster[]> {
  const mimeType = extname(path).toLowerCase() === '.pdf' ? 'application/pdf' : extname(path).toLowerCase() === '.png' ? 'image/png' : 'image/jpeg';
  const [file] = decodeContents([{ filename: basename(path), mimeType, data: (await readFile(path)).toString('base64') }], config.limits);
  if (mimeType !== 'application/pdf') return loadImagePages(file!, config.limits);
  const inspection = await pdf.inspect(file!, config.limits.maxPagesPerRequest);
  const rasters: GreyRaster[] = [];
  for (const page of inspection.pages.filter((p) => p.needsOcr)) rasters.push(await pdf.render(file!, page.index));
  return rasters;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { limit: { type: 'string' } } });
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const config = loadConfig();
  const { quickRecogniser: _r, quickDictionary: _d, ...smallFiles } = bundledModelFiles('ppocrv6');
  const small = await loadModels(smallFiles, 2);
  const tiny = await loadModels(bundledModelFiles('ppocrv6-tiny'), 2);
  const pdf = new PdfProcessor({ workers: 1, maxPixelsPerPage: config.limits.maxPixelsPerImage, renderDpi: config.pdf.renderDpi, maxStreamBytes: config.pdf.maxStreamBytes });
  const options = { allowTurn: true, maxDetectorPixels: 700_000, checkpoint() {} };
  try {
    for (const dir of positionals) {
      const docs = join(resolve(dir), 'docs');
      const names = (await readdir(docs)).filter((name) => /\.(jpe?g|png|pdf)$/i.test(name)).sort();
      const lines: Line[] = [];
      for (const name of limit === undefined ? names : names.slice(0, limit)) {
        for (const raster of await pagesOf(join(docs, name), pdf, config)) {
          const found = await orientedLines(small.models, raster, options);
          const bySmall = await recogniseLines(small.models, found.raster, found.quads, options);
          const byTiny = await recogniseLines(tiny.models, found.raster, found.quads, options);
          byTiny.forEach((reading, i) => lines.push({ tiny: reading, small: textOf(bySmall[i] as LineReading) }));
        }
      }
      const chars = lines.reduce((sum, line) => sum + line.small.length, 0);
      const tinyOff = lines.reduce((sum, line) => sum + editDistance(textOf(line.tiny), line.small), 0);
      process.stdout.write(`\n== ${basename(dir)}: ${lines.length} lines, ${chars} characters; tiny alone differs from small in ${tinyOff} (${((100 * tinyOff) / chars).toFixed(2)}%)\n`);
      for (const by of ['weakest', 'confidence'] as const) {
        for (const threshold of THRESHOLDS) {
          const reread = lines.filter((line) => line.tiny[by] < threshold);
          const kept = lines.filter((line) => line.tiny[by] >= threshold);
          const off = kept.reduce((sum, line) => sum + editDistance(textOf(line.tiny), line.small), 0);
          const rereadColumns = reread.reduce((sum, line) => sum + line.small.length, 0);
          process.stdout.write(
            `${by.padEnd(10)} < ${threshold.toFixed(2)}: re-read ${((100 * reread.length) / lines.length).toFixed(1)}% of lines (${((100 * rereadColumns) / chars).toFixed(1)}% of characters), differs from small in ${off} characters (${((100 * off) / chars).toFixed(2)}%)\n`,
          );
        }
      }
    }
  } finally {
    await Promise.all([small.release(), tiny.release(), pdf.close()]);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`cascade-study failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
