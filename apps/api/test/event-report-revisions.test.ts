import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { hasPoppler, pdfText, qpdfCheck, hasQpdf } from '../src/pdf/testing';
import { reportStatusOf } from '../src/features/events/report';
import * as revisionsMigration from '../src/db/migrations/0022_event_report_revisions';
import { appendRecordBookEntries } from '../src/storage/record-book';
import { startTestServer, type TestServer } from './harness';

/**
 * What was sent stays as it was sent: the report to the flag State and the port State, once marked sent, is a
 * stored PDF whose SHA-256 the record book holds; it can no longer be changed, only superseded by a new revision
 * (docs/decisions/0104-sent-reports.md).
 */
let server: TestServer;
let ship: string;
let eventId: string;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  server = await startTestServer();
  const { db } = server.services.database;
  // South's first ship, the one south.lee (a User) may work on; not shared with North.
  ship = (
    await db
      .selectFrom('user_facility_access as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .innerJoin('facilities as f', 'f.id', 'a.facility_id')
      .select('f.id')
      .where('u.username', '=', 'south.lee')
      .where('f.id', 'not in', db.selectFrom('organization_facility_access').select('facility_id'))
      .executeTakeFirstOrThrow()
  ).id;
  eventId = await newEvent();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function newEvent(): Promise<string> {
  const { db } = server.services.database;
  return (
    await db
      .insertInto('compliance_events')
      .values({
        facility_id: ship,
        type: 'scrubber-off',
        start_on: new Date('2025-06-02T04:00:00.000Z'),
        end_on: new Date('2025-06-02T07:30:00.000Z'),
        start_latitude: 51.95,
        start_longitude: 3.9,
        classification: 'malfunction',
        report_required: true,
        rules: JSON.stringify(DEFAULT_EVENT_RULES),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

/** A GET whose answer is read as bytes (a PDF, a workbook). */
async function bytes(username: string, url: string) {
  const response = await server.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${await server.tokenFor(username)}` },
  });
  return { statusCode: response.statusCode, headers: response.headers, body: response.rawPayload };
}

interface Revision {
  number: number;
  reason: string | null;
  createdBy: string | null;
  sentOn: string | null;
  sentBy: string | null;
  sha256: string | null;
}
interface Report {
  actionsPlanned: string;
  expectedRepair: string;
  sentOn: string | null;
  revision: number;
  sha256: string | null;
  revisions: Revision[];
}
const fieldsOf = (report: Record<string, unknown>) => {
  const { sentOn: _s, revision: _r, sha256: _h, revisions: _v, ...fields } = report;
  return fields;
};

async function sentEntries() {
  const { db } = server.services.database;
  return db
    .selectFrom('record_book_entries')
    .select(['body', 'hash'])
    .where('event_id', '=', eventId)
    .where('kind', '=', 'report-sent')
    .orderBy('sequence')
    .execute();
}

describe('a report marked sent', () => {
  it('is frozen: a change answers 409 and leaves the stored report as it was sent', async () => {
    const lee = await server.as('south.lee');
    const draft = (await lee.get(`/api/events/${eventId}/report`)).json() as Report;
    expect(draft).toMatchObject({ sentOn: null, revision: 1, sha256: null, revisions: [] });
    const edited = await lee.put(`/api/events/${eventId}/report`, {
      ...fieldsOf(draft as unknown as Record<string, unknown>),
      actionsPlanned: 'Replace the circulation pump motor at Rotterdam',
      expectedRepair: 'Within 3 days',
    });
    expect(edited.statusCode, edited.body).toBe(200);

    const sent = await lee.post(`/api/events/${eventId}/report/sent`, { sentOn: '2025-06-02' });
    expect(sent.statusCode, sent.body).toBe(200);
    const frozen = sent.json() as Report;
    expect(frozen).toMatchObject({
      sentOn: '2025-06-02',
      revision: 1,
      actionsPlanned: 'Replace the circulation pump motor at Rotterdam',
    });
    expect(frozen.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(frozen.revisions).toEqual([
      expect.objectContaining({
        number: 1,
        reason: null,
        sentOn: '2025-06-02',
        sentBy: 'south.lee',
        sha256: frozen.sha256,
      }),
    ]);

    const rewrite = await lee.put(`/api/events/${eventId}/report`, {
      ...fieldsOf(frozen as unknown as Record<string, unknown>),
      expectedRepair: 'Already repaired',
    });
    expect(rewrite.statusCode).toBe(409);
    expect(rewrite.json().message).toBe(
      'The report was sent on 2025.06.02 and can no longer be changed: make a new revision to correct it',
    );
    expect((await lee.get(`/api/events/${eventId}/report`)).json()).toEqual(frozen);
    const again = await lee.post(`/api/events/${eventId}/report/sent`, { sentOn: '2025-06-03' });
    expect(again.statusCode).toBe(409);
    expect((await lee.get(`/api/events/${eventId}/report`)).json()).toEqual(frozen);
    // An administrator is refused alike: nobody rewrites what was sent.
    const admin = await server.as('south.admin');
    expect(
      (
        await admin.put(`/api/events/${eventId}/report`, {
          ...fieldsOf(frozen as unknown as Record<string, unknown>),
          cause: 'Other',
        })
      ).statusCode,
    ).toBe(409);
  });

  it("records the SHA-256 of the PDF as sent in the record book's entry, and keeps the PDF byte for byte", async () => {
    const report = (
      await (await server.as('south.lee')).get(`/api/events/${eventId}/report`)
    ).json() as Report;
    const pdf = await bytes('south.lee', `/api/events/${eventId}/report/revisions/1/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(sha256(pdf.body)).toBe(report.sha256);
    const [entry] = await sentEntries();
    expect(entry?.body).toMatchObject({ sentOn: '2025-06-02', revision: 1, sha256: report.sha256 });
    // The entry's line (on the screen and in the export) says it too.
    const book = (await (await server.as('south.lee')).get(`/api/facilities/${ship}/record-book`)).json() as {
      hash: string;
      text: string;
    }[];
    expect(book.find((e) => e.hash === entry?.hash)?.text).toBe(
      `Scrubber off while required: report to the flag State and the port State sent on 2025.06.02, revision 1. SHA-256 of the PDF as sent: ${report.sha256}`,
    );
    // The report's download is now the PDF as sent, the same bytes.
    const download = await bytes('south.lee', `/api/events/${eventId}/report/download`);
    expect(download.body.equals(pdf.body)).toBe(true);
    if (hasQpdf) qpdfCheck(pdf.body);
    if (hasPoppler) {
      const text = pdfText(pdf.body);
      expect(text).toContain('Revision 1');
      expect(text).toContain('Replace the circulation pump motor at Rotterdam');
      expect(text).toContain('2025.06.02');
    }
  });

  it('is superseded by a new revision, made with a reason, edited and sent like the first', async () => {
    const lee = await server.as('south.lee');
    const olav = await server.as('south.maria');
    const noReason = await lee.post(`/api/events/${eventId}/report/revisions`, {});
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields).toMatchObject({ reason: 'Say why the report is revised' });

    const made = await olav.post(`/api/events/${eventId}/report/revisions`, {
      reason: 'The flag State asked for the repair date',
      expectedRepair: 'Repaired on 2025-06-04 at Rotterdam',
    });
    expect(made.statusCode, made.body).toBe(201);
    const revision2 = made.json() as Report;
    expect(revision2).toMatchObject({
      revision: 2,
      sentOn: null,
      sha256: null,
      expectedRepair: 'Repaired on 2025-06-04 at Rotterdam',
      // The rest as revision 1 was sent.
      actionsPlanned: 'Replace the circulation pump motor at Rotterdam',
    });
    expect(revision2.revisions.map((r) => [r.number, r.reason, r.createdBy, r.sentOn])).toEqual([
      [1, null, 'south.lee', '2025-06-02'],
      [2, 'The flag State asked for the repair date', 'south.maria', null],
    ]);
    // Only one revision is open at a time.
    expect(
      (await lee.post(`/api/events/${eventId}/report/revisions`, { reason: 'Once more' })).statusCode,
    ).toBe(409);
    // The revision is a draft: edited as the first was, while revision 1 stays as sent.
    const edited = await lee.put(`/api/events/${eventId}/report`, {
      ...fieldsOf(revision2 as unknown as Record<string, unknown>),
      actionsPlanned: 'None: the motor was replaced and the scrubber tested at sea',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const first = await bytes('south.lee', `/api/events/${eventId}/report/revisions/1/pdf`);
    expect(sha256(first.body)).toBe(revision2.revisions[0]!.sha256);
    expect((await bytes('south.lee', `/api/events/${eventId}/report/revisions/2/pdf`)).statusCode).toBe(404);

    const sent = await lee.post(`/api/events/${eventId}/report/sent`, { sentOn: '2025-06-05' });
    expect(sent.statusCode, sent.body).toBe(200);
    const report = sent.json() as Report;
    expect(report).toMatchObject({ revision: 2, sentOn: '2025-06-05' });
    expect(
      (await lee.put(`/api/events/${eventId}/report`, fieldsOf(report as unknown as Record<string, unknown>)))
        .statusCode,
    ).toBe(409);

    const second = await bytes('south.lee', `/api/events/${eventId}/report/revisions/2/pdf`);
    expect(second.statusCode).toBe(200);
    expect(second.body.equals(first.body)).toBe(false);
    const [r1, r2] = report.revisions;
    expect(sha256(first.body)).toBe(r1!.sha256);
    expect(sha256(second.body)).toBe(r2!.sha256);
    expect(r2).toMatchObject({ number: 2, sentOn: '2025-06-05', sentBy: 'south.lee', sha256: report.sha256 });
    const entries = await sentEntries();
    expect(entries.map((e) => e.body)).toEqual([
      expect.objectContaining({ revision: 1, sha256: r1!.sha256 }),
      expect.objectContaining({
        revision: 2,
        sha256: r2!.sha256,
        reason: 'The flag State asked for the repair date',
      }),
    ]);
    if (hasPoppler) {
      const text = pdfText(second.body);
      expect(text).toContain('Revision 2');
      expect(text).toContain('The flag State asked for the repair date');
      expect(text).toContain('None: the motor was replaced and the scrubber tested at sea');
      expect(text).toContain('Repaired on 2025-06-04 at Rotterdam');
    }
    // The book still verifies; each change has its audit entry.
    expect((await lee.get(`/api/facilities/${ship}/record-book/verify`)).json()).toMatchObject({
      valid: true,
    });
    const audit = await server.services.database.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('subject', '=', eventId)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'event.report.save',
      'event.report.sent',
      'event.report.revise',
      'event.report.save',
      'event.report.sent',
    ]);
    // What the inspection pack reads: the state of each event's report.
    const status = await reportStatusOf(server.services.database.db, [eventId]);
    expect(status.get(eventId)).toEqual({
      required: true,
      state: 'sent',
      revision: 2,
      sentOn: '2025-06-05',
      sha256: r2!.sha256,
    });
  });

  it("is another organization's business only: North gets nothing of it", async () => {
    const anna = await server.as('north.anna');
    const northAdmin = await server.as('north.admin');
    for (const caller of [anna, northAdmin]) {
      expect((await caller.get(`/api/events/${eventId}/report`)).statusCode).toBe(404);
      expect(
        (await caller.post(`/api/events/${eventId}/report/revisions`, { reason: 'Not ours' })).statusCode,
      ).toBe(404);
    }
    expect((await bytes('north.anna', `/api/events/${eventId}/report/revisions/1/pdf`)).statusCode).toBe(404);
    expect((await bytes('north.admin', `/api/events/${eventId}/report/revisions/2/pdf`)).statusCode).toBe(
      404,
    );
    // A revision that does not exist, for one who sees the event.
    for (const revision of ['9', '0', 'first', '1.0'])
      expect(
        (await bytes('south.lee', `/api/events/${eventId}/report/revisions/${revision}/pdf`)).statusCode,
      ).toBe(404);
  });

  it('is kept as sent even against a change made behind the portal', async () => {
    const { db } = server.services.database;
    await expect(
      db
        .updateTable('event_report_revisions')
        .set({ sha256: '0'.repeat(64) })
        .where('event_id', '=', eventId)
        .where('revision', '=', 1)
        .execute(),
    ).rejects.toThrow(/kept as it was sent/);
    await expect(
      db.deleteFrom('event_report_revisions').where('event_id', '=', eventId).execute(),
    ).rejects.toThrow(/kept as it was sent/);
  });

  it('is sent once when two people mark it sent at the same time', async () => {
    const other = await newEvent();
    const [lee, maria] = await Promise.all([server.as('south.lee'), server.as('south.maria')]);
    const answers = await Promise.all([
      lee.post(`/api/events/${other}/report/sent`, { sentOn: '2025-06-02' }),
      maria.post(`/api/events/${other}/report/sent`, { sentOn: '2025-06-03' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const { db } = server.services.database;
    const revisions = await db
      .selectFrom('event_report_revisions')
      .select('revision')
      .where('event_id', '=', other)
      .execute();
    expect(revisions).toEqual([{ revision: 1 }]);
  });

  it('a report never sent has no revision to make', async () => {
    const other = await newEvent();
    const lee = await server.as('south.lee');
    const made = await lee.post(`/api/events/${other}/report/revisions`, { reason: 'Too early' });
    expect(made.statusCode).toBe(409);
    const status = await reportStatusOf(server.services.database.db, [other]);
    expect(status.get(other)).toEqual({
      required: true,
      state: 'draft',
      revision: 1,
      sentOn: null,
      sha256: null,
    });
  });
});

describe("the record book's .xlsx export", () => {
  it('writes times as dates (UTC), numbers as numbers and hashes as text', async () => {
    const lee = await server.as('south.lee');
    const note = await lee.post(`/api/facilities/${ship}/record-book`, {
      kind: 'note',
      occurredOn: '2025-06-03T10:15:30.000Z',
      text: 'Washwater pH probe cleaned',
      latitude: 51.9512,
      longitude: -3.25,
    });
    expect(note.statusCode, note.body).toBe(201);
    const xlsx = await bytes('south.lee', `/api/facilities/${ship}/record-book/export`);
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.body as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Record book')!;
    let headerRow = 0;
    sheet.eachRow((row, n) => {
      if (row.getCell(1).value === 'No.') headerRow = n;
    });
    expect(headerRow).toBeGreaterThan(0);
    const header = sheet.getRow(headerRow);
    const column = (name: string) => {
      let found = 0;
      header.eachCell((cell, n) => {
        if (cell.value === name) found = n;
      });
      expect(found, name).toBeGreaterThan(0);
      return found;
    };
    // The header says the times are UTC.
    column('Occurred (UTC)');
    column('Recorded (UTC)');
    const rows: ExcelJS.Row[] = [];
    for (let n = headerRow + 1; n <= sheet.rowCount; n++) rows.push(sheet.getRow(n));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      const occurred = row.getCell(column('Occurred (UTC)'));
      const recorded = row.getCell(column('Recorded (UTC)'));
      expect(occurred.value).toBeInstanceOf(Date);
      expect(recorded.value).toBeInstanceOf(Date);
      expect(occurred.type).toBe(ExcelJS.ValueType.Date);
      expect(occurred.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
      expect(recorded.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
      expect(typeof row.getCell(1).value).toBe('number');
      expect(row.getCell(column('Hash (SHA-256)')).value).toMatch(/^[0-9a-f]{64}$/);
      expect(row.getCell(column('Previous hash')).value).toMatch(/^[0-9a-f]{64}$/);
    }
    const noteRow = rows.find((r) => r.getCell(column('Entry')).value === 'Washwater pH probe cleaned')!;
    expect(noteRow).toBeDefined();
    expect((noteRow.getCell(column('Occurred (UTC)')).value as Date).toISOString()).toBe(
      '2025-06-03T10:15:30.000Z',
    );
    expect(noteRow.getCell(column('Latitude')).value).toBe(51.9512);
    expect(noteRow.getCell(column('Longitude')).value).toBe(-3.25);
    expect(noteRow.getCell(1).value).toBe(note.json().sequence);
  });
});

describe('the OpenAPI description', () => {
  it('describes the report revision routes', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = (response.json() as { paths: Record<string, Record<string, unknown>> }).paths;
    expect(paths['/api/events/{id}/report/revisions']?.post).toBeDefined();
    expect(paths['/api/events/{id}/report/revisions/{revision}/pdf']?.get).toBeDefined();
  });
});

describe('migration 0022', () => {
  it('makes a report sent before it revision 1, sent, whose PDF was not kept; it is frozen and revised alike', async () => {
    const { db } = server.services.database;
    const legacy = await newEvent();
    const lee = await server.as('south.lee');
    const draft = (await lee.get(`/api/events/${legacy}/report`)).json() as Record<string, unknown>;
    // As the portal marked a report sent before: the fields and the day on the event, an entry without a hash.
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('compliance_events')
        .set({
          report: JSON.stringify({ ...fieldsOf(draft), expectedRepair: 'Two weeks' }),
          report_sent_on: '2024-11-20',
        })
        .where('id', '=', legacy)
        .execute();
      await appendRecordBookEntries(trx, ship, [
        {
          kind: 'report-sent',
          occurredOn: new Date('2024-11-20T10:00:00.000Z'),
          recordedBy: server.seed.userIds['south.lee']!,
          recordedByName: 'south.lee',
          latitude: null,
          longitude: null,
          eventId: legacy,
          correctsId: null,
          body: { type: 'scrubber-off', typeName: 'Scrubber off while required', sentOn: '2024-11-20' },
        },
      ]);
    });
    await revisionsMigration.down(db);
    await revisionsMigration.up(db);

    const report = (await lee.get(`/api/events/${legacy}/report`)).json() as Report;
    expect(report).toMatchObject({
      sentOn: '2024-11-20',
      revision: 1,
      sha256: null,
      expectedRepair: 'Two weeks',
    });
    expect(report.revisions).toEqual([
      expect.objectContaining({ number: 1, createdBy: 'south.lee', sentOn: '2024-11-20', sha256: null }),
    ]);
    expect(
      (await lee.put(`/api/events/${legacy}/report`, fieldsOf(report as unknown as Record<string, unknown>)))
        .statusCode,
    ).toBe(409);
    const pdf = await lee.get(`/api/events/${legacy}/report/revisions/1/pdf`);
    expect([pdf.statusCode, pdf.json().message]).toEqual([
      404,
      'The PDF of revision 1 was not kept: it was sent before the portal kept sent reports',
    ]);
    // Its download is rendered from the fields as stored.
    const download = await bytes('south.lee', `/api/events/${legacy}/report/download`);
    expect(download.statusCode).toBe(200);
    if (hasPoppler) expect(pdfText(download.body)).toContain('Two weeks');
    const revised = await lee.post(`/api/events/${legacy}/report/revisions`, { reason: 'Repair date known' });
    expect(revised.statusCode, revised.body).toBe(201);
    expect(revised.json()).toMatchObject({ revision: 2, sentOn: null, expectedRepair: 'Two weeks' });
    // The book's older entries read as before.
    const book = (await lee.get(`/api/facilities/${ship}/record-book`)).json() as {
      eventId: string;
      text: string;
    }[];
    expect(book.find((e) => e.eventId === legacy)?.text).toBe(
      'Scrubber off while required: report to the flag State and the port State sent on 2024.11.20',
    );
  });
});
