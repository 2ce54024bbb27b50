import type { FastifyInstance } from 'fastify';
import type { RouteRegistry } from '../../http/routes.js';
import { ORGANIZER_KIND } from '../linked/linked.kind.js';
import { registerLinkedRoutes } from '../linked/linked.routes.js';
import type { LinkedModule } from '../linked/linked.module.js';
import { postWriteInput } from '../linked/linked.schemas.js';
import { organizerDetails, presentOrganizer } from './organizers.present.js';
import {
  organizerCreateArgs,
  organizerListArgs,
  OrganizerSchema,
  organizerListSchema,
  organizerUpdateArgs,
} from './organizers.schemas.js';

export function registerOrganizerRoutes(app: FastifyInstance, registry: RouteRegistry, linked: LinkedModule): void {
  registerLinkedRoutes(app, registry, linked, {
    kind: ORGANIZER_KIND,
    schema: OrganizerSchema,
    listSchema: organizerListSchema,
    args: { list: organizerListArgs, create: organizerCreateArgs, update: organizerUpdateArgs },
    present: presentOrganizer,
    createInput: (args) => ({ ...postWriteInput(args), name: args.organizer, details: organizerDetails(args) }),
    updateInput: (args) => ({ ...postWriteInput(args), name: args.organizer, details: organizerDetails(args) }),
  });
}
