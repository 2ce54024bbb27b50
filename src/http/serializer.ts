import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

type Schema = Record<string, unknown>;

/** A deep copy of `schema` without `required` lists. */
function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key !== 'required') copy[key] = withoutRequired(value);
  }
  return copy;
}

/**
 * fast-json-stringify writes required properties before optional ones, which would break TEC's key
 * order (API.md §8). Serialisation therefore uses the response schemas without `required`; the
 * documents (/doc, the index) still show it.
 */
export function orderPreservingSerializerFactory(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(withoutRequired(externalSchemas), options);
    return (route) => compile({ ...route, schema: withoutRequired(route.schema) });
  };
}
