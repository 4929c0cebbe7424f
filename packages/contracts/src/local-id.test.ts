import { describe, expect, it } from 'vitest';
import { LOCAL_ID_MAX_LENGTH, LOCAL_ID_MESSAGES, localIdProblem, parseLocalId } from './local-id';

describe('ISO 19848-style local ids', () => {
  it('accepts the ids a gateway sends, with custom tags and a secondary item', () => {
    for (const id of [
      '/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature',
      '/dnv-v2/vis-3-4a/411.1/H101/meta/qty-power/cnt-fuel.oil',
      '/dnv-v2/vis-3-4a/652.31/S90.3/S61/sec/652.1i-1P/meta/cnt-sea.water/state-opened',
      '/dnv-v2/vis-3-4a/411.1/meta/qty~scrubber.inlet.so2',
    ])
      expect(localIdProblem(id), id).toBeNull();
  });

  it('trims, and an empty text clears the id', () => {
    expect(parseLocalId('  /dnv-v2/vis-3-4a/411.1/meta/qty-power ')).toEqual({
      ok: true,
      localId: '/dnv-v2/vis-3-4a/411.1/meta/qty-power',
    });
    expect(parseLocalId('   ')).toEqual({ ok: true, localId: null });
    expect(parseLocalId(null)).toEqual({ ok: true, localId: null });
  });

  it('refuses what is not the shape: no leading slash, no naming rule, no /meta, no tag', () => {
    for (const id of [
      'dnv-v2/vis-3-4a/411.1/meta/qty-power',
      '/dnv/vis-3-4a/411.1/meta/qty-power',
      '/dnv-v2/meta/qty-power',
      '/dnv-v2/vis-3-4a/411.1',
      '/dnv-v2/vis-3-4a/411.1/meta',
      '/dnv-v2/vis-3-4a/411.1/meta/',
      '/dnv-v2/vis-3-4a/411.1/meta/temperature',
      '/dnv-v2//411.1/meta/qty-power',
    ])
      expect(localIdProblem(id), id).not.toBeNull();
  });

  it('refuses hostile text with a clear reason', () => {
    for (const id of [
      '/dnv-v2/vis-3-4a/<script>alert(1)</script>/meta/qty-power',
      '/dnv-v2/vis-3-4a/411.1/meta/qty-power\u0000',
      '/dnv-v2/vis-3-4a/411 1/meta/qty-power',
      '/dnv-v2/vis-3-4a/../meta/qty-power',
      '/dnv-v2/vis-3-4a/411.1/meta/qty-pöwer',
      "/dnv-v2/vis-3-4a/411.1'; DROP TABLE x;--/meta/qty-power",
      '/dnv-v2/vis-3-4a/\u202e411.1/meta/qty-power',
    ])
      expect(localIdProblem(id), JSON.stringify(id)).toBe(LOCAL_ID_MESSAGES.characters);
    const long = `/dnv-v2/vis-3-4a/${'4'.repeat(LOCAL_ID_MAX_LENGTH)}/meta/qty-power`;
    expect(parseLocalId(long)).toEqual({ ok: false, problem: LOCAL_ID_MESSAGES.tooLong });
  });
});
