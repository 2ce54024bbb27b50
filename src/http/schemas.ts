import { Type, type TSchema } from '@sinclair/typebox';

/** The error envelope (API.md §5); `data` may carry params, details, term_id. */
export const ErrorSchema = Type.Object(
  {
    code: Type.String({ description: 'Stable, untranslated error code' }),
    message: Type.String({ description: 'Message in the request language' }),
    data: Type.Object({ status: Type.Integer() }, { additionalProperties: true }),
  },
  { $id: 'Error', description: 'Error envelope' },
);

export const ErrorRef = Type.Ref(ErrorSchema);

/** Error responses a route documents; the same schema serialises them. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorRef]));
}

/** `[]` where TEC's PHP serialises an empty array in place of an object (e.g. `meta`, `venue`). */
export const EmptyArray = Type.Array(Type.Never(), { maxItems: 0 });

/** The list envelope of events, venues and organizers (API.md §9), key order as TEC. */
export function postListSchema(key: 'events' | 'venues' | 'organizers', item: TSchema) {
  return Type.Object({
    [key]: Type.Array(Type.Ref(item)),
    rest_url: Type.String({ format: 'uri' }),
    next_rest_url: Type.Optional(Type.String({ format: 'uri' })),
    previous_rest_url: Type.Optional(Type.String({ format: 'uri' })),
    total: Type.Integer(),
    total_pages: Type.Integer(),
  });
}
