import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Health, StartupStep } from '@portal/contracts/health';

/**
 * The first moments of a server process (main.ts): the port is open at once and answers a "starting" page and
 * GET /api/health with what the start is doing, until the portal is ready; then every request goes to the app.
 * Everything here but the gate is a pure function of the start's status.
 */
export interface StartupStatus {
  state: Health['state'];
  step: StartupStep | null;
  progress: { done: number; total: number } | null;
  /** Whether the start loads the demo fleet (known once the database is open). */
  demo: boolean;
  startedAt: number;
}

/** The start's status as main.ts moves it on; read by the gate and GET /api/health. */
export class Startup {
  private current: StartupStatus;

  constructor(startedAt = Date.now()) {
    this.current = { state: 'starting', step: 'loading', progress: null, demo: false, startedAt };
  }

  get status(): Readonly<StartupStatus> {
    return this.current;
  }

  step(step: StartupStep, progress: StartupStatus['progress'] = null): void {
    if (this.current.state !== 'starting') return;
    const demo = this.current.demo || step === 'demo-data' || step === 'demo-calculation';
    this.current = { ...this.current, step, progress, demo };
  }

  ready(): void {
    if (this.current.state === 'starting')
      this.current = { ...this.current, state: 'ready', step: null, progress: null };
  }

  stopping(): void {
    this.current = { ...this.current, state: 'stopping', step: null, progress: null };
  }

  health(): Health {
    return healthOf(this.current);
  }
}

const STEP_LABELS: Record<StartupStep, string> = {
  loading: 'Loading the server',
  database: 'Opening the database',
  'demo-data': "Importing the demo ships' logger files",
  'demo-calculation': "Calculating the demo ships' KPIs and compliance events",
};

/** The one line that says what the start is doing: the starting page's status, the health answer's message. */
export function startupMessage(status: Pick<StartupStatus, 'state' | 'step' | 'progress'>): string {
  if (status.state === 'ready') return 'Ready';
  if (status.state === 'stopping') return 'Stopping';
  if (status.step === 'demo-data' || status.step === 'demo-calculation') {
    const { done, total } = status.progress ?? { done: 0, total: 0 };
    return total ? `Loading the demo fleet (${done} of ${total} ships)` : 'Loading the demo fleet';
  }
  return STEP_LABELS[status.step ?? 'loading'];
}

export function healthOf(status: StartupStatus): Health {
  return {
    state: status.state,
    step: status.state === 'starting' ? status.step : null,
    message: startupMessage(status),
    progress: status.state === 'starting' ? status.progress : null,
    startedAt: new Date(status.startedAt).toISOString(),
  };
}

/** 200 when ready; 503 while starting or stopping (a load balancer sends no users). */
export const healthStatusCode = (health: Pick<Health, 'state'>): 200 | 503 =>
  health.state === 'ready' ? 200 : 503;

/**
 * What a request gets before the app serves it: GET /api/health its answer; a page a browser may open (a GET or
 * HEAD outside /api/) the starting page, which follows the start and opens the portal when ready; anything else
 * (API calls, forms) a 503 in the API's error format.
 */
export function startingAnswer(
  method: string | undefined,
  url: string | undefined,
): 'health' | 'page' | 'unavailable' {
  const path = (url ?? '/').split('?')[0]!;
  if (path === '/api/health') return 'health';
  if ((method === 'GET' || method === 'HEAD') && !path.startsWith('/api/')) return 'page';
  return 'unavailable';
}

/** "35 s", "2 min 05 s". */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** The steps the page lists, each done, under way (with its count) or still to come. */
export function startupSteps(
  status: StartupStatus,
): { step: StartupStep; label: string; state: 'done' | 'current' | 'waiting'; detail: string }[] {
  if (status.state === 'stopping') return [];
  const steps: StartupStep[] = [
    'loading',
    'database',
    ...(status.demo ? (['demo-data', 'demo-calculation'] as const) : []),
  ];
  const at = status.state === 'starting' && status.step ? steps.indexOf(status.step) : steps.length;
  return steps.map((step, i) => {
    const state = i < at ? 'done' : i === at ? 'current' : 'waiting';
    const count =
      state === 'current' && status.progress
        ? `${status.progress.done} of ${status.progress.total} ships`
        : '';
    return {
      step,
      label: STEP_LABELS[step],
      state,
      detail: state === 'done' ? 'done' : state === 'current' ? count || 'under way' : 'to come',
    };
  });
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The header of the starting page's own requests for itself: answered 200 (no error in the browser's console). */
export const FOLLOW_HEADER = 'x-portal-starting';

