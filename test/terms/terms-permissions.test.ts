import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Role } from '../../src/auth/capabilities.js';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type Who } from '../helpers/app.js';

type Expect = Record<'anonymous' | Role, number>;

/** Expected status of each term write per caller (API.md §4): authors manage categories, editors both. */
const CATEGORY_WRITE: Expect = {
  anonymous: 401,
  subscriber: 403,
  contributor: 403,
  author: 0,
  editor: 0,
  administrator: 0,
};
const TAG_WRITE: Expect = {
  anonymous: 401,
  subscriber: 403,
  contributor: 403,
  author: 403,
  editor: 0,
  administrator: 0,
};
const CALLERS = Object.keys(CATEGORY_WRITE) as (keyof Expect)[];

for (const dialect of await testDialects()) {
  describe(`term permissions [${dialect}]`, () => {
    const t = useTestApp(dialect);

    for (const [path, matrix] of [
      ['categories', CATEGORY_WRITE],
      ['tags', TAG_WRITE],
    ] as const) {
      for (const caller of CALLERS) {
        const allowed = matrix[caller] === 0;
        it(`${caller} ${allowed ? 'may' : 'may not'} create, update and delete ${path}`, async () => {
          const who: Who = caller;
          const create = await t.api.post(`/${path}`, { name: `${path} by ${caller}` }, { as: who });
          assert.equal(create.status, allowed ? 201 : matrix[caller], create.text);
          const target = await t.api.post(`/${path}`, { name: `${path} target of ${caller}` }, { as: 'administrator' });
          const update = await t.api.patch(`/${path}/${target.json.id}`, { description: 'changed' }, { as: who });
          assert.equal(update.status, allowed ? 200 : matrix[caller], update.text);
          const remove = await t.api.delete(`/${path}/${target.json.id}`, { as: who });
          assert.equal(remove.status, allowed ? 200 : matrix[caller], remove.text);
          if (!allowed) {
            assert.deepEqual(remove.json, {
              code: 'rest_forbidden',
              message: 'Sorry, you are not allowed to do that.',
              data: { status: matrix[caller] },
            });
            const still = await t.api.get(`/${path}/${target.json.id}`);
            assert.equal(still.json.description, '');
          }
        });
      }
    }

    it('anyone may read terms', async () => {
      const created = await t.api.post('/tags', { name: 'Readable' }, { as: 'editor' });
      for (const caller of CALLERS) {
        const res = await t.api.get(`/tags/${created.json.id}`, { as: caller });
        assert.equal(res.status, 200, caller);
      }
    });

    it('bad input is 400 before the permission check, even when anonymous', async () => {
      const res = await t.api.post('/categories', { name: '' });
      assert.equal(res.status, 400);
      assert.equal(res.json.code, 'rest_invalid_param');
      const missing = await t.api.post('/tags', {}, { as: 'subscriber' });
      assert.equal(missing.json.code, 'rest_missing_callback_param');
    });

    it('an unknown id is reported before the permission check', async () => {
      const res = await t.api.delete('/categories/999999', { as: 'subscriber' });
      assert.equal(res.status, 404);
      assert.equal(res.json.code, 'rest_term_invalid');
    });

    it('a wrong password, an unknown login or a malformed header is 401 incorrect_password', async () => {
      const editor = await t.api.user('editor');
      const wrongPassword = `Basic ${Buffer.from('editor-user:not-the-password').toString('base64')}`;
      const unknownLogin = `Basic ${Buffer.from('nobody:whatever-password').toString('base64')}`;
      const otherLogin = `Basic ${Buffer.from(`administrator-user:${Buffer.from(editor.header.slice(6), 'base64').toString().split(':')[1]}`).toString('base64')}`;
      await t.api.user('administrator');
      for (const authorization of [
        wrongPassword,
        unknownLogin,
        otherLogin,
        'Basic %%%',
        'Basic',
        'Bearer',
        'Bearer wrong',
        'Digest abc',
        'garbage',
      ]) {
        const res = await t.api.get('/categories', { as: { authorization } });
        assert.equal(res.status, 401, authorization);
        assert.deepEqual(res.json, {
          code: 'incorrect_password',
          message: 'The provided password is an invalid application password.',
          data: { status: 401 },
        });
      }
    });

    it('Bearer authentication with an application password works like Basic', async () => {
      const editor = await t.api.user('editor');
      const password = Buffer.from(editor.header.slice('Basic '.length), 'base64').toString().split(':')[1];
      const res = await t.api.post('/tags', { name: 'Via bearer' }, { as: { authorization: `Bearer ${password}` } });
      assert.equal(res.status, 201, res.text);
    });
  });
}
