import { z } from 'zod';
import { findForbiddenText } from '@portal/contracts/forms';
import { isUuid } from './policy';

/** The id a malformed one becomes: the nil uuid, which no object has (every id is a random version 4 uuid). */
export const NO_SUCH_ID = '00000000-0000-0000-0000-000000000000';

/**
 * An id of the path, query or body, checked by the route's schema: anything but a uuid becomes `NO_SUCH_ID`, so the
 * handler answers it exactly as it answers an id that does not exist — the same checks in the same order (a role
 * check's 403 first where the route has one), the same status and text ('Ship not found'), never a 400 that would
 * tell the format from the object (docs/decisions/0004-permissions.md, 0070). The handler needs no check of its
 * own. A value the text rule refuses (NUL, a lone surrogate) is left as it is: the text rule answers it with 400.
 */
export const idParam = () =>
  z.string().transform((id) => (isUuid(id) || findForbiddenText(id) ? id : NO_SUCH_ID));

/** `schema` with its id keys checked by `idParam` (the contracts' params schemas name ids as plain strings). */
export function withIds<T extends z.ZodRawShape, K extends keyof T & string>(
  schema: z.ZodObject<T>,
  ...keys: K[]
) {
  const shape = schema.shape;
  return schema.extend(
    Object.fromEntries(
      keys.map((key) => [key, shape[key] instanceof z.ZodOptional ? idParam().optional() : idParam()]),
    ) as {
      [P in K]: T[P] extends z.ZodOptional<z.ZodTypeAny>
        ? z.ZodOptional<ReturnType<typeof idParam>>
        : ReturnType<typeof idParam>;
    },
  );
}