/**
 * Every 2 s the page asks for itself again: while the answer is still this page (data-starting), it copies the texts
 * and the attributes of the elements that have an id, in place (the status line is a polite live region, so a screen
 * reader hears each new step once, and nothing is read again); when the portal answers instead, it reloads.
 */
const PAGE_SCRIPT = `(function () {
  var copied = ['class', 'value', 'max', 'aria-current', 'hidden'];
  function follow() {
    fetch(location.href, { headers: { accept: 'text/html', '${FOLLOW_HEADER}': 'follow' }, cache: 'no-store' })
      .then(function (response) { return response.text(); })
      .then(function (text) {
        var next = new DOMParser().parseFromString(text, 'text/html');
        if (!next.documentElement.hasAttribute('data-starting')) return location.reload();
        next.querySelectorAll('[id]').forEach(function (element) {
          var here = document.getElementById(element.id);
          if (!here) return;
          if (!element.children.length && here.textContent !== element.textContent)
            here.textContent = element.textContent;
          copied.forEach(function (name) {
            var value = element.getAttribute(name);
            if (value === null) here.removeAttribute(name);
            else if (here.getAttribute(name) !== value) here.setAttribute(name, value);
          });
        });
        setTimeout(follow, 2000);
      })
      .catch(function () { setTimeout(follow, 2000); });
  }
  setTimeout(follow, 2000);
})();`;

const PAGE_STYLE = `
:root { color-scheme: light dark; --accent: #0b4f8a; --muted: #555; --card: #fff; --page: #f4f6f8; --text: #1a1a1a; }
@media (prefers-color-scheme: dark) {
  :root { --accent: #7fb4e6; --muted: #b8b8b8; --card: #1e2329; --page: #121417; --text: #f0f0f0; }
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--page); color: var(--text); }
main { width: min(34rem, 100% - 2rem); margin: 1rem; padding: 2rem; background: var(--card); border-radius: 8px;
  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.2); }
.product { margin: 0; color: var(--accent); font-weight: 600; letter-spacing: 0.02em; }
h1 { margin: 0.25rem 0 1rem; font-size: 1.5rem; font-weight: 500; }
#status { margin: 0 0 0.5rem; font-size: 1.125rem; }
progress { width: 100%; height: 0.75rem; accent-color: var(--accent); }
ol { margin: 1.25rem 0; padding: 0; list-style: none; }
li { display: flex; justify-content: space-between; gap: 1rem; padding: 0.375rem 0; border-top: 1px solid rgba(128, 128, 128, 0.25); }
li .detail { color: var(--muted); white-space: nowrap; }
li.current { font-weight: 600; }
li.current .detail { color: var(--accent); }
li.waiting { color: var(--muted); }
.note { margin: 0; color: var(--muted); font-size: 0.875rem; }
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Only the page's own inline style and script, and its requests for itself. */
export const STARTING_PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256(PAGE_SCRIPT)}`,
  `style-src ${sha256(PAGE_STYLE)}`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The starting page: plain HTML that works without its script (it then reloads itself every 5 s). */
