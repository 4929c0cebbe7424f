import type { EventClassification } from '@portal/contracts/events';
import { alertLevel } from '@portal/contracts/rules';
import type { RecordBookEntryInput, StoredEvent } from '../../../storage';
import type { EventChange } from '../ports';
import { ms } from './match';
import { engineEntry } from './record-entries';
import type { DerivedEvent } from './types';

/**
 * Sub-step "what changed" (pure): for a stored event and the derived one it matched, whether its row is written
 * again (null: unchanged), its record book entries (ended; changed: moved, reclassified or reopened, with what it
 * was) and its alerts (classified up, resolved).
 */
export function pairChange(
  s: StoredEvent,
  e: DerivedEvent,
): { entries: RecordBookEntryInput[]; alerts: EventChange[] } | null {
  const moved = ms(s.start_on) !== e.start || (!e.ongoing && !s.ongoing && ms(s.end_on) !== e.end);
  const reclassified = s.classification !== e.classification || s.report_required !== e.reportRequired;
  const ended = s.ongoing && !e.ongoing;
  // Its end is no longer known (the data after it was deleted): going on again, as far as the data tells.
  const reopened = !s.ongoing && e.ongoing;
  const unchanged = !moved && !reclassified && !ended && ms(s.end_on) === e.end && s.ongoing === e.ongoing;
  if (unchanged) return null;
  const entries: RecordBookEntryInput[] = [];
  const alerts: EventChange[] = [];
  if (ended) entries.push(engineEntry('event-ended', e, s.id, {}, e.end));
  if (alertLevel(e) > alertLevel({ classification: s.classification, reportRequired: s.report_required }))
    alerts.push({ kind: 'classified-up', eventId: s.id, event: e });
  if (ended) alerts.push({ kind: 'resolved', eventId: s.id, event: e });
  if (moved || reclassified || reopened)
    entries.push(
      engineEntry('event-changed', e, s.id, {
        previous: {
          start: new Date(s.start_on).toISOString(),
          end: s.ongoing ? null : new Date(s.end_on).toISOString(),
          classification: s.classification as EventClassification | null,
          reportRequired: s.report_required,
        },
        annotationsKept: s.acknowledged_on !== null,
      }),
    );
  return { entries, alerts };
}
