import type { Kysely, Selectable } from 'kysely';
import {
  FUEL_TYPE_NAMES,
  RECONCILIATION_THRESHOLD_PERCENT,
  reconcile,
  type FuelType,
} from '@portal/contracts/rules/carbon';
import type {
  Bdn,
  BdnInput,
  NoonReportImportResult,
  ReconciliationResult,
  TankSounding,
  TankSoundingInput,
  VoyageCargoInput,
} from '@portal/contracts/carbon';
import { RECORD_BOOK_KIND_NAMES } from '@portal/contracts/events';
import type { Database } from '../../db/schema';
import { appendRecordBookEntries } from '../../storage';
import { readVoyages } from '../../storage';
import { notFound } from '../../errors';
import { auditedChange } from '../audit/audit';
import type { Caller } from '../access/caller';
import { flowMeterTonnes } from './ledger';

/**
 * What people enter for the carbon ledger (issue 31): bunker delivery notes (each a record book entry, so the
 * book holds the note and every change of it), tank soundings, and the cargo of each voyage (entered, or imported
 * from noon reports); and the reconciliation of a period that compares them with the flow meters
 * (packages/contracts/src/rules/carbon/reconciliation.ts). Every change is audited in its own transaction.
 */

const actor = (caller: Caller) => ({ userId: caller.userId, organizationId: caller.organizationId });
const iso = (d: Date | number) => new Date(d).toISOString();

// ---- Bunker delivery notes ----

type BdnRow = Selectable<Database['bunker_delivery_notes']>;

function presentBdn(r: BdnRow): Bdn {
  return {
    id: r.id,
    shipId: r.facility_id,
    deliveredAt: iso(r.delivered_on),
    portId: r.port_key,
    portName: r.port_name,
    fuelType: r.fuel_type as FuelType,
    massTonnes: r.mass_tonnes,
    sulfurPercent: r.sulfur_percent,
    lcvMjPerKg: r.lcv_mj_per_kg,
    densityKgM3: r.density_kg_m3,
    bdnNumber: r.bdn_number,
    recordBookEntryId: r.record_book_entry_id,
    enteredBy: r.entered_by_name,
    enteredAt: iso(r.entered_on),
  };
}

/** A ship's notes (not removed) delivered in [from, to) (all without bounds), in time order. */
export async function listBdns(
  db: Kysely<Database>,
  facilityId: string,
  range: { from?: number; to?: number } = {},
): Promise<Bdn[]> {
  let query = db
    .selectFrom('bunker_delivery_notes')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('removed_on', 'is', null);
  if (range.from !== undefined) query = query.where('delivered_on', '>=', new Date(range.from));
  if (range.to !== undefined) query = query.where('delivered_on', '<', new Date(range.to));
  return (await query.orderBy('delivered_on').orderBy('id').execute()).map(presentBdn);
}

