import { z } from 'zod';

export const maintenanceSchema = z.object({ maintenance: z.boolean() });
export type Maintenance = z.infer<typeof maintenanceSchema>;
