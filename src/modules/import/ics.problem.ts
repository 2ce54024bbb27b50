import { ApiError } from '../../errors.js';

/** Why an iCalendar text is refused, and the line (1-based, as sent) where it was found, when known. */
export class IcsProblem extends Error {
  constructor(
    readonly reason: string,
    readonly line?: number,
  ) {
    super(reason);
  }

  /** 400 rest_invalid_ics "Invalid iCalendar data: {reason}" with `data.line` (API.md §19.3). */
  toApiError(): ApiError {
    return new ApiError('rest_invalid_ics', {
      vars: { reason: this.reason },
      data: this.line !== undefined ? { line: this.line } : {},
    });
  }
}
