import type { ArgsInput } from '../../../http/args.js';
import type { eventListArgs } from '../events.schemas.js';

/** The parsed arguments of GET /events (API.md §10), as the listing takes them. */
export type EventListInput = ArgsInput<typeof eventListArgs>;
