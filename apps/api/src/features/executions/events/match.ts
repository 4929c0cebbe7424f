import type { StoredEvent } from '../../../storage';
import type { DerivedEvent } from './types';

/** What makes an event the same event as another of its type: the type, channel and fault. */
export const eventKind = (e: Pick<StoredEvent, 'type' | 'channel' | 'fault'>): string =>
  `${e.type}|${e.channel ?? ''}|${e.fault ?? ''}`;

export const ms = (d: Date) => new Date(d).getTime();

/**
 * Sub-step "match events" (pure): pairs stored events with derived ones of the same type: the stored event overlapping a derived one most (an
 * instant event: at the same time) keeps its id and what people added, so a rerun changes nothing and moved
 * boundaries keep the annotations on the overlapping event. Returns pairs, derived events without a stored one,
 * and stored events no longer derived.
 */
export function matchEvents(
  stored: readonly StoredEvent[],
  derived: readonly DerivedEvent[],
): { pairs: [StoredEvent, DerivedEvent][]; added: DerivedEvent[]; withdrawn: StoredEvent[] } {
  const key = eventKind;
  // Candidates per kind, with their times read once.
  const byKey = new Map<string, { event: StoredEvent; start: number; end: number; free: boolean }[]>();
  for (const event of stored) {
    const list = byKey.get(key(event)) ?? [];
    list.push({ event, start: ms(event.start_on), end: ms(event.end_on), free: true });
    byKey.set(key(event), list);
  }
  const pairs: [StoredEvent, DerivedEvent][] = [];
  const added: DerivedEvent[] = [];
  for (const event of derived) {
    let best: { event: StoredEvent; start: number; end: number; free: boolean } | undefined;
    let bestOverlap = -Infinity;
    const instant = event.start === event.end;
    for (const candidate of byKey.get(key(event)) ?? []) {
      if (!candidate.free) continue;
      const overlap = instant
        ? candidate.start === event.start
          ? 0
          : -Infinity
        : Math.min(candidate.end, event.end) - Math.max(candidate.start, event.start);
      if ((instant ? overlap === 0 : overlap > 0) && overlap > bestOverlap) {
        best = candidate;
        bestOverlap = overlap;
      }
    }
    if (best) {
      best.free = false;
      pairs.push([best.event, event]);
    } else added.push(event);
  }
  const withdrawn = [...byKey.values()]
    .flat()
    .filter((c) => c.free)
    .map((c) => c.event);
  return { pairs, added, withdrawn };
}
