import type { FastifyInstance } from 'fastify';
import type { RouteRegistry } from '../../http/routes.js';
import { VENUE_KIND } from '../linked/linked.kind.js';
import { registerLinkedRoutes } from '../linked/linked.routes.js';
import type { LinkedState } from '../linked/linked.state.js';
import { postWriteInput } from '../linked/linked.schemas.js';
import { venueDetails } from './venues.details.js';
import { presentVenue } from './venues.present.js';
import { venueCreateArgs, venueListArgs, VenueSchema, venueListSchema, venueUpdateArgs } from './venues.schemas.js';

export function registerVenueRoutes(app: FastifyInstance, registry: RouteRegistry, state: LinkedState): void {
  registerLinkedRoutes(app, registry, state, {
    kind: VENUE_KIND,
    schema: VenueSchema,
    listSchema: venueListSchema,
    args: { list: venueListArgs, create: venueCreateArgs, update: venueUpdateArgs },
    present: presentVenue,
    createInput: (args) => ({ ...postWriteInput(args), name: args.venue, details: venueDetails(args, 'create') }),
    updateInput: (args) => ({ ...postWriteInput(args), name: args.venue, details: venueDetails(args, 'update') }),
  });
}
