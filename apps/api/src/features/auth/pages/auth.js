/* global document, window */
// The provider's sign-out page submits itself; the button stays for browsers without script.
document.querySelectorAll('[data-autosubmit]').forEach((button) => button.click());

// Opened away from the portal's address (PUBLIC_URL), sign-in cannot finish: say where to open the portal.
document.querySelectorAll('[data-portal-address]').forEach((notice) => {
  let portal;
  try {
    portal = new URL(notice.getAttribute('data-portal-address'));
  } catch {
    return;
  }
  if (portal.origin === window.location.origin) return;
  const link = document.createElement('a');
  link.href = `${portal.origin}/`;
  link.textContent = portal.origin;
  notice.append(
    `This page is open at ${window.location.host}, but sign-in only works at the portal's own address. Open the portal at `,
    link,
    '.',
  );
  notice.hidden = false;
});