/** A note by id with its ship (removed ones are not found). */
export async function findBdn(db: Kysely<Database>, id: string): Promise<Bdn> {
  const row = await db
    .selectFrom('bunker_delivery_notes')
    .selectAll()
    .where('id', '=', id)
    .where('removed_on', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Bunker delivery note not found');
  return presentBdn(row);
}

/** The note as the record book keeps it: its figures, and a sentence. */
function bdnBody(input: BdnInput, portName: string | null) {
  const port = portName ?? input.portId;
  const figures = [
    `${input.massTonnes} t ${FUEL_TYPE_NAMES[input.fuelType]}`,
    `${input.sulfurPercent} % m/m sulfur`,
    input.lcvMjPerKg !== null ? `LCV ${input.lcvMjPerKg} MJ/kg` : null,
    input.densityKgM3 !== null ? `density ${input.densityKgM3} kg/m³` : null,
  ].filter((f) => f !== null);
  return {
    text: `Bunker delivery note${input.bdnNumber ? ` ${input.bdnNumber}` : ''}: ${figures.join(', ')}${port ? ` at ${port}` : ''}`,
    bdn: {
      deliveredAt: input.deliveredAt,
      portId: input.portId,
      portName,
      fuelType: input.fuelType,
      massTonnes: input.massTonnes,
      sulfurPercent: input.sulfurPercent,
      lcvMjPerKg: input.lcvMjPerKg,
      densityKgM3: input.densityKgM3,
      bdnNumber: input.bdnNumber,
    },
  };
}

const bdnColumns = (input: BdnInput, portName: string | null) => ({
  delivered_on: new Date(input.deliveredAt),
  port_key: input.portId,
  port_name: portName,
  fuel_type: input.fuelType,
  mass_tonnes: input.massTonnes,
  sulfur_percent: input.sulfurPercent,
  lcv_mj_per_kg: input.lcvMjPerKg,
  density_kg_m3: input.densityKgM3,
  bdn_number: input.bdnNumber,
});

/** The port's name as the note gives it, or as the port list names its id. */
export type PortNameOf = (portId: string) => Promise<string | null>;

export async function addBdn(
  db: Kysely<Database>,
  caller: Caller,
  facilityId: string,
  input: BdnInput,
  portNameOf: PortNameOf,
): Promise<Bdn> {
  const portName = input.portName ?? (input.portId ? await portNameOf(input.portId) : null);
  const id = await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      const [entry] = await appendRecordBookEntries(trx, facilityId, [
        {
          kind: 'bunkering',
          occurredOn: new Date(input.deliveredAt),
          recordedBy: caller.userId,
          recordedByName: caller.username,
          latitude: null,
          longitude: null,
          eventId: null,
          correctsId: null,
          body: { kindName: RECORD_BOOK_KIND_NAMES.bunkering, ...bdnBody(input, portName) },
        },
      ]);
      const row = await trx
        .insertInto('bunker_delivery_notes')
        .values({
          facility_id: facilityId,
          ...bdnColumns(input, portName),
          record_book_entry_id: entry!.id,
          entered_by: caller.apiKey ? null : caller.userId,
          entered_by_name: caller.username,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    (noteId) => ({
      action: 'carbon.bdn.add',
      subject: facilityId,
      detail: { bdnId: noteId, fuelType: input.fuelType, massTonnes: input.massTonnes },
    }),
  );
  return findBdn(db, id);
}

/** A change of a note: a correction in the record book naming the entry it corrects, the note pointing at it. */
export async function changeBdn(
  db: Kysely<Database>,
  caller: Caller,
  note: Bdn,
  input: BdnInput,
  portNameOf: PortNameOf,
): Promise<Bdn> {
  const portName = input.portName ?? (input.portId ? await portNameOf(input.portId) : null);
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      const [entry] = await appendRecordBookEntries(trx, note.shipId, [
        {
          kind: 'correction',
          occurredOn: new Date(input.deliveredAt),
          recordedBy: caller.userId,
          recordedByName: caller.username,
          latitude: null,
          longitude: null,
          eventId: null,
          correctsId: note.recordBookEntryId,
          body: { kindName: RECORD_BOOK_KIND_NAMES.correction, ...bdnBody(input, portName) },
        },
      ]);
      await trx
        .updateTable('bunker_delivery_notes')
        .set({ ...bdnColumns(input, portName), record_book_entry_id: entry!.id })
        .where('id', '=', note.id)
        .execute();
    },
    { action: 'carbon.bdn.change', subject: note.shipId, detail: { bdnId: note.id } },
  );
  return findBdn(db, note.id);
}

/** Removes a note: a correction in the record book says it is withdrawn; the note stays, marked removed. */
export async function removeBdn(db: Kysely<Database>, caller: Caller, note: Bdn): Promise<void> {
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      await appendRecordBookEntries(trx, note.shipId, [
        {
          kind: 'correction',
          occurredOn: new Date(note.deliveredAt),
          recordedBy: caller.userId,
          recordedByName: caller.username,
          latitude: null,
          longitude: null,
          eventId: null,
          correctsId: note.recordBookEntryId,
          body: {
            kindName: RECORD_BOOK_KIND_NAMES.correction,
            text: `Bunker delivery note${note.bdnNumber ? ` ${note.bdnNumber}` : ''} of ${note.massTonnes} t ${FUEL_TYPE_NAMES[note.fuelType]} withdrawn`,
            bdnWithdrawn: true,
          },
        },
      ]);
      await trx
        .updateTable('bunker_delivery_notes')
        .set({ removed_on: new Date() })
        .where('id', '=', note.id)
        .execute();
    },
    { action: 'carbon.bdn.remove', subject: note.shipId, detail: { bdnId: note.id } },
  );
}

// ---- Tank soundings ----

type SoundingRow = Selectable<Database['tank_soundings']>;

const presentSounding = (r: SoundingRow): TankSounding => ({
  id: r.id,
  shipId: r.facility_id,
  at: iso(r.measured_on),
  fuelType: r.fuel_type as FuelType,
  robTonnes: r.rob_tonnes,
  enteredBy: r.entered_by_name,
  enteredAt: iso(r.entered_on),
});

export async function listSoundings(
  db: Kysely<Database>,
  facilityId: string,
  range: { from?: number; to?: number } = {},
): Promise<TankSounding[]> {
  let query = db.selectFrom('tank_soundings').selectAll().where('facility_id', '=', facilityId);
  if (range.from !== undefined) query = query.where('measured_on', '>=', new Date(range.from));
  if (range.to !== undefined) query = query.where('measured_on', '<', new Date(range.to));
  return (await query.orderBy('measured_on').orderBy('id').execute()).map(presentSounding);
}

