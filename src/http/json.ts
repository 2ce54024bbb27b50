import type { TSchema } from '@sinclair/typebox';
import { orderPreservingSerializerFactory } from './serializer.js';

function idOf(reference: TSchema): string {
  if (reference.$id === undefined) throw new Error('compileSerializer: a referenced schema needs an $id');
  return reference.$id;
}

/**
 * A serialiser compiled from a response schema (the same one Fastify uses for the routes), for the
 * item representations cached as JSON strings. It is compiled as Fastify compiles a route's response
 * schema, so the key order is the schema's alike; the compiler reads only the schema of the route
 * definition it is given, so method, URL and status are placeholders.
 */
export function compileSerializer(schema: TSchema, references: readonly TSchema[]): (value: unknown) => string {
  const external = Object.fromEntries(references.map((reference) => [idOf(reference), reference]));
  return orderPreservingSerializerFactory()(external)({ schema, method: 'GET', url: '', httpStatus: '200' });
}
