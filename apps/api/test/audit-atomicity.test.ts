import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { DEFAULT_ALERT_SETTINGS } from '@portal/contracts/alerts';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originalsCompressed } from '../src/storage';
import { createUploadCredential } from '../src/features/ship-info/credentials';
import { unsubscribeKey, unsubscribeToken } from '../src/features/alerts/unsubscribe';
import { signIn, signInFlow, startTestServer, type TestServer } from './harness';
import {
  UNTIL,
  VERIFICATION_YEAR,
  VERIFIER_PASSWORD,
  buildWorld,
  type IsolationWorld,
} from './isolation/fixtures';
import { CSV_CONFIGURATION, createCsvDataSource, csvFile, multipartFile } from './upload-helpers';

/**
 * One transaction for a change and its audit entry (docs/decisions/0063-audited-changes.md): on every route that
 * audits, a refused audit insert (a trigger on audit_log raising for the route's action, on PGlite and PostgreSQL
 * alike) answers an error and leaves the database as it was; the same call without the fault changes it and writes
 * the entry.
 */

let server: TestServer;
let world: IsolationWorld;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  // Webhooks to 127.0.0.1 are allowed; no worker runs here, so nothing is sent to them.
  server = await startTestServer({ env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' } });
  world = await buildWorld(server);
  await sql`
    CREATE TABLE audit_fault (action text PRIMARY KEY);
    CREATE FUNCTION audit_fault_raise() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM audit_fault WHERE action = NEW.action) THEN
        RAISE EXCEPTION 'audit insert refused for %', NEW.action;
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER audit_fault BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_fault_raise();
  `.execute(server.services.database.db);
}, 180_000);
afterAll(async () => {
  await server?.close();
});

/**
 * Tables an audited call must leave as they were; the audit log itself, the provider's sessions and the rate limits'
 * counters (every request to a limited route counts, a refused one too: docs/decisions/0135) aside.
 */
const UNWATCHED = new Set([
  'audit_log',
  'audit_fault',
  'oidc_payloads',
  'rate_limit_counters',
  'kysely_migration',
  'kysely_migration_lock',
]);

