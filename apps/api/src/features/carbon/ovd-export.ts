import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import type { Consumer, FuelTypeOrUnknown } from '@portal/contracts/rules/carbon';
import type { Database } from '../../db/schema';
import type { StoredFuelLine } from '../../db/tables/carbon';
import { readPortCalls, readVoyages, type StoredPortCall, type StoredVoyage } from '../../storage';
import { cargoByDeparture } from './ledger';

/**
 * The ship's voyages and fuel as an Open Vessel Data log abstract (OVDLA): the event-based format DNV's Veracity OVD
 * service, and the verifiers who take its files, read. Followed: DNV's "Log Abstract Interface Description (OVDLA)",
 * OVD 3.5 interface description (veracity/veracity-documentation, sections/datastandards/assets/
 * OVD3.5interfacedescription.xlsx, commit c5d342160a3af7974a14710b39d9b97eb1238f96, sheets "Log abstract" and "Event
 * types"): its data field names as column headers, one row per event, consumption in mt "since the previous report",
 * only the columns of the fuels actually used.
 *
 * Events: each port call of the year gives an `Arrival` (at berth; the voyage before it: its hours, distance over
 * ground, hours sailing and fuel) and a `Departure` (from berth; the stay's hours and fuel at berth), in the exact
 * spelling OVD fixes. A voyage still under way at the data's end has no Arrival yet and is left out until it arrives.
 * Position is the port's UN/LOCODE point (the ledger keeps no berth position) in degrees and decimal minutes.
 * Voyage_From / Voyage_To carry UN/LOCODEs; a port of the organization without one is named in
 * Other_Destination_From / Other_Destination_To.
 *
 * What the format has and this file leaves out: the OVD consumers are main engines, auxiliary engines, boilers,
 * inert gas generators and incinerators; fuel the ledger books to "others", and fuel of unknown type, has no OVD
 * column and is not in the file (the IMO DCS report names it). MDO and MGO are one type in the ledger: the MGO
 * columns. Time_Elapsed_Anchoring, cargo volume, passengers and ROB are not in the ledger.
 */

const CONSUMER_PREFIX: Partial<Record<Consumer, string>> = {
  MAIN_ENGINE: 'ME',
  AUX_ENGINE: 'AE',
  BOILER: 'Boiler',
};
const FUEL_SUFFIX: Partial<Record<FuelTypeOrUnknown, string>> = {
  HFO: 'HFO',
  LFO: 'LFO',
  MDO_MGO: 'MGO',
  LNG: 'LNG',
  METHANOL: 'M',
};

const FIXED_COLUMNS = [
  'IMO',
  'Date_UTC',
  'Time_UTC',
  'Voyage_From',
  'Voyage_To',
  'Event',
  'Time_Since_Previous_Report',
  'Time_Elapsed_Sailing',
  'Distance',
  'Latitude_Degree',
  'Latitude_Minutes',
  'Latitude_North_South',
  'Longitude_Degree',
  'Longitude_Minutes',
  'Longitude_East_West',
  'Cargo_Mt',
  'Other_Destination_From',
  'Other_Destination_To',
] as const;

type Cell = string | number | null;
export interface OvdLogAbstract {
  columns: string[];
  rows: Record<string, Cell>[];
}

const HOUR = 3_600_000;
const r3 = (x: number) => Number(x.toFixed(3));
const r4 = (x: number) => Number(x.toFixed(4));

function degreesMinutes(value: number, positive: string, negative: string) {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  return { degrees, minutes: r4((abs - degrees) * 60), side: value < 0 ? negative : positive };
}

