import type { DateTime } from 'luxon';
import type { PostStatus } from '../../posts/posts.rules.js';

/** The parsed arguments of GET /events (API.md §10). */
export interface EventListInput {
  page: number;
  per_page: number;
  start_date?: DateTime;
  end_date?: DateTime;
  starts_before?: DateTime;
  starts_after?: DateTime;
  ends_before?: DateTime;
  ends_after?: DateTime;
  strict_dates: boolean;
  search?: string;
  categories?: string[];
  tags?: string[];
  venue?: number[];
  organizer?: number[];
  featured?: boolean;
  status?: PostStatus[];
  geoloc?: boolean;
  geoloc_lat?: number | null;
  geoloc_lng?: number | null;
  geoloc_radius?: number;
  include?: number[];
  post_parent?: number;
  password?: string;
}
