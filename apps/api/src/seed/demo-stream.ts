import { DEMO_SHIPS } from '@portal/demo-fleet';
import { startDemoStream, type DemoStream } from '@portal/edge';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { createUploadCredential } from '../features/ship-info/credentials';

export interface DemoLive {
  shipName: string;
  stop(): Promise<void>;
}

/**
 * One demo ship streaming live through the embedded broker (issue 33: "the demo fleet streams"): the first demo
 * ship of the database publishes the demo fleet's values of each current minute as its gateway would, over MQTT
 * Sparkplug B through packages/edge, signed in with an upload credential made for this start and revoked at its stop.
 * Nothing when the demo fleet's first ship or its logger data source is not there (a portal without the demo).
 */
export async function startDemoLive(
  db: Kysely<Database>,
  options: { brokerUrl: string; groupId: string; log: { info(m: string): void; warn(m: string): void } },
): Promise<DemoLive | null> {
  const ship = DEMO_SHIPS[0]!;
  const facility = await db
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('imo', '=', ship.imo)
    .executeTakeFirst();
  if (!facility) return null;
  const dataSource = await db
    .selectFrom('facility_data_sources')
    .select('id')
    .where('facility_id', '=', facility.id)
    .orderBy('is_primary', 'desc')
    .orderBy('created_on')
    .executeTakeFirst();
  if (!dataSource) return null;
  const { row, token } = await createUploadCredential(db, facility.id, null);
  let stream: DemoStream;
  try {
    stream = startDemoStream({
      mqttUrl: options.brokerUrl,
      groupId: options.groupId,
      facilityId: facility.id,
      token,
      dataSourceId: dataSource.id,
      shipKey: ship.key,
      log: (level, message) =>
        level === 'info'
          ? options.log.info(`demo stream: ${message}`)
          : options.log.warn(`demo stream: ${message}`),
    });
  } catch (error) {
    await db
      .updateTable('upload_credentials')
      .set({ revoked_on: new Date() })
      .where('id', '=', row.id)
      .execute();
    throw error;
  }
  return {
    shipName: facility.name,
    async stop() {
      await stream.stop();
      await db
        .updateTable('upload_credentials')
        .set({ revoked_on: new Date() })
        .where('id', '=', row.id)
        .execute();
    },
  };
}
