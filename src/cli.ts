#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { DATE_ORDERS, loadConfig, type DateOrderSetting } from './config.js';
import { isAppError } from './errors.js';
import type { ContentItem } from './ingest/decode.js';
import { silentLogger } from './logger.js';
import { runExtraction } from './pipeline.js';
import { startServices } from './services.js';

const USAGE = `Usage: docshape extract --schema <schema.json> [--layout] [--compact] [--date-order auto|dmy|mdy] [--evidence] <file>...

Runs the same pipeline as POST /v1/ on local files and prints the JSON result.
  --schema, -s   JSON Schema file (object root)
  --layout       print the layout text the engine reads instead of the result
  --compact      print the JSON on one line
  --date-order   how to read 03/04/2024 (the request option dateOrder; default DATE_ORDER)
  --evidence     print {"data": <the result>, "evidence": {...}}: where each value was
                 read and how sure docshape is (the request option evidence)
Configuration comes from the same environment variables as the server.`;

const MIME_BY_EXTENSION: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

async function readContent(path: string): Promise<ContentItem> {
  const mimeType = MIME_BY_EXTENSION[extname(path).toLowerCase()];
  if (!mimeType) throw new Error(`${path}: unsupported file type (use .pdf, .png, .jpg, .jpeg, .webp or .gif)`);
  const bytes = await readFile(path);
  return { filename: basename(path), mimeType, data: bytes.toString('base64') };
}

async function extractCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      schema: { type: 'string', short: 's' },
      layout: { type: 'boolean' },
      compact: { type: 'boolean' },
      'date-order': { type: 'string' },
      evidence: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const dateOrder = values['date-order'];
  if (dateOrder !== undefined && !(DATE_ORDERS as readonly string[]).includes(dateOrder)) {
    process.stderr.write(`--date-order must be one of ${DATE_ORDERS.join(', ')}\n`);
    return 2;
  }
  if (values.help || !values.schema || positionals.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const schema: unknown = JSON.parse(await readFile(values.schema, 'utf8'));
  const contents = await Promise.all(positionals.map(readContent));
  const config = loadConfig();
  const services = await startServices(config, silentLogger());
  try {
    const options = { ...(dateOrder === undefined ? {} : { dateOrder: dateOrder as DateOrderSetting }), ...(values.evidence ? { evidence: true } : {}) };
    const outcome = await runExtraction(services, { schema, contents, options }, AbortSignal.timeout(config.limits.requestTimeoutMs));
    // the same shape as POST /v1/ with options.evidence
    const answer = values.evidence ? { data: outcome.result, evidence: outcome.evidence?.evidence ?? {} } : outcome.result;
    const output = values.layout ? outcome.layout.text : `${JSON.stringify(answer, null, values.compact ? undefined : 2)}\n`;
    process.stdout.write(output);
    return 0;
  } finally {
    await services.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'extract') return extractCommand(rest);
  process.stderr.write(`${USAGE}\n`);
  return command === '--help' || command === '-h' ? 0 : 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = isAppError(error) ? error.message + (error.details ? `\n  ${error.details.join('\n  ')}` : '') : error instanceof Error ? error.message : String(error);
    process.stderr.write(`docshape: ${message}\n`);
    process.exit(1);
  },
);
