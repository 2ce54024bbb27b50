/**
 * Command-line user management (API.md §4): `npm run --silent cli -- <command> [args]`.
 * Same configuration as the server (DATABASE_URL…); migrations run before every command.
 * `user:create` and `app-password:create` print the new application password alone on the last
 * line of standard output (a fixed form scripts rely on); passwords are printed nowhere else.
 */
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { dataVersionOf } from './changes/data-version.js';
import { Writes } from './changes/writes.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type SQLite from 'better-sqlite3';
import { backupSqlite, postgresBackupAdvice } from './db/backup.js';
import { newEpoch } from './changes/change-log.repository.js';
import { connect, dialectOf } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { syncSiteTimezone } from './modules/events/events.maintenance.js';
import type { Db } from './db/schema.js';
import {
  changeRole,
  createAppPassword,
  createUser,
  deleteUser,
  listAppPasswords,
  listUsers,
  revokeAppPassword,
  UserError,
} from './modules/users/users.service.js';
import { progressReporter, stepReporter } from './modules/seed/progress.js';
import { seedCalendar } from './modules/seed/seed.js';
import { runTecImport, sinceInstant } from './modules/migration/command.js';
import { anyFailed, reportLines } from './modules/migration/report.js';
import { SourceUnusable } from './modules/migration/source.js';

/** Bad command line: exit 2 (with the whole usage text when the command itself is wrong). */
class UsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = false,
  ) {
    super(message);
  }
}

type OptionName = 'role' | 'name' | 'events' | 'recurring-share' | 'namespace' | 'auth' | 'since';
type FlagName = 'keep-ids' | 'dry-run';
const OPTION_NAMES: readonly OptionName[] = ['role', 'name', 'events', 'recurring-share', 'namespace', 'auth', 'since'];
const FLAG_NAMES: readonly FlagName[] = ['keep-ids', 'dry-run'];

interface Input {
  readonly args: readonly string[];
  readonly options: Partial<Record<OptionName, string>>;
  readonly force: boolean;
  readonly flags: ReadonlySet<FlagName>;
}

interface Context extends Input {
  readonly db: Db;
  /** The SQLite connection itself, on SQLite. */
  readonly sqlite: SQLite.Database | undefined;
  readonly config: Config;
  /** Migration steps applied by this run, before the command. */
  readonly applied: readonly string[];
  readonly now: number;
}

interface Command {
  readonly synopsis: string;
  readonly summary: string;
  /** Names of the required positional arguments, in order. */
  readonly args: readonly string[];
  readonly options?: readonly OptionName[];
  readonly required?: readonly OptionName[];
  /** Takes `--force`. */
  readonly force?: boolean;
  /** The on/off options it takes besides `--force`. */
  readonly flags?: readonly FlagName[];
  /** Why the command does not run on PostgreSQL and what to do instead (exit 2, nothing connected). */
  onPostgres?(args: readonly string[]): string;
  /** Writes content (events, venues…) that running servers may hold in their caches. */
  readonly writesContent?: boolean;
  /** Returns the lines for standard output (and, when some work failed, the exit code 1). */
  run(context: Context): Promise<string[] | CommandResult>;
}

interface CommandResult {
  readonly lines: string[];
  readonly exitCode: number;
}

/** A required option's value (checkOptions refuses a command line without it). */
function requiredOption(options: Input['options'], name: OptionName): string {
  const value = options[name];
  if (value === undefined) throw new UsageError(`missing --${name}`);
  return value;
}

const now = (): number => Math.floor(Date.now() / 1000);
const isoDate = (seconds: number): string => new Date(seconds * 1000).toISOString();

function positiveId(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`<id> must be a positive integer, got "${raw}"`);
  }
  return Number(raw);
}

