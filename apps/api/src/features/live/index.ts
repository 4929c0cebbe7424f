import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Services } from '../../services';
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
>;

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
  const host = new SparkplugHost(services, {
    url,
    ...(broker ? broker.hostCredentials : {}),
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
    await broker?.close();
    throw error;
  }
  return {
    host,
    broker,
    brokerUrl: broker ? broker.url : redactedUrl(url),
    close: async () => {
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
