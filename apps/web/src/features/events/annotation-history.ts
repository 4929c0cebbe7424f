import { EVENT_CAUSE_NAMES, type EventAnnotation } from '@portal/contracts/events';
import { formatDateTime } from '@portal/contracts/rules';

/** The parts of an acknowledgement a revision can change. */
export type AnnotationPart = 'cause' | 'actionsTaken' | 'comment';

/** One revision of an event's acknowledgement as the history shows it. */
export interface AnnotationRevisionRow {
  revision: number;
  /** "Revision 2 (current)" for the latest, "Revision 1" for the others. */
  title: string;
  /** "by anna on 2025.05.07 09:00 UTC"; a user who no longer exists is "a former user". */
  byline: string;
  cause: string;
  actionsTaken: string;
  /** null without a comment. */
  comment: string | null;
  /** What differs from the revision before it (none for the first). */
  changed: AnnotationPart[];
}

/**
 * The history of an event's acknowledgement, newest first: each revision with who gave it and when, its cause, actions
 * taken and comment, and what it changed from the one before.
 */
export function annotationHistory(annotations: readonly EventAnnotation[]): AnnotationRevisionRow[] {
  const ordered = [...annotations].sort((a, b) => a.revision - b.revision);
  const last = ordered.at(-1)?.revision;
  return ordered
    .map((a, i) => {
      const previous = ordered[i - 1];
      const changed = previous
        ? (['cause', 'actionsTaken', 'comment'] as const).filter((part) => a[part] !== previous[part])
        : [];
      return {
        revision: a.revision,
        title: `Revision ${a.revision}${a.revision === last ? ' (current)' : ''}`,
        byline: `by ${a.acknowledgedBy ?? 'a former user'} on ${formatDateTime(a.acknowledgedOn)} UTC`,
        cause: EVENT_CAUSE_NAMES[a.cause] ?? a.cause,
        actionsTaken: a.actionsTaken,
        comment: a.comment.trim() ? a.comment : null,
        changed,
      };
    })
    .reverse();
}
