import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { testDialects } from '../helpers/databases.js';
import { browserAvailable, screenshotDir, useBrowser } from '../helpers/browser.js';
import { seedSite, siteUser, type SiteFixture } from '../helpers/site-fixtures.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's WCAG 2.1 A/AA scan of the page: the serious and critical violations (API.md §23.1). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations;
  });
  return (violations as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Screenshots of the README (docs/screenshots) are refreshed with UPDATE_SCREENSHOTS=1. */
function shotPaths(name: string): string[] {
  const paths = [join(screenshotDir(), `${name}.png`)];
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    mkdirSync(join('docs', 'screenshots'), { recursive: true });
    paths.push(join('docs', 'screenshots', `${name}.png`));
  }
  return paths;
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const path of shotPaths(name)) await page.screenshot({ path, fullPage: true });
}

async function signIn(page: Page, login: string, password: string): Promise<void> {
  await page.goto('/admin/');
  assert.match(page.url(), /\/admin\/login\?next=/);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Application password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/admin\/$/);
}

const dialects = browserAvailable() ? await testDialects() : [];
for (const dialect of dialects) {
  describe(`the website and the editor in Chromium [${dialect}]`, () => {
    const b = useBrowser(dialect);
    let fixture: SiteFixture;
    const ready = async () => (fixture ??= await seedSite(b.harness.app));

    it('browses month → day → event', async () => {
      const { concert } = await ready();
      const context = await b.harness.context();
      const page = await context.newPage();
      await page.goto('/');
      await page.getByRole('link', { name: 'Month', exact: true }).click();
      await page.waitForURL(/\/events\/month\/$/);
      await page.locator(`a.day-number[href="/events/day/${concert.day}/"]`).click();
      await page.waitForURL(new RegExp(`/events/day/${concert.day}/$`));
      await page.getByRole('link', { name: 'Autumn Jazz Night' }).click();
      await page.waitForURL(new RegExp(`/event/${concert.slug}/$`));
      assert.equal(await page.locator('h1').textContent(), 'Autumn Jazz Night');
      assert.equal(await page.getByRole('link', { name: 'Riverside Hall' }).count(), 1);
      assert.equal(await page.getByRole('link', { name: 'Google Calendar' }).count(), 1);
      await context.close();
    });

    it('filters by category with a shareable URL', async () => {
      await ready();
      const context = await b.harness.context();
      const page = await context.newPage();
      await page.goto('/events/month/');
      await page.getByLabel('Category').selectOption({ label: 'Theatre' });
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/categories=theatre/);
      const grid = page.locator('table.month');
      assert.equal(await grid.getByText('Hamlet in the Park').count(), 1);
      assert.equal(await grid.getByText('Autumn Jazz Night').count(), 0);
      const shared = await context.newPage();
      await shared.goto(page.url());
      assert.equal(await shared.locator('table.month').getByText('Autumn Jazz Night').count(), 0);
      await context.close();
    });

    it('switches language and keeps it while browsing', async () => {
      await ready();
      const context = await b.harness.context();
      const page = await context.newPage();
      await page.goto('/events/month/');
      await page.locator('details.languages summary').click();
      await page.getByRole('link', { name: 'Deutsch' }).click();
      await page.waitForURL(/\/de\/events\/month\/$/);
      assert.equal(await page.locator('html').getAttribute('lang'), 'de');
      await page.getByRole('link', { name: 'Woche', exact: true }).click();
      await page.waitForURL(/\/de\/events\/week\/$/);
      assert.equal(await page.locator('h1').count(), 1);
      assert.equal(await page.getByRole('link', { name: 'Monat', exact: true }).count(), 1);
      await context.close();
    });

    it('an editor signs in, creates an event with a new venue and sees it on the public pages', async () => {
      const { editor } = await ready();
      // The axe scans of the editor's screens are injected by evaluation (see seriousViolations).
      const context = await b.harness.browser.newContext({
        viewport: { width: 1280, height: 900 },
        baseURL: b.harness.origin,
        bypassCSP: true,
      });
      const page = await context.newPage();
      await signIn(page, editor.login, editor.password);
      assert.deepEqual(await seriousViolations(page), [], 'the events list');
      await page.getByRole('link', { name: 'New event' }).click();
      await page.waitForURL(/\/admin\/events\/new\/?$/);
      assert.deepEqual(await seriousViolations(page), [], 'the new event form');
      await page.getByLabel('Title *').fill('Lantern Parade');
      // Tomorrow (UTC): the venue page lists upcoming events only, so the event must not be over
      // whatever the time of day (capping the day at the 28th made it today on the 28th, evenings).
      const iso = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel('Starts *').fill(`${iso}T18:00`);
      await page.getByLabel('Ends *').fill(`${iso}T20:00`);
      await page.getByLabel('Time zone').selectOption('UTC');
      // The picker's search box (public/editor.js) finds venues by name.
      await page.getByLabel('Search venues').fill('River');
      await page.waitForFunction(() => {
        const options = Array.from(document.querySelectorAll<HTMLOptionElement>('#field-venue option'));
        return options.some((option) => option.text.includes('Oak Park') && option.hidden);
      });
      assert.equal(await page.locator('#field-venue option:not([hidden])', { hasText: 'Riverside Hall' }).count(), 1);
      await page.getByLabel('Or a new venue').fill('Harbour Square');
      await page.getByLabel('Music').check();
      await page.getByLabel('Status').selectOption('publish');
      await shoot(page, 'editor-1280');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/\/admin\/events\/\d+\/\?saved=1$/);
      assert.equal(await page.getByText('Saved.').count(), 1);
      const publicPage = await context.newPage();
      await publicPage.goto(`/events/day/${iso}/`);
      await publicPage.getByRole('link', { name: 'Lantern Parade' }).click();
      assert.equal(await publicPage.locator('h1').textContent(), 'Lantern Parade');
      await publicPage.getByRole('link', { name: 'Harbour Square' }).click();
      await publicPage.waitForURL(/\/venue\/harbour-square\/$/);
      assert.equal(await publicPage.getByRole('link', { name: 'Lantern Parade' }).count(), 1);
      await page.goto('/admin/events/');
      await shoot(page, 'editor-list-1280');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/admin\/login$/);
      await context.close();
    });

    it("a contributor's event stays pending and cannot be published by them", async () => {
      await ready();
      const contributor = await siteUser(b.harness.app, `contrib-${dialect}`, 'contributor');
      const context = await b.harness.context();
      const page = await context.newPage();
      await signIn(page, contributor.login, contributor.password);
      await page.getByRole('link', { name: 'New event' }).click();
      await page.waitForURL(/\/admin\/events\/new\/?$/);
      const statuses = await page.getByLabel('Status').locator('option').allTextContents();
      assert.deepEqual(
        statuses.map((s) => s.trim()),
        ['draft', 'pending'],
      );
      await page.getByLabel('Title *').fill('Poetry Slam');
      await page.getByLabel('Starts *').fill('2030-01-10T19:00');
      await page.getByLabel('Ends *').fill('2030-01-10T21:00');
      await page.getByLabel('Status').selectOption('pending');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/\/admin\/events\/\d+\/\?saved=1$/);
      const id = /\/admin\/events\/(\d+)\//.exec(page.url())?.[1];
      const after = await page.getByLabel('Status').locator('option').allTextContents();
      assert.deepEqual(
        after.map((s) => s.trim()),
        ['draft', 'pending'],
      );
      assert.equal(await page.getByLabel('Status').inputValue(), 'pending');
      const visitor = await (await b.harness.context()).newPage();
      const missing = await visitor.goto(`/?post_type=tribe_events&p=${id}`);
      assert.equal(missing?.status(), 404);
      await visitor.goto('/events/month/2030-01/');
      assert.equal(await visitor.getByText('Poetry Slam').count(), 0);
      await context.close();
    });

    it('every page type has no serious or critical axe-core violations, no horizontal scrolling at 320 px; screenshots at 320 and 1280 px', async () => {
      const { concert } = await ready();
      const pages: [string, string][] = [
        ['list', '/events/'],
        ['month', '/events/month/'],
        ['week', `/events/week/${concert.day}/`],
        ['day', `/events/day/${concert.day}/`],
        ['event', `/event/${concert.slug}/`],
        ['venue', '/venue/riverside-hall/'],
        ['organizer', '/organizer/springfield-arts-council/'],
        ['category', '/events/category/music/'],
        ['tag', '/tag/free-entry/'],
        ['not-found', '/no/such/page/'],
        ['sign-in', '/admin/login'],
      ];
      for (const width of [1280, 320]) {
        // axe is injected by evaluation; the pages' own policy allows no inline script.
        const context = await b.harness.browser.newContext({
          viewport: { width, height: 900 },
          baseURL: b.harness.origin,
          bypassCSP: true,
        });
        const page = await context.newPage();
        for (const [name, path] of pages) {
          await page.goto(path);
          assert.deepEqual(await seriousViolations(page), [], `${path} at ${width}px`);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `${path} scrolls sideways at ${width}px by ${overflow}px`);
          await shoot(page, `${name}-${width}`);
        }
        await context.close();
      }
    });

    it('the pages run no script, inline or not, under the policy', async () => {
      const { concert } = await ready();
      const context = await b.harness.context();
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      for (const path of ['/events/', `/event/${concert.slug}/`, '/admin/login']) await page.goto(path);
      assert.deepEqual(violations, []);
      await context.close();
    });
  });
}