export async function findSounding(db: Kysely<Database>, id: string): Promise<TankSounding> {
  const row = await db.selectFrom('tank_soundings').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Tank sounding not found');
  return presentSounding(row);
}

export async function addSounding(
  db: Kysely<Database>,
  caller: Caller,
  facilityId: string,
  input: TankSoundingInput,
): Promise<TankSounding> {
  const id = await auditedChange(
    db,
    actor(caller),
    async (trx) =>
      (
        await trx
          .insertInto('tank_soundings')
          .values({
            facility_id: facilityId,
            measured_on: new Date(input.at),
            fuel_type: input.fuelType,
            rob_tonnes: input.robTonnes,
            entered_by: caller.apiKey ? null : caller.userId,
            entered_by_name: caller.username,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    (soundingId) => ({
      action: 'carbon.sounding.add',
      subject: facilityId,
      detail: { soundingId, fuelType: input.fuelType, robTonnes: input.robTonnes, at: input.at },
    }),
  );
  return findSounding(db, id);
}

export async function removeSounding(
  db: Kysely<Database>,
  caller: Caller,
  sounding: TankSounding,
): Promise<void> {
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      await trx.deleteFrom('tank_soundings').where('id', '=', sounding.id).execute();
    },
    {
      action: 'carbon.sounding.remove',
      subject: sounding.shipId,
      detail: { soundingId: sounding.id, fuelType: sounding.fuelType, robTonnes: sounding.robTonnes },
    },
  );
}

// ---- Reconciliation ----

/** Flow meters against the bunker notes and the soundings over whole days [from, to), per fuel type. */
export async function reconciliation(
  db: Kysely<Database>,
  facilityId: string,
  from: number,
  to: number,
): Promise<ReconciliationResult> {
  const tolerance = 24 * 3_600_000;
  const [flow, bdns, soundings] = await Promise.all([
    flowMeterTonnes(db, facilityId, from, to),
    listBdns(db, facilityId, { from, to }),
    listSoundings(db, facilityId, { from: from - tolerance, to: to + tolerance + 1 }),
  ]);
  const result = reconcile({
    from,
    to,
    flowMeterTonnes: flow.byType,
    bdns: bdns.map((b) => ({
      at: Date.parse(b.deliveredAt),
      fuelType: b.fuelType,
      massTonnes: b.massTonnes,
    })),
    soundings: soundings.map((s) => ({ at: Date.parse(s.at), fuelType: s.fuelType, robTonnes: s.robTonnes })),
    soundingToleranceMs: tolerance,
  });
  return {
    shipId: facilityId,
    from: iso(from),
    to: iso(to),
    thresholdPercent: RECONCILIATION_THRESHOLD_PERCENT,
    rows: result.rows,
    total: result.total,
  };
}

// ---- Cargo ----

export async function setCargo(
  db: Kysely<Database>,
  caller: Caller,
  voyage: { id: string; facilityId: string; departure: number },
  input: VoyageCargoInput,
): Promise<void> {
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      const values = {
        laden: input.laden,
        cargo_tonnes: input.cargoTonnes,
        teu: input.teu,
        source: 'ENTERED' as const,
        entered_by: caller.apiKey ? null : caller.userId,
        entered_by_name: caller.username,
        entered_on: new Date(),
      };
      await trx
        .insertInto('voyage_cargo')
        .values({ facility_id: voyage.facilityId, departure: new Date(voyage.departure), ...values })
        .onConflict((oc) => oc.columns(['facility_id', 'departure']).doUpdateSet(values))
        .execute();
    },
    { action: 'carbon.cargo.set', subject: voyage.facilityId, detail: { voyageId: voyage.id, ...input } },
  );
}

export async function clearCargo(
  db: Kysely<Database>,
  caller: Caller,
  voyage: { id: string; facilityId: string; departure: number },
): Promise<void> {
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      await trx
        .deleteFrom('voyage_cargo')
        .where('facility_id', '=', voyage.facilityId)
        .where('departure', '=', new Date(voyage.departure))
        .execute();
    },
    { action: 'carbon.cargo.clear', subject: voyage.facilityId, detail: { voyageId: voyage.id } },
  );
}

/** The columns a noon report CSV may have, by the names a header may give them (case and spaces ignored). */
const NOON_COLUMNS = {
  time: ['date', 'datetime', 'time', 'timestamp', 'date (utc)', 'datetime (utc)', 'noon (utc)'],
  condition: ['condition', 'loading condition', 'laden/ballast', 'cargo condition'],
  cargo: ['cargo', 'cargo (t)', 'cargo t', 'cargo tonnes', 'cargo_tonnes', 'cargo on board (t)'],
  teu: ['teu', 'teu on board'],
} as const;

function splitCsvLine(line: string, delimiter: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  out.push(cell);
  return out.map((s) => s.trim());
}

