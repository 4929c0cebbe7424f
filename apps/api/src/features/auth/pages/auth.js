/* global document */
// The provider's sign-out page submits itself; the button stays for browsers without script.
document.querySelectorAll('[data-autosubmit]').forEach((button) => button.click());
