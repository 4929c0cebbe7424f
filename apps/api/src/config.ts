import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ENVIRONMENT_STAGE_NAMES } from '@portal/contracts/environment';
import { DEFAULT_GAP_WARNING_SAMPLES } from '@portal/contracts/data-health';
import { parseNetworkList } from './networks';

const onOff = z.enum(['on', 'off']);

/**
 * The job queue and the execution engine (docs/decisions/0040-execution.md): retries with exponential backoff, the
 * worker's heartbeat and polling, and the time budget of one evaluation of a calculation. Defaults for production;
 * tests shorten them.
 */
export const executionSettingsSchema = z.object({
  QUEUE_RETRY_LIMIT: z.coerce.number().int().min(0).default(4),
  QUEUE_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(5),
  QUEUE_RETRY_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).default(300),
  /** A running job sends a heartbeat every half of this; without one for this long the job is retried. */
  QUEUE_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).default(30),
  QUEUE_SUPERVISE_SECONDS: z.coerce.number().int().min(1).default(15),
  QUEUE_POLLING_SECONDS: z.coerce.number().min(0.5).default(1),
  QUEUE_CONCURRENCY: z.coerce.number().int().min(1).default(1),
  /** Retries of an alert e-mail the SMTP server did not take (backoff as above, up to the delay's maximum). */
  ALERTS_EMAIL_RETRY_LIMIT: z.coerce.number().int().min(0).default(20),
  /**
   * How long a stream's first request for a ship waits before its window execution starts (seconds), so the
   * requests of the samples that follow within it join the same run (docs/decisions/0122-live-windows.md).
   */
  LIVE_WINDOW_DEBOUNCE_SECONDS: z.coerce.number().min(0).max(60).default(2),
  /** Time budget (ms) of one evaluation of a calculation; none when unset. */
  EXECUTION_BUDGET_MS: z.coerce.number().positive().optional(),
});
export type ExecutionSettings = z.infer<typeof executionSettingsSchema>;

/** A yes/no setting: true/false, on/off or 1/0 (a parsed configuration's boolean reads as itself). */
const flag = z.union([
  z.boolean(),
  z.enum(['true', 'false', 'on', 'off', '1', '0']).transform((v) => v === 'true' || v === 'on' || v === '1'),
]);

/**
 * Webhook deliveries (docs/decisions/0092-webhooks.md): the time one attempt may take, the retries' exponential
 * backoff (first delay, doubled per attempt up to the longest delay, for as long as the retry window), how many
 * deliveries a worker sends at once, and the networks beyond public addresses that webhooks may reach.
 */
export const webhookSettingsSchema = z.object({
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().positive().default(30),
  WEBHOOK_RETRY_DELAY_MAX_SECONDS: z.coerce.number().positive().default(3600),
  WEBHOOK_RETRY_WINDOW_SECONDS: z.coerce
    .number()
    .min(0)
    .default(24 * 3600),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).default(4),
  /** Loopback, private and link-local networks (not the cloud metadata address): for a receiver inside the operator's network. */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: flag.default(false),
  /** Comma-separated networks (CIDR) webhooks may reach whatever they are, e.g. 10.20.0.0/16. */
  WEBHOOK_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .superRefine((value, ctx) => {
      const parsed = parseNetworkList(value);
      if ('invalid' in parsed)
        ctx.addIssue({
          code: 'custom',
          message: `'${parsed.invalid}' is not a network such as 10.20.0.0/16`,
        });
    }),
});
export type WebhookSettings = z.infer<typeof webhookSettingsSchema>;
/**
 * Alerts and their e-mail (docs/decisions/0091-alerts.md). Without SMTP_URL mail goes to the embedded outbox that a
 * SystemAdmin reads at /admin/outbox.
 */
