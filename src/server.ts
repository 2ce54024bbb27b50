import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { ensureAdmin } from './modules/users/users.service.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const app = await buildApp(config);
  const generated = await ensureAdmin(app.calendar.db, config.adminPassword, Math.floor(Date.now() / 1000));
  if (generated) {
    // Printed once, to the terminal only: secrets never go through the logger.
    process.stdout.write(
      `\nCreated user "admin" (administrator).\nApplication password (shown once): ${generated}\n` +
        `Use it as HTTP Basic "admin:<password>" or "Authorization: Bearer <password>".\n\n`,
    );
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  // Searches are narrowed in memory (search/candidates.ts): read what they need now, not on the first one.
  void app.calendar.events.prepare();
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
