import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AcknowledgeEvent,
  ComplianceEvent,
  ComplianceEventDetail,
  EventInputs,
  EventList,
  EventListQuery,
  EventReport,
  EventReportFields,
  NewEventReportRevision,
  NewRecordBookEntry,
  OrganizationEventRules,
  RecordBookEntryView,
  recordBookVerifySchema,
} from '@portal/contracts/events';
import type { z } from 'zod';
import { ApiRequestError, apiRequest } from '../../lib/api';
import { saveBlob } from '../../ui/files/save-blob';
import { eventKeys } from './keys';

export type RecordBookVerification = z.infer<typeof recordBookVerifySchema>;

/** The server's message of a refused request (4xx), for the notification; else the default text. */
export const failureMessage = (error: unknown): string | undefined =>
  error instanceof ApiRequestError && error.status < 500 ? error.body?.message : undefined;

/** The query text of GET events: list filters repeat their parameter (type=a&type=b). */
export function eventListSearch(query: EventListQuery): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
      search.append(key, String(v));
  return search.toString();
}

/** GET events: a page of the events of the ships the user sees, open ones first, with the open counts. */
export const eventsQuery = (query: EventListQuery) =>
  queryOptions({
    queryKey: eventKeys.list(query),
    queryFn: ({ signal }) => apiRequest<EventList>(`events?${eventListSearch(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });

/** The open events of every ship the user sees: the fleet card's counts and the ship badges (one request). */
export const openEventsQuery = () => eventsQuery({ state: ['open', 'acknowledged'], limit: 1 });

/** The types the ship chart draws as bands. */
const BAND_TYPES = ['emission-exceedance', 'scrubber-off', 'data-gap', 'sensor-fault'] as const;
/** A ship's events of a period that the ratio chart draws (at most 500: more would be slivers anyway). */
export const shipBandEventsQuery = (facilityId: string, from: Date, to: Date) =>
  eventsQuery({
    facilityId,
    from: from.toISOString(),
    to: to.toISOString(),
    type: [...BAND_TYPES],
    limit: 500,
  });

/** A ship's washwater events of a period: the washwater chart's bands. */
export const shipWashwaterEventsQuery = (facilityId: string, from: Date, to: Date) =>
  eventsQuery({
    facilityId,
    from: from.toISOString(),
    to: to.toISOString(),
    type: ['washwater-exceedance', 'open-loop-in-no-discharge-zone'],
    limit: 500,
  });

/** A ship's events of a period, every type (at most 500): the map's markers where each started. */
export const shipPeriodEventsQuery = (facilityId: string, from: Date, to: Date) =>
  eventsQuery({ facilityId, from: from.toISOString(), to: to.toISOString(), limit: 500 });

export const eventQuery = (id: string) =>
  queryOptions({
    queryKey: eventKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest<ComplianceEventDetail>(`events/${encodeURIComponent(id)}`, { signal }),
  });

/** GET events/{id}/inputs: the values around the event (its chart). They change only with the data. */
export const eventInputsQuery = (id: string) =>
  queryOptions({
    queryKey: eventKeys.inputs(id),
    queryFn: ({ signal }) => apiRequest<EventInputs>(`events/${encodeURIComponent(id)}/inputs`, { signal }),
    staleTime: 5 * 60_000,
  });

export const eventReportQuery = (id: string) =>
  queryOptions({
    queryKey: eventKeys.report(id),
    queryFn: ({ signal }) => apiRequest<EventReport>(`events/${encodeURIComponent(id)}/report`, { signal }),
  });

/** GET facilities/{id}/record-book: the ship's entries (of a period when given), in sequence. */
export const recordBookQuery = (facilityId: string, range: { from?: string; to?: string } = {}) =>
  queryOptions({
    queryKey: eventKeys.recordBook(facilityId, range),
    queryFn: ({ signal }) =>
      apiRequest<RecordBookEntryView[]>(`facilities/${encodeURIComponent(facilityId)}/record-book`, {
        query: range,
        signal,
      }),
  });

/**
 * The ship's record book is read again: for a feature whose change writes an entry (a bunker delivery note). Through
 * index.ts; the record book's keys stay this feature's.
 */
export function useRefreshRecordBook() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: eventKeys.recordBooks() });
}

/** After a change to an event: the lists, the event, its report and the ship's record book. */
function useEventRefresh() {
  const client = useQueryClient();
  return (event: { id: string }) =>
    Promise.all([
      client.invalidateQueries({ queryKey: eventKeys.lists() }),
      client.invalidateQueries({ queryKey: eventKeys.detail(event.id) }),
      client.invalidateQueries({ queryKey: eventKeys.report(event.id) }),
      client.invalidateQueries({ queryKey: eventKeys.recordBooks() }),
    ]);
}

/** POST events/{id}/acknowledge: cause, actions taken and comment (again: a new revision, until it is closed). */
export function useAcknowledgeEvent(id: string) {
  const refresh = useEventRefresh();
  return useMutation({
    mutationFn: (body: AcknowledgeEvent) =>
      apiRequest<ComplianceEventDetail>(`events/${encodeURIComponent(id)}/acknowledge`, {
        method: 'POST',
        body,
      }),
    onSuccess: refresh,
  });
}

/** POST events/{id}/close (UserAdmin, SystemAdmin). */
export function useCloseEvent(id: string) {
  const refresh = useEventRefresh();
  return useMutation({
    mutationFn: (comment: string) =>
      apiRequest<ComplianceEvent>(`events/${encodeURIComponent(id)}/close`, {
        method: 'POST',
        body: { comment },
      }),
    onSuccess: refresh,
  });
}

/** PUT events/{id}/report: the draft as edited. */
export function useSaveEventReport(id: string) {
  const refresh = useEventRefresh();
  return useMutation({
    mutationFn: (body: EventReportFields) =>
      apiRequest<EventReport>(`events/${encodeURIComponent(id)}/report`, { method: 'PUT', body }),
    onSuccess: () => refresh({ id }),
  });
}

/** POST events/{id}/report/sent with the day it was sent. */
export function useMarkReportSent(id: string) {
  const refresh = useEventRefresh();
  return useMutation({
    mutationFn: (sentOn: string) =>
      apiRequest<EventReport>(`events/${encodeURIComponent(id)}/report/sent`, {
        method: 'POST',
        body: { sentOn },
      }),
    onSuccess: () => refresh({ id }),
  });
}

/** POST events/{id}/report/revisions: supersedes the sent report with the next revision, for a reason. */
export function useReviseEventReport(id: string) {
  const refresh = useEventRefresh();
  return useMutation({
    mutationFn: (body: NewEventReportRevision) =>
      apiRequest<EventReport>(`events/${encodeURIComponent(id)}/report/revisions`, { method: 'POST', body }),
    onSuccess: () => refresh({ id }),
  });
}

const fileSafe = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'ship';

/** GET events/{id}/report/download: the report as PDF (once sent, the PDF as sent), saved as the server names it. */
export async function downloadEventReport(event: Pick<ComplianceEvent, 'id' | 'facilityName' | 'start'>) {
  const pdf = await apiRequest<Blob>(`events/${encodeURIComponent(event.id)}/report/download`, {
    responseType: 'blob',
  });
  saveBlob(pdf, `${fileSafe(event.facilityName)}_${event.start.slice(0, 10)}_malfunction_report.pdf`);
}

/** GET events/{id}/report/revisions/{n}/pdf: a sent revision's PDF, the bytes as sent. */
export async function downloadReportRevision(
  event: Pick<ComplianceEvent, 'id' | 'facilityName' | 'start'>,
  revision: number,
) {
  const pdf = await apiRequest<Blob>(
    `events/${encodeURIComponent(event.id)}/report/revisions/${revision}/pdf`,
    { responseType: 'blob' },
  );
  saveBlob(
    pdf,
    `${fileSafe(event.facilityName)}_${event.start.slice(0, 10)}_malfunction_report_revision_${revision}.pdf`,
  );
}

/** POST facilities/{id}/record-book: a person's entry, or a correction of one. */
export function useAddRecordBookEntry(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewRecordBookEntry) =>
      apiRequest<RecordBookEntryView>(`facilities/${encodeURIComponent(facilityId)}/record-book`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: eventKeys.recordBooks() }),
  });
}

/** GET facilities/{id}/record-book/verify: asked when the user presses Verify, never cached. */
export function useVerifyRecordBook(facilityId: string) {
  return useMutation({
    mutationFn: () =>
      apiRequest<RecordBookVerification>(`facilities/${encodeURIComponent(facilityId)}/record-book/verify`),
  });
}

/** GET facilities/{id}/record-book/export: the entries of a period as .xlsx, saved. */
export async function exportRecordBook(
  facility: { id: string; name: string },
  range: { from?: string; to?: string },
) {
  const xlsx = await apiRequest<Blob>(`facilities/${encodeURIComponent(facility.id)}/record-book/export`, {
    query: range,
    responseType: 'blob',
  });
  saveBlob(xlsx, `${fileSafe(facility.name)}_record_book.xlsx`);
}

/** GET organizations/{id}/event-rules: the thresholds the organization's events are derived with. */
export const eventRulesQuery = (organizationId: string) =>
  queryOptions({
    queryKey: eventKeys.rules(organizationId),
    queryFn: ({ signal }) =>
      apiRequest<OrganizationEventRules>(`organizations/${encodeURIComponent(organizationId)}/event-rules`, {
        signal,
      }),
  });

/** PUT organizations/{id}/event-rules (its own thresholds, or back to the defaults). */
export function useSaveEventRules(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { useDefaults: true } | { rules: OrganizationEventRules['rules'] }) =>
      apiRequest<OrganizationEventRules>(`organizations/${encodeURIComponent(organizationId)}/event-rules`, {
        method: 'PUT',
        body,
      }),
    onSuccess: (data) => client.setQueryData(eventKeys.rules(organizationId), data),
  });
}
