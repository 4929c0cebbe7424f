import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Where dashboard and list reads go (docs/decisions/0126-reads-off-the-primary.md). With DATABASE_READ_URL they go to
 * a PostgreSQL streaming replica, except:
 *
 * - read-your-writes: after a reader (a user or an API key, by `Caller.userId`) changed something, its reads go to
 *   the primary until the replica has replayed past the primary's WAL location taken when that request ended
 *   (`pg_current_wal_lsn()` on the primary against `pg_last_wal_replay_lsn()` on the replica). Every process learns
 *   every reader's location at once through PostgreSQL's LISTEN/NOTIFY on the primary, so the next read on another
 *   API process behind a load balancer goes to the primary too; while a process does not listen (its listening
 *   connection lost), all its reads go to the primary;
 * - a replica that does not answer: reads go to the primary, with one warning when that starts and a note when it
 *   ends; it is asked again every DOWN_RETRY_MS.
 *
 * Writes and every other read always go to the primary (`DatabaseHandle.db`). One home: routes only say that they
 * are a dashboard or list read (`config.reads: 'replica'`, app.ts), never where the read goes.
 */
export interface ReadRouting {
  /** Whether a read replica is configured (DATABASE_READ_URL). */
  readonly replica: boolean;
  /** The database a reader's dashboard and list reads go to now (the primary without a replica). */
  readsOf(reader: string | undefined): Promise<Kysely<Database>>;
  /**
   * After a reader's request that may have changed something (app.ts, before the answer is sent): its reads stay on
   * the primary, in every process, until the replica has replayed past the primary's present WAL location.
   */
  wrote(reader: string): Promise<void>;
  close(): Promise<void>;
}

export interface ReadRoutingLog {
  warn(message: string): void;
  info(message: string): void;
}

/** Without DATABASE_READ_URL: every read on the primary, nothing to follow. */
export function primaryReads(primary: Kysely<Database>): ReadRouting {
  return {
    replica: false,
    readsOf: async () => primary,
    wrote: async () => undefined,
    close: async () => undefined,
  };
}

/** The NOTIFY channel of the readers' write locations: payload `<lsn> <reader>`. */
export const READ_AFTER_CHANNEL = 'portal_read_after';
/** How long a replica that did not answer is left alone before it is asked again. */
const DOWN_RETRY_MS = 5_000;
/** A replica that does not accept a connection within this is taken as down (a refused one fails at once). */
const CONNECT_TIMEOUT_MS = 2_000;
/** How long a process waits before it listens again after its listening connection was lost. */
const LISTEN_RETRY_MS = 1_000;
/** Readers' write locations kept before those the replica has passed are dropped. */
const PENDING_PRUNE_AT = 10_000;

