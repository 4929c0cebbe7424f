import { z } from 'zod';

/** The environment badge of part 1: stage names and their colours. */
export const ENVIRONMENT_STAGE_NAMES = ['Local', 'Dev site', 'Test site', 'Demo site'] as const;
export type EnvironmentStageName = (typeof ENVIRONMENT_STAGE_NAMES)[number];

export const ENVIRONMENT_STAGE_COLOURS: Record<EnvironmentStageName, string> = {
  Local: '#6a1b9a',
  'Dev site': '#2e7d32',
  'Test site': '#ef6c00',
  'Demo site': '#0277bd',
};

export const versionSchema = z.object({ version: z.string(), build: z.string() });
export type VersionInfo = z.infer<typeof versionSchema>;

export const environmentSchema = z.object({ name: z.string(), color: z.string(), html: z.string() });
export type Environment = z.infer<typeof environmentSchema>;

/** What GET /settings.js assigns to window.settings. */
export const portalSettingsSchema = z.object({
  apiBaseUrl: z.string(),
  oidc: z.object({ authority: z.string(), clientId: z.string(), scope: z.string() }),
  environment: environmentSchema,
  maintenance: z.boolean(),
  /** The support phone (SUPPORT_PHONE); '' when none is configured: the footer then shows no phone line. */
  supportPhone: z.string(),
  companyText: z.string(),
  traceSampleRate: z.number(),
  /** The address the portal is served at (PUBLIC_URL): sign-in works only there. */
  publicUrl: z.string().optional(),
  /** The version served when the page loaded: the build this tab runs (update notification, chunk failures). */
  version: versionSchema.optional(),
});
export type PortalSettings = z.infer<typeof portalSettingsSchema>;
