import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  bdnInputSchema,
  bdnSchema,
  ciiResultSchema,
  dcsExportQuerySchema,
  dcsReportSchema,
  fleetCiiSchema,
  yearQuerySchema,
  dayPeriodQuerySchema,
  fuelByPeriodSchema,
  noonReportImportResultSchema,
  noonReportImportSchema,
  optionalDayPeriodQuerySchema,
  portCallSchema,
  reconciliationSchema,
  tankSoundingInputSchema,
  tankSoundingSchema,
  voyageCargoInputSchema,
  voyageSchema,
} from '@portal/contracts/carbon';
import { authenticatedRoutes } from '../access/authenticated';
import { LEDGER_READS } from '../access/verifier';
import { idParam } from '../access/params';
import { assertFacilityVisible } from '../access/policy';
import { notFound } from '../../errors';
import { shipPortNames } from '../ports/service';
import { ciiForShip, dcsForYear } from './reports';
import { fleetCiiAnswers } from './fleet-cii';
import { sendAnswer } from '../reports/report-data';
import { dcsCsv, dcsWorkbook } from './dcs-export';
import { ovdCsv, ovdLogAbstract, ovdWorkbook } from './ovd-export';
import { ovdExportQuerySchema } from '@portal/contracts/uk-ets';
import {
  dayPeriod,
  fuelForPeriod,
  listPortCalls,
  listVoyages,
  optionalDayPeriod,
  voyageById,
} from './ledger';
import {
  addBdn,
  addSounding,
  changeBdn,
  clearCargo,
  findBdn,
  findSounding,
  importNoonReports,
  listBdns,
  listSoundings,
  reconciliation,
  removeBdn,
  removeSounding,
  setCargo,
} from './records';

const tags = ['carbon'];
const idParams = z.object({ id: idParam() });
/** Reads of the ledger: for API keys with reports:read, and for verifiers (features/access/verifier.ts). */
const READ = LEDGER_READS;
/** The CII cards' reads (the fleet dashboard's and the ship's): off the primary where there is a replica. */
const CARD_READ = { ...LEDGER_READS, reads: 'replica' as const };

/**
 * The carbon ledger's API (issue 31; docs/decisions/0111-carbon-ledger-engine.md): a ship's port calls, voyages and
 * fuel as the engine derived them, and what people enter for it (bunker delivery notes, tank soundings, cargo) with
 * the reconciliation. Everyone who sees a ship reads its ledger and enters records for it (as for its record book);
 * another organization's ship, voyage, note or sounding answers as a missing one.
 */
