/**
 * An independent check that every value of an answer is in the document it
 * came from, for tests on real models: the answer is compared with the
 * document's text by a plain search of its own, not by the engine's
 * grounding check. Text is compared folded (case, spacing, punctuation
 * aside), numbers by their digits, dates by the day they name.
 */
import { expect } from 'chai';
import { findDates } from '../../src/schema/dates.js';
import { foldText } from '../../src/util/fold-text.js';

function digits(text: string): string {
  return text.replace(/\D/g, '');
}

function sameDay(value: string, printed: string): boolean {
  const [wanted] = findDates(value, { dayFirst: true });
  if (!wanted) return false;
  return [true, false].some((dayFirst) =>
    findDates(printed, { dayFirst }).some(({ parts }) => parts.year === wanted.parts.year && parts.month === wanted.parts.month && parts.day === wanted.parts.day),
  );
}

/** Where in the answer a value is not in `printed` (empty when every value is). */
export function valuesNotPrinted(answer: unknown, printed: string): string[] {
  const folded = foldText(printed);
  const printedDigits = digits(printed);
  const missing: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) return value.forEach((item, index) => walk(item, `${path}/${index}`));
    if (typeof value === 'object' && value !== null) return Object.entries(value).forEach(([key, item]) => walk(item, `${path}/${key}`));
    if (typeof value === 'string') {
      if (!folded.includes(foldText(value)) && !sameDay(value, printed)) missing.push(`${path}: ${JSON.stringify(value)}`);
    } else if (typeof value === 'number') {
      const wanted = digits(String(Math.abs(value))).replace(/^0+|0+$/g, '');
      if (!printedDigits.includes(wanted)) missing.push(`${path}: ${value}`);
    }
  };
  walk(answer, '');
  return missing;
}

export function expectEveryValuePrinted(answer: unknown, printed: string): void {
  expect(valuesNotPrinted(answer, printed), `values not in the document: ${JSON.stringify(answer)}`).to.deep.equal([]);
}