/**
 * Noon reports (a CSV, one report a row: a UTC date and time, the loading condition laden or ballast, the cargo in
 * tonnes, TEU) into the cargo of the voyages they were written on: each voyage takes its first report (the condition
 * it sailed in); a voyage whose cargo a person entered keeps it. Returns what was used and why the rest was not.
 */
export async function importNoonReports(
  db: Kysely<Database>,
  caller: Caller,
  facilityId: string,
  csv: string,
): Promise<NoonReportImportResult> {
  const lines = csv.replace(/^\uFEFF/, '').split(/\r?\n/);
  const headerLine = lines[0] ?? '';
  const delimiter = [';', '\t', ','].sort(
    (a, b) => headerLine.split(b).length - headerLine.split(a).length,
  )[0]!;
  const header = splitCsvLine(headerLine, delimiter).map((h) => h.toLowerCase().replace(/\s+/g, ' '));
  const column = (names: readonly string[]) => header.findIndex((h) => names.includes(h));
  const at = {
    time: column(NOON_COLUMNS.time),
    condition: column(NOON_COLUMNS.condition),
    cargo: column(NOON_COLUMNS.cargo),
    teu: column(NOON_COLUMNS.teu),
  };
  const problems: NoonReportImportResult['problems'] = [];
  if (at.time < 0 || at.condition < 0) {
    problems.push({
      line: 1,
      message: 'The header needs a date and time column (Date) and a loading condition column (Condition)',
    });
    return { rows: 0, voyagesUpdated: 0, problems };
  }
  const reports: { line: number; t: number; laden: boolean; cargo: number | null; teu: number | null }[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]!.trim()) continue;
    const cells = splitCsvLine(lines[i]!, delimiter);
    const text = cells[at.time] ?? '';
    const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
    if (Number.isNaN(t)) {
      problems.push({ line: i + 1, message: `"${text}" is not a date and time (YYYY-MM-DD HH:MM, UTC)` });
      continue;
    }
    const condition = (cells[at.condition] ?? '').toLowerCase();
    const laden = ['laden', 'l', 'loaded'].includes(condition);
    if (!laden && !['ballast', 'b'].includes(condition)) {
      problems.push({
        line: i + 1,
        message: `The condition "${cells[at.condition] ?? ''}" is neither laden nor ballast`,
      });
      continue;
    }
    const number = (index: number) => {
      const v = index < 0 ? '' : (cells[index] ?? '').replace(',', '.');
      return v === '' ? null : Number(v);
    };
    const cargo = number(at.cargo);
    const teu = number(at.teu);
    if ((cargo !== null && !(cargo >= 0)) || (teu !== null && !(teu >= 0 && Number.isInteger(teu)))) {
      problems.push({ line: i + 1, message: 'The cargo (t) and TEU must be numbers of 0 or more' });
      continue;
    }
    reports.push({ line: i + 1, t, laden, cargo, teu });
  }
  reports.sort((a, b) => a.t - b.t);
  const voyages = reports.length
    ? await readVoyages(db, facilityId, { from: reports[0]!.t, to: reports.at(-1)!.t + 1 })
    : [];
  const entered = new Set(
    (
      await db
        .selectFrom('voyage_cargo')
        .select('departure')
        .where('facility_id', '=', facilityId)
        .where('source', '=', 'ENTERED')
        .execute()
    ).map((r) => new Date(r.departure).getTime()),
  );
  const first = new Map<number, (typeof reports)[number]>();
  for (const r of reports) {
    const voyage = voyages.find((v) => v.departure <= r.t && r.t < v.arrival);
    if (!voyage) {
      problems.push({ line: r.line, message: 'No voyage of the ship was under way at that time' });
      continue;
    }
    if (entered.has(voyage.departure)) {
      problems.push({
        line: r.line,
        message: 'The cargo of this voyage was entered by a person and is kept',
      });
      continue;
    }
    if (!first.has(voyage.departure)) first.set(voyage.departure, r);
  }
  if (first.size)
    await auditedChange(
      db,
      actor(caller),
      async (trx) => {
        for (const [departure, r] of first) {
          const values = {
            laden: r.laden,
            cargo_tonnes: r.cargo,
            teu: r.teu,
            source: 'NOON_REPORT' as const,
            entered_by: caller.apiKey ? null : caller.userId,
            entered_by_name: caller.username,
            entered_on: new Date(),
          };
          await trx
            .insertInto('voyage_cargo')
            .values({ facility_id: facilityId, departure: new Date(departure), ...values })
            .onConflict((oc) => oc.columns(['facility_id', 'departure']).doUpdateSet(values))
            .execute();
        }
      },
      {
        action: 'carbon.cargo.import',
        subject: facilityId,
        detail: { voyages: first.size, rows: reports.length },
      },
    );
  problems.sort((a, b) => a.line - b.line);
  return { rows: reports.length, voyagesUpdated: first.size, problems };
}
