import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Services } from '../../services';
import { deleteFileSamples } from '../../storage';
import { deleteDerivedValues, requestRecalculation } from '../executions/derived';
import { updateFacilityDataRange } from '../datasources/range';

/**
 * Deletes a data file: with `deleteData` the file and its data (its samples through storage/samples.ts, the cascade
 * takes the original; the values derived from its range go too, and their recalculation is requested),
 * without it the file is only marked removed. The ship's data range is calculated again from the files that
 * remain. The original stored beside the database is the caller's to remove once this is committed.
 */
export async function deleteDataFile(
  trx: Transaction<Database>,
  services: Services,
  facilityId: string,
  file: { id: string; time_stamp_min: Date | string; time_stamp_max: Date | string },
  deleteData: boolean,
): Promise<void> {
  if (deleteData) {
    const from = new Date(file.time_stamp_min);
    const to = new Date(file.time_stamp_max);
    await deleteFileSamples(trx, { facilityId, dataFileId: file.id });
    await trx.deleteFrom('data_files').where('id', '=', file.id).execute();
    await deleteDerivedValues(trx, facilityId, from, to);
    await requestRecalculation(services, facilityId, from, to, trx);
  } else {
    await trx.updateTable('data_files').set({ removed_on: new Date() }).where('id', '=', file.id).execute();
  }
  await updateFacilityDataRange(trx, facilityId);
}
