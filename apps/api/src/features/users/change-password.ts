import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import { z } from 'zod';
import { newPasswordSchema } from '@portal/contracts/forms';
import { badRequest, forbidden } from '../../errors';
import { auditedChange, auditEvent } from '../audit/audit';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { passwordHashOf, setPassword } from './queries';

export const CURRENT_PASSWORD_REQUIRED = 'Your current password is required';
export const CURRENT_PASSWORD_WRONG = 'The current password is not correct';

export const changePasswordBodySchema = z.object({
  currentPassword: z.string({ error: CURRENT_PASSWORD_REQUIRED }).min(1, CURRENT_PASSWORD_REQUIRED),
  newPassword: newPasswordSchema,
});

/**
 * PATCH /api/users/{id}/change-password: a user changes their own password (the profile page). Limited per
 * signed-in session, so a stolen token cannot be used to guess the current password quickly.
 */
export async function changePasswordRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.patch(
    '/api/users/:id/change-password',
    {
      config: {
        rateLimit: {
          max: 10,
          timeWindow: '1 minute',
          keyGenerator: (req) => `${req.ip} ${req.headers.authorization ?? ''}`,
        },
      },
      schema: {
        tags: ['users'],
        params: z.object({ id: z.string() }),
        body: changePasswordBodySchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      // Only one's own: for anyone else's id the answer is the same whether that user exists or not.
      if (request.params.id !== caller.userId) throw forbidden('You can only change your own password');
      const { currentPassword, newPassword } = request.body;
      const user = await passwordHashOf(db, caller.userId);
      if (!(await verifyPassword(user.password_hash, currentPassword))) {
        await auditEvent(db, caller, { action: 'password.change-failed', subject: caller.username });
        throw badRequest(CURRENT_PASSWORD_WRONG, { currentPassword: CURRENT_PASSWORD_WRONG });
      }
      const passwordHash = await hashPassword(newPassword);
      await auditedChange(db, caller, (trx) => setPassword(trx, caller.userId, passwordHash), {
        action: 'password.change',
        subject: caller.username,
      });
      return reply.code(204).send(null);
    },
  );
}
