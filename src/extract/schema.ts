/** A JSON Schema object as sent by the caller (already checked to compile, object root). */
export type JsonSchema = { [keyword: string]: unknown };
