/** A JSON Schema object as sent by the caller (checked by compileCallerSchema to compile, with an object root). */
export type JsonSchema = { [keyword: string]: unknown };