/** A WAL location as PostgreSQL writes it (`16/B374D848`) as a number that compares. */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text.trim());
  if (!match) throw new Error(`not a WAL location: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export interface ReplicaReadsOptions {
  primary: Kysely<Database>;
  primaryPool: pg.Pool;
  primaryUrl: string;
  replicaUrl: string;
  log: ReadRoutingLog;
  poolSize?: number;
}

export async function replicaReads(options: ReplicaReadsOptions): Promise<ReadRouting> {
  const { primary, primaryPool, primaryUrl, replicaUrl, log } = options;
  const replicaPool = new pg.Pool({
    connectionString: replicaUrl,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // As for the primary (db/connection.ts): a connection the replica ends must not end the process.
  replicaPool.on('error', (error) => log.warn(`read replica connection lost while idle: ${error.message}`));
  replicaPool.on('connect', (client) => client.on('error', () => undefined));

  let down = false;
  let retryAt = 0;
  const markDown = (error: unknown) => {
    if (!down)
      log.warn(
        `The read replica does not answer (${error instanceof Error ? error.message : String(error)}): dashboard and list reads go to the primary until it does`,
      );
    down = true;
    retryAt = Date.now() + DOWN_RETRY_MS;
  };
  const markUp = () => {
    if (down) log.info('The read replica answers again: dashboard and list reads go to it');
    down = false;
  };
  const resting = () => down && Date.now() < retryAt;

  // The replica's connections, or the primary's when the replica refuses one (it stopped since it was last asked).
  const replicaOrPrimary = {
    async connect() {
      if (resting()) return primaryPool.connect();
      try {
        const client = await replicaPool.connect();
        markUp();
        return client;
      } catch (error) {
        markDown(error);
        return primaryPool.connect();
      }
    },
    end: () => replicaPool.end(),
  };
  const replica = new Kysely<Database>({ dialect: new PostgresDialect({ pool: replicaOrPrimary }) });

  // The replica's replayed location: it only grows, so the last one seen is a floor; asked again when a reader's
  // write is past it (one question at a time, shared by the readers waiting for it).
  let replayed = -1n;
  let asking: Promise<bigint | undefined> | undefined;
  const replayedNow = () =>
    (asking ??= (async () => {
      try {
        if (resting()) return undefined;
        const { rows } = await replicaPool.query<{ lsn: string | null }>(
          // A server that is no standby (DATABASE_READ_URL naming a primary) has replayed all it wrote.
          'select (case when pg_is_in_recovery() then pg_last_wal_replay_lsn() else pg_current_wal_lsn() end)::text as lsn',
        );
        markUp();
        const lsn = rows[0]?.lsn ? parseLsn(rows[0].lsn) : 0n;
        if (lsn > replayed) replayed = lsn;
        return lsn;
      } catch (error) {
        markDown(error);
        return undefined;
      } finally {
        asking = undefined;
      }
    })());

  // Each reader's latest write location, from this process and, through NOTIFY, every other.
  const pending = new Map<string, bigint>();
  const note = (payload: string) => {
    const space = payload.indexOf(' ');
    if (space < 0) return;
    let lsn: bigint;
    try {
      lsn = parseLsn(payload.slice(0, space));
    } catch {
      return;
    }
    const reader = payload.slice(space + 1);
    if ((pending.get(reader) ?? -1n) < lsn) pending.set(reader, lsn);
    if (pending.size > PENDING_PRUNE_AT)
      for (const [key, at] of pending) if (at <= replayed) pending.delete(key);
  };

  let closed = false;
  let listening: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const listen = async () => {
    retry = undefined;
    if (closed) return;
    const client = new pg.Client({ connectionString: primaryUrl });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (listening === client) listening = undefined;
      void client.end().catch(() => undefined);
      if (closed) return;
      log.warn(
        `Not listening for other processes' writes${error ? ` (${error.message})` : ''}: this process reads from the primary until it listens again`,
      );
      retry = setTimeout(() => void listen(), LISTEN_RETRY_MS);
      retry.unref();
    };
    client.on('notification', (message) => {
      if (message.channel === READ_AFTER_CHANNEL && message.payload) note(message.payload);
    });
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN ${READ_AFTER_CHANNEL}`);
      if (closed) await client.end();
      else listening = client;
    } catch (error) {
      onLost(error instanceof Error ? error : new Error(String(error)));
    }
  };
  await listen();

  return {
    replica: true,
    async readsOf(reader) {
      if (!listening || resting()) return primary;
      const wroteAt = reader === undefined ? undefined : pending.get(reader);
      if (wroteAt === undefined) return replica;
      if (replayed < wroteAt) {
        const now = await replayedNow();
        if (now === undefined || now < wroteAt) return primary;
      }
      pending.delete(reader!);
      return replica;
    },
    async wrote(reader) {
      // The location when the request's changes have committed; NOTIFY tells every process, this one included.
      const { rows } = await primaryPool.query<{ lsn: string }>(
        `select l::text as lsn, pg_notify($1, l::text || ' ' || $2) from pg_current_wal_lsn() l`,
        [READ_AFTER_CHANNEL, reader],
      );
      if (rows[0]) note(`${rows[0].lsn} ${reader}`);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await listening?.end().catch(() => undefined);
      await replica.destroy();
    },
  };
}
