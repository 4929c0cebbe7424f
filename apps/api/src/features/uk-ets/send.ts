import type { Kysely } from 'kysely';
import type { MetsReportQuery } from '@portal/contracts/uk-ets';
import type { Database } from '../../db/schema';
import type { MetsSettings } from '../../config';
import type { JobContext, JobOutcome, UkEtsMetsSendJob } from '../../jobs/contract';
import { AppError } from '../../errors';
import { auditEvent } from '../audit/audit';
import { metsReport } from './mets-report';
import { ukEtsForYear } from './service';

/**
 * Sends a ship's UK ETS annual emissions report to the regulator's METS API (the job `uk-ets-mets-send`): `PUT
 * {METS_API_URL}/external/v1.0/accounts/{company-imo-number}/aer/{year}` with the report as JSON and the operator's
 * token as a bearer token (Maritime External API 4.0.0, operation submitAerData: 204 when METS took it into its
 * staging area, 400/403/404/429/500 with METS's error body otherwise). The report is built when the job runs, from
 * the ledger as it is then.
 *
 * Each ending is audited in the name of who asked: `uk-ets.mets-sent` (METS took it), `uk-ets.mets-refused` (METS
 * answered 4xx other than 429: sending again would not help, so the job ends), `uk-ets.mets-failed` (no answer, 429
 * or 5xx after the queue's last retry). METS's answer body is kept in the entry (at most 2,000 characters); the token
 * never is.
 */

export interface MetsAnswer {
  status: number | null;
  body: string;
  error: string | null;
}

export async function putToMets(
  settings: Pick<MetsSettings, 'METS_API_URL' | 'METS_API_TOKEN' | 'METS_TIMEOUT_MS'>,
  companyImoNumber: string,
  year: number,
  report: unknown,
): Promise<MetsAnswer> {
  const base = settings.METS_API_URL!.replace(/\/+$/, '');
  const url = `${base}/external/v1.0/accounts/${encodeURIComponent(companyImoNumber)}/aer/${year}`;
  try {
    const response = await fetch(url, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${settings.METS_API_TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(report),
      redirect: 'manual',
      signal: AbortSignal.timeout(settings.METS_TIMEOUT_MS),
    });
    const body = (await response.text()).slice(0, 2000);
    return { status: response.status, body, error: null };
  } catch (error) {
    return { status: null, body: '', error: error instanceof Error ? error.message : String(error) };
  }
}

export async function sendToMets(
  db: Kysely<Database>,
  settings: MetsSettings,
  job: UkEtsMetsSendJob,
  context: JobContext,
): Promise<JobOutcome> {
  const actor = job.requestedBy;
  const subject = job.facilityId;
  const base = { year: job.year, companyImoNumber: job.companyImoNumber };
  if (!settings.METS_SEND || !settings.METS_API_URL || !settings.METS_API_TOKEN) {
    await auditEvent(db, actor, {
      action: 'uk-ets.mets-failed',
      subject,
      detail: { ...base, error: 'Sending to METS is turned off on this server' },
    });
    return { status: 'failed', error: 'Sending to METS is turned off', permanent: true };
  }
  let report: unknown;
  try {
    const { record, ship, consumers } = await ukEtsForYear(db, job.facilityId, job.year);
    report = metsReport(record, ship, consumers, {
      year: job.year,
      flag: job.flag,
      iceClass: job.iceClass as MetsReportQuery['iceClass'],
      companyNature: job.companyNature as MetsReportQuery['companyNature'],
    });
  } catch (error) {
    const message = error instanceof AppError ? error.message : String(error);
    await auditEvent(db, actor, {
      action: 'uk-ets.mets-failed',
      subject,
      detail: { ...base, error: message },
    });
    return { status: 'failed', error: message, permanent: true };
  }
  const answer = await putToMets(settings, job.companyImoNumber, job.year, report);
  if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
    await auditEvent(db, actor, {
      action: 'uk-ets.mets-sent',
      subject,
      detail: { ...base, status: answer.status },
    });
    return { status: 'done' };
  }
  const refused =
    answer.status !== null && answer.status >= 400 && answer.status < 500 && answer.status !== 429;
  const last = context.retryCount >= context.retryLimit;
  if (refused || last)
    await auditEvent(db, actor, {
      action: refused ? 'uk-ets.mets-refused' : 'uk-ets.mets-failed',
      subject,
      detail: { ...base, status: answer.status, answer: answer.body, error: answer.error },
    });
  const what = answer.status === null ? (answer.error ?? 'no answer') : `METS answered ${answer.status}`;
  return { status: 'failed', error: what, permanent: refused };
}
