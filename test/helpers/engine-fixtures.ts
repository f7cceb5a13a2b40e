import { expect } from 'chai';
import { compileCallerSchema } from '../../src/schema/schema.js';

/** Nested objects, lists of objects, enums, numbers, integers, booleans and nullable fields: the shapes a model must fill. */
export const RICH_SCHEMA = {
  type: 'object',
  properties: {
    vendor: { type: 'string', description: 'Name of the seller as printed at the top' },
    total: { type: 'number', description: 'Total amount' },
    item_count: { type: 'integer', minimum: 0 },
    paid: { type: 'boolean' },
    currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] },
    note: { type: ['string', 'null'] },
    address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } }, required: ['street'] },
    items: {
      type: 'array',
      items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } }, required: ['description'] },
    },
  },
  required: ['vendor', 'total', 'items'],
} as const;

/** The answer has every property and validates against the schema with null allowed for missing values. */
export function expectSchemaValid(body: unknown, schema: object): void {
  const compiled = compileCallerSchema(schema);
  const valid = compiled.validateNullable(body);
  expect(valid, JSON.stringify({ body, errors: compiled.validateNullable.errors })).to.equal(true);
  for (const key of Object.keys((schema as { properties: object }).properties)) expect(body).to.have.property(key);
}