export const alertSettingsSchema = z.object({
  /** smtp://[user:password@]host[:port] or smtps://...; unset: the embedded outbox. */
  SMTP_URL: z
    .string()
    .url()
    .refine((url) => /^smtps?:\/\//i.test(url), 'Use an smtp:// or smtps:// address')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Scrubber Fleet Monitoring <alerts@localhost>'),
  /** Event changes older than this (the event's end, or its latest data while it lasts) alert nobody: backfills stay quiet. */
  ALERTS_MAX_AGE_HOURS: z.coerce.number().positive().default(72),
  /** The hour (UTC, 0-23) from which the daily digest of the day before goes out. */
  ALERTS_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(6),
  /** How often the sweep looks for alerts not fanned out, reminders due and digests due. */
  ALERTS_SWEEP_SECONDS: z.coerce.number().min(1).default(60),
});
export type AlertConfig = z.infer<typeof alertSettingsSchema>;

/**
 * Sending the UK ETS annual emissions report to the regulator's METS API (features/uk-ets, docs/decisions/
 * 0114-uk-ets-and-ovd.md): off unless METS_SEND is on, and then both the API's base URL (e.g. the production
 * service's .../maritime/api) and the operator's token are needed. The token is sent as a bearer token and never
 * shown or logged.
 */
export const metsSettingsSchema = z.object({
  METS_SEND: flag.default(false),
  METS_API_URL: z
    .string()
    .url()
    .refine((url) => /^https?:\/\//i.test(url), 'Use an http:// or https:// address')
    .optional(),
  METS_API_TOKEN: z.string().min(1).optional(),
  METS_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
});
export type MetsSettings = z.infer<typeof metsSettingsSchema>;

/**
 * Live data over MQTT Sparkplug B (features/live, docs/decisions/0120-live-sparkplug-host.md). With MQTT_URL the
 * portal is a host application on that broker; without it, it runs an embedded broker (aedes) on MQTT_PORT that
 * admits each ship's edge node by its upload credential. MQTT_GROUP_ID is the Sparkplug group the portal reads (a
 * test sharing a broker uses a group of its own).
 */
const mqttAddress = z
  .string()
  .url()
  .refine((url) => /^mqtts?:\/\//i.test(url), 'Use an mqtt:// or mqtts:// address');

export const liveSettingsSchema = z.object({
  LIVE: onOff.default('on'),
  /** mqtt://[user:password@]host[:port] or mqtts://... (TLS); unset: the embedded broker. */
  MQTT_URL: mqttAddress.optional(),
  /**
   * The broker address the ships' edge nodes use, written into the downloaded uploader's config.json (shipBrokerUrl);
   * unset: MQTT_URL without its user and password, or else the embedded broker: MQTT_PORT on PUBLIC_URL's host.
   */
  MQTT_PUBLIC_URL: mqttAddress.optional(),
  /**
   * A CA certificate file (PEM) for an mqtts:// broker whose certificate a private CA signed: the portal's host trusts
   * it, and the uploader package carries it to the ships (docs/decisions/0131-mosquitto-credentials-and-tls.md).
   */
  MQTT_CA_FILE: z.string().min(1).optional(),
  /**
   * `on`: MQTT_URL's broker is a Mosquitto with the dynamic security plugin and MQTT_URL's user its admin: the portal
   * makes each upload credential a broker client with its ship's topic ACL, and deletes it when revoked
   * (features/ship-info/broker-credentials.ts, deploy/mosquitto/).
   */
  MQTT_DYNSEC: onOff.default('off'),
  /** The embedded broker's port (0: any free port, for tests); 1884, not MQTT's 1883, which a real broker may hold. */
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1884),
  /** The address the embedded broker listens on. */
  MQTT_HOST: z.string().default('0.0.0.0'),
  /** Sparkplug group id: a topic level, so no '/', '+' or '#' (Sparkplug 3.0 tck-id-intro-group-id-chars). */
  MQTT_GROUP_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'Use letters, digits, dot, dash or underscore (at most 64)')
    .default('psdu'),
  /** The host application id of the portal's STATE topic spBv1.0/STATE/<id>. */
  MQTT_HOST_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'Use letters, digits, dot, dash or underscore (at most 64)')
    .default('psdu-portal'),
  /**
   * The demo's first ship streams its current minute through the embedded broker (seed/demo-stream.ts). The browser
   * tests turn it off: their figures must not move between a page and the API, while their own ship streams.
   */
  DEMO_STREAM: onOff.default('on'),
  /** Stream samples are executed in batches: the touched range of each ship at most this often. */
  LIVE_EXECUTION_BATCH_SECONDS: z.coerce.number().min(0).default(10),
});
export type LiveSettings = z.infer<typeof liveSettingsSchema>;

