import { z } from 'zod';
import { DEFAULT_ROLE, ROLE_NAMES, type Role } from '../rules/constants';
import { fieldErrors, type FieldErrors } from './errors';
import { checkPasswordConfirmation, generatePassword, newPasswordSchema } from './password';
import { identifierText } from './text';

export const USER_MESSAGES = {
  usernameRequired: 'Username is required',
  // Ours: the role comes from a radio group, so this only guards the server.
  roleInvalid: 'Choose one of the roles',
} as const;

/** Ours: the spec gives no limit. */
export const USERNAME_MAX_LENGTH = 100;

export type UserFormMode = 'create' | 'update';

export interface UserFormValues {
  username: string;
  role: Role;
  /** The "set new password" switch; always on when adding. */
  setNewPassword: boolean;
  password: string;
  confirmPassword: string;
}

/**
 * The user dialog. The password is checked with the password policy when it will be sent:
 * on create when one is entered (an empty one is generated), on update when "set new password" is on.
 */
export function userFormSchema(mode: UserFormMode) {
  return z
    .object({
      username: identifierText(USER_MESSAGES.usernameRequired, USERNAME_MAX_LENGTH),
      role: z.enum(ROLE_NAMES, { error: USER_MESSAGES.roleInvalid }).default(DEFAULT_ROLE),
      setNewPassword: z.boolean().default(mode === 'create'),
      password: z
        .string()
        .nullish()
        .transform((v) => v ?? ''),
      confirmPassword: z
        .string()
        .nullish()
        .transform((v) => v ?? ''),
    })
    .superRefine((v, ctx) => {
      if (!passwordIsSent(mode, v)) return;
      const result = newPasswordSchema.safeParse(v.password);
      // A failed parse has at least one issue; the first one is shown.
      if (!result.success)
        ctx.addIssue({ code: 'custom', message: result.error.issues[0]!.message, path: ['password'] });
      checkPasswordConfirmation(v, ctx);
    });
}

function passwordIsSent(mode: UserFormMode, v: { setNewPassword: boolean; password: string }): boolean {
  return mode === 'create' ? v.password !== '' : v.setNewPassword;
}

export const validateUserForm = (values: unknown, mode: UserFormMode): FieldErrors<keyof UserFormValues> =>
  fieldErrors(userFormSchema(mode), values);

/** The body of POST organizations/{orgId}/users or PUT users/{id}; one role per user, sent as a list. */
export interface UserRequestBody {
  username: string;
  roles: Role[];
  password?: string;
}

/** Build the request from validated values: on create an empty password is replaced by a generated one. */
export function userRequestBody(values: UserFormValues, mode: UserFormMode): UserRequestBody {
  const body: UserRequestBody = { username: values.username.trim(), roles: [values.role] };
  if (mode === 'create') body.password = values.password || generatePassword();
  else if (values.setNewPassword && values.password) body.password = values.password;
  return body;
}
