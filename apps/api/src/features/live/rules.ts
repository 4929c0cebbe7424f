/**
 * The host's checks of what arrives, as pure rules (docs/decisions/0120-live-sparkplug-host.md).
 */

/** Sparkplug 3.0 §6.4.x: seq is 0..255 and wraps to 0 (tck-id-payloads-sequence-num-incrementing). */
export const SEQ_MODULUS = 256;

/**
 * Is `seq` the next one after `previous`? NBIRTH starts a sequence at 0 (tck-id-payloads-sequence-num-zero-nbirth),
 * so a birth always continues; without a previous message (the host came after the birth) nothing is known, and a
 * rebirth is asked for.
 */
export function sequenceContinues(previous: number | null, seq: number): boolean {
  if (previous === null) return false;
  return seq === (previous + 1) % SEQ_MODULUS;
}

/**
 * How far ahead of the portal's clock a sample's source time may be: 5 minutes. A live sample is sent seconds
 * after it is taken, so its time is behind the portal's clock, not ahead; ahead can only be a clock difference. 5
 * minutes is the clock skew Kerberos accepts between two hosts that keep time ("The default value for maximum clock
 * skew is 300 seconds, or five minutes", MIT Kerberos V5 administrator's guide, "Clock Skew"; secondary source for
 * the convention, not a maritime rule), so a ship's clock kept by NTP or GNSS is well inside it, and a sample beyond
 * it is a clock fault, not data. The files' rule is looser
 * (an hour, FUTURE_TOLERANCE_MS in @portal/contracts/data-health) because a file is judged long after it was
 * written, against the upload's time.
 */
export const STREAM_FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * A live (not historical) sample this much earlier than the latest live sample of the same data source means the
 * ship's clock went back (a reset, a GNSS fix after a drift). One minute: more than one logging interval of the
 * slowest data source (60 s, the demo fleet's and the spec's longest measure frequency) so that a late live sample
 * in the same batch is not taken for one. Historical samples are late on purpose and are not checked.
 */
export const CLOCK_BACKWARDS_TOLERANCE_MS = 60 * 1000;

export type ClockFinding = 'future' | 'clockBackwards';

/**
 * The clock check of one sample: `future` (refused: not stored, kept in the finding) when its time is more than the
 * tolerance after `now`; `clockBackwards` (stored, flagged) when a live sample is well before the latest live one.
 */
export function clockCheck(
  sample: { time: number; isHistorical: boolean },
  latestLive: number | null,
  now: number,
): ClockFinding | null {
  if (sample.time > now + STREAM_FUTURE_TOLERANCE_MS) return 'future';
  if (!sample.isHistorical && latestLive !== null && sample.time < latestLive - CLOCK_BACKWARDS_TOLERANCE_MS)
    return 'clockBackwards';
  return null;
}
