import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config';
import { migrateToLatest } from './db/migrate';
import { createFirstAdministrator } from './features/users/first-admin';
import { seedPlatform } from './seed/platform';
import { openDatabase } from './storage/database';

const USAGE = `Usage: cli.ts migrate|seed
       cli.ts admin:create [--username NAME] [--organization NAME]
         The first SystemAdmin of a deployment without the demo (docs/operations.md). The password is asked for on
         a terminal; otherwise it is read from ADMIN_PASSWORD or from the first line of standard input.`;

const command = process.argv[2];
let config: Config;
try {
  config = loadConfig(process.env, []);
} catch (error) {
  // A bad value: its message and exit code 2, as the server's start says it.
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}

if (command === 'admin:create') {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { username: { type: 'string' }, organization: { type: 'string' } },
  });
  const username = values.username ?? config.ADMIN_USERNAME ?? (await ask('Username: '));
  const password = config.ADMIN_PASSWORD ?? (await readPassword());
  await withDatabase(async (db) => {
    const outcome = await createFirstAdministrator(db, {
      username,
      password,
      organizationName: values.organization,
      by: 'admin:create',
    });
    if (outcome.created) {
      console.log(`Created the SystemAdmin ${outcome.username}: sign in with this username and password.`);
    } else {
      console.error(outcome.message);
      process.exitCode = outcome.reason === 'exists' ? 3 : 2;
    }
  });
} else if (command === 'migrate' || command === 'seed') {
  await withDatabase(async (db) => {
    if (command === 'seed') {
      const result = await seedPlatform(db, { ships: config.DEMO_SHIPS });
      console.log(
        result.created ? 'Demo organizations, users and ships created.' : 'The demo data was already there.',
      );
    }
  });
} else {
  console.error(USAGE);
  process.exitCode = 2;
}

async function withDatabase(
  work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<void>,
): Promise<void> {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    originalsBucket: config.originalsBucket,
  });
  try {
    const applied = await migrateToLatest(database.db);
    console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'The database is up to date.');
    await work(database.db);
  } finally {
    await database.close();
  }
}

/** A line typed on the terminal, shown as typed. */
async function ask(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/** On a terminal: typed twice without echo. Otherwise: the first line of standard input (scripts). */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  }
  const first = await askHidden('Password: ');
  const again = await askHidden('Password again: ');
  if (first !== again) {
    console.error('Passwords must match');
    process.exit(2);
  }
  return first;
}

function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    process.stdout.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    let typed = '';
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\u0003') {
          process.stdout.write('\n');
          process.exit(130);
        } else if (char === '\r' || char === '\n' || char === '\u0004') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stdout.write('\n');
          resolve(typed);
          return;
        } else if (char === '\u007f' || char === '\b') {
          typed = typed.slice(0, -1);
        } else {
          typed += char;
        }
      }
    };
    stdin.on('data', onData);
  });
}
