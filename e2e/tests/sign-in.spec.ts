import { expect, test } from '@playwright/test';
import { acceptCookiesIfAsked, fillSignIn, signInAs, accessToken } from '../support';

const roles = [
  { username: 'admin', organization: 'Scrubber Service Provider', role: 'SystemAdmin' },
  { username: 'north.admin', organization: 'Nordic Bulk Carriers', role: 'UserAdmin' },
  { username: 'south.maria', organization: 'Southern Cross Tankers', role: 'User' },
];

for (const { username, organization, role } of roles) {
  test(`${role} signs in through the OpenID flow and sees name and organization`, async ({ page }) => {
    // The profile page shows who is signed in.
    await signInAs(page, username, '/profile');
    await expect(page.getByTestId('signed-in-user')).toHaveText(username);
    await expect(page.getByTestId('signed-in-organization')).toHaveText(organization);
    await expect(page.getByTestId('signed-in-role')).toHaveText(role);
  });
}

test('a wrong password shows the "User not found" message', async ({ page }) => {
  await page.goto('/');
  await acceptCookiesIfAsked(page);
  await fillSignIn(page, 'north.admin', 'not-the-password1');
  await expect(page.getByRole('alert')).toHaveText(/^User not found/);
});

test('a protected deep link returns to that link after sign-in', async ({ page }) => {
  await signInAs(page, 'admin', '/profile?tab=password');
  await expect(page).toHaveURL(/\/profile\?tab=password$/);
});

test('sign-out ends the session: the old access token is refused', async ({ page }) => {
  await signInAs(page, 'north.anna', '/profile');
  await expect(page.getByTestId('signed-in-user')).toHaveText('north.anna');
  const token = await accessToken(page);
  expect(
    (await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })).status(),
  ).toBe(200);
  await page.goto('/logoff');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(
    (await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })).status(),
  ).toBe(401);
});
