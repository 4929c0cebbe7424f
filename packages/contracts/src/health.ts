import { z } from 'zod';

/**
 * What a starting server does, in order (apps/api/src/starting.ts): loading its code, opening the database
 * (migrations, the product's defaults, the job queue), then on a first start the demo fleet: its ships' logger files
 * imported, then each ship calculated.
 */
export const STARTUP_STEPS = ['loading', 'database', 'demo-data', 'demo-calculation'] as const;
export type StartupStep = (typeof STARTUP_STEPS)[number];

/**
 * GET /api/health: answered from the first moment the port is open. 200 while the portal is ready; 503 while it
 * starts (with what it is doing and how far it is) or stops, so a load balancer sends it no users meanwhile.
 */
export const healthSchema = z.object({
  state: z.enum(['starting', 'ready', 'stopping']),
  /** The step under way while starting; null once ready or stopping. */
  step: z.enum(STARTUP_STEPS).nullable(),
  /** For people: "Loading the demo fleet (2 of 6 ships)", "Ready". */
  message: z.string(),
  /** How far the step is, when it counts something (the demo fleet's ships). */
  progress: z.object({ done: z.number().int().min(0), total: z.number().int().min(0) }).nullable(),
  /** When the process started (ISO 8601). */
  startedAt: z.string(),
});
export type Health = z.infer<typeof healthSchema>;