export async function ovdLogAbstract(
  db: Kysely<Database>,
  facilityId: string,
  year: number,
): Promise<OvdLogAbstract> {
  const from = Date.UTC(year, 0, 1);
  const to = Date.UTC(year + 1, 0, 1);
  const ship = await db
    .selectFrom('facilities')
    .select(['imo', 'primary_organization_id'])
    .where('id', '=', facilityId)
    .executeTakeFirstOrThrow();
  // A margin of a year either side: the voyages into the first call and out of the last.
  const calls = await readPortCalls(db, facilityId, {
    from: from - 366 * 24 * HOUR,
    to: to + 366 * 24 * HOUR,
  });
  const voyages = await readVoyages(db, facilityId, { from: from - 366 * 24 * HOUR, to });
  const cargo = await cargoByDeparture(db, facilityId);
  const callById = new Map(calls.map((c) => [c.id, c]));
  const voyageInto = new Map<string, StoredVoyage>();
  const voyageOutOf = new Map<string, StoredVoyage>();
  for (const v of voyages) {
    if (v.toCallId) voyageInto.set(v.toCallId, v);
    if (v.fromCallId) voyageOutOf.set(v.fromCallId, v);
  }
  const locodes = [...new Set(calls.map((c) => c.locode).filter((l): l is string => l !== null))];
  const points = new Map<string, { lat: number; lon: number }>();
  if (locodes.length)
    for (const p of await db
      .selectFrom('ports')
      .select(['locode', 'lat', 'lon'])
      .where('locode', 'in', locodes)
      .execute())
      points.set(p.locode, { lat: p.lat, lon: p.lon });
  const own = await db
    .selectFrom('organization_ports')
    .select(['id', 'locode', 'lat', 'lon'])
    .where('organization_id', '=', ship.primary_organization_id)
    .execute();
  const pointOf = (call: StoredPortCall) => {
    if (call.portKey.startsWith('org:')) {
      const p = own.find((o) => `org:${o.id}` === call.portKey);
      return p ? { lat: p.lat, lon: p.lon } : null;
    }
    return points.get(call.portKey) ?? null;
  };

  const fuelColumns = new Set<string>();
  const consumption = (fuel: readonly StoredFuelLine[]) => {
    const cells: Record<string, number> = {};
    for (const f of fuel) {
      const prefix = CONSUMER_PREFIX[f.consumer];
      const suffix = FUEL_SUFFIX[f.fuelType];
      if (!prefix || !suffix || f.kg <= 0) continue;
      const column = `${prefix}_Consumption_${suffix}`;
      cells[column] = (cells[column] ?? 0) + f.kg / 1000;
      fuelColumns.add(column);
    }
    for (const k of Object.keys(cells)) cells[k] = r3(cells[k]!);
    return cells;
  };
  const place = (call: StoredPortCall | undefined) => ({
    code: call?.locode ?? null,
    other: call && !call.locode ? call.portName : null,
  });
  const position = (call: StoredPortCall): Record<string, Cell> => {
    const p = pointOf(call);
    if (!p) return {};
    const lat = degreesMinutes(p.lat, 'N', 'S');
    const lon = degreesMinutes(p.lon, 'E', 'W');
    return {
      Latitude_Degree: lat.degrees,
      Latitude_Minutes: lat.minutes,
      Latitude_North_South: lat.side,
      Longitude_Degree: lon.degrees,
      Longitude_Minutes: lon.minutes,
      Longitude_East_West: lon.side,
    };
  };
  const stamp = (ms: number) => {
    const text = new Date(ms).toISOString();
    return { Date_UTC: text.slice(0, 10), Time_UTC: text.slice(11, 16) };
  };

  const rows: (Record<string, Cell> & { at: number; order: number })[] = [];
  for (const call of calls) {
    if (call.arrival >= from && call.arrival < to && !call.openStart) {
      const voyage = voyageInto.get(call.id);
      const fromPlace = place(voyage?.fromCallId ? callById.get(voyage.fromCallId) : undefined);
      const here = place(call);
      rows.push({
        at: call.arrival,
        order: 0,
        IMO: ship.imo,
        ...stamp(call.arrival),
        Voyage_From: fromPlace.code,
        Voyage_To: here.code,
        Event: 'Arrival',
        Time_Since_Previous_Report: voyage ? r3((voyage.arrival - voyage.departure) / HOUR) : null,
        Time_Elapsed_Sailing: voyage ? r3(voyage.hoursUnderWay) : null,
        Distance: voyage ? r3(voyage.distanceNm) : null,
        ...position(call),
        Cargo_Mt: voyage ? (cargo.get(voyage.departure)?.cargoTonnes ?? null) : null,
        Other_Destination_From: fromPlace.other,
        Other_Destination_To: here.other,
        ...(voyage ? consumption(voyage.fuel) : {}),
      });
    }
    if (call.departure >= from && call.departure < to && !call.openEnd) {
      const voyage = voyageOutOf.get(call.id);
      const here = place(call);
      const next = place(voyage?.toCallId ? callById.get(voyage.toCallId) : undefined);
      rows.push({
        at: call.departure,
        order: 1,
        IMO: ship.imo,
        ...stamp(call.departure),
        Voyage_From: here.code,
        Voyage_To: next.code,
        Event: 'Departure',
        Time_Since_Previous_Report: r3((call.departure - call.arrival) / HOUR),
        Time_Elapsed_Sailing: 0,
        Distance: 0,
        ...position(call),
        Cargo_Mt: voyage ? (cargo.get(voyage.departure)?.cargoTonnes ?? null) : null,
        Other_Destination_From: here.other,
        Other_Destination_To: next.other,
        ...consumption(call.fuel),
      });
    }
  }
  rows.sort((a, b) => a.at - b.at || a.order - b.order);
  const order = (c: string) => {
    const [prefix, , suffix] = c.split('_');
    return ['ME', 'AE', 'Boiler'].indexOf(prefix!) * 10 + ['HFO', 'LFO', 'MGO', 'LNG', 'M'].indexOf(suffix!);
  };
  const columns = [...FIXED_COLUMNS, ...[...fuelColumns].sort((a, b) => order(a) - order(b))];
  return {
    columns,
    rows: rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null]))),
  };
}

const csvCell = (value: Cell) => {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function ovdCsv(abstract: OvdLogAbstract): string {
  const lines = [abstract.columns.join(',')];
  for (const row of abstract.rows) lines.push(abstract.columns.map((c) => csvCell(row[c] ?? null)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The same rows in a workbook's first sheet, numbers as numbers (OVD's upload takes .xlsx as well as .csv). */
export async function ovdWorkbook(abstract: OvdLogAbstract): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Log abstract');
  sheet.addRow(abstract.columns).font = { bold: true };
  for (const row of abstract.rows) sheet.addRow(abstract.columns.map((c) => row[c] ?? null));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
