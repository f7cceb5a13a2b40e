/**
 * Real generated files of every supported type, damaged: truncated at many
 * offsets, bits flipped, ranges zeroed or repeated, and declared as a type
 * they are not (magic-byte mismatches).
 */
import { basicSchema, entry, MIME_TYPES, offsetIn, requestCase, type Family, type FuzzCase } from '../case.js';
import type { Random } from '../random.js';
import type { SeedFile } from '../case.js';

const FAMILY = 'files';

type Damage = (rng: Random, bytes: Buffer) => [Buffer, string];

const damages: Array<[Damage, number]> = [
  [(rng, b) => { const at = offsetIn(rng, b.length); return [b.subarray(0, at), `truncated at ${at}/${b.length}`]; }, 5],
  [(rng, b) => {
    const out = Buffer.from(b);
    const flips = rng.pick([1, 2, 8, 64]);
    const headerOnly = rng.chance(0.4);
    for (let i = 0; i < flips; i++) {
      const at = headerOnly ? rng.int(0, Math.min(out.length - 1, 512)) : rng.int(0, out.length - 1);
      out[at] = out[at]! ^ (1 << rng.int(0, 7));
    }
    return [out, `${flips} bit flips${headerOnly ? ' in the first 512 bytes' : ''}`];
  }, 5],
  [(rng, b) => { const out = Buffer.from(b); const at = offsetIn(rng, b.length); const n = rng.int(1, 4096); out.fill(rng.pick([0, 0xff]), at, Math.min(out.length, at + n)); return [out, `${n} bytes overwritten at ${at}`]; }, 2],
  [(rng, b) => { const at = offsetIn(rng, b.length); const n = rng.int(1, 2048); return [Buffer.concat([b.subarray(0, at + n), b.subarray(at)]), `${n} bytes repeated at ${at}`]; }, 1],
  [(rng, b) => { const at = offsetIn(rng, b.length); const n = rng.int(1, 2048); return [Buffer.concat([b.subarray(0, at), b.subarray(at + n)]), `${n} bytes cut at ${at}`]; }, 1],
  [(rng, b) => [Buffer.concat([b, rng.bytes(rng.int(1, 100_000))]), 'junk appended'], 1],
];

/** A file declared as a type it is not, or another type's bytes behind the right magic. */
function mismatch(rng: Random, seeds: SeedFile[]): FuzzCase {
  const file = rng.pick(seeds);
  const schema = basicSchema();
  switch (rng.int(0, 3)) {
    case 0: {
      const declared = rng.pick(MIME_TYPES.filter((type) => type !== file.mimeType));
      return requestCase(FAMILY, `${file.name} declared as ${declared}`, schema, [entry(file.bytes, declared)], { allowed: [400] });
    }
    case 1: {
      const other = rng.pick(seeds.filter((s) => s.mimeType !== file.mimeType));
      const magic = file.bytes.subarray(0, rng.pick([3, 4, 8, 12]));
      return requestCase(FAMILY, `${file.name} magic then ${other.name} bytes`, schema, [entry(Buffer.concat([magic, other.bytes]), file.mimeType)]);
    }
    case 2: {
      const junk = rng.int(1, 2000);
      return requestCase(FAMILY, `${junk} junk bytes before ${file.name}`, schema, [entry(Buffer.concat([rng.bytes(junk), file.bytes]), file.mimeType)]);
    }
    default: {
      const magic = rng.pick(['II*\0', 'MM\0*', 'BM', '\0\0\0\x18ftypheic', 'PK\x03\x04', '<svg', '<?xml', '\x7fELF', '#!/bin/sh\n']);
      return requestCase(FAMILY, `${JSON.stringify(magic.slice(0, 8))} file as ${file.mimeType}`, schema, [entry(Buffer.concat([Buffer.from(magic, 'latin1'), rng.bytes(200)]), file.mimeType)], { allowed: [400] });
    }
  }
}

export const filesFamily: Family = {
  name: FAMILY,
  weight: 22,
  generate(rng, { seeds }) {
    if (rng.chance(0.2)) return mismatch(rng, seeds.all);
    const file = rng.pick(seeds.all);
    const [bytes, label] = rng.weighted(damages)(rng, file.bytes);
    return requestCase(FAMILY, `${file.name}: ${label}`, basicSchema(), [entry(bytes, file.mimeType, `${file.name}.bin`)]);
  },
};
