import { z } from 'zod';
import { SHIP_IMAGE_MAX_BYTES } from './rules/constants';
import { shipInfoSchema } from './forms/ship';

export { facilitySchema } from './facilities';

export const shipIdParamsSchema = z.object({ id: z.string() });

/** PUT facilities/{id}/facility: the ship info form's values (empty manufacturer stored as null, dates at start of day UTC). */
export const updateFacilityBodySchema = shipInfoSchema;
export type UpdateFacilityBody = z.input<typeof updateFacilityBodySchema>;

/** Decoded size of a base64 data URL's payload, in bytes; null when it is not a base64 data URL. */
export function dataUrlInfo(dataUrl: string): { mediaType: string; bytes: number } | null {
  const match = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(dataUrl);
  if (!match) return null;
  const b64 = match[2]!;
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return { mediaType: match[1]!, bytes: (b64.length / 4) * 3 - padding };
}

/** The ship image rule on a data URL: an image type under 500000 bytes. */
export const isAcceptableShipImage = (dataUrl: string) => {
  const info = dataUrlInfo(dataUrl);
  return info !== null && info.mediaType.startsWith('image/') && info.bytes < SHIP_IMAGE_MAX_BYTES;
};

/** An upload credential of the onboard uploader (Automate file upload). The secret is never stored or shown again. */
export const uploadCredentialSchema = z.object({
  id: z.string(),
  createdOn: z.string(),
  createdBy: z.string().nullable(),
  lastUsedOn: z.string().nullable(),
  revokedOn: z.string().nullable(),
});
export type UploadCredential = z.infer<typeof uploadCredentialSchema>;

/** POST facilities/{id}/upload-credentials: the new credential with its token, shown once. */
export const provisionedCredentialSchema = uploadCredentialSchema.extend({
  /** `psdu_<credential id>_<secret>`: the uploader sends it as `Authorization: Bearer <token>`. */
  token: z.string(),
});
export type ProvisionedCredential = z.infer<typeof provisionedCredentialSchema>;
export const credentialParamsSchema = z.object({ id: z.string(), credentialId: z.string() });

/** The header with which the package download embeds a just-provisioned token in the package's configuration. */
export const UPLOAD_TOKEN_HEADER = 'x-upload-token';

/**
 * GET scripts/psdu/facilities/{id}?mode=: the uploader's mode in the package. `upload` (the default): files over
 * HTTPS; `edge-node`: the files' samples over MQTT Sparkplug B to the portal's broker. Either way, with live data on,
 * config.json names the broker and the Sparkplug group, so switching the mode is the only edit.
 */
export const uploaderPackageQuerySchema = z.object({ mode: z.enum(['upload', 'edge-node']).optional() });
export const UPLOAD_TOKEN_PREFIX = 'psdu_';

/**
 * The credential id in an upload token `psdu_<credential id>_<secret>`, or null: the MQTT user name an edge node
 * signs in with (a real Mosquitto knows each credential by it, docs/decisions/0131-mosquitto-credentials-and-tls.md).
 */
export function uploadCredentialIdOf(token: string): string | null {
  const match = /^psdu_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_[A-Za-z0-9_-]+$/.exec(
    token.trim(),
  );
  return match ? match[1]! : null;
}
