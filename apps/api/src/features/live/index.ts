import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Services } from '../../services';
import { brokerAdminOf, reconcileBroker } from '../ship-info/broker-credentials';
import { startEmbeddedBroker, type EmbeddedBroker } from './broker';
import { onStreamSamplesStored } from './execute';
import { SparkplugHost, type SparkplugHostOptions } from './host';

export { SparkplugHost } from './host';
export { onStreamSamplesStored } from './execute';
export { streamHealth } from './queries';

/** The live stream of a running portal: the host application and, without MQTT_URL, the embedded broker. */
export interface Live {
  host: SparkplugHost;
  broker: EmbeddedBroker | null;
  /** Where edge nodes connect (the banner's line). */
  brokerUrl: string;
  close(): Promise<void>;
}

type LiveConfig = Pick<
  Config,
  'MQTT_URL' | 'MQTT_PORT' | 'MQTT_HOST' | 'MQTT_GROUP_ID' | 'MQTT_HOST_ID' | 'LIVE_EXECUTION_BATCH_SECONDS'
> &
  Partial<Pick<Config, 'MQTT_DYNSEC' | 'mqttCa'>>;

/** How often the broker's ship credentials are brought in step with the database (MQTT_DYNSEC). */
const RECONCILE_INTERVAL_MS = 10 * 60_000;

/**
 * Starts the live stream (docs/decisions/0120-live-sparkplug-host.md): the embedded broker unless MQTT_URL names
 * one, then the host application on it. `onStored` is the execution of what was stored (onStreamSamplesStored unless
 * a test or the bench hands its own).
 */
export async function startLive(
  services: Services,
  config: LiveConfig,
  log: Logger,
  options: { onStored?: SparkplugHostOptions['onStored']; now?: () => number } = {},
): Promise<Live> {
  const broker = config.MQTT_URL
    ? null
    : await startEmbeddedBroker(services.database.db, {
        port: config.MQTT_PORT,
        host: config.MQTT_HOST,
        groupId: config.MQTT_GROUP_ID,
        hostId: config.MQTT_HOST_ID,
      });
  const url = config.MQTT_URL ?? broker!.url;
  // A Mosquitto with the dynamic security plugin: the host's own role and the ships' credentials first (decision 0131).
  const admin = brokerAdminOf({ ...config, LIVE: 'on', MQTT_DYNSEC: config.MQTT_DYNSEC ?? 'off' });
  const reconcile = async () => {
    if (!admin) return;
    const { removed, missing } = await reconcileBroker(services.database.db, admin);
    if (removed.length)
      log.info(`Live: ${removed.length} revoked upload credential(s) deleted from the MQTT broker`);
    if (missing.length)
      log.warn(
        { missing },
        `Live: ${missing.length} upload credential(s) are not on the MQTT broker (issued before it was set up): their ships cannot stream until a new credential is provisioned`,
      );
  };
  await reconcile();
  const reconciling = admin
    ? setInterval(
        () =>
          void reconcile().catch((error: unknown) =>
            log.warn({ err: error }, 'Live: the MQTT broker credentials were not reconciled'),
          ),
        RECONCILE_INTERVAL_MS,
      )
    : null;
  reconciling?.unref();
  const host = new SparkplugHost(services, {
    url,
    ...(broker ? broker.hostCredentials : {}),
    ...(config.mqttCa ? { ca: config.mqttCa } : {}),
    groupId: config.MQTT_GROUP_ID,
    hostId: config.MQTT_HOST_ID,
    batchMs: config.LIVE_EXECUTION_BATCH_SECONDS * 1000,
    log,
    onStored:
      options.onStored ?? ((facilityId, touched) => onStreamSamplesStored(services, facilityId, touched)),
    now: options.now,
  });
  try {
    await host.start();
  } catch (error) {
    if (reconciling) clearInterval(reconciling);
    await broker?.close();
    throw error;
  }
  return {
    host,
    broker,
    brokerUrl: broker ? broker.url : redactedUrl(url),
    close: async () => {
      if (reconciling) clearInterval(reconciling);
      await host.stop();
      await broker?.close();
    },
  };
}

/** An MQTT_URL without its password, for the banner and the log. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return 'the configured broker';
  }
}
