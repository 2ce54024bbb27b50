import type { FastifyInstance } from 'fastify';
import type { RouteRegistry } from '../../http/routes.js';
import { VENUE_KIND } from '../linked/linked.kind.js';
import { registerLinkedRoutes } from '../linked/linked.routes.js';
import type { LinkedModule } from '../linked/linked.module.js';
import { postWriteInput } from '../linked/linked.schemas.js';
import { venueDetails } from './venues.details.js';
import { presentVenue } from './venues.present.js';
import { venueCreateArgs, venueListArgs, VenueSchema, venueListSchema, venueUpdateArgs } from './venues.schemas.js';

export function registerVenueRoutes(app: FastifyInstance, registry: RouteRegistry, linked: LinkedModule): void {
  registerLinkedRoutes(app, registry, linked, {
    kind: VENUE_KIND,
    schema: VenueSchema,
    listSchema: venueListSchema,
    args: { list: venueListArgs, create: venueCreateArgs, update: venueUpdateArgs },
    present: presentVenue,
    createInput: (args) => ({ ...postWriteInput(args), name: args.venue, details: venueDetails(args, 'create') }),
    updateInput: (args) => ({ ...postWriteInput(args), name: args.venue, details: venueDetails(args, 'update') }),
  });
}
