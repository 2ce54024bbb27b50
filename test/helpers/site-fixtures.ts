import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import { createUser } from '../../src/modules/users/users.service.js';

export interface SiteUser {
  readonly login: string;
  readonly password: string;
  readonly header: string;
}

export async function siteUser(app: FastifyInstance, login: string, role: string): Promise<SiteUser> {
  const { password } = await createUser(app.calendar.db, login, role, Math.floor(Date.now() / 1000));
  return { login, password, header: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
}

/** POSTs to the REST API through the app, failing loudly. */
export async function apiPost(
  app: FastifyInstance,
  user: SiteUser,
  path: string,
  body: unknown,
): Promise<{ id: number; slug: string }> {
  const response = await app.inject({
    method: 'POST',
    url: `/calendar/events/v1${path}`,
    headers: { authorization: user.header, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (response.statusCode !== 201) throw new Error(`POST ${path}: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body) as { id: number; slug: string };
}

export interface SiteFixture {
  readonly editor: SiteUser;
  readonly music: { id: number; slug: string };
  readonly theatre: { id: number; slug: string };
  /** The slug of an event in the current month, on `day` (YYYY-MM-DD) of the site zone. */
  readonly concert: { id: number; slug: string; day: string };
  readonly play: { id: number; slug: string; day: string };
}

/**
 * A small, realistic calendar around today (UTC site zone): a dozen events this month in two
 * categories, at three venues, one multi-day and one all-day.
 */
export async function seedSite(app: FastifyInstance, now: DateTime = DateTime.utc()): Promise<SiteFixture> {
  const editor = await siteUser(app, 'editor-one', 'editor');
  const music = await apiPost(app, editor, '/categories', { name: 'Music' });
  const theatre = await apiPost(app, editor, '/categories', { name: 'Theatre' });
  const family = await apiPost(app, editor, '/categories', { name: 'Family' });
  const free = await apiPost(app, editor, '/tags', { name: 'Free entry' });
  const hall = await apiPost(app, editor, '/venues', {
    venue: 'Riverside Hall',
    address: '12 River Street',
    city: 'Springfield',
    country: 'United States',
    geo_lat: 39.7817,
    geo_lng: -89.6501,
    status: 'publish',
  });
  const park = await apiPost(app, editor, '/venues', { venue: 'Oak Park', city: 'Springfield', status: 'publish' });
  const org = await apiPost(app, editor, '/organizers', {
    organizer: 'Springfield Arts Council',
    email: 'hello@example.org',
    website: 'https://example.org',
    status: 'publish',
  });
  const start = now.toUTC().startOf('month');
  const at = (day: number, hour: number) => start.plus({ days: day - 1, hours: hour });
  const fmt = (dt: DateTime) => dt.toFormat('yyyy-MM-dd HH:mm:ss');
  const event = async (title: string, day: number, hour: number, hours: number, extra: Record<string, unknown>) =>
    apiPost(app, editor, '/events', {
      title,
      start_date: fmt(at(day, hour)),
      end_date: fmt(at(day, hour + hours)),
      status: 'publish',
      ...extra,
    });
  const concert = await event('Autumn Jazz Night', 12, 19, 3, {
    description:
      '<p>An evening of <strong>live jazz</strong> with the Springfield Quartet and guests.</p><p>Doors open at 18:30.</p>',
    venue: hall.id,
    organizer: [org.id],
    categories: [music.id],
    tags: [free.id],
    cost: '15',
    website: 'https://example.org/jazz',
    show_map_link: true,
  });
  const play = await event('Hamlet in the Park', 14, 18, 2, {
    description: 'Shakespeare under the oak trees. Bring a blanket.',
    venue: park.id,
    categories: [theatre.id],
    cost: '0',
  });
  await event('Choir Rehearsal', 3, 17, 2, { venue: hall.id, categories: [music.id] });
  await event('Piano Recital', 5, 18, 2, { venue: hall.id, categories: [music.id], cost: '10 – 20' });
  await event('Puppet Show', 7, 10, 1, { venue: park.id, categories: [family.id, theatre.id], tags: [free.id] });
  await event('Open Mic', 12, 21, 2, { venue: hall.id, categories: [music.id] });
  await event('Street Food Market', 12, 11, 6, { venue: park.id, categories: [family.id] });
  await event('Folk Session', 12, 15, 2, { venue: park.id, categories: [music.id] });
  await event('Craft Fair', 20, 0, 0, {
    all_day: true,
    start_date: fmt(at(20, 0)),
    end_date: fmt(at(22, 0)),
    venue: park.id,
    categories: [family.id],
  });
  await event('Film Night', 24, 20, 2, { venue: hall.id });
  await event('Children’s Theatre', 26, 15, 1, { venue: park.id, categories: [theatre.id, family.id] });
  await event('Winter Concert', 28, 19, 2, { venue: hall.id, categories: [music.id], organizer: [org.id] });
  return {
    editor,
    music,
    theatre,
    concert: { ...concert, day: at(12, 0).toISODate() ?? '' },
    play: { ...play, day: at(14, 0).toISODate() ?? '' },
  };
}
