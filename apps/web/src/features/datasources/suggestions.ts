import { KNOWN_FIELDS } from '@portal/contracts/channel-suggestions';
import type {
  ChannelMappingListItem,
  DataSourceChannel,
  SuggestedMappings,
} from '@portal/contracts/datasources';

/** What the user decided for one field of the suggested mappings. */
export interface MappingChoice {
  field: string;
  /** The column proposed (null: none was). */
  proposed: string | null;
  /** The column chosen: the proposed one, another one (changed), or none. */
  column: string | null;
  accepted: boolean;
  /** The field's mapping in the data source, if it has one. */
  mappingId: string | null;
  confidence: number | null;
}

/** The rows of the suggestions table: every proposal, then every unmatched field; the confident ones accepted. */
export function initialChoices(result: SuggestedMappings): MappingChoice[] {
  return [
    ...result.proposals.map((p) => ({
      field: p.field,
      proposed: p.column,
      column: p.column,
      accepted: p.confidence >= result.acceptConfidence && !p.matchesExisting,
      mappingId: p.mappingId,
      confidence: p.confidence,
    })),
    ...result.unmatchedFields.map((f) => ({
      field: f.field,
      proposed: null,
      column: null,
      accepted: false,
      mappingId: f.mappingId,
      confidence: null,
    })),
  ];
}

/** Accept all: every row with a column. */
export const acceptAll = (choices: MappingChoice[]): MappingChoice[] =>
  choices.map((c) => ({ ...c, accepted: c.column !== null }));

/** Another column for a row (null: none); choosing one accepts the row. */
export const changeColumn = (
  choices: MappingChoice[],
  field: string,
  column: string | null,
): MappingChoice[] =>
  choices.map((c) => (c.field === field ? { ...c, column, accepted: column !== null } : c));

export const setAccepted = (choices: MappingChoice[], field: string, accepted: boolean): MappingChoice[] =>
  choices.map((c) => (c.field === field ? { ...c, accepted: accepted && c.column !== null } : c));

/** Rows whose column the user chose instead of the proposed one: candidates for the organization's aliases. */
export const changedChoices = (choices: MappingChoice[]) =>
  choices.filter((c) => c.accepted && c.column !== null && c.column !== c.proposed);

const toItem = (c: DataSourceChannel): ChannelMappingListItem => ({
  id: c.id,
  source: c.source,
  name: c.name,
  dataType: c.dataType,
  unit: c.unit,
  description: c.description,
  qualityScore: c.qualityScore,
  isCustom: c.isCustom,
  // Sent as it is: a mapping Undo brings back (one Apply removed) would otherwise come back without its local id.
  localId: c.localId,
});

/**
 * The data source's mappings after the choices (the body of PUT facilitydatasourcechannels): an accepted row changes
 * its field's mapping to the chosen column, or adds the mapping; a rejected row leaves it as it is. With
 * `removeUnused`, the mappings that read no column of the file and no calculation reads go.
 */
export function mappingListAfter(
  channels: DataSourceChannel[],
  result: SuggestedMappings,
  choices: MappingChoice[],
  removeUnused: boolean,
): ChannelMappingListItem[] {
  const unit = new Map(result.columns.map((c) => [c.channel, c.unit]));
  const byMapping = new Map(choices.filter((c) => c.accepted && c.mappingId).map((c) => [c.mappingId!, c]));
  const removable = new Set(
    removeUnused ? result.mappingsWithoutColumn.filter((m) => !m.readByCalculation).map((m) => m.id) : [],
  );
  const list: ChannelMappingListItem[] = [];
  for (const channel of channels) {
    const choice = byMapping.get(channel.id);
    if (choice?.column) list.push({ ...toItem(channel), source: choice.column });
    else if (!removable.has(channel.id)) list.push(toItem(channel));
  }
  for (const choice of choices) {
    if (!choice.accepted || choice.mappingId || !choice.column) continue;
    list.push({
      source: choice.column,
      name: choice.field,
      dataType: KNOWN_FIELDS[choice.field]?.boolean ? 'Boolean' : 'Double',
      unit: unit.get(choice.column) ?? null,
    });
  }
  return list;
}

/**
 * The mappings a list would remove: those of the data source whose id the list does not keep. Apply asks before it
 * removes any of them, naming each.
 */
export function removedMappings(
  channels: DataSourceChannel[],
  list: ChannelMappingListItem[],
): DataSourceChannel[] {
  const kept = new Set(list.flatMap((i) => i.id ?? []));
  return channels.filter((c) => !kept.has(c.id));
}

/**
 * The list that puts the mappings back as they were (Undo): each with its id, so that those a list removed come back
 * with their ids and the calculations reading them read them again.
 */
export const restoreList = (channels: DataSourceChannel[]): ChannelMappingListItem[] => channels.map(toItem);

/** What Apply will do, in a line. */
export function applySummary(channels: DataSourceChannel[], list: ChannelMappingListItem[]): string {
  const before = new Map(channels.map((c) => [c.id, c]));
  const changed = list.filter((i) => i.id && before.get(i.id)?.source !== i.source).length;
  const added = list.filter((i) => !i.id).length;
  const removed = removedMappings(channels, list).length;
  const parts = [
    changed && `${changed} changed`,
    added && `${added} added`,
    removed && `${removed} removed`,
  ].filter(Boolean);
  return parts.length ? `Mappings: ${parts.join(', ')}` : 'No change to the mappings';
}