const COMMANDS: Record<string, Command> = {
  migrate: {
    synopsis: 'migrate',
    summary: 'apply pending database migrations',
    args: [],
    run: async ({ applied }) =>
      applied.length > 0 ? applied.map((name) => `Applied ${name}`) : ['Database is up to date.'],
  },
  'user:create': {
    synopsis: 'user:create <login> --role <role>',
    summary: 'create a user; prints its first application password on the last line',
    args: ['login'],
    options: ['role'],
    required: ['role'],
    run: async ({ db, args: [login], options, now: at }) => {
      const role = requiredOption(options, 'role');
      const { id, password } = await createUser(db, login, role, at);
      return [`Created user "${login}" (${role}) with id ${id}.`, password];
    },
  },
  'user:list': {
    synopsis: 'user:list',
    summary: 'list users: id  login  role',
    args: [],
    run: async ({ db }) => (await listUsers(db)).map((user) => `${user.id}  ${user.login}  ${user.role}`),
  },
  'user:role': {
    synopsis: 'user:role <login> <role>',
    summary: "change a user's role",
    args: ['login', 'role'],
    run: async ({ db, args: [login, role] }) => {
      await changeRole(db, login, role);
      return [`User "${login}" is now ${role}.`];
    },
  },
  'user:delete': {
    synopsis: 'user:delete <login>',
    summary: 'delete a user and its application passwords',
    args: ['login'],
    run: async ({ db, args: [login] }) => {
      await deleteUser(db, login);
      return [`Deleted user "${login}".`];
    },
  },
  'app-password:create': {
    synopsis: 'app-password:create <login> [--name <label>]',
    summary: 'create an application password (default name "cli"); prints it on the last line',
    args: ['login'],
    options: ['name'],
    run: async ({ db, args: [login], options, now: at }) => {
      const name = options.name ?? 'cli';
      const password = await createAppPassword(db, login, name, at);
      return [`Created application password "${name}" for "${login}".`, password];
    },
  },
  'app-password:list': {
    synopsis: 'app-password:list <login>',
    summary: "list a user's application passwords: id  name  created",
    args: ['login'],
    run: async ({ db, args: [login] }) =>
      (await listAppPasswords(db, login)).map((row) => `${row.id}  ${row.name}  ${isoDate(row.created_at)}`),
  },
  seed: {
    synopsis: 'seed [--events <n>] [--recurring-share <percent>]',
    summary:
      'fill an empty calendar with realistic data (default 10000 events, 10 % of them recurring series), with a progress bar',
    args: [],
    options: ['events', 'recurring-share'],
    writesContent: true,
    run: async ({ db, config, options }) => {
      const events = options.events === undefined ? 10_000 : positiveId(options.events);
      const share =
        options['recurring-share'] === undefined ? 10 : Number(options['recurring-share'].replace(/%$/, ''));
      if (!(share >= 0 && share <= 100)) throw new UserError('--recurring-share must be a percentage from 0 to 100');
      if ((await db.selectFrom('posts').select('id').limit(1).execute()).length > 0)
        throw new UserError('seed needs an empty calendar (no events, venues or organizers yet)');
      const started = Date.now();
      const result = await seedCalendar(db, config, {
        events,
        recurringShare: share / 100,
        onProgress: progressReporter('events'),
        onStep: stepReporter(),
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      return [
        `Seeded ${result.events} events (${result.series} recurring series with ${result.occurrences} occurrences), ${result.venues} venues, ${result.organizers} organizers, ${result.categories} categories and ${result.tags} tags in ${seconds} s.`,
      ];
    },
  },
  backup: {
    synopsis: 'backup <file> [--force]',
    summary: 'SQLite: copy the database while servers run (--force overwrites <file>); PostgreSQL: use pg_dump',
    args: ['file'],
    force: true,
    onPostgres: ([file]) => postgresBackupAdvice(file),
    run: async ({ sqlite, args: [file], force }) => {
      if (!sqlite) throw new Error('backup needs a SQLite database');
      const { path, bytes } = await backupSqlite(sqlite, file, force);
      return [`Backed up the database to ${path} (${bytes} bytes).`];
    },
  },
  'reset-epoch': {
    synopsis: 'reset-epoch',
    summary: 'after restoring a database: refuse change-feed tokens issued before (410), so clients resync',
    args: [],
    run: async ({ db }) => {
      await newEpoch(db, randomUUID());
      return ['The database has a new epoch: change-feed tokens issued before it are refused (410).'];
    },
  },
  'import:tec': {
    synopsis:
      'import:tec <site-url> [--namespace <ns>] [--auth <login:app-password>] [--keep-ids] [--dry-run] [--since <date>]',
    summary: 'import a whole TEC site (or copy another installation of this service), with a progress bar',
    args: ['site-url'],
    options: ['namespace', 'auth', 'since'],
    flags: ['keep-ids', 'dry-run'],
    writesContent: true,
    run: async ({ config, args: [site], options, flags }) => {
      const since = options.since === undefined ? undefined : sinceInstant(config, options.since);
      if (options.since !== undefined && since === undefined)
        throw new UsageError(`--since must be a date (e.g. 2026-01-31 or "-30 days"), got "${options.since}"`);
      const outcome = await runTecImport(config, {
        site,
        namespace: options.namespace,
        auth: options.auth,
        dryRun: flags.has('dry-run'),
        keepIds: flags.has('keep-ids'),
        since,
        allowPrivate: config.importAllowPrivateUrls,
        progress: (kind) => progressReporter(kind),
        onRetry: (url, reason, delay) => process.stderr.write(`retrying in ${delay / 1000} s (${reason}): ${url}\n`),
      });
      if (outcome instanceof SourceUnusable) throw new UsageError(outcome.message);
      return { lines: reportLines(outcome), exitCode: anyFailed(outcome) ? 1 : 0 };
    },
  },
  'app-password:revoke': {
    synopsis: 'app-password:revoke <login> <id>',
    summary: 'revoke one application password',
    args: ['login', 'id'],
    run: async ({ db, args: [login, id] }) => {
      await revokeAppPassword(db, login, positiveId(id));
      return [`Revoked application password ${id} of "${login}".`];
    },
  },
};

function usage(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.synopsis.length));
  const lines = Object.values(COMMANDS).map((c) => `  ${c.synopsis.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: npm run --silent cli -- <command> [args]',
    '',
    'Commands:',
    ...lines,
    `  ${'help'.padEnd(width)}  show this text`,
    '',
  ].join('\n');
}

function parse(argv: readonly string[]): {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
} {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        role: { type: 'string' },
        name: { type: 'string' },
        events: { type: 'string' },
        'recurring-share': { type: 'string' },
        namespace: { type: 'string' },
        auth: { type: 'string' },
        since: { type: 'string' },
        force: { type: 'boolean' },
        'keep-ids': { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), true);
  }
}

function checkOptions(
  name: string,
  command: Command,
  values: Record<string, string | boolean | undefined>,
): Input['options'] {
  const options: Partial<Record<OptionName, string>> = {};
  for (const option of OPTION_NAMES) {
    const value = values[option];
    if (value === undefined) continue;
    if (!command.options?.includes(option)) throw new UsageError(`${name} does not take --${option}`);
    if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${option} must not be empty`);
    options[option] = value;
  }
  for (const option of command.required ?? []) {
    if (options[option] === undefined) throw new UsageError(`missing --${option} (usage: ${command.synopsis})`);
  }
  return options;
}

