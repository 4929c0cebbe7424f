import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import type { TestServer } from './harness';
import { CHANNELS, gcNm, type ExpectedPort, type Row } from './carbon-month';

/**
 * What the carbon tests (carbon-ledger, eu-ets, fueleu, uk-ets) set up alike on the ship of their generated days: the
 * ledger's channels mapped through the API and the reference ports near the route.
 */

/**
 * The generated rows' channels mapped on `dataSourceId` through the API, as the month's ship has them: the main
 * engines on HFO, the auxiliary engines' fuel from the fuel type channel AE_FUEL_TYPE (mapped first, the auxiliary
 * engines' flow names it), the boiler on MGO. Returns the channel ids by name.
 */
export async function mapLedgerChannels(
  server: TestServer,
  dataSourceId: string,
): Promise<Record<string, string>> {
  const admin = await server.as('admin');
  const ids: Record<string, string> = {};
  for (const name of ['AE_FUEL_TYPE', ...CHANNELS.filter((c) => c !== 'AE_FUEL_TYPE')]) {
    const flow = name.endsWith('FUEL_FLOW');
    const created = await admin.post(
      `/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`,
      {
        source: name,
        name,
        dataType: 'Double',
        description: '',
        unit: flow ? 'kg/h' : '',
        qualityScore: 5,
        ...(name === 'FUEL_FLOW'
          ? { consumer: 'MAIN_ENGINE', fuelTypeSource: 'fixed', fuelType: 'HFO' }
          : {}),
        ...(name === 'AE_FUEL_FLOW'
          ? { consumer: 'AUX_ENGINE', fuelTypeSource: 'channel', fuelTypeChannelId: ids.AE_FUEL_TYPE }
          : {}),
        ...(name === 'BOILER_FUEL_FLOW'
          ? { consumer: 'BOILER', fuelTypeSource: 'fixed', fuelType: 'MDO_MGO' }
          : {}),
      },
    );
    if (created.statusCode !== 201) throw new Error(`channel ${name}: ${created.body}`);
    ids[name] = created.json().id as string;
  }
  return ids;
}

/** Reference ports within 10 nm of the rows' route, read from the shipped reference the server loaded. */
export async function portsNearRoute(db: Kysely<Database>, rows: readonly Row[]): Promise<ExpectedPort[]> {
  const all = await db.selectFrom('ports').select(['locode', 'lat', 'lon']).execute();
  const cells = new Map<string, ExpectedPort[]>();
  for (const p of all) {
    const key = `${Math.floor(p.lat)}|${Math.floor(p.lon)}`;
    cells.set(key, [...(cells.get(key) ?? []), { locode: p.locode, lat: p.lat, lon: p.lon }]);
  }
  const near = new Map<string, ExpectedPort>();
  for (const r of rows)
    for (let dLat = -1; dLat <= 1; dLat++)
      for (let dLon = -1; dLon <= 1; dLon++)
        for (const p of cells.get(`${Math.floor(r.lat) + dLat}|${Math.floor(r.lon) + dLon}`) ?? [])
          if (!near.has(p.locode) && gcNm([r.lat, r.lon], [p.lat, p.lon]) <= 10) near.set(p.locode, p);
  return [...near.values()];
}
