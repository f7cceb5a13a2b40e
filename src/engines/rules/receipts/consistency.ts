/**
 * Sibling values that cannot all be right. A tax is a fraction of the total,
 * so a tax at least as large as the total is the total (or another figure)
 * read under a tax label, e.g. "NET TOTAL   VAT 0   197,70", where the
 * amount belongs to the total and the VAT is 0 or not printed. Such a tax is
 * dropped: null is better than a wrong value.
 */
import { parseNumber } from '../../../schema/coerce.js';
import type { FieldHints } from '../core/labels.js';

export function dropImpossibleTax(result: Record<string, unknown>, hints: ReadonlyMap<string, FieldHints>): void {
  const amount = (name: string): number | null => {
    const value = result[name];
    return typeof value === 'number' ? value : typeof value === 'string' ? parseNumber(value) : null;
  };
  // "total_tax" is a tax, not a total
  const isTotal = (name: string): boolean => hints.get(name)!.concepts.has('total') && !hints.get(name)!.concepts.has('tax');
  const isTax = (name: string): boolean => hints.get(name)!.concepts.has('tax');
  const names = [...hints.keys()];
  const totals = names.filter(isTotal).map(amount).filter((v): v is number => v !== null && v > 0);
  if (totals.length === 0) return;
  for (const name of names.filter(isTax)) {
    const tax = amount(name);
    if (tax !== null && tax >= Math.max(...totals)) result[name] = null;
  }
}
