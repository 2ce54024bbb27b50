import fastJson from 'fast-json-stringify';
import type { TSchema } from '@sinclair/typebox';

function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema as Record<string, unknown>)
      .filter(([key]) => key !== 'required')
      .map(([key, value]) => [key, withoutRequired(value)]),
  );
}

/**
 * A serialiser compiled from a response schema (the same one Fastify uses for the routes), for the
 * item representations cached as JSON strings; `required` is dropped so key order is the schema's.
 */
export function compileSerializer(schema: TSchema, references: readonly TSchema[]): (value: unknown) => string {
  const external = Object.fromEntries(references.map((ref) => [ref.$id as string, withoutRequired(ref)]));
  return fastJson(withoutRequired(schema) as never, { schema: external as never }) as (value: unknown) => string;
}
