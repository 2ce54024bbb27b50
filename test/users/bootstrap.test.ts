import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authenticate, ensureAdmin } from '../../src/modules/users/users.service.js';
import { testDialects, useMigratedDatabase } from '../helpers/databases.js';

for (const dialect of await testDialects()) {
  describe(`admin bootstrap at start-up [${dialect}]`, () => {
    const database = useMigratedDatabase(dialect);

    it('an empty database gets an administrator "admin" with a random password, returned once', async () => {
      const password = await ensureAdmin(database.handle().db, undefined, 1);
      assert.ok(password && password.length >= 24);
      const caller = await authenticate(database.handle().db, 'admin', password);
      assert.deepEqual(caller && { login: caller.login, role: caller.role }, { login: 'admin', role: 'administrator' });
      assert.equal(await ensureAdmin(database.handle().db, undefined, 2), undefined, 'a second start prints nothing');
    });

    it("CALENDAR_ADMIN_PASSWORD becomes one of admin's application passwords, idempotently", async () => {
      assert.equal(await ensureAdmin(database.handle().db, 'configured-admin-password', 3), undefined);
      assert.equal(await ensureAdmin(database.handle().db, 'configured-admin-password', 4), undefined);
      const caller = await authenticate(database.handle().db, 'admin', 'configured-admin-password');
      assert.equal(caller?.role, 'administrator');
      const stored = await database.handle().db.selectFrom('app_passwords').select(['hash', 'name']).execute();
      assert.equal(stored.filter((row) => row.name === 'CALENDAR_ADMIN_PASSWORD').length, 1);
      assert.ok(
        stored.every((row) => row.hash !== 'configured-admin-password'),
        'passwords are stored hashed',
      );
    });
  });
}
