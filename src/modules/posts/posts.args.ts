import { Type } from '@sinclair/typebox';
import { callerCan } from '../../auth/caller.js';
import { arg, fail, ok, refine, type ArgSpec } from '../../http/args.js';
import { parseList } from '../../domain/params.js';
import { isStatus, STATUSES, type PostStatus } from './posts.rules.js';

/** `status` on writes: one of the six statuses (API.md §3). */
export function statusArg(description: string): ArgSpec<PostStatus, false> {
  return arg.enumOf(STATUSES, { description });
}

/**
 * `status` on lists (API.md §10): a CSV or array of statuses; callers who cannot edit posts may only
 * ask for `publish`.
 */
export function statusListArg(description: string): ArgSpec<PostStatus[], false> {
  return {
    schema: Type.String({ description }),
    required: false,
    always: false,
    parse(raw, _name, ctx) {
      const items = parseList(raw)?.map((item) => item.toLowerCase()) ?? [];
      const statuses = items.filter(isStatus);
      if (items.length === 0 || statuses.length < items.length) return fail('invalid_parameter');
      if (!callerCan(ctx.caller, 'create_posts') && statuses.some((status) => status !== 'publish')) {
        return fail('status_not_allowed', {}, 'rest_forbidden_status');
      }
      return ok([...new Set(statuses)]);
    },
  };
}

/** `author` on writes: a user id (its existence is checked by the service). */
export const authorArg = refine(arg.positiveInt({ description: 'The author user id' }), (value) => ok(value));

/** Latitude and longitude with their ranges (API.md §8, venues); empty clears them. */
export function coordinateArg(description: string, limit: 90 | 180): ArgSpec<number | null, false> {
  const message = limit === 90 ? 'latitude_range' : 'longitude_range';
  return {
    schema: Type.Number({ description, minimum: -limit, maximum: limit }),
    required: false,
    always: false,
    parse(raw) {
      if (raw === null || raw === '') return ok(null);
      const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      return Number.isFinite(value) && Math.abs(value) <= limit ? ok(value) : fail(message, {}, 'rest_out_of_bounds');
    },
  };
}

/** `image`: an image id or an http(s) image URL, resolved by the service; empty removes it. */
export const imageArg: ArgSpec<unknown, false> = {
  schema: Type.Union([Type.Integer(), Type.String({ format: 'uri' })], {
    description: 'An image id or the http(s) URL of an image',
  }),
  required: false,
  always: false,
  parse: (raw) =>
    typeof raw === 'string' || typeof raw === 'number' || raw === null || raw === false
      ? ok(raw)
      : fail('invalid_parameter'),
};

/** An e-mail address, loosely checked; empty clears it. */
export const emailArg: ArgSpec<string, false> = {
  schema: Type.String({ description: 'The e-mail address', format: 'email' }),
  required: false,
  always: false,
  parse: (raw) => {
    if (raw === null || raw === '') return ok('');
    return typeof raw === 'string' && /^[^\s@]+@[^\s@]+$/.test(raw.trim()) ? ok(raw.trim()) : fail('invalid_parameter');
  },
};
