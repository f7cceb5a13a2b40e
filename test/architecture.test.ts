import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderCycles, importCycles, layerOf, layerViolations, readImportGraph } from '../scripts/import-graph.js';

// dist/test/ -> the repository's src/ (the TypeScript sources, type-only imports included)
const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

describe('architecture: the import graph of src/', () => {
  const graph = readImportGraph(srcDir);

  it('reads the sources', () => {
    expect(graph.size).to.be.greaterThan(50);
    expect(graph.get('pipeline.ts')).to.include('schema/finalize.ts');
  });

  it('has no import that runs back up the layers (see ARCHITECTURE.md)', () => {
    expect(layerViolations(graph)).to.deep.equal([]);
  });

  it('has no import circles, type-only imports included', () => {
    expect(importCycles(graph)).to.deep.equal([]);
  });

  it('the layer table of ARCHITECTURE.md names every folder of src/', () => {
    const architecture = readFileSync(resolve(srcDir, '../ARCHITECTURE.md'), 'utf8');
    const table = architecture.slice(architecture.indexOf('## Layers'), architecture.indexOf('## Where to add'));
    const rows = table.split('\n').filter((line) => line.startsWith('| `')).map((line) => line.split('|')[1]!);
    const folders = new Set([...graph.keys()].map(layerOf).filter((layer) => layer !== 'base' && !layer.includes('.') && !['pipeline', 'app', 'cli'].includes(layer)));
    for (const folder of folders) expect(rows.some((row) => row.includes(`\`${folder}/\``)), folder).to.equal(true);
    expect(folders).to.include('jobs');
  });

  it('has no circles between folders: a folder that imports another is not imported back by it', () => {
    expect(folderCycles(graph)).to.deep.equal([]);
  });

  it('finds a circle and an upward import when there is one', () => {
    const bad = new Map([
      ['schema/a.ts', ['schema/b.ts']],
      ['schema/b.ts', ['schema/a.ts', 'engines/llm/prompt.ts']],
      ['engines/llm/prompt.ts', []],
    ]);
    expect(importCycles(bad)).to.deep.equal([['schema/a.ts', 'schema/b.ts']]);
    expect(layerViolations(bad)).to.deep.equal(['schema/b.ts -> engines/llm/prompt.ts (schema -> engines/llm)']);
    // files that do not import each other, in folders that do
    const crossing = new Map([
      ['ingest/read.ts', ['ingest/ocr/engine.ts']],
      ['ingest/ocr/engine.ts', ['ingest/model.ts']],
      ['ingest/model.ts', []],
    ]);
    expect(importCycles(crossing)).to.deep.equal([]);
    expect(folderCycles(crossing)).to.deep.equal([['ingest/', 'ingest/ocr/']]);
  });
});
