import { z } from 'zod';
import { isUuid } from './policy';

/** The key of a param schema's issue that carries the route's not-found text (read by the app's error handler). */
const NOT_FOUND_TEXT = 'notFoundText';

/**
 * An id of the path (or of a body or query) checked by the route's schema: anything but a uuid is answered as an
 * unknown id is, 404 with the route's text ('Ship not found'), never a 400 that would tell the format from the
 * object (docs/decisions/0004-permissions.md). The app's error handler (app.ts) maps the issue to that answer,
 * after the authentication and text checks that an unknown id meets first.
 */
export const uuidParam = (notFoundText: string) =>
  z.string().refine(isUuid, { message: notFoundText, params: { [NOT_FOUND_TEXT]: notFoundText } });

/**
 * The not-found text of a failed `uuidParam`, when the issue is one: a zod issue (its `params`), or the same issue as
 * fastify-type-provider-zod hands it to the error handler (the zod issue's fields under `params`).
 */
export function notFoundTextOf(issue: object): string | undefined {
  const params = (issue as { params?: Record<string, unknown> & { params?: Record<string, unknown> } })
    .params;
  const text = params?.params?.[NOT_FOUND_TEXT] ?? params?.[NOT_FOUND_TEXT];
  return typeof text === 'string' ? text : undefined;
}
