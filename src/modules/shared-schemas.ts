import type { TSchema } from '@sinclair/typebox';
import { CostDetailsSchema, DateDetailsSchema, EventSchema } from './events/events.schemas.js';
import { ImageSchema } from './images/images.js';
import { OrganizerSchema } from './organizers/organizers.schemas.js';
import { EmbeddedTermSchema, TermSchema } from './terms/terms.schemas.js';
import { VenueSchema } from './venues/venues.schemas.js';
import { DeliverySchema, WebhookSchema } from './webhooks/webhooks.schemas.js';

/** Named response schemas: registered once, referenced by routes, listed in /doc components. */
export const SHARED_SCHEMAS: readonly TSchema[] = [
  ImageSchema,
  DateDetailsSchema,
  CostDetailsSchema,
  VenueSchema,
  OrganizerSchema,
  TermSchema,
  EmbeddedTermSchema,
  EventSchema,
  WebhookSchema,
  DeliverySchema,
];
