import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import type { Database } from '../../db/schema';
import {
  appendRecordBookEntries,
  deleteEvents,
  insertEvents,
  readStoredEvents,
  updateDerivedEvent,
  type RecordBookEntryInput,
} from '../../storage';
import type { EventDerivation } from './derive-events';
import { matchEvents } from './events/match';
import { pairChange } from './events/pair-change';
import { engineEntry, eventColumns, withdrawnEntry } from './events/record-entries';
import { NO_ALERTS, type AlertOutboxPort, type EventChange } from './ports';

export { eventKind, matchEvents } from './events/match';
export { ENGINE_NAME } from './events/record-entries';

/**
 * Step "store events", in the replacing transaction: the derived events replace the stored ones starting inside
 * the window (matched by matchEvents, events/match.ts), and the record book gets an entry for each event that
 * appears, ends, changes class or boundaries (events/pair-change.ts), or is no longer derived
 * (events/record-entries.ts). A rerun over unchanged data writes nothing. In the same transaction, the alert outbox
 * gets an alert for each recent event that opens, is classified up (transient -> malfunction or repeated -> report
 * required) or ends (the alerts' port, ports.ts).
 */
export async function storeComplianceEvents(
  trx: Transaction<Database>,
  facilityId: string,
  derivation: EventDerivation | null,
  alerts: AlertOutboxPort,
): Promise<number> {
  if (!derivation) return 0;
  const { windowFrom, windowTo, events, rules } = derivation;
  const stored = await readStoredEvents(trx, facilityId, windowFrom, windowTo);
  const { pairs, added, withdrawn } = matchEvents(stored, events);
  const entries: RecordBookEntryInput[] = [];
  const alertChanges: EventChange[] = [];
  await deleteEvents(
    trx,
    withdrawn.map((w) => w.id),
  );
  for (const w of withdrawn) entries.push(withdrawnEntry(w));
  for (const [s, e] of pairs) {
    const change = pairChange(s, e);
    if (!change) continue;
    await updateDerivedEvent(trx, s.id, eventColumns(e, rules));
    entries.push(...change.entries);
    alertChanges.push(...change.alerts);
  }
  // New events in one statement, their ids made here so each record book entry names its event.
  const inserted = added.map((e) => ({ id: randomUUID(), e }));
  await insertEvents(
    trx,
    facilityId,
    inserted.map(({ id, e }) => ({ id, columns: eventColumns(e, rules) })),
  );
  for (const { id, e } of inserted) {
    entries.push(engineEntry('event', e, id, {}));
    alertChanges.push({ kind: 'opened', eventId: id, event: e });
  }
  entries.sort((a, b) => a.occurredOn.getTime() - b.occurredOn.getTime());
  await appendRecordBookEntries(trx, facilityId, entries);
  await alerts.recordEventChanges(trx, facilityId, alertChanges);
  return pairs.length + added.length;
}

/** Removes the events starting inside [from, to) (their values were deleted), each noted in the record book. */
export async function withdrawEvents(
  trx: Transaction<Database>,
  facilityId: string,
  from: number,
  to: number,
): Promise<number> {
  // Nothing is derived, so no event opens, rises or ends: no alert.
  return storeComplianceEvents(
    trx,
    facilityId,
    { windowFrom: from, windowTo: to, events: [], rules: DEFAULT_EVENT_RULES },
    NO_ALERTS,
  );
}
