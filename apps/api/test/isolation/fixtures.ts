import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { demoShips } from '@portal/demo-fleet/ships';
import type { Database } from '../../src/db/schema';
import { seedDemoData } from '../../src/features/files/demo';
import { seedDefaultMeasurementCalculations } from '../../src/features/calculations/seed';
import { createUploadCredential } from '../../src/features/ship-info/credentials';
import { formatApiKey, newApiKeySecret } from '../../src/features/api-keys/secret';
import { appendRecordBookEntries, refreshDailyRollup } from '../../src/storage';
import { hashPassword } from '../../src/features/auth/passwords';
import type { TestServer } from '../harness';

/** Kinds of objects a path, query or body can name. Global ones (reports, fields, readers) belong to nobody. */
export const OBJECT_KINDS = [
  'facility',
  'dataSource',
  'file',
  'channel',
  'measurementCalculation',
  'user',
  'organization',
  'linkKey',
  'message',
  'document',
  'documentRef',
  'credential',
  'execution',
  'event',
  'webhook',
  'apiKey',
  'inspectionPack',
  'organizationPort',
  'voyage',
  'bunkerNote',
  'tankSounding',
  'fueleuPool',
  'euaPrice',
] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];
export type GlobalKind =
  | 'report'
  | 'reportField'
  | 'measurementField'
  | 'reportCalculation'
  | 'reader'
  | 'reportRevision'
  | 'port'
  | 'verificationYear';

export type ObjectSet = Record<ObjectKind, string>;

export interface IsolationWorld {
  /** South's objects on a ship South keeps to itself: North must not reach any of them. */
  south: ObjectSet;
  /** North's own objects, the same kinds: the other parameters of a path point at these. */
  north: ObjectSet;
  /** Objects every organization shares: report codes, report and measurement fields, readers. */
  global: Record<GlobalKind, string>;
  /** A South ship shared with North (North may see it, not configure it). */
  sharedSouthFacility: string;
  /** A value written only into South's report values: no answer to North may contain it. */
  southReportValue: number;
  /** Text of the message personal to a South user. */
  southMessageText: string;
  /** A usable API key of North with every scope: the matrix walks every route with it as with a token. */
  northApiKey: string;
  /** North's verifier (docs/decisions/0115-verifier.md), invited for 2025: its username; its password is VERIFIER_PASSWORD. */
  northVerifier: string;
  /** Text of a South verification finding: North's verifier must never see it. */
  southFindingText: string;
}

export const VERIFIER_PASSWORD = 'Verifier2025';
export const VERIFICATION_YEAR = 2025;

const DAY_MS = 86_400_000;
export const UNTIL = new Date('2025-03-10T00:00:00.000Z');

/**
 * North and South each get a ship with a data source, channel mappings, a logger file and approved default
 * measurement field calculations; South's ship also gets report values, a document, an upload credential and a
 * personal message for a South user. South shares a second ship with North.
 */
