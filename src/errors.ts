import type { MessageKey } from './i18n/messages/en.js';
import type { MessageVars } from './i18n/translate.js';

/**
 * The error registry of API.md §5: every error the API emits has a stable code, an HTTP status and
 * a translatable message. Codes are never translated.
 */
export const ERRORS = {
  rest_no_route: { status: 404, message: 'rest_no_route' },
  rest_invalid_json: { status: 400, message: 'rest_invalid_json' },
  rest_missing_callback_param: { status: 400, message: 'rest_missing_callback_param' },
  rest_invalid_param: { status: 400, message: 'rest_invalid_param' },
  rest_forbidden: { status: 403, message: 'rest_forbidden' },
  incorrect_password: { status: 401, message: 'incorrect_password' },
  rest_payload_too_large: { status: 413, message: 'rest_payload_too_large' },
  rest_unsupported_media_type: { status: 415, message: 'rest_unsupported_media_type' },
  // Requests the HTTP layer rejects before any route sees them; still the contract's envelope (API.md §5).
  rest_bad_request: { status: 400, message: 'rest_bad_request' },
  rest_request_timeout: { status: 408, message: 'rest_request_timeout' },
  rest_uri_too_long: { status: 414, message: 'rest_uri_too_long' },
  rest_headers_too_large: { status: 431, message: 'rest_headers_too_large' },
  rest_internal_error: { status: 500, message: 'rest_internal_error' },
  rest_too_many_requests: { status: 429, message: 'rest_too_many_requests' },
  'rest-event-not-found': { status: 404, message: 'rest_event_not_found' },
  'rest-invalid-event-id': { status: 400, message: 'rest_invalid_event_id' },
  'event-no-longer-available': { status: 403, message: 'event_no_longer_available' },
  'event-not-accessible': { status: 403, message: 'event_not_accessible' },
  'event-password-protected': { status: 403, message: 'event_password_protected' },
  'event-is-in-trash': { status: 410, message: 'event_is_in_trash' },
  'event-archive-page-not-found': { status: 404, message: 'event_archive_page_not_found' },
  'venue-not-found': { status: 404, message: 'venue_not_found' },
  'organizer-not-found': { status: 404, message: 'organizer_not_found' },
  'venue-not-accessible': { status: 403, message: 'venue_not_accessible' },
  'organizer-not-accessible': { status: 403, message: 'organizer_not_accessible' },
  'venue-is-in-trash': { status: 410, message: 'venue_is_in_trash' },
  'organizer-is-in-trash': { status: 410, message: 'organizer_is_in_trash' },
  'venue-archive-page-not-found': { status: 404, message: 'venue_archive_page_not_found' },
  'organizer-archive-page-not-found': { status: 404, message: 'organizer_archive_page_not_found' },
  'could-not-create-venue': { status: 400, message: 'could_not_create_venue' },
  'could-not-create-organizer': { status: 400, message: 'could_not_create_organizer' },
  rest_term_invalid: { status: 404, message: 'rest_term_invalid' },
  term_exists: { status: 400, message: 'term_exists_taxonomy' },
  rest_taxonomy_not_hierarchical: { status: 400, message: 'rest_taxonomy_not_hierarchical' },
  // API.md §21, §22, §25.7.
  rest_precondition_failed: { status: 412, message: 'rest_precondition_failed' },
  rest_sync_token_expired: { status: 410, message: 'rest_sync_token_expired' },
  rest_webhook_invalid_id: { status: 404, message: 'rest_webhook_invalid_id' },
  rest_webhook_delivery_invalid_id: { status: 404, message: 'rest_webhook_delivery_invalid_id' },
  rest_invalid_ics: { status: 400, message: 'rest_invalid_ics' },
  rest_import_url_forbidden: { status: 400, message: 'rest_import_url_forbidden' },
  rest_import_fetch_failed: { status: 400, message: 'rest_import_fetch_failed' },
} as const satisfies Record<string, { status: number; message: MessageKey }>;

export type ErrorCode = keyof typeof ERRORS;

/** A reason attached to one invalid parameter (API.md §5 `rest_invalid_param`). */
export interface ParamProblem {
  message: MessageKey;
  vars?: MessageVars;
  /** Machine-readable code; problems with a code are listed in `data.details`. */
  code?: string;
}

export interface ApiErrorOptions {
  status?: number;
  message?: MessageKey;
  vars?: MessageVars;
  data?: Record<string, unknown>;
  /** For rest_missing_callback_param: names in declaration order. */
  missing?: readonly string[];
  /** For rest_invalid_param: problems per parameter, in declaration order. */
  invalid?: ReadonlyMap<string, ParamProblem>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly messageKey: MessageKey;

  constructor(
    readonly code: ErrorCode,
    readonly options: ApiErrorOptions = {},
  ) {
    super(code);
    this.status = options.status ?? ERRORS[code].status;
    this.messageKey = options.message ?? ERRORS[code].message;
  }
}

export function invalidParams(problems: ReadonlyMap<string, ParamProblem>): ApiError {
  return new ApiError('rest_invalid_param', { invalid: problems });
}

export function invalidParam(name: string, problem: ParamProblem): ApiError {
  return invalidParams(new Map([[name, problem]]));
}

/** 401 for anonymous callers, 403 for authenticated ones (API.md §4). */
export function forbidden(authenticated: boolean): ApiError {
  return new ApiError('rest_forbidden', { status: authenticated ? 403 : 401 });
}
