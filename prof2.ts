import { buildApp } from './src/app.js';
import { loadConfig } from './src/config.js';
import { createUser } from './src/modules/users/users.service.js';
const app = await buildApp(loadConfig({ DATABASE_URL: 'sqlite:/tmp/prof.db', LOG_LEVEL: 'silent', RESPONSE_CACHE: 'off' }), { logger: false });
const { password } = await createUser(app.calendar.db, 'prof-' + Math.random().toString(36).slice(2, 8), 'editor', 1).catch(() => ({ password: '' }));
const login = (await app.calendar.db.selectFrom('users').select('login').orderBy('id', 'desc').executeTakeFirstOrThrow()).login;
const h = { authorization: 'Basic ' + Buffer.from(login + ':' + password).toString('base64'), 'content-type': 'application/json' };
const mode = process.argv[2];
for (let i = 0; i < 20; i++) await app.inject({ method: 'POST', url: '/calendar/events/v1/events', headers: h, payload: { title: `W ${i} ${Math.random()}`, start_date: '2027-01-10 18:00', end_date: '2027-01-10 20:00', status: 'publish', categories: ['seed-music'] } });
const t = performance.now();
const N = 400;
for (let i = 0; i < N; i++) {
  if (mode === 'create') await app.inject({ method: 'POST', url: '/calendar/events/v1/events', headers: h, payload: { title: `P ${i} ${Math.random()}`, start_date: '2027-01-10 18:00', end_date: '2027-01-10 20:00', status: 'publish', categories: ['seed-music'] } });
  else await app.inject({ url: `/calendar/events/v1/events?per_page=50&page=${1 + (i % 10)}&i18n_language=${['en','fr','de','nl'][i % 4]}` });
}
console.log(mode, ((performance.now() - t) / N).toFixed(2), 'ms');
await app.close();
