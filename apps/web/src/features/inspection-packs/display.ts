import { INSPECTION_PACK_STATE_NAMES, type InspectionPack } from '@portal/contracts/inspection-packs';
import { formatByteSize, formatDateTime, packPeriodLabel } from '@portal/contracts/rules';

/** What the list says of a pack's state: "Building 42 %: Original logger files: 120 of 365". */
export function packStateText(pack: Pick<InspectionPack, 'state' | 'progress' | 'stage' | 'error'>): string {
  const name = INSPECTION_PACK_STATE_NAMES[pack.state];
  switch (pack.state) {
    case 'building':
      return `${name} ${Math.floor(pack.progress * 100)} %${pack.stage ? `: ${pack.stage}` : ''}`;
    case 'queued':
      return pack.stage ? `${name}: ${pack.stage}` : name;
    case 'failed':
      return pack.error ? `${name}: ${pack.error}` : name;
    default:
      return name;
  }
}

/** The period as the list shows it: "March 2025" or "2025.03.03 to 2025.03.05". */
export const packPeriodText = (pack: Pick<InspectionPack, 'from' | 'to'>) => packPeriodLabel(pack);

/** Who asked and when: "north.anna, 2025.04.02 10:15" or "Monthly schedule, …". */
export const packRequestText = (pack: Pick<InspectionPack, 'requestedBy' | 'requestedOn'>) =>
  `${pack.requestedBy ?? 'Unknown'}, ${formatDateTime(pack.requestedOn)}`;

/** The ready zip's contents in brief: "3 logger files, 1.2 MB". */
export function packContentText(pack: Pick<InspectionPack, 'state' | 'originals' | 'zipBytes'>): string {
  if (pack.state !== 'ready' || pack.zipBytes === null) return '';
  const files = pack.originals ?? 0;
  return `${files} logger ${files === 1 ? 'file' : 'files'}, ${formatByteSize(pack.zipBytes)}`;
}
