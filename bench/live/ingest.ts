/**
 * Samples per second per ship through the broker into storage (issue 33, docs/decisions/0120-live-sparkplug-host.md):
 * one ship's edge node (raw mqtt + sparkplug-payload, as the contract says) publishes DDATA of CHANNELS channels,
 * one timestamp per message, into the embedded broker (or MQTT_URL's, e.g. the machine's Mosquitto); the portal's
 * host decodes, checks and stores them through storage/samples.ts. Measured from the first publish until the host
 * has handled the last message and every sample is in stream_samples. Executions are not run (onStored counts only).
 *
 * Run: npx tsx bench/live/ingest.ts [--smoke] [--mosquitto]
 */
import { cpus, loadavg } from 'node:os';
import { startTestServer } from '../../apps/api/test/harness';
import {
  TestEdgeNode,
  hostHandled,
  streamDataSource,
  uploadToken,
  uniqueGroup,
  MOSQUITTO_URL,
} from '../../apps/api/test/live-fixtures';
import { startLive } from '../../apps/api/src/features/live';
import pino from 'pino';

const smoke = process.argv.includes('--smoke');
const mosquitto = process.argv.includes('--mosquitto');
const CHANNELS = 20;
const MESSAGES = smoke ? 50 : 1500;

const server = await startTestServer({ jobs: 'none' });
const ship = Object.values(server.seed.facilityIds)[0]!;
const source = await streamDataSource(server, ship);
const { token } = await uploadToken(server, ship);
const groupId = uniqueGroup();
const live = await startLive(
  server.services,
  {
    MQTT_URL: mosquitto ? MOSQUITTO_URL : undefined,
    MQTT_PORT: 0,
    MQTT_HOST: '127.0.0.1',
    MQTT_GROUP_ID: groupId,
    MQTT_HOST_ID: `bench-${groupId}`,
    LIVE_EXECUTION_BATCH_SECONDS: 10,
  },
  pino({ level: 'silent' }),
  { onStored: async () => undefined },
);
const edge = await TestEdgeNode.connect(live.brokerUrl, groupId, ship, token);
await edge.nbirth();
await edge.dbirth(
  source,
  Array.from({ length: CHANNELS }, (_, i) => ({ name: `CH_${i}`, alias: i + 1 })),
);
await hostHandled(live, 2);
const t0 = Date.now() - 24 * 3600_000;
const started = performance.now();
for (let m = 0; m < MESSAGES; m++)
  await edge.ddata(
    source,
    Array.from({ length: CHANNELS }, (_, i) => ({ alias: i + 1, time: t0 + m * 1000, value: m + i / 10 })),
  );
await hostHandled(live, 2 + MESSAGES);
const seconds = (performance.now() - started) / 1000;
const stored = live.host.counts.stored;
if (stored !== MESSAGES * CHANNELS)
  throw new Error(`stored ${stored} samples, expected ${MESSAGES * CHANNELS}`);
const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(
  `live/ingest (${mosquitto ? 'Mosquitto' : 'embedded broker'}, ${server.services.database.kind ?? (process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite')}): ` +
    `${MESSAGES} messages x ${CHANNELS} channels = ${stored} samples in ${seconds.toFixed(2)} s: ` +
    `${Math.round(stored / seconds)} samples/s for one ship (${Math.round(MESSAGES / seconds)} messages/s); ` +
    `CPU ${cpus()[0]?.model ?? '?'} x${cpus().length}, load ${load}`,
);
await edge.close();
await live.close();
await server.close();
