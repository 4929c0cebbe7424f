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

/** Every setting the server reads, checked at start (README lists them). */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
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
});

export type RawConfig = z.infer<typeof configSchema>;
export interface Config extends RawConfig {
  publicUrl: string;
  dataDir: string;
  issuer: string;
  embeddedIssuer: boolean;
  services: { web: boolean; worker: boolean };
}

export class ConfigError extends Error {}

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
  if (Boolean(raw.ADMIN_USERNAME) !== Boolean(raw.ADMIN_PASSWORD))
    throw new ConfigError(
      'Invalid configuration:\n  ADMIN_USERNAME and ADMIN_PASSWORD go together: set both or neither',
    );
  if (raw.METS_SEND && (!raw.METS_API_URL || !raw.METS_API_TOKEN))
    throw new ConfigError(
      'Invalid configuration:\n  METS_SEND is on: set METS_API_URL and METS_API_TOKEN too (or turn METS_SEND off)',
    );
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
    issuer: raw.OIDC_ISSUER ?? `${publicUrl}/oidc`,
    embeddedIssuer: !raw.OIDC_ISSUER,
    services: { web: services.includes('web'), worker: services.includes('worker') },
  };
}