function checkForce(name: string, command: Command, values: Record<string, string | boolean | undefined>): boolean {
  if (values.force !== true) return false;
  if (!command.force) throw new UsageError(`${name} does not take --force`);
  return true;
}

function checkFlags(
  name: string,
  command: Command,
  values: Record<string, string | boolean | undefined>,
): ReadonlySet<FlagName> {
  const flags = new Set<FlagName>();
  for (const flag of FLAG_NAMES) {
    if (values[flag] !== true) continue;
    if (!command.flags?.includes(flag)) throw new UsageError(`${name} does not take --${flag}`);
    flags.add(flag);
  }
  return flags;
}

function checkArgs(command: Command, args: string[]): string[] {
  if (args.length < command.args.length) {
    throw new UsageError(`missing <${command.args[args.length]}> (usage: ${command.synopsis})`);
  }
  if (args.length > command.args.length)
    throw new UsageError(`unexpected argument "${args[command.args.length]}" (usage: ${command.synopsis})`);
  command.args.forEach((arg, i) => arg === 'id' && positiveId(args[i]));
  return args;
}

type Parsed = { kind: 'help' } | { kind: 'run'; command: Command; input: Input };

function parseCommandLine(argv: readonly string[]): Parsed {
  const { values, positionals } = parse(argv);
  const [name, ...args] = positionals;
  if (values.help === true || name === undefined || name === 'help') return { kind: 'help' };
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`unknown command "${name}"`, true);
  return {
    kind: 'run',
    command,
    input: {
      args: checkArgs(command, args),
      options: checkOptions(name, command, values),
      force: checkForce(name, command, values),
      flags: checkFlags(name, command, values),
    },
  };
}

async function execute(config: Config, command: Command, input: Input): Promise<string[] | CommandResult> {
  if (command.onPostgres && dialectOf(config.databaseUrl) === 'postgres') {
    throw new UsageError(command.onPostgres(input.args));
  }
  const handle = connect(config.databaseUrl);
  try {
    const applied = await migrateToLatest(handle.db, handle.dialect);
    // As the server does at start: all-day events written here are keyed in the site zone, and a
    // server started next must not rekey every one of them (50,000 at a million seeded events).
    await syncSiteTimezone(handle.db, new Writes(handle.db, dataVersionOf(handle)), config);
    const lines = await command.run({ ...input, db: handle.db, sqlite: handle.sqlite, config, applied, now: now() });
    // Running servers drop their caches when the data version moves (changes/data-version.ts). On SQLite
    // our commits already moved it; on PostgreSQL the shared row must be bumped. Changes to users and
    // application passwords move it in their own transaction (migration 0009).
    if (command.writesContent) await dataVersionOf(handle).bump();
    return lines;
  } finally {
    await handle.close();
  }
}

function fail(message: string, code: number): number {
  process.stderr.write(`error: ${message}\n`);
  return code;
}

async function main(argv: readonly string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n${error.showUsage ? `\n${usage()}` : ''}`);
    return 2;
  }
  if (parsed.kind === 'help') {
    process.stdout.write(usage());
    return 0;
  }
  try {
    const result = await execute(loadConfig(), parsed.command, parsed.input);
    const { lines, exitCode } = Array.isArray(result) ? { lines: result, exitCode: 0 } : result;
    if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
    return exitCode;
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message, 1);
    if (error instanceof UsageError) return fail(error.message, 2);
    return fail(error instanceof Error ? error.message : String(error), 1);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