export async function carbonRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  // The fleet CII card's answers with their cache, one per process (fleet-cii.ts).
  const ciiAnswers = fleetCiiAnswers({ cacheEntries: app.config.REPORT_DATA_CACHE_ENTRIES });

  routes.get(
    '/api/facilities/:id/port-calls',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's port calls overlapping the days [from, to] (UTC; all without them), derived from its position and speed: a stay within a port's radius below 1 kn for at least 2 h (DOMAIN.md), with the fuel burnt at berth per consumer and fuel type.",
        params: idParams,
        querystring: optionalDayPeriodQuerySchema,
        response: { 200: z.array(portCallSchema) },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return listPortCalls(db, request.params.id, optionalDayPeriod(request.query));
    },
  );

  routes.get(
    '/api/facilities/:id/voyages',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's voyages overlapping the days [from, to] (UTC; all without them): from one port call's departure to the next call's arrival, with distance over ground, hours under way and not, fuel per consumer and fuel type, CO2 and cargo.",
        params: idParams,
        querystring: optionalDayPeriodQuerySchema,
        response: { 200: z.array(voyageSchema) },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return listVoyages(db, request.params.id, optionalDayPeriod(request.query));
    },
  );

  routes.get(
    '/api/voyages/:id',
    {
      config: READ,
      schema: {
        tags,
        description: 'One voyage with its fuel.',
        params: idParams,
        response: { 200: voyageSchema },
      },
    },
    async (request) => {
      const { voyage, present } = await voyageById(db, request.params.id);
      await visibleOr404(request.caller, voyage.facilityId, 'Voyage not found');
      return present();
    },
  );

  routes.put(
    '/api/voyages/:id/cargo',
    {
      schema: {
        tags,
        description:
          'Sets the cargo of a voyage (laden or in ballast, tonnes, TEU) as a person enters it: laden distance and transport work of the IMO DCS are read from it. Audited.',
        params: idParams,
        body: voyageCargoInputSchema,
        response: { 200: voyageSchema },
      },
    },
    async (request) => {
      const { voyage } = await voyageById(db, request.params.id);
      await visibleOr404(request.caller, voyage.facilityId, 'Voyage not found');
      await setCargo(db, request.caller, voyage, request.body);
      return (await voyageById(db, voyage.id)).present();
    },
  );

  routes.delete(
    '/api/voyages/:id/cargo',
    {
      schema: {
        tags,
        description: 'Removes the cargo entered or imported for a voyage. Audited.',
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const { voyage } = await voyageById(db, request.params.id);
      await visibleOr404(request.caller, voyage.facilityId, 'Voyage not found');
      await clearCargo(db, request.caller, voyage);
      return reply.code(204).send(null);
    },
  );

  routes.post(
    '/api/facilities/:id/noon-reports',
    {
      schema: {
        tags,
        description:
          "Imports a CSV of noon reports into the cargo of the ship's voyages: a header row with Date (UTC date and time), Condition (laden or ballast), and optionally Cargo (t) and TEU; each voyage takes its first report, a voyage whose cargo a person entered keeps it. Audited.",
        params: idParams,
        body: noonReportImportSchema,
        response: { 200: noonReportImportResultSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return importNoonReports(db, request.caller, request.params.id, request.body.csv);
    },
  );

  routes.get(
    '/api/facilities/:id/fuel',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's fuel over the days [from, to] (UTC) per consumer and fuel type, with the part burnt not under way, CO2 under the IMO's Cf, distance and hours: the sum of the ledger's pieces of those days.",
        params: idParams,
        querystring: dayPeriodQuerySchema,
        response: { 200: fuelByPeriodSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const { from, to } = dayPeriod(request.query);
      return fuelForPeriod(db, request.params.id, from, to);
    },
  );

  // ---- Bunker delivery notes ----

  routes.get(
    '/api/facilities/:id/bunker-notes',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's bunker delivery notes delivered in the days [from, to] (UTC; all without them).",
        params: idParams,
        querystring: optionalDayPeriodQuerySchema,
        response: { 200: z.array(bdnSchema) },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return listBdns(db, request.params.id, optionalDayPeriod(request.query));
    },
  );

  routes.post(
    '/api/facilities/:id/bunker-notes',
    {
      schema: {
        tags,
        description:
          "Enters a bunker delivery note: a 'bunkering' entry of the ship's record book holds it. Audited.",
        params: idParams,
        body: bdnInputSchema,
        response: { 201: bdnSchema },
      },
    },
    async (request, reply) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const note = await addBdn(
        db,
        request.caller,
        request.params.id,
        request.body,
        shipPortNames(db, request.params.id),
      );
      return reply.code(201).send(note);
    },
  );

  routes.get(
    '/api/bunker-notes/:id',
    { config: READ, schema: { tags, params: idParams, response: { 200: bdnSchema } } },
    async (request) => {
      const note = await findBdn(db, request.params.id);
      await visibleOr404(request.caller, note.shipId, 'Bunker delivery note not found');
      return note;
    },
  );

  routes.put(
    '/api/bunker-notes/:id',
    {
      schema: {
        tags,
        description:
          'Changes a bunker delivery note: a correction entry in the record book names the entry it corrects. Audited.',
        params: idParams,
        body: bdnInputSchema,
        response: { 200: bdnSchema },
      },
    },
    async (request) => {
      const note = await findBdn(db, request.params.id);
      await visibleOr404(request.caller, note.shipId, 'Bunker delivery note not found');
      return changeBdn(db, request.caller, note, request.body, shipPortNames(db, note.shipId));
    },
  );

  routes.delete(
    '/api/bunker-notes/:id',
    {
      schema: {
        tags,
        description:
          'Withdraws a bunker delivery note: a correction entry in the record book says so; the note no longer counts. Audited.',
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const note = await findBdn(db, request.params.id);
      await visibleOr404(request.caller, note.shipId, 'Bunker delivery note not found');
      await removeBdn(db, request.caller, note);
      return reply.code(204).send(null);
    },
  );

  // ---- Tank soundings ----

  routes.get(
    '/api/facilities/:id/tank-soundings',
    {
      config: READ,
      schema: {
        tags,
        description: "The ship's tank soundings taken in the days [from, to] (UTC; all without them).",
        params: idParams,
        querystring: optionalDayPeriodQuerySchema,
        response: { 200: z.array(tankSoundingSchema) },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return listSoundings(db, request.params.id, optionalDayPeriod(request.query));
    },
  );

  routes.post(
    '/api/facilities/:id/tank-soundings',
    {
      schema: {
        tags,
        description: 'Enters a tank sounding: the fuel of a type remaining on board at a time. Audited.',
        params: idParams,
        body: tankSoundingInputSchema,
        response: { 201: tankSoundingSchema },
      },
    },
    async (request, reply) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return reply.code(201).send(await addSounding(db, request.caller, request.params.id, request.body));
    },
  );

  routes.delete(
    '/api/tank-soundings/:id',
    {
      schema: {
        tags,
        description: 'Removes a tank sounding entered by mistake. Audited.',
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const sounding = await findSounding(db, request.params.id);
      await visibleOr404(request.caller, sounding.shipId, 'Tank sounding not found');
      await removeSounding(db, request.caller, sounding);
      return reply.code(204).send(null);
    },
  );

  routes.get(
    '/api/facilities/:id/reconciliation',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The reconciliation of the days [from, to] (UTC) per fuel type: the flow meters' fuel against the bunker delivery notes of the period and the tank soundings within 24 h of its start and end (ROB at the start + bunkered - ROB at the end), the difference in %, flagged above 5 %.",
        params: idParams,
        querystring: dayPeriodQuerySchema,
        response: { 200: reconciliationSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const { from, to } = dayPeriod(request.query);
      return reconciliation(db, request.params.id, from, to);
    },
  );

  // ---- IMO DCS and CII ----

  routes.get(
    '/api/facilities/:id/dcs-report',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's IMO DCS report of a calendar year (MARPOL Annex VI regulation 27, Appendix IX as amended by MEPC.385(81)): every item the data allows, and each item it does not, named with why.",
        params: idParams,
        querystring: yearQuerySchema,
        response: { 200: dcsReportSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return dcsForYear(db, request.params.id, request.query.year);
    },
  );

  routes.get(
    '/api/facilities/:id/dcs-report/export',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's IMO DCS report of a calendar year as .xlsx (the layout of flag States' templates: Appendix IX's items in order, dates as dates and numbers as numbers; a second sheet names what the data does not allow) or CSV.",
        params: idParams,
        querystring: dcsExportQuerySchema,
      },
    },
    async (request, reply) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const { year, format } = request.query;
      const report = await dcsForYear(db, request.params.id, year);
      const ship = await db
        .selectFrom('facilities')
        .select('name')
        .where('id', '=', request.params.id)
        .executeTakeFirstOrThrow();
      const base = `${ship.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'ship'}_IMO_DCS_${year}`;
      if (format === 'csv')
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${base}.csv"`)
          .send(dcsCsv(report));
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${base}.xlsx"`)
        .send(await dcsWorkbook(report, ship.name));
    },
  );

  routes.get(
    '/api/facilities/:id/ovd-log-abstract',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's voyages and fuel of a calendar year as an Open Vessel Data log abstract (DNV's OVD 3.5 format, the one DNV's Veracity and verifiers take): one row per arrival at and departure from berth, with the hours, distance and fuel per consumer and fuel type since the previous event, as CSV or .xlsx.",
        params: idParams,
        querystring: ovdExportQuerySchema,
      },
    },
    async (request, reply) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const { year, format } = request.query;
      const abstract = await ovdLogAbstract(db, request.params.id, year);
      const ship = await db
        .selectFrom('facilities')
        .select('name')
        .where('id', '=', request.params.id)
        .executeTakeFirstOrThrow();
      const base = `${ship.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'ship'}_OVD_log_abstract_${year}`;
      if (format === 'csv')
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${base}.csv"`)
          .send(ovdCsv(abstract));
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${base}.xlsx"`)
        .send(await ovdWorkbook(abstract));
    },
  );

  routes.get(
    '/api/facilities/:id/cii',
    {
      config: CARD_READ,
      schema: {
        tags,
        description:
          "The ship's CII of a calendar year (MARPOL Annex VI regulation 28): attained to the last day with data, projected to the year's end from the trend of its last 90 days, required with the year's reduction factor, the rating A-E with its boundaries, the trajectory 2026-2030 if the attained value stayed, and the part of it due to the scrubber's power.",
        params: idParams,
        querystring: yearQuerySchema,
        response: { 200: ciiResultSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(request.reads, request.caller, request.params.id);
      return ciiForShip(request.reads, request.params.id, request.query.year);
    },
  );

  routes.get(
    '/api/cii/fleet',
    {
      config: CARD_READ,
      schema: {
        tags,
        description:
          'The fleet CII card: every ship the caller sees with its rating of the year so far and projected to the year end, ships heading for D or E first.',
        querystring: yearQuerySchema,
        response: { 200: fleetCiiSchema },
      },
    },
    async (request, typedReply) => {
      const { caller, reads } = request;
      const { year } = request.query;
      // The answer goes as the bytes kept (the schema above documents them).
      const reply = typedReply as FastifyReply;
      // As the dashboards' report answers: the answer kept for this version (fleet-cii.ts), or 304.
      const version = await ciiAnswers.version(reads, caller);
      return sendAnswer(request, reply, ciiAnswers.etag(caller, version, year), () =>
        ciiAnswers.answer(reads, caller, version, year),
      );
    },
  );

  /** The object's ship must be one the caller sees; otherwise the object is not found (never a 403). */
  async function visibleOr404(
    caller: Parameters<typeof assertFacilityVisible>[1],
    facilityId: string,
    text: string,
  ) {
    try {
      await assertFacilityVisible(db, caller, facilityId);
    } catch {
      throw notFound(text);
    }
  }
}
