import type { Kysely } from 'kysely';
import { eventReportFieldsOf } from '@portal/contracts/events';
import type { Database } from '../../db/schema';
import type { Caller } from '../access/caller';
import { eventReport, markEventReportSent, saveEventReport } from './report';
import { acknowledgeEvent, closeEvent } from './service';

/**
 * What the crews and superintendents of the demo fleet wrote on its events, through the same services the screens
 * use: the latest scrubber stop that needs a report acknowledged and reported (and closed once it has ended); the
 * longest emission exceedance acknowledged; a data gap explained. Earlier stops are left open, as a superintendent
 * finds them on a fleet with a backlog (and as the browser test needs one: an ended malfunction to acknowledge,
 * report and close). Idempotent: nothing is added once any demo event carries an acknowledgement.
 */
export async function annotateDemoEvents(db: Kysely<Database>): Promise<number> {
  const annotated = await db
    .selectFrom('compliance_events')
    .select('id')
    .where('acknowledged_on', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  if (annotated) return 0;
  const callerFor = async (facilityId: string): Promise<Caller | null> => {
    const row = await db
      .selectFrom('facilities as f')
      .innerJoin('users as u', 'u.organization_id', 'f.primary_organization_id')
      .innerJoin('organizations as o', 'o.id', 'u.organization_id')
      .select(['u.id', 'u.username', 'u.role', 'o.id as organization_id', 'o.name', 'o.priority'])
      .where('f.id', '=', facilityId)
      .where('u.role', '=', 'UserAdmin')
      .orderBy('u.username')
      .executeTakeFirst();
    return row
      ? {
          userId: row.id,
          username: row.username,
          role: row.role,
          organizationId: row.organization_id,
          organizationName: row.name,
          organizationPriority: row.priority,
        }
      : null;
  };
  const longest = (type: string) =>
    db
      .selectFrom('compliance_events')
      .select(['id', 'facility_id', 'ongoing', 'report_required'])
      .where('type', '=', type)
      .where('classification', 'is not', null)
      .orderBy((eb) => eb('end_on', '-', eb.ref('start_on')), 'desc')
      .limit(1)
      .executeTakeFirst();
  let count = 0;

  const stop = await db
    .selectFrom('compliance_events')
    .select(['id', 'facility_id', 'ongoing', 'report_required'])
    .where('type', '=', 'scrubber-off')
    .where('report_required', '=', true)
    .orderBy('start_on', 'desc')
    .limit(1)
    .executeTakeFirst();
  const stopCaller = stop && (await callerFor(stop.facility_id));
  if (stop && stopCaller) {
    await acknowledgeEvent(db, stopCaller, stop.id, {
      cause: 'scrubber-equipment',
      actionsTaken:
        'Washwater circulation pump 2 tripped on motor overload; ship changed over to compliant fuel (0.50 %) for the rest of the passage. Pump motor sent ashore for repair.',
      comment: 'Chief engineer reported by e-mail; spare motor ordered to the next port.',
    });
    if (stop.report_required) {
      const draft = await eventReport(db, stopCaller, stop.id);
      await saveEventReport(db, stopCaller, stop.id, {
        ...eventReportFieldsOf(draft),
        actionsPlanned:
          'Install the spare motor at the next port call and run the pump under load for 4 hours.',
        expectedRepair: 'Within 5 days, at the next port call',
      });
      await markEventReportSent(db, stopCaller, stop.id, new Date().toISOString().slice(0, 10));
    }
    if (!stop.ongoing)
      await closeEvent(db, stopCaller, stop.id, 'Pump repaired and tested; scrubber back in service.');
    count++;
  }

  const exceedance = await longest('emission-exceedance');
  const exceedanceCaller = exceedance && (await callerFor(exceedance.facility_id));
  if (exceedance && exceedanceCaller) {
    await acknowledgeEvent(db, exceedanceCaller, exceedance.id, {
      cause: 'operation',
      actionsTaken: 'Washwater flow raised to full after a fast load increase; SO2 back under the limit.',
      comment: 'Crew reminded to raise the washwater flow before increasing engine load.',
    });
    count++;
  }

  const gap = await db
    .selectFrom('compliance_events')
    .select(['id', 'facility_id'])
    .where('type', '=', 'data-gap')
    .orderBy('start_on', 'desc')
    .limit(1)
    .executeTakeFirst();
  const gapCaller = gap && (await callerFor(gap.facility_id));
  if (gap && gapCaller) {
    await acknowledgeEvent(db, gapCaller, gap.id, {
      cause: 'power-supply',
      actionsTaken:
        'Data logger restarted after a blackout drill; the UPS battery was found flat and replaced.',
      comment: '',
    });
    count++;
  }
  return count;
}