/** Every setting the server reads, checked at start (README lists them). */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url().optional(),
  /**
   * A PostgreSQL streaming replica of DATABASE_URL's database: dashboard and list reads go there, with
   * read-your-writes (storage/read-routing.ts, docs/decisions/0126-reads-off-the-primary.md).
   */
  DATABASE_READ_URL: z
    .string()
    .url()
    .refine((url) => /^postgres(ql)?:\/\//i.test(url), 'Use a postgres:// or postgresql:// address')
    .optional(),
  DATA_DIR: z.string().default('./data'),
  /**
   * Where uploaded files' originals are kept when several API nodes share them: an S3-compatible bucket,
   * s3://bucket[/prefix][?endpoint=http://host:port&region=eu-north-1&forcePathStyle=true] (storage/originals-s3.ts;
   * credentials from the usual AWS variables). Unset: in the database on PostgreSQL, beside the database on PGlite.
   */
  ORIGINALS_URL: z.string().min(1).optional(),
  DEMO: onOff.optional(),
  DEMO_SHIPS: z.coerce.number().int().min(1).max(200).default(6),
  DEMO_DAYS: z.coerce.number().int().min(1).max(730).default(60),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().default('portal-web'),
  OIDC_AUDIENCE: z.string().default('urn:scrubber-portal:api'),
  ENVIRONMENT_STAGE: z.enum(ENVIRONMENT_STAGE_NAMES).default('Local'),
  ENVIRONMENT_DISCLAIMER: z.string().optional(),
  // The footer's and the help page's support phone; none by default (no made-up number): the line is not shown.
  SUPPORT_PHONE: z.string().trim().default(''),
  COMPANY_TEXT: z.string().default('Scrubber Fleet Monitoring'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRACE_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.3),
  LOGIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(512 * 1024 * 1024),
  /** An upload warns of time gaps longer than this many samples of the data source's measure frequency. */
  UPLOAD_GAP_WARNING_SAMPLES: z.coerce.number().int().min(1).default(DEFAULT_GAP_WARNING_SAMPLES),
  WEB_DIST: z.string().optional(),
  /** The first SystemAdmin, created at start when no SystemAdmin exists (docs/operations.md); never overwrites. */
  ADMIN_USERNAME: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  ...executionSettingsSchema.shape,
  ...webhookSettingsSchema.shape,

  // The HTTP layer and its routes (app.ts, features/reports, features/settings).
  /** Proxies whose X-Forwarded-For is believed (app.ts trustProxySetting): unset or 'false' none, 'true' any, or a comma-separated list of addresses or CIDR ranges. */
  TRUST_PROXY: z.string().optional(),
  /** Report data answers kept per process (features/reports/cache.ts); 0 turns the answer cache off. */
  REPORT_DATA_CACHE_ENTRIES: z.coerce.number().int().min(0).default(2000),
  /** The build GET /api/version names; unset, the git commit of the checkout (or the day). */
  BUILD_NUMBER: z.string().optional(),

  // Alerts and e-mail (features/alerts, docs/decisions/0091-alerts.md).
  ...alertSettingsSchema.shape,

  // UK ETS: sending the annual emissions report to METS (features/uk-ets).
  ...metsSettingsSchema.shape,

  // Live data over MQTT Sparkplug B (features/live).
  ...liveSettingsSchema.shape,
});

export type RawConfig = z.infer<typeof configSchema>;
export interface Config extends RawConfig {
  publicUrl: string;
  dataDir: string;
  /** ORIGINALS_URL read: the bucket of the originals, or null for the database's own store. */
  originalsBucket: ObjectStoreSettings | null;
  /** MQTT_CA_FILE read at start, or null. */
  mqttCa: Buffer | null;
  issuer: string;
  embeddedIssuer: boolean;
  services: { web: boolean; worker: boolean };
}

export class ConfigError extends Error {}

/**
 * Where a ship's edge node publishes (the uploader package's `mqttUrl`), or null when live data is off: MQTT_PUBLIC_URL,
 * else MQTT_URL without the portal's own user and password (a ship signs in with its facility id and upload token),
 * else the embedded broker, reached on PUBLIC_URL's host at MQTT_PORT.
 */
export function shipBrokerUrl(
  config: Pick<Config, 'LIVE' | 'MQTT_PUBLIC_URL' | 'MQTT_URL' | 'MQTT_PORT' | 'publicUrl'>,
): string | null {
  if (config.LIVE === 'off') return null;
  if (config.MQTT_PUBLIC_URL) return config.MQTT_PUBLIC_URL;
  if (config.MQTT_URL) {
    const url = new URL(config.MQTT_URL);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  }
  return `mqtt://${new URL(config.publicUrl).hostname}:${config.MQTT_PORT}`;
}

