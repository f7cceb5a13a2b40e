/**
 * The item properties a table is read for: each with its hints, kind and the
 * facet the meaning layer gives it (meaning/facets.ts), and the facets of the
 * columns a table of items prints.
 */
import type { JsonSchema } from '../../../schema/schema.js';
import { viewSchema, type SchemaView } from '../../../schema/schema-view.js';
import { kindFor, type ValueKind } from '../core/kinds.js';
import { hintsFor, type FieldHints, type ReadingLanguages } from '../core/labels.js';

export interface ItemField {
  name: string;
  view: SchemaView;
  hints: FieldHints;
  kind: ValueKind;
  /** The facet the property asks for (quantity, unit-price, line-net...), when the meaning layer recognises one. */
  facet: string | undefined;
}

const NUMERIC_KINDS = new Set<ValueKind>(['amount', 'number', 'integer', 'percentage']);

export function isNumeric(field: ItemField): boolean {
  return NUMERIC_KINDS.has(field.kind);
}

/** Facets of the columns whose cells are numbers a row prints once: they make a line a row of the table. */
export const VALUE_FACETS: ReadonlySet<string> = new Set(['quantity', 'unit-price', 'gross-price', 'line-net', 'line-vat', 'line-gross', 'line-discount', 'tax-rate']);

/** Facets of money per line: one such column may stand in for another the schema names (which one, the sums decide). */
export const AMOUNT_FACETS: ReadonlySet<string> = new Set(['unit-price', 'gross-price', 'line-net', 'line-gross', 'line-vat', 'line-discount']);

/** The facets of a row's net amounts: a label inside a cell naming another reading (a gross price, a discount) is not one of them. */
export const NET_FACETS: ReadonlySet<string> = new Set(['unit-price', 'line-net']);

/** What a cell labelled so is not, for a net price or amount: "(Brut: 65,00)", "Rabatt: -0,03". */
export const NOT_NET_FACETS: ReadonlySet<string> = new Set(['gross-price', 'line-gross', 'line-discount', 'allowance-total', 'charge-total', 'gross-total', 'taxable-amount', 'line-vat', 'tax-total']);

export function itemFields(itemView: SchemaView, root: JsonSchema, languages: ReadingLanguages): ItemField[] {
  return Object.entries(itemView.properties).map(([name, schema]) => {
    const view = viewSchema(schema, root);
    const hints = hintsFor(name, view, [], languages, true);
    return { name, view, hints, kind: kindFor(view, hints), facet: hints.meaning.facet?.id };
  });
}
