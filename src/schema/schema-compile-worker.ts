/**
 * The schema-compile thread's task (schema-compile-thread.ts): a caller's
 * schema checked and turned into validator source. A refusal comes back as
 * data, since an AppError loses its class crossing threads.
 */
import { AppError } from '../errors.js';
import { serveTasks } from '../threads/serve-tasks.js';
import { checkedSchemaSources, type SchemaSources } from './schema-sources.js';
import type { JsonSchema } from './json-schema.js';

export interface SchemaCompileTask {
  schema: JsonSchema;
  field: string;
}

export type SchemaCompileReply = { sources: SchemaSources } | { refused: { message: string; details?: string[] } };

export function compileSchemaTask(task: SchemaCompileTask): SchemaCompileReply {
  try {
    return { sources: checkedSchemaSources(task.schema, task.field) };
  } catch (error) {
    if (error instanceof AppError && error.code === 'bad_request') {
      return { refused: { message: error.message, ...(error.details ? { details: error.details } : {}) } };
    }
    throw error;
  }
}

serveTasks<SchemaCompileTask>({ run: compileSchemaTask });
