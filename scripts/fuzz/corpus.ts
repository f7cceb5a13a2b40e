/**
 * The corpus: case `index` of run `seed` is built from a generator seeded
 * with both, so any single case can be rebuilt without the others.
 */
import type { CaseContext, Family, FuzzCase } from './case.js';
import { attachmentsFamily } from './families/attachments.js';
import { base64Family } from './families/base64.js';
import { filesFamily } from './families/files.js';
import { formatsFamily } from './families/formats.js';
import { imagesFamily } from './families/images.js';
import { multipartFamily } from './families/multipart.js';
import { pdfFamily } from './families/pdf.js';
import { requestFamily } from './families/request.js';
import { schemasFamily } from './families/schemas.js';
import { xmlFamily } from './families/xml.js';
import { Random } from './random.js';

export const FAMILIES: Family[] = [requestFamily, base64Family, filesFamily, pdfFamily, imagesFamily, schemasFamily, xmlFamily, attachmentsFamily, formatsFamily, multipartFamily];

export function familyNamed(name: string): Family {
  const family = FAMILIES.find((candidate) => candidate.name === name);
  if (!family) throw new Error(`no corpus family "${name}"; there are ${FAMILIES.map((f) => f.name).join(', ')}`);
  return family;
}

export interface IndexedCase extends FuzzCase {
  index: number;
}

export async function caseAt(seed: number, index: number, context: CaseContext, families: Family[] = FAMILIES): Promise<IndexedCase> {
  const rng = new Random(seed, index);
  const family = rng.weighted(families.map((f) => [f, f.weight] as const));
  return { ...(await family.generate(rng, context)), index };
}