export function startingPage(status: StartupStatus, now = Date.now()): string {
  const health = healthOf(status);
  const steps = startupSteps(status);
  const heading = status.state === 'stopping' ? 'The portal is stopping' : 'The portal is starting';
  // The bar moves over every step: the two quick ones first, then each demo ship imported, then calculated.
  const units = steps.map((s) =>
    s.step === 'demo-data' || s.step === 'demo-calculation' ? (status.progress?.total ?? 0) || 1 : 1,
  );
  const max = units.reduce((a, b) => a + b, 0);
  let value = 0;
  steps.forEach((s, i) => {
    if (s.state === 'done') value += units[i]!;
    else if (s.state === 'current' && status.progress && status.progress.total)
      value += Math.min(status.progress.done, status.progress.total) * (units[i]! / status.progress.total);
  });
  const note =
    status.state === 'stopping'
      ? 'Start the portal again to use it.'
      : 'This page follows the start and opens the portal when it is ready.';
  return `<!doctype html>
<html lang="en" data-starting>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)} – Scrubber fleet monitoring portal</title>
<noscript><meta http-equiv="refresh" content="5"></noscript>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
<p class="product">Scrubber fleet monitoring portal</p>
<h1 id="heading">${escapeHtml(heading)}</h1>
<p id="status" role="status">${escapeHtml(health.message)}</p>
<progress id="progress" aria-labelledby="status"${max ? ` max="${max}" value="${Math.round(value * 100) / 100}"` : ''}></progress>
<ol aria-label="Steps of the start">
${steps
  .map(
    (s) =>
      `<li id="step-${s.step}" class="${s.state}"${s.state === 'current' ? ' aria-current="step"' : ''}><span id="step-${s.step}-label">${escapeHtml(s.label)}</span><span class="detail" id="step-${s.step}-detail">${escapeHtml(s.detail)}</span></li>`,
  )
  .join('\n')}
</ol>
<p class="note"><span id="note">${escapeHtml(note)}</span> <span id="elapsed">Started ${elapsedText(now - status.startedAt)} ago.</span></p>
</main>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

type Routing = (req: IncomingMessage, res: ServerResponse) => void;

export interface StartingGate {
  /** The HTTP server's request listener. */
  handle: Routing;
  /** From now on GET /api/health is the app's; every other request too once the start is ready. */
  open(routing: Routing): void;
}

/** The listener of the server main.ts opens at once: the start's answers until the app takes over. */
export function startingGate(startup: Startup): StartingGate {
  let routing: Routing | null = null;
  return {
    open: (next) => {
      routing = next;
    },
    handle: (req, res) => {
      const answer = startingAnswer(req.method, req.url);
      const { state } = startup.status;
      if (routing && state !== 'stopping' && (state === 'ready' || answer === 'health'))
        return routing(req, res);
      const health = startup.health();
      const common = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'retry-after': '2' };
      if (answer === 'health') {
        res.writeHead(healthStatusCode(health), {
          ...common,
          'content-type': 'application/json; charset=utf-8',
        });
        res.end(JSON.stringify(health));
      } else if (answer === 'page') {
        res.writeHead(req.headers[FOLLOW_HEADER] === 'follow' ? 200 : 503, {
          ...common,
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': STARTING_PAGE_CSP,
          'referrer-policy': 'no-referrer',
        });
        res.end(req.method === 'HEAD' ? undefined : startingPage(startup.status));
      } else {
        res.writeHead(503, { ...common, 'content-type': 'application/json; charset=utf-8' });
        res.end(
          JSON.stringify({
            code: 'UNAVAILABLE',
            message:
              health.state === 'stopping'
                ? 'The portal is stopping'
                : `The portal is starting (${health.message}): try again in a moment`,
          }),
        );
      }
    },
  };
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Where the server listens, said plainly, and the address to open: HOST 0.0.0.0 (the default) is every network
 * interface of the machine, which the old banner called "localhost".
 */
export function listenDescription(
  address: Pick<AddressInfo, 'address' | 'port'>,
  publicUrl: string,
): { where: string; open: string } {
  const { port } = address;
  const where =
    address.address === '0.0.0.0'
      ? `all network interfaces (0.0.0.0), port ${port}`
      : address.address === '::'
        ? `all network interfaces (::), port ${port}`
        : LOOPBACK.test(address.address)
          ? `this machine only (${address.address}), port ${port}`
          : `${address.address}, port ${port}`;
  const url = new URL(publicUrl);
  if (url.port === '0') url.port = String(port);
  return { where, open: url.href.replace(/\/$/, '') };
}