/** Every row of every watched table (as text, hashed per table) and the originals stored beside the database. */
async function fingerprint(): Promise<Record<string, string>> {
  const { db, originals } = server.services.database;
  // An upload's original is compressed after its commit, in the background: settled first, so that the compression
  // of an earlier upload is not taken for a change made by the call under test (seen on a loaded machine).
  await originalsCompressed();
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      -- a month partition's rows are read through its parent table (migration 0037)
      and not exists (select 1 from pg_class c where c.relname = table_name and c.relispartition)
    order by table_name`.execute(db);
  const result: Record<string, string> = {};
  for (const { name } of tables.rows) {
    if (UNWATCHED.has(name)) continue;
    const row = await sql<{ h: string }>`
      select count(*) || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h
      from ${sql.table(name)} t`.execute(db);
    result[name] = row.rows[0]!.h;
  }
  result.originals = (await originals.storedFileIds(db)).sort().join(',');
  return result;
}

async function entries(action: string): Promise<number> {
  const rows = await server.services.database.db
    .selectFrom('audit_log')
    .select('id')
    .where('action', '=', action)
    .execute();
  return rows.length;
}

async function refuseAudit(action: string | null) {
  const { db } = server.services.database;
  await sql`DELETE FROM audit_fault`.execute(db);
  if (action) await sql`INSERT INTO audit_fault (action) VALUES (${action})`.execute(db);
}

type Answer = { statusCode: number };
interface Case {
  route: string;
  action: string;
  /** Runs before (without a fault): makes what the call acts on. */
  prepare?: () => Promise<void>;
  call: () => Promise<Answer>;
  /** The status of the call when the audit insert succeeds (2xx by default). */
  ok?: number;
  /** False for an event that changes nothing by itself (a sign-in, an export). */
  changes?: boolean;
  /** Tables written before the change, whatever becomes of it (the onboard uploader's last use). */
  besides?: string[];
}

const as = (username: string) => server.as(username);
let verifierSession: Promise<string> | undefined;
/** North's verifier of the isolation world (a user the demo does not know). */
const verifierToken = () => (verifierSession ??= signIn(server.app, world.northVerifier, VERIFIER_PASSWORD));
const iso = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

/** The routes' own words: every action written anywhere in apps/api/src. */
function auditedActionsInSource(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/action: '([a-z.-]+)'/g)) found.add(m[1]!);
        for (const m of text.matchAll(/auditedCalculation\(request\.caller!, '([a-z.-]+)'/g))
          found.add(m[1]!);
      }
    }
  };
  walk(join(__dirname, '../src'));
  return found;
}

/** Names that differ between a case's refused and accepted runs. */
const randomSuffix = () => Math.random().toString(36).slice(2, 8);
/** A bunker delivery note with a number of its own. */
const bdnBody = () => ({
  deliveredAt: new Date(UNTIL.getTime() - 2 * DAY_MS).toISOString(),
  portId: 'NLRTM',
  portName: null,
  fuelType: 'HFO',
  massTonnes: 500,
  sulfurPercent: 2.5,
  lcvMjPerKg: null,
  densityKgM3: null,
  bdnNumber: `AUDIT-${randomSuffix()}`,
});

describe('a change and its audit entry are one transaction', () => {
  it('stores nothing when a lone surrogate in a name makes the audit entry fail (issue 14, seen #6)', async () => {
    const admin = await as('admin');
    const named = () =>
      server.services.database.db
        .selectFrom('organizations')
        .select('id')
        .where('name', 'like', 'Lone %')
        .execute();
    // Twice, as a client that retries: neither attempt leaves an organization behind.
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await admin.post('/api/organizations', {
        name: 'Lone \uD800 Lines',
        email: 'lone@example.com',
        phone: '1',
        priority: false,
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
    }
    expect(await named()).toEqual([]);
  });

  it('on every audited route, a refused audit insert answers an error and leaves nothing behind', async () => {
    const { organizationIds, userIds } = server.seed;
    const north = organizationIds.north!;
    const south = organizationIds.south!;
    const db = server.services.database.db;
    const admin = await as('admin');
    const northAdmin = await as('north.admin');
    // Two of North's own ships: a FuelEU pool's members.
    const poolMembers = () =>
      [server.seed.facilityIds.baltic_tern!, server.seed.facilityIds.atlantic_meridian!].map(
        (facilityId) => ({
          facilityId,
          allocatedTonnes: 0,
        }),
      );
    const newPool = (year: number) =>
      northAdmin
        .post(`/api/organizations/${north}/fueleu/pools`, {
          year,
          name: `Audit pool ${randomSuffix()}`,
          members: poolMembers(),
        })
        .then((r) => r.json().id as string);

    // A ship of North's for the uploads, data sources, documents and credentials below.
    const ship = (
      await admin.post('/api/facilities', { organizationId: north, name: 'MV Audit Trail' })
    ).json().id as string;
    const csvSource = await createCsvDataSource(server, ship);
    const { token: uploaderToken } = await createUploadCredential(db, ship, userIds.admin!);
    const uploadAs = async (token: string, name: string, content: string) => {
      const { payload, headers } = multipartFile(name, content);
      return server.app.inject({
        method: 'POST',
        url: `/api/algorithm/facilitydatasource/${csvSource}/file`,
        payload,
        headers: { ...headers, authorization: `Bearer ${token}` },
      });
    };
    let uploaded = 0;
    const newCsv = () =>
      csvFile({ start: `2026-05-${String(++uploaded).padStart(2, '0')} 00:00:00`, rows: 30 });
    const newEvent = async () =>
      (
        await db
          .insertInto('compliance_events')
          .values({
            facility_id: ship,
            type: 'emission-exceedance',
            start_on: new Date('2025-03-09T01:00:00.000Z'),
            end_on: new Date('2025-03-09T03:00:00.000Z'),
            classification: 'malfunction',
            report_required: true,
            rules: JSON.stringify(DEFAULT_EVENT_RULES),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const uploadedFile = async () => {
      const response = await uploadAs(await server.tokenFor('admin'), 'made.csv', newCsv());
      return (response.json() as { ids: string[] }).ids[0]!;
    };

    // Calculations: a measurement field of North's ship and the first report field.
    const calculation = await db
      .selectFrom('measurement_field_calculations')
      .select(['id', 'measurement_field_id'])
      .where('id', '=', world.north.measurementCalculation)
      .executeTakeFirstOrThrow();
    const mfBase = `/api/algorithm/facility/${world.north.facility}/measurement-field/${calculation.measurement_field_id}/calculations`;
    const rfBase = `/api/algorithm/reports/${world.global.report}/fields/${world.global.reportField}/calculations`;
    const draft = async (base: string) => {
      const created = await admin.post(base, {
        transformAlgorithm: 'return 1;',
        inputIds: [],
        comment: 'draft',
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().calculation.id as string;
    };
    const reportCalculation = await db
      .insertInto('report_field_calculations')
      .values({
        report_field_id: world.global.reportField,
        version: 900,
        revision: 0,
        transform_algorithm: 'return 1;',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pending = (
      table: 'measurement_field_calculations' | 'report_field_calculations',
      id: string,
      queued: boolean,
    ) =>
      db
        .updateTable(table)
        .set({ recalculation_requested_on: new Date(), recalculation_queued_on: queued ? new Date() : null })
        .where('id', '=', id)
        .execute()
        .then(() => undefined);

    let target = '';
    const remember = async (value: Promise<string>) => {
      target = await value;
    };
    const newOrganization = async (name: string) =>
      (
        await admin.post('/api/organizations', {
          name,
          email: 'ops@example.com',
          phone: '+1',
          priority: false,
        })
      ).json() as {
        id: string;
        linkKey: string;
      };

    const cases: Case[] = [
      // organizations and access
      {
        route: 'POST /api/organizations',
        action: 'organization.create',
        call: () =>
          admin.post('/api/organizations', {
            name: 'Audit Lines',
            email: 'a@example.com',
            phone: '1',
            priority: false,
          }),
      },
      {
        route: 'PUT /api/organizations/{id}/update-organization',
        action: 'organization.update',
        call: async () => {
          const current = (await admin.get(`/api/organizations/${north}/organization`)).json();
          return admin.put(`/api/organizations/${north}/update-organization`, {
            name: current.name,
            email: `ops${Date.now()}@north.example`,
            phone: current.phone ?? '',
            priority: current.priority,
          });
        },
      },
      {
        route: 'PUT /api/organizations/{id}/data-health-thresholds',
        action: 'datahealth.thresholds',
        call: () =>
          northAdmin.put(`/api/organizations/${north}/data-health-thresholds`, {
            thresholds: [{ fieldName: 'WASHWATER_PH', min: 0, max: 14.5, staleHours: 2, flatLineHours: 2 }],
          }),
      },
      {
        route: 'POST /api/organizations/{id}/{linkKey}/organization-link',
        action: 'organization.link',
        prepare: () => remember(newOrganization('Link Target').then((o) => o.linkKey)),
        call: () => northAdmin.post(`/api/organizations/${north}/${target}/organization-link`),
      },
      {
        route: 'DELETE /api/organizations/{id}/{otherId}',
        action: 'organization.unlink',
        prepare: async () => {
          const other = await newOrganization('Unlink Target');
          await northAdmin.post(`/api/organizations/${north}/${other.linkKey}/organization-link`);
          target = other.id;
        },
        call: () => northAdmin.delete(`/api/organizations/${north}/${target}`),
      },
      {
        route: 'DELETE /api/organizations/facilities/{userId}/{facilityId}/user-facility-link',
        action: 'access.user.revoke',
        call: () =>
          northAdmin.delete(
            `/api/organizations/facilities/${userIds['north.olav']}/${world.north.facility}/user-facility-link`,
          ),
      },
      {
        route: 'POST /api/organizations/facilities/{userId}/{facilityId}/user-facility-link',
        action: 'access.user.grant',
        call: () =>
          northAdmin.post(
            `/api/organizations/facilities/${userIds['north.olav']}/${world.north.facility}/user-facility-link`,
          ),
      },
      {
        route: 'DELETE /api/organizations/{orgId}/{facilityId}/organization-facility-link',
        action: 'access.organization.revoke',
        call: () =>
          admin.delete(`/api/organizations/${north}/${world.sharedSouthFacility}/organization-facility-link`),
      },
      {
        route: 'POST /api/organizations/{orgId}/{facilityId}/organization-facility-link',
        action: 'access.organization.grant',
        call: () =>
          admin.post(`/api/organizations/${north}/${world.sharedSouthFacility}/organization-facility-link`),
      },
      {
        route: 'POST /api/organizations/{orgId}/{facilityId}/migrate-facility',
        action: 'facility.transfer',
        prepare: () =>
          remember(
            admin
              .post('/api/facilities', { organizationId: south, name: 'MV Transferred' })
              .then((r) => r.json().id),
          ),
        call: () => admin.post(`/api/organizations/${north}/${target}/migrate-facility`),
      },
      // users
      {
        route: 'POST /api/organizations/{orgId}/users',
        action: 'user.create',
        call: () =>
          northAdmin.post(`/api/organizations/${north}/users`, {
            username: 'north.audited',
            password: 'Audited1234',
            roles: ['User'],
          }),
      },
      {
        route: 'PUT /api/users/{id}',
        action: 'user.update',
        call: () =>
          northAdmin.put(`/api/users/${userIds['north.olav']}`, {
            username: 'north.olav',
            roles: ['User'],
            password: `Olav${Date.now()}`,
          }),
      },
      {
        route: 'DELETE /api/users/{id}',
        action: 'user.delete',
        prepare: () =>
          remember(
            northAdmin
              .post(`/api/organizations/${north}/users`, {
                username: 'north.gone',
                password: 'Gone12345',
                roles: ['User'],
              })
              .then((r) => r.json().id),
          ),
        call: () => northAdmin.delete(`/api/users/${target}`),
      },
      {
        route: 'PATCH /api/users/{id}/change-password (wrong current password)',
        action: 'password.change-failed',
        call: async () =>
          (await as('south.lee')).patch(`/api/users/${userIds['south.lee']}/change-password`, {
            currentPassword: 'not-it-1',
            newPassword: 'Lee7654321',
          }),
        ok: 400,
        changes: false,
      },
      {
        route: 'PATCH /api/users/{id}/change-password',
        action: 'password.change',
        call: async () =>
          (await as('south.lee')).patch(`/api/users/${userIds['south.lee']}/change-password`, {
            currentPassword: 'Lee123456',
            newPassword: 'Lee7654321',
          }),
      },
      // sign-in and sign-out
      {
        route: 'POST /interaction/{uid}/login',
        action: 'sign-in',
        call: async () => {
          const result = await signInFlow(server.app, 'south.admin', 'South1234');
          return { statusCode: result.accessToken ? 200 : (result.loginStatus ?? 0) };
        },
        changes: false,
      },
      {
        route: 'POST /interaction/{uid}/login (wrong password)',
        action: 'sign-in.failed',
        call: async () => {
          const result = await signInFlow(server.app, 'south.admin', 'Wrong12345');
          return { statusCode: result.loginStatus ?? 0 };
        },
        ok: 200,
        changes: false,
      },
      {
        route: 'POST /interaction/{uid}/login (rate limited)',
        action: 'sign-in.rate-limited',
        prepare: async () => {
          for (let i = 0; i < server.app.config.LOGIN_ATTEMPTS_PER_MINUTE; i++)
            await signInFlow(server.app, 'nobody.limited', 'Wrong12345');
        },
        call: async () => {
          const result = await signInFlow(server.app, 'nobody.limited', 'Wrong12345');
          return { statusCode: result.loginStatus ?? 0 };
        },
        ok: 429,
        changes: false,
      },
      {
        route: 'POST /api/auth/logout',
        action: 'sign-out',
        call: async () => (await as('north.anna')).post('/api/auth/logout'),
      },
      // files
      {
        route: 'POST /api/algorithm/facilitydatasource/{id}/file',
        action: 'datafile.upload',
        call: async () => uploadAs(await server.tokenFor('admin'), 'audit.csv', newCsv()),
      },
      {
        route: 'POST /api/algorithm/facilitydatasource/{id}/file (onboard uploader)',
        action: 'datafile.upload',
        call: () => uploadAs(uploaderToken, 'onboard.csv', newCsv()),
        // The credential's last use is recorded when it is checked, before the upload begins.
        besides: ['upload_credentials'],
      },
      {
        route: 'DELETE /api/algorithm/facilitydatasource/{id}/file/{fileId}',
        action: 'datafile.delete',
        prepare: () => remember(uploadedFile()),
        call: () => admin.delete(`/api/algorithm/facilitydatasource/${csvSource}/file/${target}`),
      },
      {
        route: 'DELETE /api/algorithm/facilitydatasource/{id}/file/{fileId}?deleteData=true',
        action: 'datafile.delete',
        prepare: () => remember(uploadedFile()),
        call: () =>
          admin.delete(`/api/algorithm/facilitydatasource/${csvSource}/file/${target}?deleteData=true`),
      },
      // compliance events and the record book
      {
        route: 'POST /api/events/{id}/acknowledge',
        action: 'event.acknowledge',
        prepare: () => remember(newEvent()),
        call: () =>
          admin.post(`/api/events/${target}/acknowledge`, {
            cause: 'sensor',
            actionsTaken: 'Probe cleaned',
            comment: '',
          }),
      },
      {
        route: 'POST /api/events/{id}/close',
        action: 'event.close',
        prepare: () => remember(newEvent()),
        call: () => admin.post(`/api/events/${target}/close`, { comment: 'Done' }),
      },
      {
        route: 'PUT /api/events/{id}/report',
        action: 'event.report.save',
        prepare: () => remember(newEvent()),
        call: async () =>
          admin.put(`/api/events/${target}/report`, {
            ...(await admin.get(`/api/events/${target}/report`)).json(),
            sentOn: undefined,
            actionsPlanned: 'New probe ordered',
          }),
      },
      {
        route: 'POST /api/events/{id}/report/sent',
        action: 'event.report.sent',
        prepare: () => remember(newEvent()),
        call: () => admin.post(`/api/events/${target}/report/sent`, { sentOn: '2025-03-09' }),
      },
      {
        route: 'POST /api/events/{id}/report/revisions',
        action: 'event.report.revise',
        prepare: async () => {
          await remember(newEvent());
          await admin.post(`/api/events/${target}/report/sent`, { sentOn: '2025-03-09' });
        },
        call: () =>
          admin.post(`/api/events/${target}/report/revisions`, {
            reason: 'The port State asked for the expected repair time',
            expectedRepair: 'At the next port call',
          }),
      },
      {
        route: 'PUT /api/organizations/{id}/event-rules',
        action: 'event.rules',
        call: () =>
          admin.put(`/api/organizations/${north}/event-rules`, {
            rules: { ...DEFAULT_EVENT_RULES, transientMinutes: 20 + ++uploaded },
          }),
      },
      // data retention (docs/decisions/0125)
      {
        route: 'PUT /api/organizations/{id}/retention',
        action: 'retention.set',
        call: () =>
          admin.put(`/api/organizations/${north}/retention`, { months: 18 + ++uploaded, expired: 'archive' }),
      },
      {
        route: 'POST /api/storage/months/{month}/archive',
        action: 'storage.archive',
        call: async () => (await as('admin')).post('/api/storage/months/2001-01/archive'),
      },
      {
        route: 'POST /api/storage/months/{month}/restore',
        action: 'storage.restore',
        prepare: async () => {
          await (await as('admin')).post('/api/storage/months/2001-02/archive');
        },
        call: async () => (await as('admin')).post('/api/storage/months/2001-02/restore'),
      },
      {
        route: 'POST /api/facilities/{id}/record-book',
        action: 'recordbook.add',
        call: () =>
          admin.post(`/api/facilities/${ship}/record-book`, {
            kind: 'note',
            occurredOn: '2025-03-09T12:00:00.000Z',
            text: 'Bunkering completed',
          }),
      },
      // inspection packs
      {
        route: 'POST /api/facilities/{id}/inspection-packs',
        action: 'inspection-pack.create',
        ok: 202,
        call: () =>
          admin.post(`/api/facilities/${ship}/inspection-packs`, { from: '2025-03-01', to: '2025-03-31' }),
      },
      {
        route: 'GET /api/facilities/{id}/inspection-packs/{packId}/download',
        action: 'inspection-pack.download',
        call: () =>
          northAdmin.get(
            `/api/facilities/${world.north.facility}/inspection-packs/${world.north.inspectionPack}/download`,
          ),
        changes: false,
      },
      {
        route: 'PUT /api/facilities/{id}/inspection-packs/schedule',
        action: 'inspection-pack-schedule.update',
        call: () =>
          northAdmin.put(`/api/facilities/${world.north.facility}/inspection-packs/schedule`, {
            recipientIds: [userIds['north.anna']],
          }),
      },
      {
        route: 'DELETE /api/facilities/{id}/inspection-packs/schedule',
        action: 'inspection-pack-schedule.delete',
        prepare: async () => {
          await northAdmin.put(`/api/facilities/${world.north.facility}/inspection-packs/schedule`, {
            recipientIds: [userIds['north.anna']],
          });
        },
        call: () => northAdmin.delete(`/api/facilities/${world.north.facility}/inspection-packs/schedule`),
      },
      {
        route: 'POST /api/algorithm/facility/{id}/datasource',
        action: 'datasource.create',
        call: () =>
          admin.post(`/api/algorithm/facility/${ship}/datasource`, {
            name: `Second${++uploaded}`,
            dataSourceReaderId: 'delimited-text',
            dataSourceReaderConfiguration: CSV_CONFIGURATION,
            measureFrequencyInSeconds: 60,
            utcTimezoneOffsetInMinutes: 0,
            note: '',
            isPrimary: false,
          }),
      },
      {
        route: 'PUT /api/algorithm/facility/{id}/datasource/{dataSourceId}',
        action: 'datasource.update',
        call: () =>
          admin.put(`/api/algorithm/facility/${ship}/datasource/${csvSource}`, {
            name: 'Logger',
            dataSourceReaderId: 'delimited-text',
            dataSourceReaderConfiguration: CSV_CONFIGURATION,
            measureFrequencyInSeconds: 60,
            utcTimezoneOffsetInMinutes: 0,
            note: `checked ${Date.now()}`,
            isPrimary: true,
          }),
      },
      {
        route: 'DELETE /api/algorithm/facility/{id}/datasource/{dataSourceId}',
        action: 'datasource.delete',
        prepare: () => remember(createCsvDataSource(server, ship, { name: `Doomed${++uploaded}` })),
        call: () => admin.delete(`/api/algorithm/facility/${ship}/datasource/${target}`),
      },
      {
        route: 'POST /api/algorithm/facilitydatasource/{id}/facilitydatasourcechannels',
        action: 'channel.create',
        call: () =>
          admin.post(
            `/api/algorithm/facilitydatasource/${world.north.dataSource}/facilitydatasourcechannels`,
            {
              isCustom: true,
              source: '1',
              name: `CONSTANT_${++uploaded}`,
              dataType: 'Double',
            },
          ),
      },
      {
        route: 'PUT /api/algorithm/facilitydatasource/{id}/facilitydatasourcechannels/{channelId}',
        action: 'channel.update',
        call: async () => {
          const url = `/api/algorithm/facilitydatasource/${world.north.dataSource}/facilitydatasourcechannels`;
          const channels = (await admin.get(url)).json() as {
            id: string;
            source: string;
            name: string;
            dataType: string;
            unit: string | null;
          }[];
          const channel = channels.find((c) => c.id === world.north.channel)!;
          return admin.put(`${url}/${channel.id}`, {
            source: channel.source,
            name: channel.name,
            dataType: channel.dataType,
            unit: channel.unit,
            description: `Checked ${++uploaded}`,
          });
        },
      },
      {
        route: 'DELETE /api/algorithm/facilitydatasource/{id}/facilitydatasourcechannels/{channelId}',
        action: 'channel.delete',
        call: () =>
          admin.delete(
            `/api/algorithm/facilitydatasource/${world.north.dataSource}/facilitydatasourcechannels/${world.north.channel}`,
          ),
      },
      {
        route: 'PUT /api/algorithm/facilitydatasource/{id}/facilitydatasourcechannels',
        action: 'channel.replace',
        call: () =>
          admin.put(`/api/algorithm/facilitydatasource/${csvSource}/facilitydatasourcechannels`, [
            { source: 'SO2', name: `SO2_${++uploaded}`, dataType: 'Double' },
          ]),
      },
      {
        route: 'POST /api/organizations/{id}/channel-aliases',
        action: 'channel-alias.create',
        call: () =>
          northAdmin.post(`/api/organizations/${north}/channel-aliases`, {
            field: 'SO2_PPM',
            alias: `Gas analyser ${++uploaded}`,
          }),
      },
      {
        route: 'DELETE /api/organizations/{id}/channel-aliases/{aliasId}',
        action: 'channel-alias.delete',
        prepare: () =>
          remember(
            northAdmin
              .post(`/api/organizations/${north}/channel-aliases`, {
                field: 'CO2_PCT',
                alias: `CO2 ${++uploaded}`,
              })
              .then((r) => r.json().id),
          ),
        call: () => northAdmin.delete(`/api/organizations/${north}/channel-aliases/${target}`),
      },
      {
        route: 'PUT /api/algorithm/facilities/{id}/configurations',
        action: 'facility.import-configuration',
        prepare: () =>
          remember(
            admin
              .post('/api/facilities', { organizationId: north, name: 'MV Configured' })
              .then((r) => r.json().id),
          ),
        call: () =>
          admin.put(`/api/algorithm/facilities/${target}/configurations`, {
            sourceFacilityId: world.north.facility,
          }),
      },
      // settings, ships
      {
        route: 'PUT /api/settings/maintenance',
        action: 'maintenance.set',
        call: () => admin.put('/api/settings/maintenance', { maintenance: false }),
      },
      {
        route: 'POST /api/facilities',
        action: 'facility.create',
        call: () => admin.post('/api/facilities', { organizationId: north, name: 'MV Created' }),
      },
      {
        route: 'PUT /api/facilities/{id}/facility',
        action: 'facility.update',
        call: () =>
          admin.put(`/api/facilities/${ship}/facility`, {
            name: 'MV Audit Trail',
            imo: '9300001',
            scrubberSystemType: 'Hybrid',
            numberOfScrubbers: 2,
            totalEffectKW: 1000 + uploaded++,
            systemManufacturer: 'Wartsila',
            startDate: '2024-03-05',
            endDate: null,
            imageBase64: null,
          }),
      },
      {
        route: 'POST /api/facilities/{id}/upload-credentials',
        action: 'facility.provision',
        call: () => admin.post(`/api/facilities/${ship}/upload-credentials`),
      },
      {
        route: 'DELETE /api/facilities/{id}/upload-credentials/{credentialId}',
        action: 'facility.revoke-upload-credential',
        call: () =>
          admin.delete(
            `/api/facilities/${world.north.facility}/upload-credentials/${world.north.credential}`,
          ),
      },
      // API keys
      {
        route: 'POST /api/organizations/{id}/api-keys',
        action: 'apikey.create',
        call: async () =>
          (await as('north.admin')).post(`/api/organizations/${world.north.organization}/api-keys`, {
            name: 'Audit probe',
            scopes: ['reports:read'],
          }),
      },
      {
        route: 'DELETE /api/organizations/{id}/api-keys/{keyId}',
        action: 'apikey.revoke',
        prepare: () =>
          remember(
            admin
              .post(`/api/organizations/${world.north.organization}/api-keys`, {
                name: `Revoked probe ${Date.now()}`,
                scopes: ['files:upload'],
              })
              .then((response) => response.json().id as string),
          ),
        call: () => admin.delete(`/api/organizations/${world.north.organization}/api-keys/${target}`),
      },
      // documents, messages, reports
      {
        route: 'POST /api/facilities/{id}/documents',
        action: 'document.upload',
        call: () => {
          const form = new FormData();
          form.append('docType', 'Survey');
          form.append('file', new Blob(['%PDF audit'], { type: 'application/pdf' }), 'audit.pdf');
          return server.tokenFor('admin').then((token) =>
            server.app.inject({
              method: 'POST',
              url: `/api/facilities/${ship}/documents`,
              headers: { authorization: `Bearer ${token}` },
              payload: form,
            }),
          );
        },
      },
      {
        route: 'DELETE /api/facilities/documents/{fileId}',
        action: 'document.delete',
        call: () => admin.delete(`/api/facilities/documents/${world.north.document}`),
      },
      {
        route: 'POST /api/messages',
        action: 'message.create',
        call: () =>
          admin.post('/api/messages', {
            title: 'Audit',
            text: 'Checked',
            showFrom: iso(-1),
            showTo: iso(1),
            notify: false,
          }),
      },
      {
        route: 'PUT /api/messages/{id}',
        action: 'message.update',
        call: () =>
          admin.put(`/api/messages/${world.north.message}`, {
            title: 'Audit',
            text: `Edited ${Date.now()}`,
            showFrom: iso(-1),
            showTo: iso(1),
            notify: false,
          }),
      },
      {
        route: 'DELETE /api/messages/{id}',
        action: 'message.delete',
        call: () => admin.delete(`/api/messages/${world.north.message}`),
      },
      {
        route: 'PUT /api/algorithm/reports/{id}/update-report',
        action: 'report.update',
        call: () =>
          admin.put(`/api/algorithm/reports/${world.global.report}/update-report`, {
            information: `Audited ${Date.now()}`,
          }),
      },
      {
        route: 'DELETE /api/algorithm/reports/values',
        action: 'report-values.delete',
        call: () =>
          admin.delete(
            `/api/algorithm/reports/values?facilityId=${world.south.facility}&from=${encodeURIComponent(new Date(UNTIL.getTime() - 2 * DAY_MS).toISOString())}&to=${encodeURIComponent(UNTIL.toISOString())}`,
          ),
      },
      {
        route: 'POST /api/algorithm/exports',
        action: 'report.export',
        call: () =>
          admin.post('/api/algorithm/exports', {
            reportCode: world.global.report,
            facilityIds: [world.north.facility],
            from: new Date(UNTIL.getTime() - DAY_MS).toISOString(),
            to: UNTIL.toISOString(),
            resolution: 'day',
          }),
        changes: false,
      },
      // executions and recalculations
      {
        route: 'POST /api/algorithm/calculations/measurement-field/execute',
        action: 'execution.request',
        call: () =>
          admin.post('/api/algorithm/calculations/measurement-field/execute', {
            facilityId: world.north.facility,
            from: new Date(UNTIL.getTime() - DAY_MS).toISOString(),
            to: UNTIL.toISOString(),
            facilityDataSourceFileIds: [world.north.file],
          }),
      },
      ...(['measurement-fields', 'report-fields'] as const).flatMap((kind): Case[] => {
        const table =
          kind === 'measurement-fields' ? 'measurement_field_calculations' : 'report_field_calculations';
        const id = () =>
          kind === 'measurement-fields' ? world.north.measurementCalculation : reportCalculation.id;
        const base = `/api/algorithm/calculations/${kind}/recalculation`;
        return [
          {
            route: `DELETE ${base}`,
            action: 'recalculation.remove',
            prepare: () => pending(table, id(), false),
            call: () => admin.delete(base, { ids: [id()] }),
          },
          {
            route: `POST ${base}/cancel`,
            action: 'recalculation.cancel',
            prepare: () => pending(table, id(), true),
            call: () => admin.post(`${base}/cancel`, { ids: [id()] }),
          },
          {
            route: `POST ${base}/execute`,
            action: 'recalculation.execute',
            // Only code that checks is queued (a draft with errors is refused): the calculation queued returns 1.
            prepare: async () => {
              await pending(table, id(), false);
              await db
                .updateTable(table)
                .set({ transform_algorithm: 'return 1;', input_ids: JSON.stringify([]) })
                .where('id', '=', id())
                .execute();
            },
            call: () => admin.post(`${base}/execute`, { ids: [id()] }),
          },
        ];
      }),
      {
        route: 'DELETE /api/algorithm/measurement-fields/values',
        action: 'measurement-values.delete',
        // A day of values of North's ship, inside the period deleted.
        prepare: async () => {
          const day = new Date(UNTIL.getTime() - 2 * DAY_MS);
          await db
            .insertInto('measurement_values')
            .values({
              facility_id: world.north.facility,
              measurement_field_id: calculation.measurement_field_id,
              day: day.toISOString().slice(0, 10),
              row_count: 1,
              timestamps: Buffer.from(new Float64Array([day.getTime()]).buffer),
              values: Buffer.from(new Float64Array([1]).buffer),
            })
            .onConflict((oc) => oc.doNothing())
            .execute();
        },
        call: () =>
          admin.delete(
            `/api/algorithm/measurement-fields/values?facilityId=${world.north.facility}&from=${encodeURIComponent(new Date(UNTIL.getTime() - 3 * DAY_MS).toISOString())}&to=${encodeURIComponent(UNTIL.toISOString())}`,
          ),
      },
      // alert settings: a user's own, and an organization's defaults for its users
      {
        route: 'PUT profile/alert-subscription',
        action: 'alert-subscription.update',
        ok: 200,
        call: () =>
          northAdmin.put('/api/profile/alert-subscription', {
            email: 'north.admin@nordic.example',
            settings: DEFAULT_ALERT_SETTINGS,
          }),
      },
      {
        route: 'PUT organizations/{id}/alert-defaults',
        action: 'alert-defaults.update',
        ok: 200,
        call: () =>
          northAdmin.put(`/api/organizations/${north}/alert-defaults`, {
            settings: DEFAULT_ALERT_SETTINGS,
            reminderHours: 6,
          }),
      },
      {
        route: 'PUT organizations/{id}/zone-warning-settings',
        action: 'zone-warning-settings.update',
        ok: 200,
        call: () =>
          northAdmin.put(`/api/organizations/${north}/zone-warning-settings`, { horizonMinutes: 90 }),
      },
      {
        route: 'POST alerts/unsubscribe (the e-mail link, no sign-in)',
        action: 'alert-subscription.unsubscribe',
        // Olav's e-mails on, his organization's defaults in force; the links' key made (once, on first use).
        prepare: async () => {
          await unsubscribeKey(db);
          await db
            .insertInto('alert_subscriptions')
            .values({ user_id: userIds['north.olav']!, email: 'olav@nordic.example', settings: null })
            .onConflict((oc) =>
              oc.column('user_id').doUpdateSet({ email: 'olav@nordic.example', settings: null }),
            )
            .execute();
        },
        call: async () => {
          const token = unsubscribeToken(await unsubscribeKey(db), userIds['north.olav']!);
          return server.app.inject({
            method: 'POST',
            url: `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`,
          });
        },
      },
      {
        route: 'POST admin/outbox/resend',
        action: 'alert-email.resend',
        // A failed e-mail to send again (an SMTP outage longer than the retries).
        prepare: async () => {
          await db
            .insertInto('alert_deliveries')
            .values({
              idempotency_key: `audit-resend-${++uploaded}`,
              user_id: userIds['north.anna']!,
              channel: 'email',
              status: 'failed',
              address: 'anna@nordic.example',
              subject: 'An alert',
              text_body: 'An alert',
              html_body: '<p>An alert</p>',
              last_error: 'connect ECONNREFUSED 127.0.0.1:25',
            })
            .execute();
        },
        call: () => admin.post('/api/admin/outbox/resend', { allFailed: true }),
      },
      // webhooks of an organization
      {
        route: 'POST organizations/{id}/webhooks',
        action: 'webhook.create',
        ok: 201,
        call: () =>
          northAdmin.post(`/api/organizations/${north}/webhooks`, {
            url: 'http://127.0.0.1:9/hook',
            eventTypes: ['data-gap'],
          }),
      },
      ...(['update', 'rotate-secret', 'test', 'delete'] as const).map((step): Case => ({
        route: `${step} organizations/{id}/webhooks/{webhookId}`,
        action: `webhook.${step}`,
        ok: step === 'test' ? 202 : step === 'delete' ? 204 : 200,
        prepare: () =>
          remember(
            northAdmin
              .post(`/api/organizations/${north}/webhooks`, {
                url: 'http://127.0.0.1:9/hook',
                eventTypes: ['data-gap'],
              })
              .then((r) => r.json().id as string),
          ),
        call: () => {
          const path = `/api/organizations/${north}/webhooks/${target}`;
          if (step === 'update')
            return northAdmin.put(path, { url: 'http://127.0.0.1:9/other', eventTypes: ['data-gap'] });
          if (step === 'delete') return northAdmin.delete(path);
          return northAdmin.post(`${path}/${step}`);
        },
      })),
      // the carbon ledger's records: bunker delivery notes, tank soundings, cargo
      {
        route: 'POST facilities/{id}/bunker-notes',
        action: 'carbon.bdn.add',
        ok: 201,
        call: () => northAdmin.post(`/api/facilities/${world.north.facility}/bunker-notes`, bdnBody()),
      },
      ...(['change', 'remove'] as const).map((step): Case => ({
        route: `${step === 'change' ? 'PUT' : 'DELETE'} bunker-notes/{id}`,
        action: `carbon.bdn.${step}`,
        ok: step === 'remove' ? 204 : 200,
        prepare: () =>
          remember(
            northAdmin
              .post(`/api/facilities/${world.north.facility}/bunker-notes`, bdnBody())
              .then((r) => r.json().id as string),
          ),
        call: () =>
          step === 'remove'
            ? northAdmin.delete(`/api/bunker-notes/${target}`)
            : northAdmin.put(`/api/bunker-notes/${target}`, { ...bdnBody(), massTonnes: 321 }),
      })),
      {
        route: 'POST facilities/{id}/tank-soundings',
        action: 'carbon.sounding.add',
        ok: 201,
        call: () =>
          northAdmin.post(`/api/facilities/${world.north.facility}/tank-soundings`, {
            at: iso(-2),
            fuelType: 'HFO',
            robTonnes: 250,
          }),
      },
      {
        route: 'DELETE tank-soundings/{id}',
        action: 'carbon.sounding.remove',
        ok: 204,
        prepare: () =>
          remember(
            northAdmin
              .post(`/api/facilities/${world.north.facility}/tank-soundings`, {
                at: iso(-3),
                fuelType: 'MDO_MGO',
                robTonnes: 80,
              })
              .then((r) => r.json().id as string),
          ),
        call: () => northAdmin.delete(`/api/tank-soundings/${target}`),
      },
      {
        route: 'PUT voyages/{id}/cargo',
        action: 'carbon.cargo.set',
        call: () =>
          northAdmin.put(`/api/voyages/${world.north.voyage}/cargo`, {
            laden: true,
            cargoTonnes: 40_000 + Math.round(Math.random() * 1000),
            teu: null,
          }),
      },
      {
        route: 'DELETE voyages/{id}/cargo',
        action: 'carbon.cargo.clear',
        ok: 204,
        prepare: async () => {
          await northAdmin.put(`/api/voyages/${world.north.voyage}/cargo`, {
            laden: false,
            cargoTonnes: null,
            teu: null,
          });
        },
        call: () => northAdmin.delete(`/api/voyages/${world.north.voyage}/cargo`),
      },
      {
        route: 'POST facilities/{id}/noon-reports',
        action: 'carbon.cargo.import',
        // The voyage's cargo cleared first: a person's entry would be kept and the import change nothing.
        prepare: async () => {
          await northAdmin.delete(`/api/voyages/${world.north.voyage}/cargo`);
        },
        call: () =>
          northAdmin.post(`/api/facilities/${world.north.facility}/noon-reports`, {
            csv: `Date,Condition,Cargo (t)\n${new Date(UNTIL.getTime() - 1.5 * DAY_MS).toISOString()},Laden,${1000 + Math.round(Math.random() * 1000)}\n`,
          }),
      },
      // EU ETS allowance prices
      {
        route: 'POST organizations/{id}/eua-prices',
        action: 'eu-ets.price.set',
        ok: 201,
        call: () =>
          northAdmin.post(`/api/organizations/${north}/eua-prices`, {
            on: `2026-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`,
            eurPerAllowance: 60 + Math.round(Math.random() * 100) / 10,
          }),
      },
      {
        route: 'DELETE eua-prices/{id}',
        action: 'eu-ets.price.remove',
        ok: 204,
        prepare: () =>
          remember(
            northAdmin
              .post(`/api/organizations/${north}/eua-prices`, {
                on: `2027-0${1 + Math.floor(Math.random() * 9)}-2${Math.floor(Math.random() * 8)}`,
                eurPerAllowance: 80,
              })
              .then((r) => r.json().id as string),
          ),
        call: () => northAdmin.delete(`/api/eua-prices/${target}`),
      },
      // FuelEU banking and borrowing, pools (a year of their own each: nothing of the ledger in it, a balance of 0)
      {
        route: 'PUT facilities/{id}/fueleu/flexibility',
        action: 'fueleu.flexibility.set',
        // Nothing banked or borrowed in a year without data: no row stays, the entry is the only trace.
        changes: false,
        call: () =>
          northAdmin.put(`/api/facilities/${world.north.facility}/fueleu/flexibility`, {
            year: 2040,
            bankedTonnes: 0,
            borrowedTonnes: 0,
          }),
      },
      {
        route: 'POST organizations/{id}/fueleu/pools',
        action: 'fueleu.pool.create',
        ok: 201,
        call: () =>
          northAdmin.post(`/api/organizations/${north}/fueleu/pools`, {
            year: 2041,
            name: `Audit pool ${randomSuffix()}`,
            members: poolMembers(),
          }),
      },
      {
        route: 'PUT organizations/{id}/fueleu/pools/{poolId}',
        action: 'fueleu.pool.update',
        prepare: () => remember(newPool(2042)),
        call: () =>
          northAdmin.put(`/api/organizations/${north}/fueleu/pools/${target}`, {
            year: 2042,
            name: `Audit pool renamed ${randomSuffix()}`,
            members: poolMembers(),
          }),
      },
      {
        route: 'DELETE organizations/{id}/fueleu/pools/{poolId}',
        action: 'fueleu.pool.delete',
        ok: 204,
        prepare: () => remember(newPool(2043)),
        call: () => northAdmin.delete(`/api/organizations/${north}/fueleu/pools/${target}`),
      },
      // UK ETS: the report queued for METS (sending turned on for the case; the job's own entries are its only write)
      {
        route: 'POST facilities/{id}/uk-ets/mets-submissions',
        action: 'uk-ets.mets-send',
        ok: 202,
        // What it changes is the queued job, in the queue's own schema (outside the tables watched here).
        changes: false,
        prepare: async () => {
          Object.assign(server.services.config, {
            METS_SEND: true,
            METS_API_URL: 'http://127.0.0.1:9/mets',
            METS_API_TOKEN: 'audit',
          });
        },
        call: () =>
          northAdmin.post(`/api/facilities/${world.north.facility}/uk-ets/mets-submissions`, {
            year: 2026,
            flag: 'MT',
            companyImoNumber: '1234567',
            companyNature: 'ISM_COMPANY',
          }),
      },
      // The compliance calendar's deadlines marked done and taken back; the cost cockpit's fuel prices
      {
        route: 'PUT organizations/{id}/compliance-calendar/{year}/{code}',
        action: 'compliance-calendar.done',
        call: () =>
          northAdmin.put(`/api/organizations/${north}/compliance-calendar/2026/DCS_REPORT`, {
            doneOn: '2026-03-20',
            note: `Sent, ref. ${randomSuffix()}`,
          }),
      },
      {
        route: 'DELETE organizations/{id}/compliance-calendar/{year}/{code}',
        action: 'compliance-calendar.undone',
        prepare: async () => {
          await northAdmin.put(`/api/organizations/${north}/compliance-calendar/2026/EU_ETS_SURRENDER`, {
            doneOn: '2026-09-20',
          });
        },
        call: () =>
          northAdmin.delete(`/api/organizations/${north}/compliance-calendar/2026/EU_ETS_SURRENDER`),
      },
      {
        route: 'POST organizations/{id}/fuel-prices',
        action: 'cost-cockpit.fuel-price.set',
        ok: 201,
        call: () =>
          northAdmin.post(`/api/organizations/${north}/fuel-prices`, {
            on: `2026-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`,
            hsfoEurPerTonne: 400 + Math.round(Math.random() * 100),
            vlsfoEurPerTonne: 600,
          }),
      },
      // an organization's own ports and corrections
      {
        route: 'POST organizations/{id}/ports',
        action: 'port.create',
        ok: 201,
        call: () =>
          northAdmin.post(`/api/organizations/${north}/ports`, {
            name: `Audit quay ${randomSuffix()}`,
            country: 'NL',
            lat: 51.95,
            lon: 4.05,
            radiusNm: 1,
          }),
      },
      ...(['update', 'delete'] as const).map((step): Case => ({
        route: `${step} organizations/{id}/ports/{portId}`,
        action: `port.${step}`,
        ok: step === 'delete' ? 204 : 200,
        prepare: () =>
          remember(
            northAdmin
              .post(`/api/organizations/${north}/ports`, {
                name: `Audit quay ${randomSuffix()}`,
                country: 'NL',
                lat: 51.95,
                lon: 4.05,
                radiusNm: 1,
              })
              .then((r) => r.json().id as string),
          ),
        call: () => {
          const path = `/api/organizations/${north}/ports/${target}`;
          return step === 'delete'
            ? northAdmin.delete(path)
            : northAdmin.put(path, {
                name: 'Audit quay moved',
                country: 'NL',
                lat: 51.96,
                lon: 4.06,
                radiusNm: 2,
              });
        },
      })),
      {
        route: 'POST measurement-fields/facility/{id}/default-calculations',
        action: 'calculation.add-defaults',
        // The audit ship's logger gets a FUEL_FLOW channel: its default calculation is then missing.
        prepare: async () => {
          const created = await admin.post(
            `/api/algorithm/facilitydatasource/${csvSource}/facilitydatasourcechannels`,
            {
              source: 'FUEL_FLOW',
              name: 'FUEL_FLOW',
              dataType: 'Double',
              description: '',
              unit: '',
              qualityScore: 5,
            },
          );
          expect(created.statusCode, created.body).toBeLessThan(300);
        },
        call: () => admin.post(`/api/algorithm/measurement-fields/facility/${ship}/default-calculations`),
      },
      // a verifier's seat (docs/decisions/0115-verifier.md): the invitation, its link, the findings and opinions
      {
        route: 'POST organizations/{id}/verifiers',
        action: 'verifier.invite',
        call: () =>
          northAdmin.post(`/api/organizations/${north}/verifiers`, {
            email: `audit-${randomSuffix()}@example.com`,
            years: [VERIFICATION_YEAR],
          }),
        ok: 201,
      },
      {
        route: 'POST /invitation/{token}',
        action: 'verifier.accept',
        prepare: async () => {
          const email = `accept-${randomSuffix()}@example.com`;
          await northAdmin.post(`/api/organizations/${north}/verifiers`, {
            email,
            years: [VERIFICATION_YEAR],
          });
          const mail = await db
            .selectFrom('alert_deliveries')
            .select('text_body')
            .where('address', '=', email)
            .executeTakeFirstOrThrow();
          target = /\/invitation\/([A-Za-z0-9_-]+)/.exec(mail.text_body!)![1]!;
        },
        call: () =>
          server.app.inject({
            method: 'POST',
            url: `/invitation/${target}`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams({
              password: 'Accepted2025',
              confirmPassword: 'Accepted2025',
            }).toString(),
          }),
      },
      {
        route: 'POST organizations/{id}/verification/{year}/findings',
        action: 'verification.finding',
        call: async () =>
          server.app.inject({
            method: 'POST',
            url: `/api/organizations/${north}/verification/${VERIFICATION_YEAR}/findings`,
            headers: { authorization: `Bearer ${await verifierToken()}` },
            payload: {
              facilityId: world.north.facility,
              kind: 'non-conformity',
              description: 'The tank soundings of March are not signed',
              figure: null,
              evidence: 'Sounding book, March',
              reportedValue: null,
              evidenceValue: null,
            },
          }),
        ok: 201,
      },
      {
        route: 'POST organizations/{id}/verification/{year}/opinions',
        action: 'verification.opinion',
        call: async () =>
          server.app.inject({
            method: 'POST',
            url: `/api/organizations/${north}/verification/${VERIFICATION_YEAR}/opinions`,
            headers: { authorization: `Bearer ${await verifierToken()}` },
            payload: { opinion: 'satisfactory', comment: '' },
          }),
        ok: 201,
      },
      // calculations, of a measurement field and of a report field
      ...[
        ['measurement field', mfBase],
        ['report field', rfBase],
      ].flatMap(([kind, base]): Case[] => [
        {
          route: `POST ${kind} calculations`,
          action: 'calculation.create',
          call: () =>
            admin.post(base!, { transformAlgorithm: 'return 1;', inputIds: [], comment: 'created' }),
        },
        {
          route: `PUT ${kind} calculations/{calcId}`,
          action: 'calculation.save',
          prepare: () => remember(draft(base!)),
          call: () =>
            admin.put(`${base}/${target}`, {
              transformAlgorithm: 'return 2;',
              inputIds: [],
              comment: 'saved',
            }),
        },
        {
          route: `PUT ${kind} calculations/{calcId}/approve`,
          action: 'calculation.approve',
          prepare: () => remember(draft(base!)),
          call: () => admin.put(`${base}/${target}/approve`, { validFrom: '2025-01-01T00:00:00.000Z' }),
        },
        {
          route: `DELETE ${kind} calculations/{calcId}`,
          action: 'calculation.delete',
          prepare: () => remember(draft(base!)),
          call: () => admin.delete(`${base}/${target}`),
        },
      ]),
    ];

    // Every action the code writes has its route here.
    const covered = new Set(cases.map((c) => c.action));
    // Written by a job after the fact, not by a route: the METS send job's entry of what METS answered is its only write.
    const byJobs = new Set([
      'uk-ets.mets-sent',
      'uk-ets.mets-failed',
      'uk-ets.mets-refused',
      // The retention job's deletion an administrator chose (features/retention/service.ts).
      'retention.delete',
    ]);
    expect([...auditedActionsInSource()].filter((a) => !covered.has(a) && !byJobs.has(a))).toEqual([]);

    const failures: string[] = [];
    for (const c of cases) {
      await refuseAudit(null);
      await c.prepare?.();
      const before = await fingerprint();
      const entriesBefore = await entries(c.action);
      await refuseAudit(c.action);
      const refused = await c.call();
      await refuseAudit(null);
      const after = await fingerprint();
      const changed = Object.keys(before).filter((t) => before[t] !== after[t] && !c.besides?.includes(t));
      if (refused.statusCode < 500)
        failures.push(`${c.route}: answered ${refused.statusCode} with the audit refused`);
      if (changed.length) failures.push(`${c.route}: changed ${changed.join(', ')} with the audit refused`);
      if ((await entries(c.action)) !== entriesBefore) failures.push(`${c.route}: an entry was written`);
      // The same call without the fault goes through: it changes the database and writes its entry.
      const done = await c.call();
      const ok = c.ok ? done.statusCode === c.ok : done.statusCode >= 200 && done.statusCode < 300;
      if (!ok) failures.push(`${c.route}: answered ${done.statusCode} without a fault`);
      if ((await entries(c.action)) <= entriesBefore)
        failures.push(`${c.route}: no ${c.action} entry without a fault`);
      if (c.changes !== false) {
        const final = await fingerprint();
        if (!Object.keys(after).some((t) => after[t] !== final[t]))
          failures.push(`${c.route}: changed nothing without a fault`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