export async function buildWorld(server: TestServer): Promise<IsolationWorld> {
  const db = server.services.database.db;
  const { organizationIds, userIds } = server.seed;
  const ships = demoShips(6);
  const northShip = ships.filter((s) => s.organizationKey === 'north')[1]!;
  const [southShip, southShared] = ships.filter((s) => s.organizationKey === 'south');
  const facilityIds = {
    [northShip.key]: server.seed.facilityIds[northShip.key]!,
    [southShip!.key]: server.seed.facilityIds[southShip!.key]!,
  };
  const seeded = await seedDemoData(server.services.database, { facilityIds, days: 1, until: UNTIL });
  if (seeded.errors.length) throw new Error(seeded.errors.join('\n'));
  for (const id of Object.values(facilityIds))
    await seedDefaultMeasurementCalculations(db, id, new Date('2000-01-01T00:00:00.000Z'));
  const sharedSouthFacility = server.seed.facilityIds[southShared!.key]!;
  await db
    .insertInto('organization_facility_access')
    .values({ organization_id: organizationIds.north!, facility_id: sharedSouthFacility })
    .onConflict((oc) => oc.doNothing())
    .execute();

  const report = await db
    .selectFrom('report_fields')
    .select(['id', 'report_id'])
    .orderBy('report_id')
    .orderBy('position')
    .executeTakeFirstOrThrow();
  const reportCalculation = await db
    .selectFrom('report_field_calculations')
    .select('id')
    .where('report_field_id', '=', report.id)
    .executeTakeFirst();
  const measurementField = await db
    .selectFrom('measurement_fields')
    .select('id')
    .orderBy('position')
    .executeTakeFirstOrThrow();
  const southReportValue = 987654.321;
  const southFacility = facilityIds[southShip!.key]!;
  const spanStart = new Date(UNTIL.getTime() - DAY_MS);
  const southFields = await db.selectFrom('report_fields').select('id').execute();
  await db
    .insertInto('report_values')
    .values(
      southFields.map((f) => ({
        facility_id: southFacility,
        report_field_id: f.id,
        span_start: spanStart,
        value: southReportValue,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  await refreshDailyRollup(db, southFacility, 'all', spanStart, spanStart);

  const keys: Partial<Record<'north' | 'south', string>> = {};
  const objectsOf = async (
    organization: 'north' | 'south',
    facilityId: string,
    recipient: string,
  ): Promise<ObjectSet> => {
    const dataSource = await db
      .selectFrom('facility_data_sources')
      .select('id')
      .where('facility_id', '=', facilityId)
      .executeTakeFirstOrThrow();
    const file = await db
      .selectFrom('data_files')
      .select('id')
      .where('facility_id', '=', facilityId)
      .executeTakeFirstOrThrow();
    const channel = await db
      .selectFrom('data_source_channels')
      .select('id')
      .where('facility_id', '=', facilityId)
      .executeTakeFirstOrThrow();
    const calculation = await db
      .selectFrom('measurement_field_calculations')
      .select('id')
      .where('facility_id', '=', facilityId)
      .where('measurement_field_id', '=', measurementField.id)
      .executeTakeFirst();
    const anyCalculation =
      calculation ??
      (await db
        .selectFrom('measurement_field_calculations')
        .select('id')
        .where('facility_id', '=', facilityId)
        .executeTakeFirstOrThrow());
    const document = await db
      .insertInto('facility_documents')
      .values({
        facility_id: facilityId,
        file_name: `${organization} survey.pdf`,
        content_type: 'application/pdf',
        content: Buffer.from(`%PDF ${organization}`),
        doc_type: 'Survey',
      })
      .returning(['id', 'file_ref'])
      .executeTakeFirstOrThrow();
    const { row: credential } = await createUploadCredential(db, facilityId, userIds.admin!);
    const execution = await db
      .insertInto('executions')
      .values({
        facility_id: facilityId,
        kind: 'execute',
        period_from: new Date(UNTIL.getTime() - DAY_MS),
        period_to: new Date(UNTIL.getTime() - 1),
        state: 'failed',
        error: `${organization} execution failed`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const message = await db
      .insertInto('messages')
      .values({
        title: `${organization} personal`,
        text: `Personal note for ${organization} only`,
        show_from: new Date(Date.now() - DAY_MS),
        show_to: new Date(Date.now() + 30 * DAY_MS),
        is_personal: true,
        created_by: userIds.admin!,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('message_recipients')
      .values({ message_id: message.id, user_id: recipient })
      .execute();
    const event = await db
      .insertInto('compliance_events')
      .values({
        facility_id: facilityId,
        type: 'scrubber-off',
        start_on: new Date(UNTIL.getTime() - DAY_MS),
        end_on: new Date(UNTIL.getTime() - DAY_MS + 90 * 60_000),
        classification: 'malfunction',
        report_required: true,
        rules: JSON.stringify(DEFAULT_EVENT_RULES),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Its report was sent: revision 1 is kept (as marking it sent keeps it), so a path can name it.
    const pdf = Buffer.from(`%PDF-1.7 report of ${organization}`);
    await db
      .insertInto('event_report_revisions')
      .values({
        facility_id: facilityId,
        event_id: event.id,
        revision: 1,
        report: JSON.stringify({ shipName: organization }),
        created_by_name: 'fixture',
        sent_on: '2025-03-09',
        sent_by_name: 'fixture',
        pdf,
        sha256: createHash('sha256').update(pdf).digest('hex'),
      })
      .execute();
    await db
      .updateTable('compliance_events')
      .set({ report_sent_on: '2025-03-09' })
      .where('id', '=', event.id)
      .execute();
    // An API key of the organization: its id names it in the key routes.
    const { secret, hash } = newApiKeySecret();
    const apiKey = await db
      .insertInto('api_keys')
      .values({
        organization_id: organizationIds[organization]!,
        name: `${organization} integration`,
        scopes: ['reports:read', 'files:upload'],
        secret_hash: hash,
        created_by: userIds.admin!,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    keys[organization] = formatApiKey(apiKey.id, secret);
    const org = await db
      .selectFrom('organizations')
      .select(['id', 'link_key'])
      .where('id', '=', organizationIds[organization]!)
      .executeTakeFirstOrThrow();
    const webhook = await db
      .insertInto('webhooks')
      .values({
        organization_id: org.id,
        url: `https://hooks.example.com/${organization}`,
        event_types: ['scrubber-off'],
        secret: `whsec_${organization}_secret`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A ready inspection pack of the ship: an empty zip (its end-of-directory record alone).
    const emptyZip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);
    const pack = await db
      .insertInto('inspection_packs')
      .values({
        facility_id: facilityId,
        period_from: new Date(UNTIL.getTime() - 7 * DAY_MS),
        period_to: UNTIL,
        state: 'ready',
        progress: 1,
        requested_by_name: `${organization}.admin`,
        pdf_sha256: '0'.repeat(64),
        zip_bytes: emptyZip.length,
        originals: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('inspection_pack_parts')
      .values({ pack_id: pack.id, part: 0, content: emptyZip })
      .execute();
    // An own port of the organization (features/ports): its name is in no answer to the other organization.
    const port = await db
      .insertInto('organization_ports')
      .values({
        organization_id: org.id,
        name: `${organization} private quay`,
        country: 'NL',
        lat: 51.96,
        lon: 4.12,
        radius_nm: 2,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The carbon ledger: a voyage (as the engine stores them), a bunker delivery note in the record book, a sounding.
    const voyage = await db
      .insertInto('voyages')
      .values({
        facility_id: facilityId,
        departure: new Date(UNTIL.getTime() - 2 * DAY_MS),
        arrival: new Date(UNTIL.getTime() - DAY_MS),
        distance_nm: 250,
        hours_under_way: 24,
        hours_not_under_way: 0,
        hours_without_position: 0,
        hours_without_fuel_data: '{}',
        co2_g: 1e8,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [bdnEntry] = await db.transaction().execute((trx) =>
      appendRecordBookEntries(trx, facilityId, [
        {
          kind: 'bunkering',
          occurredOn: new Date(UNTIL.getTime() - DAY_MS),
          recordedBy: null,
          recordedByName: 'fixture',
          latitude: null,
          longitude: null,
          eventId: null,
          correctsId: null,
          body: { text: `Bunker delivery note of ${organization}` },
        },
      ]),
    );
    const bunkerNote = await db
      .insertInto('bunker_delivery_notes')
      .values({
        facility_id: facilityId,
        delivered_on: new Date(UNTIL.getTime() - DAY_MS),
        port_key: 'NLRTM',
        port_name: 'Rotterdam',
        fuel_type: 'HFO',
        mass_tonnes: 500,
        sulfur_percent: 2.5,
        lcv_mj_per_kg: null,
        density_kg_m3: null,
        bdn_number: `${organization}-BDN`,
        record_book_entry_id: bdnEntry!.id,
        entered_by_name: 'fixture',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sounding = await db
      .insertInto('tank_soundings')
      .values({
        facility_id: facilityId,
        measured_on: new Date(UNTIL.getTime() - DAY_MS),
        fuel_type: 'HFO',
        rob_tonnes: 420,
        entered_by_name: 'fixture',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // FuelEU: a pool of the organization (features/fueleu), and a banking record of its ship.
    const pool = await db
      .insertInto('fueleu_pools')
      .values({
        organization_id: org.id,
        year: 2025,
        name: `${organization} pool`,
        created_by_name: 'fixture',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('fueleu_pool_members')
      .values({ pool_id: pool.id, facility_id: facilityId, year: 2025, allocated_tonnes: 0 })
      .execute();
    await db
      .insertInto('fueleu_flexibility')
      .values({
        facility_id: facilityId,
        year: 2025,
        banked_tonnes: 1,
        borrowed_tonnes: 0,
        updated_by_name: 'fixture',
      })
      .execute();
    // EU ETS: an allowance price the organization entered.
    const euaPrice = await db
      .insertInto('eua_prices')
      .values({
        organization_id: org.id,
        price_on: '2026-01-02',
        eur_per_allowance: 71.25,
        entered_by_name: 'fixture',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      fueleuPool: pool.id,
      euaPrice: euaPrice.id,
      voyage: voyage.id,
      bunkerNote: bunkerNote.id,
      tankSounding: sounding.id,
      facility: facilityId,
      dataSource: dataSource.id,
      file: file.id,
      channel: channel.id,
      measurementCalculation: anyCalculation.id,
      user: recipient,
      organization: org.id,
      linkKey: org.link_key,
      message: message.id,
      document: document.id,
      documentRef: document.file_ref,
      credential: credential.id,
      execution: execution.id,
      event: event.id,
      webhook: webhook.id,
      apiKey: apiKey.id,
      inspectionPack: pack.id,
      organizationPort: port.id,
    };
  };
  // The North user object is a colleague (north.olav), not the caller, so "own" paths name a manageable user.
  const north = await objectsOf('north', facilityIds[northShip.key]!, userIds['north.olav']!);
  const south = await objectsOf('south', southFacility, userIds['south.maria']!);
  return {
    south,
    north,
    global: {
      report: report.report_id,
      reportField: report.id,
      measurementField: measurementField.id,
      reportCalculation: reportCalculation?.id ?? report.id,
      reader: 'delimited-text',
      // A revision number: the first, which each organization's event has (sent).
      reportRevision: '1',
      // A reference port (features/ports/data/ports.json): everyone's.
      port: 'NLRTM',
      // The year North's verifier is invited for (the world's data lie in it).
      verificationYear: String(VERIFICATION_YEAR),
    },
    sharedSouthFacility,
    southReportValue,
    southMessageText: 'Personal note for south only',
    northApiKey: keys.north!,
    northVerifier: await addVerifiers(db, organizationIds.north!, organizationIds.south!, southFacility),
    southFindingText: SOUTH_FINDING_TEXT,
  };
}

const SOUTH_FINDING_TEXT = 'South verification finding, confidential';

/** North's verifier of 2025 (a Verifier user with its year), and a finding and an opinion of South's 2025. */
async function addVerifiers(db: Kysely<Database>, north: string, south: string, southFacility: string) {
  const username = 'north.verifier';
  const user = await db
    .insertInto('users')
    .values({
      organization_id: north,
      username,
      password_hash: await hashPassword(VERIFIER_PASSWORD),
      role: 'Verifier',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('verifier_years').values({ user_id: user.id, year: VERIFICATION_YEAR }).execute();
  const finding = await db
    .insertInto('verification_findings')
    .values({
      organization_id: south,
      year: VERIFICATION_YEAR,
      facility_id: southFacility,
      kind: 'misstatement',
      description: SOUTH_FINDING_TEXT,
      figure: null,
      evidence: null,
      reported_value: 1,
      evidence_value: 2,
      difference_percent: -50,
      above_threshold: true,
      version: 1,
      recorded_by: null,
      recorded_by_name: 'south.verifier',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('verification_opinions')
    .values({
      id: randomUUID(),
      organization_id: south,
      year: VERIFICATION_YEAR,
      sequence: 1,
      opinion: 'not-verified',
      comment: SOUTH_FINDING_TEXT,
      version: 1,
      figures_fingerprint: 'f'.repeat(64),
      figures: '[]',
      finding_ids: [finding.id],
      recorded_by: null,
      recorded_by_name: 'south.verifier',
      recorded_on: new Date('2025-03-09T00:00:00.000Z'),
      previous_hash: '0'.repeat(64),
      hash: 'e'.repeat(64),
    })
    .execute();
  return username;
}

/**
 * The tables a refused or failed request must leave as they were: all but the audit log, the identity provider's
 * sessions and the rate limits' counters, which count every request to a limited route, refused ones too, by design
 * (docs/decisions/0135).
 */
export async function tableNames(db: Kysely<Database>): Promise<string[]> {
  const result = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not in ('audit_log', 'oidc_payloads', 'rate_limit_counters')
    order by table_name`.execute(db);
  return result.rows.map((r) => r.table_name);
}

/** Columns written by reading, by design: an API key's last use (noted at most once a minute). */
const WRITTEN_BY_READS: Record<string, string[]> = { api_keys: ['last_used_on'] };

/** md5 of every table's rows (sorted as text): equal snapshots mean nothing was written. */
export async function snapshotTables(
  db: Kysely<Database>,
  tables: string[],
): Promise<Record<string, string>> {
  const parts = tables.map((t) =>
    WRITTEN_BY_READS[t]
      ? sql`select ${t} as name, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as hash from (select to_jsonb(r) - ${sql.val(WRITTEN_BY_READS[t])}::text[] as x from ${sql.table(t)} r) y`
      : sql`select ${t} as name, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as hash from ${sql.table(t)} x`,
  );
  const result = await sql<{ name: string; hash: string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return Object.fromEntries(result.rows.map((r) => [r.name, r.hash]));
}

export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(before).filter((t) => before[t] !== after[t]);
}
