/**
 * The import graph of src/, type-only imports included, and the layering it
 * must follow (ARCHITECTURE.md): which folder may import which, and no
 * circles. test/architecture.test.ts enforces both; run this script
 * (`npm run imports`) to print the graph by folder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Layers, lowest first; a module may import its own layer and the ones listed for it. A layer is a folder. */
const LAYERS: Record<string, string[]> = {
  base: [],
  // the page model every ingest stage shares, then OCR (its interface, then the engines), which reads pages into it,
  // then the rest of ingest, which chooses the OCR engine (ocr-choice.ts)
  document: ['base'],
  'ingest/ocr': ['document', 'base'],
  'ingest/ocr/paddle': ['ingest/ocr', 'document', 'base'],
  'ingest/ocr/tesseract': ['ingest/ocr', 'document', 'base'],
  // e-invoice XML: parsing and business terms, read into the page model; ingest finds it in PDFs and hands it over
  'ingest/einvoice': ['document', 'base'],
  // one reader per input type without printed pages, and the registry of every type; reuses the e-invoice XML sniff
  'ingest/formats': ['ingest/einvoice', 'document', 'base'],
  ingest: ['ingest/formats', 'ingest/einvoice', 'ingest/ocr/paddle', 'ingest/ocr/tesseract', 'ingest/ocr', 'document', 'base'],
  schema: ['ingest', 'ingest/ocr', 'document', 'base'],
  // what each language prints and how callers name fields, as data: imports nothing
  'meaning/languages': [],
  // what each schema property asks for, decided once for every engine and evidence
  meaning: ['meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  evidence: ['meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  'engines/rules/core': ['meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  'engines/rules/receipts': ['engines/rules/core', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  'engines/rules/prose': ['engines/rules/core', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  'engines/rules/tables': ['engines/rules/core', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  'engines/rules': ['engines/rules/core', 'engines/rules/receipts', 'engines/rules/prose', 'engines/rules/tables', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  'engines/llm/backends': ['schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  'engines/llm': ['engines/llm/backends', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  engines: ['engines/llm', 'engines/llm/backends', 'engines/rules', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  pipeline: ['engines', 'evidence', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  metrics: ['pipeline', 'evidence', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  // asynchronous jobs: they run the pipeline; the HTTP routes above them call them, nothing below knows them
  jobs: ['pipeline', 'evidence', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  http: ['jobs', 'metrics', 'pipeline', 'evidence', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  app: ['http', 'jobs', 'metrics', 'pipeline', 'engines', 'evidence', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
  cli: ['pipeline', 'evidence', 'meaning', 'meaning/languages', 'schema', 'ingest', 'ingest/ocr', 'document', 'base'],
};

/** Files at the top of src/ belong to the layer named here. */
const ROOT_FILES: Record<string, string> = {
  'errors.ts': 'base',
  'logger.ts': 'base',
  'config.ts': 'base',
  'pipeline.ts': 'pipeline',
  'services.ts': 'pipeline',
  'app.ts': 'app',
  'main.ts': 'app',
  'cli.ts': 'cli',
};

/** Paths relative to src/, e.g. "engines/llm/prompt.ts", mapped to the src/ files they import. */
export type ImportGraph = Map<string, string[]>;

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listTs(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import (static, type-only, re-export or dynamic) of every src/ module. */
export function readImportGraph(srcDir: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const path of listTs(srcDir).sort()) {
    const file = relative(srcDir, path);
    const info = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => normalize(join(dirname(file), name)).replace(/\.js$/, '.ts'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Folders that count as base: helpers and worker-thread pools that know nothing of the service. */
const BASE_FOLDERS = new Set(['util', 'threads']);

/** The layer of a module: its folder under src/ (util and threads count as base), or ROOT_FILES for top-level files. */
export function layerOf(file: string): string {
  const folder = dirname(file);
  if (folder === '.') return ROOT_FILES[file] ?? `unknown top-level file ${file}`;
  if (BASE_FOLDERS.has(folder)) return 'base';
  return folder;
}

/** Imports that run against the layering, as "from -> to (layer -> layer)". */
export function layerViolations(graph: ImportGraph): string[] {
  const problems: string[] = [];
  for (const [from, targets] of graph) {
    const fromLayer = layerOf(from);
    const allowed = LAYERS[fromLayer];
    if (!allowed) {
      problems.push(`${from}: folder ${fromLayer} has no layer in scripts/import-graph.ts`);
      continue;
    }
    for (const to of targets) {
      const toLayer = layerOf(to);
      if (toLayer !== fromLayer && !allowed.includes(toLayer)) problems.push(`${from} -> ${to} (${fromLayer} -> ${toLayer})`);
    }
  }
  return problems;
}

/** Import circles (strongly connected groups of two or more modules, or a module importing itself). */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative over an explicit stack of frames.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const frames: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const targets = (graph.get(frame.node) ?? []).filter((target) => graph.has(target));
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.node);
      if (group.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) cycles.push(group.sort());
    }
  }
  return cycles;
}

/** Folder-level edges with the number of imports behind each, e.g. "engines/llm -> schema (15)". */
export function folderEdges(graph: ImportGraph): string[] {
  const counts = new Map<string, number>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const key = `${folderName(from)} -> ${folderName(to)}`;
      if (folderName(from) !== folderName(to)) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([edge, count]) => `${edge} (${count})`);
}

/** Circles between folders (a top-level file counts as its own folder): a folder that imports another may not be imported back by it. */
export function folderCycles(graph: ImportGraph): string[][] {
  const folders: ImportGraph = new Map();
  for (const [from, targets] of graph) {
    const edges = folders.get(folderName(from)) ?? [];
    for (const to of targets) if (folderName(to) !== folderName(from)) edges.push(folderName(to));
    folders.set(folderName(from), [...new Set(edges)]);
  }
  return importCycles(folders);
}

function folderName(file: string): string {
  const folder = dirname(file);
  return folder === '.' ? file : `${folder}/`;
}

function main(): number {
  const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
  const graph = readImportGraph(srcDir);
  process.stdout.write(`${folderEdges(graph).join('\n')}\n`);
  const problems = [
    ...layerViolations(graph),
    ...importCycles(graph).map((cycle) => `circle: ${cycle.join(' <-> ')}`),
    ...folderCycles(graph).map((cycle) => `folder circle: ${cycle.join(' <-> ')}`),
  ];
  if (problems.length > 0) process.stderr.write(`\n${problems.join('\n')}\n`);
  return problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(main());