/** An S3-compatible bucket (ORIGINALS_URL), as the AWS SDK's S3Client and its commands take it. */
export interface ObjectStoreSettings {
  bucket: string;
  /** Prepended to every key, '' or ending in '/'. */
  prefix: string;
  /** Another server than AWS's (MinIO, Ceph, s3rver, ...); absent: AWS's own for the region. */
  endpoint?: string;
  region: string;
  /** The bucket in the path (http://host/bucket/key) instead of the host name: what most S3-compatible servers need. */
  forcePathStyle: boolean;
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Reads ORIGINALS_URL: s3://bucket[/prefix][?endpoint=...&region=...&forcePathStyle=true]. The region may come from
 * AWS_REGION (or AWS_DEFAULT_REGION) instead; the credentials always come from the AWS SDK's usual places
 * (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance role), never from the URL.
 */
export function parseOriginalsUrl(
  value: string,
  env: NodeJS.ProcessEnv,
): ObjectStoreSettings | { invalid: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { invalid: 'Use s3://bucket?endpoint=...&region=... (not an address)' };
  }
  if (url.protocol !== 's3:') return { invalid: 'Use an s3:// address: s3://bucket?region=...' };
  if (url.username || url.password)
    return {
      invalid:
        'Put no credentials in ORIGINALS_URL: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or a profile or role)',
    };
  const bucket = url.hostname;
  // Bucket names: 3-63 lower-case letters, digits, dots and hyphens, beginning and ending with a letter or digit
  // (Amazon S3 User Guide, "General purpose bucket naming rules").
  if (!BUCKET_NAME.test(bucket))
    return { invalid: `'${bucket}' is not a bucket name (3-63 lower-case letters, digits, dots, hyphens)` };
  const known = new Set(['endpoint', 'region', 'forcePathStyle']);
  const unknown = [...url.searchParams.keys()].find((k) => !known.has(k));
  if (unknown) return { invalid: `Unknown setting '${unknown}' (use endpoint, region, forcePathStyle)` };
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/]+/i.test(endpoint))
    return { invalid: `endpoint '${endpoint}' is not an http:// or https:// address` };
  const region = url.searchParams.get('region') ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!region) return { invalid: "Name the bucket's region: ?region=... or AWS_REGION" };
  const style = url.searchParams.get('forcePathStyle');
  if (style !== null && style !== 'true' && style !== 'false')
    return { invalid: `forcePathStyle is true or false, not '${style}'` };
  const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  return {
    bucket,
    prefix: path ? `${path}/` : '',
    ...(endpoint ? { endpoint } : {}),
    region,
    forcePathStyle: style === 'true',
  };
}

function objectStoreOf(parsed: ReturnType<typeof parseOriginalsUrl>): ObjectStoreSettings {
  if ('invalid' in parsed)
    throw new ConfigError(`Invalid configuration:\n  ORIGINALS_URL: ${parsed.invalid}`);
  return parsed;
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  argv: string[] = process.argv.slice(2),
): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(env[String(i.path[0])])})`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  if (raw.DATABASE_READ_URL && !raw.DATABASE_URL)
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_READ_URL is a replica of DATABASE_URL: set DATABASE_URL too (the embedded database has no replica)',
    );
  if (Boolean(raw.ADMIN_USERNAME) !== Boolean(raw.ADMIN_PASSWORD))
    throw new ConfigError(
      'Invalid configuration:\n  ADMIN_USERNAME and ADMIN_PASSWORD go together: set both or neither',
    );
  if (raw.METS_SEND && (!raw.METS_API_URL || !raw.METS_API_TOKEN))
    throw new ConfigError(
      'Invalid configuration:\n  METS_SEND is on: set METS_API_URL and METS_API_TOKEN too (or turn METS_SEND off)',
    );
  if (raw.MQTT_DYNSEC === 'on') {
    const url = raw.MQTT_URL ? new URL(raw.MQTT_URL) : null;
    if (!url?.username || !url.password)
      throw new ConfigError(
        "Invalid configuration:\n  MQTT_DYNSEC is on: set MQTT_URL with the broker's dynamic security admin as user:password (mqtts://user:password@host:8883)",
      );
  }
  let mqttCa: Buffer | null = null;
  if (raw.MQTT_CA_FILE) {
    const file = path.resolve(env.INIT_CWD ?? process.cwd(), raw.MQTT_CA_FILE);
    try {
      mqttCa = fs.readFileSync(file);
    } catch (error) {
      throw new ConfigError(
        `Invalid configuration:\n  MQTT_CA_FILE: ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
    if (!mqttCa.toString('utf8').includes('-----BEGIN CERTIFICATE-----'))
      throw new ConfigError(`Invalid configuration:\n  MQTT_CA_FILE: ${file} is not a PEM certificate`);
  }
  // Read here, before anything starts: a mistyped bucket stops the start, not the first upload.
  const originalsBucket = raw.ORIGINALS_URL ? objectStoreOf(parseOriginalsUrl(raw.ORIGINALS_URL, env)) : null;
  const publicUrl = (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, '');
  const servicesArg = argv.find((a) => a.startsWith('--services='))?.slice('--services='.length);
  const services = servicesArg ? servicesArg.split(',') : ['web', 'worker'];
  for (const s of services)
    if (s !== 'web' && s !== 'worker')
      throw new ConfigError(`Unknown service '${s}' in --services (use web, worker)`);
  return {
    ...raw,
    publicUrl,
    // Relative to where `npm start` was typed (npm runs the API's script inside apps/api).
    dataDir: path.resolve(env.INIT_CWD ?? process.cwd(), raw.DATA_DIR),
    originalsBucket,
    mqttCa,
    issuer: raw.OIDC_ISSUER ?? `${publicUrl}/oidc`,
    embeddedIssuer: !raw.OIDC_ISSUER,
    services: { web: services.includes('web'), worker: services.includes('worker') },
  };
}
