/**
 * A channel's ISO 19848-style local id (issue 33, docs/decisions/0120-live-sparkplug-host.md), e.g.
 * `/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature`.
 *
 * The shape checked here is ISO 19848:2018 Annex C's LocalID as DNV's "dnv-v2" naming rule writes it in ABNF
 * (secondary source: DNV's open Vista SDK, its `LocalId` grammar; the ISO text itself is not freely available):
 *   LocalID       = NamingRule LocalDataName
 *   NamingRule    = "/" NamingRuleIdentifier "-" NamingRuleVersion          ; e.g. /dnv-v2
 *   LocalDataName = VISElement PrimaryItem ["/sec" SecondaryItem] [Description] "/meta" 1*TagElement
 *   TagElement    = "/" prefix ("-" | "~") value                               ; "~" a custom tag
 * Only the shape is checked, not the codebooks (the VIS version's item codes and tag values): a gateway's tags are
 * taken as they come as long as they are one such id. Characters are RFC 3986's unreserved ones (ALPHA / DIGIT /
 * "-" / "." / "_" / "~", section 2.3), which is what every segment of the grammar uses; anything else (spaces,
 * control characters, markup, other scripts, "..") is refused, so the id is safe in a URL, a file and a topic.
 */

/** The longest local id accepted: well above the longest real ones (about 150 characters), short of abuse. */
export const LOCAL_ID_MAX_LENGTH = 300;

export const LOCAL_ID_MESSAGES = {
  tooLong: `A local id has at most ${LOCAL_ID_MAX_LENGTH} characters.`,
  characters:
    'A local id has only letters a-z, digits and - . _ ~ between its slashes, e.g. /dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature.',
  shape:
    'A local id starts with its naming rule (e.g. /dnv-v2), names an item and ends with /meta and at least one tag such as /qty-temperature.',
} as const;

const SEGMENT = /^[A-Za-z0-9._~-]+$/;
const NAMING_RULE = /^[A-Za-z0-9]+-[A-Za-z0-9.]+$/;
const TAG = /^[A-Za-z0-9]+[-~][A-Za-z0-9._~-]+$/;

/** Trims; an empty text is no local id (null). */
export function normalizeLocalId(text: string | null | undefined): string | null {
  const trimmed = (text ?? '').trim();
  return trimmed === '' ? null : trimmed;
}

/** Why a local id is refused, or null when it is one (after {@link normalizeLocalId}). */
export function localIdProblem(localId: string): string | null {
  if (localId.length > LOCAL_ID_MAX_LENGTH) return LOCAL_ID_MESSAGES.tooLong;
  if (!localId.startsWith('/') || localId.endsWith('/')) return LOCAL_ID_MESSAGES.shape;
  const segments = localId.slice(1).split('/');
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || /^\.+$/.test(segment)) return LOCAL_ID_MESSAGES.characters;
  }
  const meta = segments.indexOf('meta');
  // The naming rule, then at least one segment of the item (the VIS version and the primary item), then /meta.
  if (!NAMING_RULE.test(segments[0]!) || meta < 2) return LOCAL_ID_MESSAGES.shape;
  const tags = segments.slice(meta + 1);
  if (tags.length === 0 || !tags.every((tag) => TAG.test(tag))) return LOCAL_ID_MESSAGES.shape;
  return null;
}

/** The local id as stored (trimmed, null when empty), or the reason it is refused. */
export function parseLocalId(
  text: string | null | undefined,
): { ok: true; localId: string | null } | { ok: false; problem: string } {
  const localId = normalizeLocalId(text);
  if (localId === null) return { ok: true, localId: null };
  const problem = localIdProblem(localId);
  return problem ? { ok: false, problem } : { ok: true, localId };
}
