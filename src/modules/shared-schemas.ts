import type { TSchema } from '@sinclair/typebox';
import { EmbeddedTermSchema, TermSchema } from './terms/terms.schemas.js';

/** Named response schemas: registered once, referenced by routes, listed in /doc components. */
export const SHARED_SCHEMAS: readonly TSchema[] = [TermSchema, EmbeddedTermSchema];
