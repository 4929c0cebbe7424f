/** Progress of a report: approved fields over total fields, as a percentage (spec part 2 section 9). */
export function approvedProgress(
  approved: number,
  total: number,
): { percent: number; complete: boolean; text: string } {
  const percent = total > 0 ? Math.round((approved / total) * 100) : 0;
  return { percent, complete: total > 0 && approved >= total, text: `${approved}/${total} (${percent} %)` };
}
