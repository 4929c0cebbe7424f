import { describe, expect, it } from 'vitest';
import { newPasswordSchema } from './password';
import { userFormSchema, userRequestBody, validateUserForm } from './user';

describe('user dialog, adding', () => {
  it('requires a username and defaults the role to User', () => {
    expect(validateUserForm({ username: '' }, 'create')).toEqual({ username: 'Username is required' });
    expect(userFormSchema('create').parse({ username: 'anna' })).toEqual({
      username: 'anna',
      role: 'User',
      setNewPassword: true,
      password: '',
      confirmPassword: '',
    });
  });

  it('accepts only the known roles', () => {
    expect(validateUserForm({ username: 'anna', role: 'Captain' }, 'create')).toEqual({
      role: 'Choose one of the roles',
    });
    expect(validateUserForm({ username: 'anna', role: 'UserAdmin' }, 'create')).toEqual({});
  });

  it('checks an entered password and its confirmation', () => {
    expect(validateUserForm({ username: 'anna', password: 'abc', confirmPassword: '' }, 'create')).toEqual({
      password: 'Must be minimum 8 characters',
      confirmPassword: 'Please confirm by writing your new password again',
    });
    expect(
      validateUserForm({ username: 'anna', password: 'abcdefg1', confirmPassword: 'abcdefg1' }, 'create'),
    ).toEqual({});
  });

  it('generates a password when none is entered', () => {
    const values = userFormSchema('create').parse({ username: ' anna ', role: 'UserAdmin' });
    const body = userRequestBody(values, 'create');
    expect(body.username).toBe('anna');
    expect(body.roles).toEqual(['UserAdmin']);
    expect(newPasswordSchema.safeParse(body.password).success).toBe(true);
  });

  it('sends an entered password as it is', () => {
    const values = userFormSchema('create').parse({
      username: 'anna',
      password: 'abcdefg1',
      confirmPassword: 'abcdefg1',
    });
    expect(userRequestBody(values, 'create').password).toBe('abcdefg1');
  });
});

describe('user dialog, updating', () => {
  it('ignores the password fields unless a new password is set', () => {
    expect(validateUserForm({ username: 'anna', password: 'x' }, 'update')).toEqual({});
    const values = userFormSchema('update').parse({ username: 'anna', password: 'x' });
    expect(userRequestBody(values, 'update')).toEqual({ username: 'anna', roles: ['User'] });
  });

  it('requires a new password when the switch is on', () => {
    expect(validateUserForm({ username: 'anna', setNewPassword: true }, 'update')).toEqual({
      password: 'A new password is required',
      confirmPassword: 'Please confirm by writing your new password again',
    });
    expect(
      validateUserForm(
        { username: 'anna', setNewPassword: true, password: 'abcdefg1', confirmPassword: 'abcdefg2' },
        'update',
      ),
    ).toEqual({ confirmPassword: 'Passwords must match' });
  });

  it('sends the new password when set', () => {
    const values = userFormSchema('update').parse({
      username: 'anna',
      role: 'SystemAdmin',
      setNewPassword: true,
      password: 'abcdefg1',
      confirmPassword: 'abcdefg1',
    });
    expect(userRequestBody(values, 'update')).toEqual({
      username: 'anna',
      roles: ['SystemAdmin'],
      password: 'abcdefg1',
    });
  });
});
