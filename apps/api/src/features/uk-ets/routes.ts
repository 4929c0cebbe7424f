import type { FastifyInstance } from 'fastify';
import { LEDGER_READS } from '../access/verifier';
import { z } from 'zod';
import { yearQuerySchema } from '@portal/contracts/carbon';
import {
  metsReportQuerySchema,
  metsSendQueuedSchema,
  metsSendSchema,
  ukEtsYearSchema,
} from '@portal/contracts/uk-ets';
import { JOB_NAMES, type UkEtsMetsSendJob } from '../../jobs/contract';
import { jobQueueOf } from '../../services';
import { conflict, forbidden } from '../../errors';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { assertFacilityVisible, canManageOrganization } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { metsReport } from './mets-report';
import { ukEtsForYear } from './service';

const tags = ['uk-ets'];
const idParams = z.object({ id: idParam() });
const READ = LEDGER_READS;

/**
 * The UK ETS maritime API (docs/decisions/0114-uk-ets-and-ovd.md): a ship's year per voyage and stay at berth, its
 * annual emissions report as the regulator's METS API takes it, and sending that report to METS (off unless the
 * server is configured for it: METS_SEND, METS_API_URL, METS_API_TOKEN). Everyone who sees a ship reads its figures
 * and downloads the report; its organization's administrators send it. Another organization's ship is not found.
 */
export async function ukEtsRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const services = app.services;

  routes.get(
    '/api/facilities/:id/uk-ets',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's UK ETS maritime figures of a calendar year (from 1 July 2026): each voyage and stay at berth with its part (at berth in a UK port 100 %, between two UK ports 100 %, between Great Britain and Northern Ireland 50 %, else not covered), its CO2, CH4 and N2O tank-to-wake and CO2e, the sums per part, the emissions to surrender allowances for, and what the figures lack.",
        params: idParams,
        querystring: yearQuerySchema,
        response: { 200: ukEtsYearSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return (await ukEtsForYear(db, request.params.id, request.query.year)).record;
    },
  );

  routes.get(
    '/api/facilities/:id/uk-ets/mets-report',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's UK ETS annual emissions report of a calendar year as the JSON the regulator's METS API takes (Maritime External API 4.0.0, ExternalAer), as a file. The flag State, the ice class and the nature of the company are asked here: the ship's details do not hold them. 409 when the ship's details lack what the report needs, or the year or the ship is not covered.",
        params: idParams,
        querystring: metsReportQuerySchema,
      },
    },
    async (request, reply) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const { record, ship, consumers } = await ukEtsForYear(db, request.params.id, request.query.year);
      const report = metsReport(record, ship, consumers, request.query);
      const base = `${ship.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'ship'}_UK_ETS_AER_${request.query.year}`;
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${base}.json"`)
        .send(JSON.stringify(report, null, 2));
    },
  );

  routes.post(
    '/api/facilities/:id/uk-ets/mets-submissions',
    {
      schema: {
        tags,
        description:
          "Sends the ship's UK ETS annual emissions report of a year to the regulator's METS API, into its staging area (to be imported on the METS website), as a job: the answer says it is queued, and the audit log says how it ended (sent, refused by METS with its reason, or failed). Only the ship's organization's administrators. 409 when sending to METS is turned off on this server, or the report cannot be made (the same reasons as the download).",
        params: idParams,
        body: metsSendSchema,
        response: { 202: metsSendQueuedSchema },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const facilityId = request.params.id;
      await assertFacilityVisible(db, caller, facilityId);
      const { record, ship, consumers } = await ukEtsForYear(db, facilityId, request.body.year);
      if (!canManageOrganization(caller, ship.organizationId))
        throw forbidden("Only the ship's organization's administrators send reports to METS");
      const settings = services.config;
      if (!settings.METS_SEND || !settings.METS_API_URL || !settings.METS_API_TOKEN)
        throw conflict(
          'Sending to METS is turned off on this server: download the report and upload it on the METS website, or ask your administrator to set it up.',
        );
      // The report must be possible now (the job builds it again from the ledger when it runs).
      metsReport(record, ship, consumers, request.body);
      const actor = { userId: caller.userId, organizationId: caller.organizationId, apiKey: caller.apiKey };
      const job: UkEtsMetsSendJob = {
        facilityId,
        year: request.body.year,
        companyImoNumber: request.body.companyImoNumber,
        flag: request.body.flag,
        iceClass: request.body.iceClass,
        companyNature: request.body.companyNature,
        requestedBy: actor,
      };
      const jobId = await auditedChange(
        db,
        actor,
        (trx) => jobQueueOf(services).sendInTransaction(trx, JOB_NAMES.ukEtsMetsSend, job),
        (id) => ({
          action: 'uk-ets.mets-send',
          subject: facilityId,
          detail: { year: job.year, companyImoNumber: job.companyImoNumber, jobId: id },
        }),
      );
      return reply.code(202).send({
        jobId,
        message: `The ${job.year} report of ${ship.name} is being sent to METS. The audit log says when METS has taken it.`,
      });
    },
  );
}
