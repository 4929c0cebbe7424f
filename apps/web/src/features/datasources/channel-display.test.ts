import { describe, expect, it } from 'vitest';
import { channelSecondaryText } from './channel-display';

const LOCAL_ID = '/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature';

describe("a channel's second line in the data source's tree", () => {
  it("gives the raw channel's data type and unit, then the mapping's local id", () => {
    expect(channelSecondaryText({ dataType: 'Double', unit: 'degC' }, undefined)).toBe('Double, degC');
    expect(channelSecondaryText({ dataType: 'Double', unit: null }, { isCustom: false, localId: null })).toBe(
      'Double',
    );
    expect(
      channelSecondaryText({ dataType: 'Double', unit: 'degC' }, { isCustom: false, localId: LOCAL_ID }),
    ).toBe(`Double, degC · ${LOCAL_ID}`);
  });

  it('says what a channel without a sample column is, with its local id', () => {
    expect(channelSecondaryText(undefined, { isCustom: true, localId: null })).toBe('Custom channel');
    expect(channelSecondaryText(undefined, { isCustom: false, localId: LOCAL_ID })).toBe(
      `Not in the sample file · ${LOCAL_ID}`,
    );
  });
});
