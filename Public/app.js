// routemap's web till: a thin client that draws what the server sends and performs its steps.
//
// It decides nothing about navigation and writes no endpoint path but enrollment, launch,
// navigate, resolve and the registry: every control performs an action its screen declares
// (screen.actions), and every answer's `navigation` steps are performed in order. An answer's
// `stack` is kept to send back as `from`; after an answer without one, the page moves its stack
// by the steps, by docs/navigation.md's rules (the one piece of navigation it computes). See
// README.md ("Screen actions") and docs/navigation.md. It serves the point of sale, or with
// `?app=NAME` another app of the server (`?app=trivia`).
'use strict';

(() => {
  // ---------------------------------------------------------------------------------------------
  // What this page can do, as it tells the server (Navigation-Screens, Navigation-Capabilities).

  /** The operations the step performer below carries out, and the presentation styles it shows. */
  const PERFORMS = ['setRoot', 'selectTab', 'embed', 'present', 'dismiss', 'push', 'pop', 'popTo', 'replace', 'refresh',
    'sheet', 'popover', 'fullScreen'];

  const query = new URLSearchParams(location.search);

  /** Where the app's navigation endpoints are: `/v1/apps/NAME` for `?app=NAME`, else the point of sale's `/v1`. */
  const APP = query.get('app');
  const NAVIGATION = APP ? `/v1/apps/${encodeURIComponent(APP)}` : '/v1';

  /** `?screens=a,b` (or `?capabilities=`) declares fewer than the page has, to show how answers degrade. */
  function declared(name, all) {
    if (!query.has(name)) return all;
    const wanted = query.get(name).split(',').map((token) => token.trim());
    return all.filter((token) => wanted.includes(token));
  }

  // ---------------------------------------------------------------------------------------------
  // Small DOM helpers.

  /** An element with attributes (`class`, `data-*`, `aria-*`, …; `false`/`null` ones left out) and children. */
  function el(tag, attributes = {}, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === false || value === null || value === undefined) continue;
      element.setAttribute(name, value === true ? '' : String(value));
    }
    return add(element, ...children);
  }

  /** Appends the children that are not `null`, `undefined` or `false` (optional parts of a screen). */
  function add(element, ...children) {
    element.append(...children.filter((child) => child !== null && child !== undefined && child !== false));
    return element;
  }

  let uniqueNumber = 0;
  const uniqueId = (prefix) => `${prefix}-${++uniqueNumber}`;

  /** Money in minor units as the user's locale writes it in `currency`. */
  function formatMoney(minor, currency) {
    const format = moneyFormat(currency);
    if (!format) return `${minor} ${currency}`;
    return format.format(minor / 10 ** format.resolvedOptions().maximumFractionDigits);
  }

  const moneyFormats = new Map();
  function moneyFormat(currency) {
    if (!moneyFormats.has(currency)) {
      try {
        moneyFormats.set(currency, new Intl.NumberFormat(undefined, { style: 'currency', currency }));
      } catch {
        moneyFormats.set(currency, null);
      }
    }
    return moneyFormats.get(currency);
  }

  /** "20", "20.5", "20.50" in `currency` as minor units; `null` when it is not an amount. No floating point. */
  function parseMoney(text, currency) {
    const digits = moneyFormat(currency)?.resolvedOptions().maximumFractionDigits ?? 2;
    const match = /^(\d{1,9})(?:[.,](\d*))?$/.exec(text.trim());
    if (!match || (match[2] ?? '').length > digits) return null;
    return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || '0');
  }

  /** A version 4 UUID (crypto.randomUUID needs a secure context; a till on the shop's network may not be one). */
  function uuid() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

  // ---------------------------------------------------------------------------------------------
  // Messages: one polite status line, one alert for problems. Both stay until the user does
  // something they concern (`userActs`): an answer to another request never clears them, so a
  // refusal among quick taps stays to be read.

  const statusRegion = document.getElementById('status');
  const alertBox = document.getElementById('alert');

  function announce(text) {
    statusRegion.textContent = text;
  }

  /** The focus key of the control the alert is about, or `null` (a launch, a walk, a link: about nothing in particular). */
  let problemAbout = null;

  /** Shows `text` in the alert, inside the topmost presented layer when there is one (the page behind it is inert). */
  function showProblem(text, about = null) {
    document.getElementById('alert-text').textContent = text;
    problemAbout = about;
    alertBox.hidden = false;
    placeAlert();
  }

  /**
   * The user starts something with `control` (a tap, a submit, back, a tab; `null`: a link,
   * enrolling): the status line empties, and the alert goes when it is about this control (the
   * user tries it again) or about nothing in particular.
   */
  function userActs(control) {
    announce('');
    if (!alertBox.hidden && (problemAbout === null || problemAbout === (control?.dataset.focusKey ?? null))) clearProblem();
  }

  /** Keeps a shown alert in the topmost layer, where it can be read and dismissed (after steps that present or dismiss one too). */
  function placeAlert() {
    if (alertBox.hidden) return;
    const layer = navigation.layers.at(-1)?.dialog ?? document.body;
    if (alertBox.parentElement !== layer) layer.prepend(alertBox);
  }

  function clearProblem() {
    alertBox.hidden = true;
  }

  document.getElementById('alert-close').addEventListener('click', clearProblem);

  // ---------------------------------------------------------------------------------------------
  // The device: its token, kept in localStorage so a reload stays the same till.

  const TOKEN_KEY = 'routemap.token';
  const DEVICE_KEY = 'routemap.device';

  const device = {
    get token() { return localStorage.getItem(TOKEN_KEY); },
    get name() { return localStorage.getItem(DEVICE_KEY) ?? ''; },
    remember(token, name) {
      localStorage.setItem(TOKEN_KEY, token);
      localStorage.setItem(DEVICE_KEY, name);
    },
    forget() {
      localStorage.removeItem(TOKEN_KEY);
      localStorage.removeItem(DEVICE_KEY);
    },
  };

  // ---------------------------------------------------------------------------------------------
  // HTTP. Requests run one at a time, in the order the user asked for them. A screen action's
  // request is resolved when it is tapped, from what the user saw (performAction); a walk's
  // `from`, the stack, when it is sent (a screen action's too, whatever its template names), so
  // it starts from what the answers before it showed.

  class RequestFailed extends Error {}

  /** No answer came (network down, the page's 15 s timeout): the request may or may not have been performed. */
  class NoAnswer extends RequestFailed {}

  /**
   * Sends a request with the device's token and the navigation headers; `{status, json}`.
   * `retries`: how often a request that got no answer is sent again (only one safe to repeat).
   * A request that is safe to repeat (`retries`, or a keyed change: the same key makes the
   * server perform it once) and that the server has not answered yet is asked again, for up to
   * RETRY_WINDOW: one still being performed (409 `idempotency_key_in_flight`, after a timeout
   * here) until its recorded answer comes, and one refused 429 (over the rate limit) or answered
   * 503 (`timed_out`: it may still complete; `overloaded`, `shutting_down`,
   * `database_unavailable`) after its `Retry-After`.
   */
  async function send(method, path, { body, headers = {}, retries = 0 } = {}) {
    const init = {
      method,
      cache: 'no-store',
      headers: {
        Accept: 'application/json, application/problem+json',
        'Navigation-Capabilities': declared('capabilities', PERFORMS).join(','),
        'Navigation-Screens': declared('screens', Object.keys(nativeRenderers)).join(','),
        ...headers,
      },
    };
    if (device.token) init.headers.Authorization = `Bearer ${device.token}`;
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const repeatable = retries > 0 || 'Idempotency-Key' in init.headers;
    const deadline = Date.now() + RETRY_WINDOW;
    let unanswered = 0;
    let asked = 0;
    for (;;) {
      let answer;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 15000);
      try {
        const response = await fetch(path, { ...init, signal: controller.signal });
        const text = await response.text();
        let json = null;
        try { json = text ? JSON.parse(text) : null; } catch { json = null; }
        answer = { status: response.status, json, retryAfter: retryAfter(response.headers.get('Retry-After')) };
      } catch (error) {
        // No answer (network down, timeout): only a request that is safe to repeat is sent again.
        if (unanswered >= retries) throw new NoAnswer(`No answer from the server (${error.message}).`);
        unanswered += 1;
        await sleep(500 * unanswered);
        continue;
      } finally {
        clearTimeout(timer);
      }
      asked += 1;
      const wait = repeatable && notYetAnswered(answer) ? answer.retryAfter ?? Math.min(250 * asked, 2000) : null;
      if (wait === null || Date.now() + wait > deadline) return answer;
      await sleep(Math.min(Math.max(wait, 250), 10000));
    }
  }

  /** How long a request the server has not answered yet is asked again for, in all. */
  const RETRY_WINDOW = 30000;

  /** Whether `answer` says the server has not (or not yet) performed the request: ask again later. */
  function notYetAnswered({ status, json }) {
    if (status === 429) return true; // refused before anything was done: over the rate limit
    if (status === 409) return json?.code === 'idempotency_key_in_flight';
    return status === 503 && ['timed_out', 'overloaded', 'shutting_down', 'database_unavailable'].includes(json?.code);
  }

  /** `Retry-After` (seconds or an HTTP date) in milliseconds, or `null`. */
  function retryAfter(value) {
    if (value === null || value.trim() === '') return null;
    if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
    const date = Date.parse(value);
    return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
  }

  let pending = Promise.resolve();
  let busy = 0;

  /**
   * Runs `task` after every task queued before it; a failure is shown (unless `quiet`: the page's
   * own reads) and does not stop the queue.
   */
  function enqueue(task, { quiet = false } = {}) {
    busy += 1;
    document.body.setAttribute('aria-busy', 'true');
    const run = pending.then(task).catch((error) => { if (!quiet) showProblem(error.message); }).finally(() => {
      busy -= 1;
      if (busy === 0) document.body.removeAttribute('aria-busy');
    });
    pending = run;
    return run;
  }

  /**
   * Performs an answer: its steps, its stack; a problem is shown (a refused token means enrolling
   * again). A `background` answer is one the page asked for itself (reading its screens again).
   */
  function handleAnswer({ status, json }, trigger, { background = false } = {}) {
    if (status === 401) {
      device.forget();
      showEnrollment('This till is no longer enrolled. Enter an enrollment code to set it up again.');
      return;
    }
    if (status >= 400) throw new RequestFailed(problemText({ status, json }));
    if (json === null) return;
    const steps = Array.isArray(json.navigation) ? json.navigation : [];
    if ('stack' in json) {
      // The server's stack even if a step cannot be performed: the next walk starts where it says.
      navigation.stack = json.stack;
    } else if (steps.length > 0) {
      // No stack (the bill endpoints, a game's answers): the steps move the one held. Steps it
      // cannot take mean the page and the server disagree on what is shown: launch again.
      const moved = stackRules.moved(navigation.stack, steps);
      if (moved === null) {
        announce('The screen was out of step with the server; starting again.');
        stackRules.routes = null;
        enqueue(launch);
        return;
      }
      navigation.stack = moved;
    }
    perform(steps, trigger, { background });
    const change = json.payment?.changeMinor;
    if (change > 0) announce(`Change due: ${formatMoney(change, json.bill?.currency ?? 'USD')}`);
  }

  /** A problem answer as one line: its title and detail. */
  function problemText({ status, json }) {
    const detail = json?.detail ? `: ${json.detail}` : '';
    return `${json?.title ?? `Error ${status}`}${detail}`;
  }

  // The endpoints the page knows by path. Everything else comes from screen actions.

  async function enroll(name, code) {
    const answer = await send('POST', '/v1/devices', { body: { name, enrollmentCode: code } });
    if (answer.status !== 201) {
      throw new RequestFailed(answer.json?.detail ?? `Enrollment failed (${answer.status}).`);
    }
    device.remember(answer.json.token, answer.json.name);
  }

  /** Launches, reading the registry first when the page does not hold it (at start, and after steps that did not fit). */
  async function launch({ background = false } = {}) {
    if (!stackRules.routes) await stackRules.load();
    handleAnswer(await send('GET', `${NAVIGATION}/launch`, { retries: 2 }), null, { background });
  }

  /** A walk the page asks for itself (reading its screens again): performed when the server agrees, else left alone. */
  async function walkInBackground(request) {
    const answer = await send('POST', `${NAVIGATION}/navigate`, { body: { from: navigation.stack, ...request }, retries: 2 });
    if (answer.status < 400) handleAnswer(answer, null, { background: true });
  }

  /** Asks the server to walk from the current stack (`{to}`, or `{mode: 'parent'}` for back). */
  async function navigate(request, trigger) {
    handleAnswer(await send('POST', `${NAVIGATION}/navigate`, { body: { from: navigation.stack, ...request }, retries: 2 }), trigger);
  }

  /** Opens a deep link: the server resolves it from the current stack. */
  async function resolve(url) {
    const parameters = new URLSearchParams({ url });
    if (navigation.stack) parameters.set('from', stackParameter(navigation.stack));
    handleAnswer(await send('GET', `${NAVIGATION}/resolve?${parameters}`, { retries: 2 }), null);
  }

  // The menu changes while the till works (README, "The menu, live"): a launch or a walk gives it
  // as it is then, and the page asks for it again (a walk to the menu screen, answered from the
  // server's memory; a menu that did not change is not redrawn): after a refusal naming an item
  // it offered (`unknown_menu_item`, `menu_item_unavailable`), when the window gets the focus or
  // the page is shown again (at most every 5 s), and every 60 s while it is on display, with
  // nothing presented over it and no request on its way.

  const MENU_READ_EVERY = 60000;
  const MENU_READ_AT_MOST_EVERY = 5000;
  let menuReadAt = Date.now();

  /** Asks for the menu screen on display again (`now`: whatever the time and the queue). */
  function refreshMenu({ now = false } = {}) {
    if (!now && (document.hidden || busy > 0 || Date.now() - menuReadAt < MENU_READ_AT_MOST_EVERY)) return;
    if (!shownMenu()) return;
    menuReadAt = Date.now();
    enqueue(async () => {
      const menu = shownMenu();
      if (!menu) return;
      await walkInBackground({ to: menu.route });
    }, { quiet: true });
  }

  /** The menu screen on display, with nothing presented over it (a walk to it would dismiss that), or `undefined`. */
  function shownMenu() {
    if (!device.token || !navigation.stack || navigation.layers.length !== 1) return undefined;
    return navigation.displayed().find((view) => view.screen.type === 'menu');
  }

  setInterval(() => refreshMenu(), MENU_READ_EVERY);
  window.addEventListener('focus', () => refreshMenu());
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshMenu(); });

  /** The stack as `from` in a query: JSON, or the older comma-separated form while every entry is a route id. */
  function stackParameter(stack) {
    return stack.every((entry) => typeof entry === 'string') ? stack.join(',') : JSON.stringify(stack);
  }

  // ---------------------------------------------------------------------------------------------
  // The stack after an answer without one: docs/navigation.md, "Applying steps to a stack" (the
  // rules numbered as there). They need the registry: each route's parent and how it is shown.

  const stackRules = {
    /** Route id → `{parent, kind, slot}` from `GET …/routes`; `null` until read. */
    routes: null,

    async load() {
      const answer = await send('GET', `${NAVIGATION}/routes`, { retries: 2 });
      if (answer.status === 401) return; // launch's own answer says so, and asks to enroll again
      if (answer.status !== 200 || !answer.json?.root) {
        throw new RequestFailed(answer.json?.detail ?? `The registry could not be read (${answer.status}).`);
      }
      const routes = new Map();
      const visit = (node) => {
        routes.set(node.id, { parent: node.parent ?? null, kind: node.presentation?.kind, slot: node.presentation?.slot });
        (node.children ?? []).forEach(visit);
      };
      visit(answer.json.root);
      this.routes = routes;
    },

    kind(entry) { return this.routes.get(entry.route)?.kind; },
    isPushed(entry) { return this.kind(entry) === 'push'; },
    /** Declared `present`, or a tab or embedded route opened with `sub` (a modal then). */
    isPresented(entry) {
      const kind = this.kind(entry);
      return kind === 'present' || ((kind === 'tab' || kind === 'embed') && entry.sub === true);
    },
    /** The root, and every pushed, presented or `sub` entry, starts a screen. */
    startsScreen(entry) { return entry.sub === true || ['root', 'push', 'present'].includes(this.kind(entry)); },
    /** The index where the screen holding `index` starts. */
    screenStart(stack, index) {
      let start = index;
      while (start > 0 && !this.startsScreen(stack[start])) start -= 1;
      return start;
    },
    /** The index of the topmost entry of `route` in the top screen, or -1. */
    listingOnTop(stack, route) {
      if (route === null || route === undefined || stack.length === 0) return -1;
      for (let index = stack.length - 1; index >= this.screenStart(stack, stack.length - 1); index -= 1) {
        if (stack[index].route === route) return index;
      }
      return -1;
    },

    /** The stack `steps` lead to from `stack`, or `null` when a step does not fit it. */
    moved(stack, steps) {
      if (!this.routes || !Array.isArray(stack)) return null;
      let entries = stack.map((entry) => (typeof entry === 'string' ? { route: entry, inputs: {} } : { ...entry }));
      for (const step of steps) {
        entries = this.step(entries, step);
        if (entries === null) return null;
      }
      return entries;
    },

    /** One step (rules 1 to 8), or `null`. */
    step(stack, step) {
      const route = this.routes.get(step.route);
      if (!route) return null;
      const entry = { route: step.route, inputs: step.screen?.inputs ?? {} };
      if (step.sub === true) entry.sub = true;
      const below = (index) => stack.slice(0, index + 1);
      switch (step.op) {
        case 'setRoot': // 1
          return route.kind === 'root' ? [entry] : null;
        case 'selectTab': // 2
        case 'embed': {
          const fits = step.op === 'selectTab' ? route.kind === 'tab' : route.kind === 'embed' && route.slot === step.slot;
          const parent = this.listingOnTop(stack, route.parent);
          return fits && parent >= 0 ? [...below(parent), entry] : null;
        }
        case 'push': // 3
        case 'present': {
          if (entry.sub) return [...stack, entry];
          const parent = this.listingOnTop(stack, route.parent);
          return route.kind === step.op && parent >= 0 ? [...below(parent), entry] : null;
        }
        case 'dismiss': { // 4
          const index = stack.findLastIndex((candidate) => candidate.route === step.route && this.isPresented(candidate));
          return index >= 0 ? stack.slice(0, index) : null;
        }
        case 'pop': { // 5
          const top = this.screenStart(stack, stack.length - 1);
          return stack[top]?.route === step.route && this.isPushed(stack[top]) ? stack.slice(0, top) : null;
        }
        case 'popTo': { // 6
          const index = stack.findLastIndex((candidate) => candidate.route === step.route);
          if (index < 0 || index === stack.length - 1) return null;
          for (let above = index + 1; above < stack.length; above += 1) {
            if (!this.isPushed(stack[this.screenStart(stack, above)])) return null;
          }
          return below(index);
        }
        case 'replace': { // 7
          const listed = this.listingOnTop(stack, step.route);
          if (listed >= 0) return [...stack.slice(0, listed), { ...stack[listed], inputs: entry.inputs }];
          const container = route.kind === 'embed' ? this.listingOnTop(stack, route.parent) : -1;
          return container >= 0 ? [...below(container), entry] : null;
        }
        case 'refresh': // 8
          return stack.at(-1)?.route === step.route ? [...stack.slice(0, -1), { ...stack.at(-1), inputs: entry.inputs }] : null;
        default:
          return null;
      }
    },
  };

  // ---------------------------------------------------------------------------------------------
  // Screen actions: fill an action's templates (README, "Screen actions") and send it.

  const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_.]*)\}/g;
  const WHOLE_PLACEHOLDER = /^\{([A-Za-z_][A-Za-z0-9_.]*)\}$/;

  /** The names of `{value.NAME}` placeholders anywhere in `action`: what the user must enter. */
  function valueNames(action) {
    const names = new Set();
    const visit = (node) => {
      if (typeof node === 'string') {
        for (const [, name] of node.matchAll(PLACEHOLDER)) if (name.startsWith('value.')) names.add(name.slice(6));
      } else if (node && typeof node === 'object') {
        Object.values(node).forEach(visit);
      }
    };
    visit([action.path, action.body, action.headers]);
    return [...names];
  }

  /** The value of placeholder `name` for an action of `view`, or `undefined` when it has none. */
  function placeholderValue(name, context) {
    if (name === 'idempotencyKey') return context.idempotencyKey;
    const dot = name.indexOf('.');
    if (dot < 0) return navigation.input(name);
    const field = name.slice(dot + 1);
    switch (name.slice(0, dot)) {
      case 'item': return context.item?.[field];
      case 'value': return context.values?.[field];
      case 'payload': return context.view.screen.payload?.[field];
      default: return undefined;
    }
  }

  /** A path or header template as text; throws naming a placeholder that has no value. */
  function fillText(template, context, encode) {
    return template.replace(PLACEHOLDER, (whole, name) => {
      const value = placeholderValue(name, context);
      if (value === undefined || value === null) throw new RequestFailed(`Nothing on screen gives ${name}.`);
      return encode ? encodeURIComponent(String(value)) : String(value);
    });
  }

  const LEAVE_OUT = Symbol('leave out');

  /** A body template: a string that is one placeholder becomes the value with its JSON type; no value leaves the member out. */
  function fillBody(template, context) {
    if (typeof template === 'string') {
      const whole = WHOLE_PLACEHOLDER.exec(template);
      if (whole) return placeholderValue(whole[1], context) ?? LEAVE_OUT;
      try { return fillText(template, context, false); } catch { return LEAVE_OUT; }
    }
    if (Array.isArray(template)) {
      return template.map((element) => fillBody(element, context)).filter((element) => element !== LEAVE_OUT);
    }
    if (template && typeof template === 'object') {
      const object = {};
      for (const [key, value] of Object.entries(template)) {
        const filled = fillBody(value, context);
        if (filled !== LEAVE_OUT) object[key] = filled;
      }
      return object;
    }
    return template;
  }

  /**
   * The request a tap on `action` of `view` sends (the row `item` tapped, the `values` entered),
   * resolved now, from what the user sees: method, path, headers and body, and for an action
   * that takes one, its Idempotency-Key: a new one for this intent, or the key of the change
   * that got no answer (`unanswered`) when this is the same request again; for a walk (`walk`),
   * the screen it is sent from (`route`: its `from` is the page's stack when it is sent,
   * `fromHere`). Throws naming a placeholder that nothing on screen fills.
   */
  function resolveRequest(view, action, { item, values } = {}) {
    const fill = (idempotencyKey) => {
      const context = { view, item, values, idempotencyKey };
      const path = fillText(action.path, context, true);
      const headers = {};
      for (const [name, template] of Object.entries(action.headers ?? {})) {
        try { headers[name] = fillText(template, context, false); } catch { /* no value: not sent */ }
      }
      const body = action.body === undefined ? undefined : fillBody(action.body, context);
      return { method: action.method, path, headers, body };
    };
    const keyed = Object.values(action.headers ?? {}).some((template) => String(template).includes('{idempotencyKey}'));
    if (!keyed) {
      // A read, or a walk (the app's navigate endpoint: it changes nothing), is safe to ask again.
      const request = fill(undefined);
      const repeatable = request.method === 'GET' || (request.method === 'POST' && isNavigatePath(request.path));
      return { ...request, keyed, repeatable, walk: isWalk(request), route: view.route, tap: ++taps };
    }
    const signature = JSON.stringify(fill(''));
    const key = unanswered?.signature === signature ? unanswered.key : uuid();
    const request = fill(key);
    return { ...request, keyed, repeatable: true, signature, key, walk: isWalk(request), route: view.route, tap: ++taps };
  }

  /**
   * The last tapped change whose answer never came (no answer, or still 503 or in flight when
   * the page stopped asking): `{signature, key, tap}`. The same request tapped again is sent with
   * the same key, so the server performs it at most once, however the first attempt ended; an
   * answer to it, or to any later tap, forgets it.
   */
  let unanswered = null;
  let taps = 0;

  /**
   * Sends `action` of `view` and performs the answer. The request is resolved at the tap (so a
   * second tap, or one queued behind another, never picks up the next screen's bill or
   * question), but for a walk's `from`: the page's stack when it is sent. The control is busy
   * until its answer has been performed: taps on it then are ignored (a double-click is one
   * tap). An answer that says the screen is out of date (409, 404), and a change whose answer
   * never came, make the page read what it shows again.
   */
  function performAction(view, action, filling = {}, trigger = null) {
    if (trigger && isBusy(trigger)) return Promise.resolve();
    userActs(trigger);
    const about = trigger?.dataset.focusKey ?? null;
    let request;
    try {
      request = resolveRequest(view, action, filling);
    } catch (error) {
      showProblem(error.message, about);
      return Promise.resolve();
    }
    const busyKey = trigger?.dataset.busy;
    setBusy(busyKey, true);
    return enqueue(() => sendAction(request, trigger).catch((error) => showProblem(error.message, about)))
      .finally(() => setBusy(busyKey, false));
  }

  /** Sends a tapped request and performs its answer (`performAction`). */
  async function sendAction(request, trigger) {
    const about = trigger?.dataset.focusKey ?? null;
    const { method, path, headers, repeatable } = request;
    const body = request.walk ? fromHere(request) : request.body;
    let answer;
    try {
      answer = await send(method, path, { body, headers, retries: repeatable ? 2 : 0 });
    } catch (error) {
      if (!(error instanceof NoAnswer)) throw error;
      notAnswered(request, error.message, about);
      return;
    }
    if (notYetAnswered(answer)) {
      notAnswered(request, problemText(answer), about);
      return;
    }
    if (unanswered && (unanswered.signature === request.signature || unanswered.tap < request.tap)) unanswered = null;
    if (answer.status === 409 || answer.status === 404) enqueue(reread, { quiet: true });
    if (answer.status === 422 && MENU_CHANGED.includes(answer.json?.code)) {
      // The menu changed under the screen: the menu on display is read again; a presented screen
      // (the modifier sheet) is read again as a whole, so it offers what the menu has now (or goes,
      // with its item).
      if (presentsRoute(request.route)) enqueue(reread, { quiet: true }); else refreshMenu({ now: true });
    }
    const counted = countedItems();
    handleAnswer(answer, trigger);
    // A bill paid may have sold counted items (README, "Stock counts"): their tiles show what is
    // left, or "Sold out", without waiting for the next read of the menu (queued: once the
    // answer's steps have dismissed the order summary, the menu is on display again).
    const paid = answer.json?.bill;
    if (paid?.status === 'paid' && (paid.lines ?? []).some((line) => counted.has(line.menuItemId))) {
      enqueue(async () => refreshMenu({ now: true }), { quiet: true });
    }
  }

  /** The ids of the counted items (`stock` a number) on the menu screen the page holds. */
  function countedItems() {
    const menu = navigation.displayed().find((view) => view.screen.type === 'menu');
    return new Set((menu?.screen.payload?.items ?? []).filter((item) => typeof item.stock === 'number').map((item) => item.id));
  }

  /** Refusals saying the menu is not what the screen showed: an item retired or sold out, an option or group changed. */
  const MENU_CHANGED = ['unknown_menu_item', 'menu_item_unavailable', 'unknown_modifier', 'modifier_choice_invalid'];

  /** Whether a presented layer (not the root's) shows `route`. */
  function presentsRoute(route) {
    return navigation.layers.slice(1).some((layer) => navigation.shownIn(layer).some((view) => view.route === route));
  }

  /**
   * Whether `path` is this app's navigate endpoint (`…/apps/NAME/navigate`, or `/v1/navigate`, the
   * point of sale's also without a name). Without `?app=` the page does not know its app's name,
   * and its screens' walks name it (`/v1/apps/pos/navigate`): any app's navigate is then its own,
   * since a screen's actions walk only in the app that showed it.
   */
  function isNavigatePath(path) {
    if (path === `${NAVIGATION}/navigate` || path === '/v1/navigate') return true;
    return !APP && /^\/v1\/apps\/[^/]+\/navigate$/.test(path);
  }

  /** Whether a resolved request is a walk of this app: a `POST` to its navigate endpoint with an object body. */
  function isWalk({ method, path, body }) {
    return method === 'POST' && isNavigatePath(path) && body !== null && typeof body === 'object' && !Array.isArray(body);
  }

  /**
   * The body of a walk `request` with the page's stack as `from`, as it is when the walk is sent
   * (after the answers queued before it), in place of the stack its template names: that stack
   * is the one the action's screen was shown on, and the user may have gone elsewhere since
   * (docs/navigation.md: a client sends its own stack). When the action's screen is on display
   * but not listed on the stack (the options beside a landing the user came back to), the focus
   * moves to it first, as a tap in it does, so the walk starts from what that screen shows.
   */
  function fromHere(request) {
    if (!navigation.stack) return request.body;
    const gestures = focusGestures(request.route);
    const focused = gestures?.length ? stackRules.moved(navigation.stack, gestures) : null;
    if (focused) navigation.stack = focused;
    return { ...request.body, from: navigation.stack };
  }

  /**
   * The gestures that give `route` the focus when the top layer shows it but the stack does not
   * list it (a tab or embedded route beside the focus, or inside one that is not listed), as a
   * user's tap in it would: from its outermost unlisted container down to it, a `selectTab` or
   * `replace` of the screen already shown (nothing new is shown; its entry takes that screen's
   * inputs). Empty when the top screen lists `route`; `null` when it is not on display.
   */
  function focusGestures(route) {
    const stack = navigation.stack;
    if (stackRules.listingOnTop(stack, route) >= 0) return [];
    const shown = (id) => navigation.displayedInTopLayer().find((view) => view.route === id);
    const gestures = [];
    const seen = new Set();
    for (let current = route; shown(current) && !seen.has(current);) { // a parent loop (never served) ends here
      seen.add(current);
      const declared = stackRules.routes?.get(current);
      const op = { tab: 'selectTab', embed: 'replace' }[declared?.kind];
      if (!op || !declared.parent) return null;
      gestures.unshift({ op, route: current, screen: shown(current).screen });
      if (stackRules.listingOnTop(stack, declared.parent) >= 0) return gestures;
      current = declared.parent;
    }
    return null;
  }

  /** A change that got no answer: kept to be sent again with its key, said, and the screens read again. */
  function notAnswered(request, text, about) {
    if (request.keyed) {
      unanswered = { signature: request.signature, key: request.key, tap: request.tap };
      showProblem(`${text} Tap it again to send it again: it will not be applied twice.`, about);
    } else {
      showProblem(text, about);
    }
    enqueue(reread, { quiet: true });
  }

  /**
   * Reads again what the page shows, after an answer saying it is out of date or a change whose
   * answer never came, so the page is never left on a screen whose controls can only fail:
   * launches again, then walks back to the screen that was on top of the stack (a bill by deep
   * link, a game) when the launch does not show it (the server refuses that walk when the
   * screen's guard no longer holds, such as a summary of a bill paid meanwhile: the launch's
   * screens stay).
   */
  async function reread() {
    const top = navigation.stack?.at(-1);
    await launch({ background: true });
    if (!top || typeof top !== 'object' || !navigation.stack) return;
    const inputs = top.inputs ?? {};
    const same = (view) => view.route === top.route && JSON.stringify(view.screen.inputs ?? {}) === JSON.stringify(inputs);
    if (navigation.displayed().some(same)) return;
    await walkInBackground({ to: top.route, input: inputs });
  }

  // Busy controls. A control is busy from its tap until its answer has been performed, and so are
  // the controls that act on the same thing: a row's controls (a bill line's −, + and Remove, by
  // the row's `item`), and every control of a screen when the action reads the screen's payload
  // (`{payload.…}`: the summary's pay, a question's answers), since its answer redraws the screen.

  /** Busy keys → how many requests hold them. */
  const busyKeys = new Map();

  /** Marks `control` as one that `performAction` (or back, or a tab) keeps from being sent twice. */
  function trackBusy(control, key, screen) {
    control.dataset.busy = key;
    if (screen) control.dataset.busyScreen = screen;
    if (isBusy(control)) control.setAttribute('aria-disabled', 'true');
    return control;
  }

  /** The busy key of a control of `view` sending `action` (for the row `item`, titled `title`). */
  function busyKeyOf(view, action, item, title) {
    if (readsPayload(action)) return `screen:${view.route}`;
    return item === undefined ? `${view.route}:${action.name}:${title}` : `${view.route}:row:${JSON.stringify(item)}`;
  }

  /** Whether `action` reads its screen's payload (`{payload.FIELD}` anywhere in it). */
  function readsPayload(action) {
    return JSON.stringify([action.path, action.body, action.headers]).includes('{payload.');
  }

  function isBusy(control) {
    return busyKeys.has(control.dataset.busy) || busyKeys.has(`screen:${control.dataset.busyScreen}`);
  }

  function setBusy(key, busy) {
    if (!key) return;
    const count = (busyKeys.get(key) ?? 0) + (busy ? 1 : -1);
    if (count > 0) busyKeys.set(key, count); else busyKeys.delete(key);
    showBusy();
  }

  /** `aria-disabled` on the busy controls on display (drawn again while busy, they stay so). */
  function showBusy() {
    for (const control of document.querySelectorAll('[data-busy]')) {
      if (isBusy(control)) control.setAttribute('aria-disabled', 'true');
      else control.removeAttribute('aria-disabled');
    }
  }

  /** The screen's action `name`, or `undefined`. */
  const actionNamed = (view, name) => view.screen.actions?.find((action) => action.name === name);

  /** The first action of the screen bound to rows of the payload list `row`. */
  const rowAction = (view, row) => view.screen.actions?.find((action) => action.row === row);

  // ---------------------------------------------------------------------------------------------
  // What is on screen. A *view* is one route's screen; a *host* is a navigation stack of views
  // (the root's, each tab's, each presented layer's); a *layer* is the root or one presentation.

  const rootElement = document.getElementById('root');

  const navigation = {
    /** The stack sent as `from`: the last answer's, moved by the steps of answers without one since. */
    stack: null,
    /** The root layer first, presented layers above it. */
    layers: [],
    shownCount: 0,

    /**
     * The views each layer shows (the top of each of its navigation stacks), topmost layer first;
     * inside a layer, each container before what it shows. Covered layers are included.
     */
    displayed() {
      return [...this.layers].reverse().flatMap((layer) => this.shownIn(layer));
    },

    /** The views of the top layer: the screen on display, which actions' `{name}` inputs come from. */
    displayedInTopLayer() {
      const layer = this.layers.at(-1);
      return layer ? this.shownIn(layer) : [];
    },

    /** The views `layer` shows, each container before what it shows. */
    shownIn(layer) {
      const views = [];
      const visit = (view) => {
        views.push(view);
        if (view.selectedTab) visitHost(view.tabHosts[view.selectedTab]);
        Object.values(view.slotViews).forEach(visit);
      };
      const visitHost = (host) => { if (host?.top) visit(host.top); };
      visitHost(layer.host);
      return views;
    },

    /** Every host on display, topmost layer first; inside a layer, innermost (a tab's) first. */
    hosts() {
      const hosts = [];
      const visitView = (view) => {
        if (view.selectedTab) visitHost(view.tabHosts[view.selectedTab]);
        Object.values(view.slotViews).forEach(visitView);
      };
      const visitHost = (host) => {
        if (host.top) visitView(host.top);
        hosts.push(host);
      };
      for (const layer of [...this.layers].reverse()) visitHost(layer.host);
      return hosts;
    },

    /** Every view kept, on display or not (under a pushed screen, in a tab not selected), topmost layer first. */
    kept() {
      const views = [];
      const visit = (view) => {
        views.push(view);
        Object.values(view.tabHosts).forEach(visitHost);
        Object.values(view.slotViews).forEach(visit);
      };
      const visitHost = (host) => [...host.views].reverse().forEach(visit);
      for (const layer of [...this.layers].reverse()) visitHost(layer.host);
      return views;
    },

    /** The topmost view on display showing `route` (steps name routes; a client looks from the top), else one kept. */
    view(route) {
      const matches = (candidate) => candidate.route === route;
      const view = this.displayed().find(matches) ?? this.kept().find(matches);
      if (!view) throw new RequestFailed(`The server named ${route}, which is not on screen.`);
      return view;
    },

    /** A navigation input (`{billId}`) from the screens on display (the top layer's), the most recently shown first. */
    input(name) {
      const views = this.displayedInTopLayer().sort((a, b) => b.shownAt - a.shownAt);
      return views.find((view) => view.screen.inputs?.[name] !== undefined)?.screen.inputs[name];
    },
  };

  /** A view of `step.route` drawing `step.screen`. */
  function makeView(step) {
    const view = {
      route: step.route,
      screen: step.screen ?? { type: step.route, renderer: 'declarative', title: step.route, payload: {}, actions: [] },
      tabs: step.tabs ?? null,
      element: el('section', { class: 'screen', 'data-route': step.route }),
      headingId: uniqueId('title'),
      slotElements: {},
      slotViews: {},
      tabHosts: {},
      selectedTab: null,
      shownAt: ++navigation.shownCount,
    };
    view.element.setAttribute('aria-labelledby', view.headingId);
    render(view);
    return view;
  }

  /** Draws `view` (again): its renderer, then the embedded routes and selected tab it already shows. */
  function render(view) {
    const focused = view.element.contains(document.activeElement) ? document.activeElement : null;
    const { screen } = view;
    view.element.replaceChildren();
    view.element.dataset.screenType = screen.type;
    view.element.dataset.renderer = screen.renderer;
    view.slotElements = {};
    const native = screen.renderer === 'native' ? nativeRenderers[screen.type] : undefined;
    (native ?? drawDeclarative)(view);
    for (const [slot, child] of Object.entries(view.slotViews)) slotElement(view, slot).append(child.element);
    if (view.selectedTab) view.tabPanel?.append(view.tabHosts[view.selectedTab].element);
    if (focused) refocus(view, [focused.dataset.focusKey, ...(focused.dataset.focusNext ?? '').split(' ')]);
  }

  /**
   * Focus after `view` was drawn again with the focus inside it, never left on <body>: the
   * control with the first of `keys` drawn and enabled in `within` (the same control, else the
   * neighbour it named in `data-focus-next`: the next line's Remove for a removed line), else
   * the screen's `data-focus-fallback` (a trivia question, answered), else its heading.
   */
  function refocus(view, keys, within = view.element) {
    for (const key of keys.filter(Boolean)) {
      const control = within.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
      if (control && !control.disabled) {
        control.focus();
        return;
      }
    }
    (view.element.querySelector('[data-focus-fallback]') ?? view.element.querySelector(`#${CSS.escape(view.headingId)}`))?.focus();
  }

  /** The element of `slot` in `view` (made on demand for containers the page draws generically). */
  function slotElement(view, slot) {
    if (!view.slotElements[slot]) {
      view.slotElements[slot] = el('div', { class: 'slot', 'data-slot': slot });
      view.element.append(view.slotElements[slot]);
    }
    return view.slotElements[slot];
  }

  /** A navigation stack of views: shows its top one, with a back control when there is one below it. */
  function makeHost() {
    const back = trackBusy(el('button', { type: 'button', class: 'back', 'data-focus-key': 'back' }), 'navigate');
    back.addEventListener('click', () => goBack(back));
    const bar = el('div', { class: 'nav-bar' }, back);
    const body = el('div', { class: 'nav-body' });
    const host = {
      views: [],
      element: el('div', { class: 'nav-host' }, bar, body),
      get top() { return this.views.at(-1); },
      push(view) {
        this.views.push(view);
        this.update();
      },
      pop() {
        this.views.pop();
        this.update();
      },
      update() {
        body.replaceChildren(this.top?.element ?? '');
        const below = this.views.at(-2);
        bar.hidden = !below;
        back.textContent = below ? `‹ ${below.screen.title}` : '';
        back.setAttribute('aria-label', below ? `Back to ${below.screen.title}` : 'Back');
      },
    };
    host.update();
    return host;
  }

  /** The back control and Escape: the server decides what "back" means (navigate `parent`). */
  function goBack(trigger) {
    walk({ mode: 'parent' }, trigger);
  }

  /** A walk the user asked for (back, a tab): one at a time, a second tap while it is asked is ignored. */
  function walk(request, trigger) {
    if (busyKeys.has('navigate')) return;
    userActs(trigger);
    setBusy('navigate', true);
    const about = trigger?.dataset.focusKey ?? null;
    enqueue(() => navigate(request, trigger).catch((error) => showProblem(error.message, about)))
      .finally(() => setBusy('navigate', false));
  }

  // ---------------------------------------------------------------------------------------------
  // The step performer: one function per operation, in docs/navigation.md's terms.

  const operations = {
    setRoot(step) {
      for (const layer of navigation.layers.slice(1)) closeLayer(layer);
      const host = makeHost();
      host.push(makeView(step));
      navigation.layers = [{ host, dialog: null }];
      rootElement.replaceChildren(host.element);
      document.title = step.screen?.title ?? 'routemap';
    },

    selectTab(step) {
      const container = navigation.displayed().find((view) => view.tabs?.some((tab) => tab.route === step.route));
      if (!container) throw new RequestFailed(`No tab bar on screen has the tab ${step.route}.`);
      if (step.screen || !container.tabHosts[step.route]) {
        const host = makeHost();
        host.push(makeView(step));
        container.tabHosts[step.route] = host;
      }
      container.selectedTab = step.route;
      render(container);
    },

    embed(step) {
      // The registered parent in the top layer; a route the registry does not list, the first
      // container there with a slot of that name.
      const views = navigation.displayedInTopLayer();
      const parent = stackRules.routes?.get(step.route)?.parent;
      const container = parent ? views.find((view) => view.route === parent) : views.find((view) => step.slot in view.slotElements);
      if (!container) throw new RequestFailed(`The server embedded ${step.route}, whose container is not on screen.`);
      const view = makeView(step);
      container.slotViews[step.slot] = view;
      slotElement(container, step.slot).replaceChildren(view.element);
    },

    push(step) {
      const view = makeView(step);
      navigation.hosts()[0].push(view);
      focusAfterSteps = () => focusHeading(view);
    },

    present(step, trigger) {
      presentLayer(step, trigger);
    },

    dismiss(step) {
      const index = navigation.layers.findLastIndex((layer, position) => position > 0 && layer.host.views[0]?.route === step.route);
      if (index < 1) throw new RequestFailed(`The server dismissed ${step.route}, which is not presented.`);
      const removed = navigation.layers.splice(index);
      // The user's action took away the screen the alert was shown over: what it said is past.
      if (!performingInBackground && removed.some((layer) => layer.dialog.contains(alertBox))) clearProblem();
      removed.reverse().forEach(closeLayer);
      focusAfterSteps = () => restoreFocus(removed.at(-1));
    },

    pop(step) {
      const host = navigation.hosts().find((candidate) => candidate.views.length > 1 && candidate.top.route === step.route);
      if (!host) throw new RequestFailed(`The server popped ${step.route}, which is not pushed on top.`);
      host.pop();
      focusAfterSteps = () => focusHeading(host.top);
    },

    popTo(step) {
      const host = navigation.hosts().find((candidate) => candidate.views.slice(0, -1).some((view) => view.route === step.route));
      if (!host) throw new RequestFailed(`The server popped to ${step.route}, which is not below a pushed screen.`);
      while (host.top.route !== step.route) host.pop();
      focusAfterSteps = () => focusHeading(host.top);
    },

    replace(step) {
      const view = navigation.view(step.route);
      view.shownAt = ++navigation.shownCount;
      // The same screen again (a menu read again that did not change): nothing to redraw.
      if (JSON.stringify(step.screen) === JSON.stringify(view.screen) && (!step.tabs || JSON.stringify(step.tabs) === JSON.stringify(view.tabs))) return;
      view.screen = step.screen;
      if (step.tabs) view.tabs = step.tabs;
      render(view);
    },

    refresh(step) {
      operations.replace(step);
    },
  };

  /** Where focus goes once the steps are performed (the last step that moves it decides). */
  let focusAfterSteps = null;

  /** Whether the steps being performed answer the page's own request (`handleAnswer`'s `background`). */
  let performingInBackground = false;

  /** Performs `steps` in order; `trigger` is the control that asked (a popover's default anchor). */
  function perform(steps, trigger, { background = false } = {}) {
    focusAfterSteps = null;
    performingInBackground = background;
    const focused = document.activeElement?.closest?.('#root, dialog') ? document.activeElement : null;
    try {
      for (const step of steps) {
        const operation = Object.hasOwn(operations, step.op) ? operations[step.op] : null;
        if (!operation) throw new RequestFailed(`The server sent a step this page cannot perform: ${step.op}.`);
        operation(step, trigger);
      }
    } finally {
      focusAfterSteps?.();
      focusAfterSteps = null;
      // The focused control went with the screens the steps replaced (a launch again): the same
      // control drawn again in the top layer, else its innermost screen.
      const layer = navigation.layers.at(-1);
      if (focused && !focused.isConnected && layer && (document.activeElement ?? document.body) === document.body) {
        refocus(navigation.displayedInTopLayer().at(-1), [focused.dataset.focusKey], layer.host.element);
      }
      placeAlert();
    }
  }

  // Presented layers are <dialog>s shown modally: the page behind is inert, focus moves in, and
  // it returns to the control that opened the layer when the layer is dismissed.

  function presentLayer(step, trigger) {
    const presentation = step.presentation ?? { style: 'modal', inNavigationContainer: false };
    const style = ['modal', 'sheet', 'fullScreen', 'popover'].includes(presentation.style) ? presentation.style : 'modal';
    const host = makeHost();
    const view = makeView(step);
    host.push(view);
    const dialog = el('dialog', { class: `layer layer-${style}`, 'data-presented': step.route }, host.element);
    if (step.animated) dialog.classList.add('animated');
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : trigger;
    // The control tapped names what to come back to, when the answer drew it again (or, a bill's
    // checkout, drew it only on the next bill).
    const layer = { host, dialog, opener, openerKey: trigger?.dataset?.focusKey ?? opener?.dataset?.focusKey ?? null };
    // Escape: sheets and popovers are dismissed (by asking the server); modal screens need their
    // own controls. The browser never closes a layer by itself: only a `dismiss` step does.
    dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      if (style === 'sheet' || style === 'popover') goBack(null);
    });
    dialog.addEventListener('cancel', (event) => event.preventDefault());
    if (style === 'popover') {
      dialog.addEventListener('click', (event) => { if (event.target === dialog) goBack(null); });
    }
    document.body.append(dialog);
    navigation.layers.push(layer);
    dialog.showModal();
    if (style === 'popover') placePopover(dialog, anchorElement(presentation.anchor, trigger));
    labelLayer(layer);
    focusAfterSteps = () => focusHeading(view);
  }

  /** The control a popover points at: the one whose `data-anchor` is the step's anchor, else the one tapped. */
  function anchorElement(anchor, trigger) {
    const named = anchor ? document.querySelector(`[data-anchor="${CSS.escape(anchor)}"]`) : null;
    return named ?? (trigger?.isConnected ? trigger : null);
  }

  function placePopover(dialog, anchor) {
    if (!anchor) return;
    const target = anchor.getBoundingClientRect();
    const box = dialog.getBoundingClientRect();
    const gap = 8;
    const below = target.bottom + gap + box.height <= window.innerHeight;
    const top = below ? target.bottom + gap : Math.max(gap, target.top - gap - box.height);
    const left = Math.min(Math.max(gap, target.left + target.width / 2 - box.width / 2), window.innerWidth - box.width - gap);
    dialog.style.margin = '0';
    dialog.style.top = `${top}px`;
    dialog.style.left = `${left}px`;
    dialog.classList.add(below ? 'points-up' : 'points-down');
  }

  /** Names a layer after the screen on top of its stack. */
  function labelLayer(layer) {
    layer.dialog.setAttribute('aria-labelledby', layer.host.top.headingId);
  }

  function closeLayer(layer) {
    if (layer.dialog.contains(alertBox)) document.body.append(alertBox);
    if (layer.dialog.open) layer.dialog.close();
    layer.dialog.remove();
  }

  /** Back to the control that opened `layer`, or the same control drawn again, or the screen on top. */
  function restoreFocus(layer) {
    let target = layer.opener?.isConnected ? layer.opener : null;
    if (!target && layer.openerKey) target = document.querySelector(`[data-focus-key="${CSS.escape(layer.openerKey)}"]`);
    if (target && !target.closest('dialog:not([open])')) {
      target.focus();
      return;
    }
    const top = navigation.layers.at(-1)?.host.top;
    if (top) focusHeading(top);
  }

  function focusHeading(view) {
    view.element.querySelector(`#${CSS.escape(view.headingId)}`)?.focus();
  }

  // ---------------------------------------------------------------------------------------------
  // Renderers. Native ones for the point-of-sale and trivia screen types; the generic one for
  // everything else (declarative component trees, docs/navigation.md "Declarative screens").

  /** The screen's title as its heading (focusable from script, for moving focus to a screen). */
  function heading(view, { hidden = false, level = 'h2' } = {}) {
    return el(level, { id: view.headingId, tabindex: '-1', class: hidden ? 'visually-hidden' : 'screen-title' }, view.screen.title);
  }

  /**
   * Controls for the screen's actions that its renderer did not place (a new action shows up by
   * itself): a button, or a form with the values it needs (e.g. `void` and its reason).
   */
  function otherActions(view, placed) {
    const controls = (view.screen.actions ?? [])
      .filter((action) => !action.row && !placed.includes(action.name))
      .map((action) => actionControl(view, action, humanize(action.name), action.name === 'void' ? 'destructive' : 'secondary'));
    return controls.length ? el('div', { class: 'actions' }, ...controls) : null;
  }

  /** A button sending `action`; `filling` is the row `item` it acts on and the `values` it supplies, if any. */
  function actionButton(view, action, title, style = 'primary', filling = {}) {
    const button = el('button', {
      type: 'button', class: style, 'data-action': action.name, 'data-anchor': action.name,
      'data-focus-key': focusKey(view, action, filling.item, title),
    }, title);
    trackBusy(button, busyKeyOf(view, action, filling.item, title), view.route);
    button.addEventListener('click', () => performAction(view, action, filling, button));
    return button;
  }

  /** What names a control across redraws: its screen and action, and for one of a row's controls, the row and its title. */
  function focusKey(view, action, item, title) {
    return item === undefined ? `${view.route}:${action.name}` : `${view.route}:${action.name}:${JSON.stringify(item)}:${title}`;
  }

  const humanize = (name) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (letter) => letter.toUpperCase());

  const nativeRenderers = {
    tabBar(view) {
      const panelId = uniqueId('tab-panel');
      view.tabPanel = el('div', { class: 'tab-panel', id: panelId, role: 'tabpanel' });
      const list = el('div', { class: 'tab-list', role: 'tablist', 'aria-label': view.screen.title });
      for (const tab of view.tabs ?? []) {
        const selected = tab.route === view.selectedTab;
        const button = el('button', {
          type: 'button', role: 'tab', class: 'tab', 'aria-selected': String(selected), 'aria-controls': panelId,
          'data-focus-key': `tab:${tab.route}`, 'data-anchor': tab.route,
        }, tab.title);
        trackBusy(button, 'navigate');
        if (selected) view.tabPanel.setAttribute('aria-label', tab.title);
        button.addEventListener('click', () => {
          if (!selected) walk({ to: tab.route }, button);
        });
        list.append(button);
      }
      view.element.append(heading(view, { hidden: true }), view.tabPanel, list);
    },

    splitView(view) {
      view.slotElements.primary = el('div', { class: 'pane pane-primary', 'data-slot': 'primary' });
      view.slotElements.secondary = el('div', { class: 'pane pane-secondary', 'data-slot': 'secondary' });
      view.element.append(heading(view, { hidden: true }), view.slotElements.primary, view.slotElements.secondary);
    },

    menu(view) {
      // A row naming an action sends that one (an item with modifier groups: `chooseModifiers`,
      // which presents its sheet); the others the rows' first action (`addItem`).
      const addItem = rowAction(view, 'items');
      const actionOf = (item) => (item.action ? actionNamed(view, item.action) : addItem);
      const categories = new Map();
      for (const item of view.screen.payload.items ?? []) {
        if (!categories.has(item.category)) categories.set(item.category, []);
        categories.get(item.category).push(item);
      }
      const sections = [...categories].map(([category, items]) => {
        const titleId = uniqueId('category');
        const buttons = items.map((item) => {
          const action = actionOf(item);
          const price = formatMoney(item.priceMinor, item.currency);
          const choices = item.modifierGroups?.length ? ', with options' : '';
          // A counted item (`stock` a number; absent: not counted) says how many are left, and
          // at 0 or below is sold out: shown, not added.
          const counted = typeof item.stock === 'number';
          const soldOut = counted && item.stock <= 0;
          const state = !item.available ? 'unavailable' : soldOut ? 'sold out' : counted ? `${item.stock} left` : '';
          const button = el('button', {
            type: 'button', class: 'menu-item', 'data-item-id': item.id, 'data-focus-key': `item:${item.id}`,
            'data-anchor': `item:${item.id}`, 'data-action': item.action ?? null, disabled: !action || !item.available || soldOut,
            'aria-label': `${item.name}, ${price}${choices}${state ? `, ${state}` : ''}`,
          }, el('span', { class: 'name' }, item.name),
          el('span', { class: 'price' }, !item.available ? 'Unavailable' : soldOut ? 'Sold out' : `${price}${choices ? ' …' : ''}`),
          counted && item.available && !soldOut ? el('span', { class: 'stock' }, `${item.stock} left`) : null);
          if (action) {
            trackBusy(button, busyKeyOf(view, action, item), view.route);
            button.addEventListener('click', () => performAction(view, action, { item }, button));
          }
          return el('li', {}, button);
        });
        return el('section', { class: 'category', 'aria-labelledby': titleId },
          el('h3', { id: titleId }, humanize(category)), el('ul', { class: 'menu-grid' }, ...buttons));
      });
      add(view.element, heading(view), ...sections, otherActions(view, addItem ? [addItem.name] : []));
    },

    bill(view) {
      const bill = view.screen.payload;
      const money = (minor) => formatMoney(minor, bill.currency);
      const setQuantity = actionNamed(view, 'setQuantity');
      const removeLine = actionNamed(view, 'removeLine');
      const setNote = actionNamed(view, 'setNote');
      const checkout = actionNamed(view, 'checkout');
      const setLabel = actionNamed(view, 'setLabel');
      const removeLabel = actionNamed(view, 'removeLabel');
      view.element.dataset.billId = bill.id;
      view.element.dataset.status = bill.status;

      // A line's control names the same control of the next line (the previous one for the
      // last), for the focus to go to when its line is removed; − names its +, for when it is disabled.
      const neighbour = (index) => bill.lines[index + 1] ?? bill.lines[index - 1];
      const lines = (bill.lines ?? []).map((line, index) => {
        // A line's options (and so its unit price) under its name; its controls name them too,
        // since two lines of one item differ only by them.
        const modifiers = line.modifiers ?? [];
        const label = modifiers.length ? `${line.name} (${modifiers.map((modifier) => modifier.name).join(', ')})` : line.name;
        const options = modifiers.length ? el('ul', { class: 'line-modifiers', 'aria-label': `Options of ${label}` },
          ...modifiers.map((modifier) => el('li', { class: 'line-modifier', 'data-option-id': modifier.optionId, 'data-minor': modifier.priceMinor },
            `${modifier.name} +${money(modifier.priceMinor)}`)),
          el('li', { class: 'line-unit', 'data-minor': line.unitPriceMinor }, `${money(line.unitPriceMinor)} each`)) : null;
        const quantity = el('span', { class: 'quantity', 'aria-label': `quantity ${line.quantity}` }, `× ${line.quantity}`);
        const controls = el('span', { class: 'line-controls' });
        if (setQuantity) {
          for (const [verb, change, text] of [['Fewer', -1, '−'], ['More', 1, '+']]) {
            const button = el('button', {
              type: 'button', class: 'stepper', 'aria-label': `${verb} ${label}`, disabled: line.quantity + change < 1,
              'data-focus-key': `line:${line.lineId}:${change}`,
              'data-focus-next': [change < 0 ? `line:${line.lineId}:1` : null, neighbour(index) ? `line:${neighbour(index).lineId}:${change}` : null].filter(Boolean).join(' '),
            }, text);
            trackBusy(button, busyKeyOf(view, setQuantity, line), view.route);
            button.addEventListener('click', () => performAction(view, setQuantity, { item: line, values: { quantity: line.quantity + change } }, button));
            controls.append(button);
          }
        }
        if (removeLine) {
          const button = el('button', {
            type: 'button', class: 'remove', 'aria-label': `Remove ${label}`, 'data-focus-key': `line:${line.lineId}:remove`,
            'data-focus-next': neighbour(index) ? `line:${neighbour(index).lineId}:remove` : null,
          }, 'Remove');
          trackBusy(button, busyKeyOf(view, removeLine, line), view.route);
          button.addEventListener('click', () => performAction(view, removeLine, { item: line }, button));
          controls.append(button);
        }
        // The line's note under it; while the bill is open, "Note" opens a field for it
        // (prefilled; saving it empty removes the note).
        const note = line.note ? el('p', { class: 'line-note', 'aria-label': `Note on ${label}` }, line.note) : null;
        let noteForm = null;
        if (setNote) {
          const field = valueField('note', view, setNote, line.note ?? '');
          const save = el('button', { type: 'submit', class: 'secondary', 'data-focus-key': `line:${line.lineId}:note-save` }, 'Save note');
          trackBusy(save, busyKeyOf(view, setNote, line), view.route);
          noteForm = el('form', { class: 'note-form', 'data-action': setNote.name, novalidate: true, hidden: true }, field.element, save);
          noteForm.addEventListener('submit', (event) => {
            event.preventDefault();
            if (!isBusy(save)) performAction(view, setNote, { item: line, values: { note: field.read() } }, save);
          });
          const toggle = el('button', {
            type: 'button', class: 'note-toggle', 'aria-label': `${line.note ? 'Change note on' : 'Note on'} ${label}`,
            'aria-expanded': 'false', 'data-focus-key': `line:${line.lineId}:note`,
          }, 'Note');
          toggle.addEventListener('click', () => {
            noteForm.hidden = !noteForm.hidden;
            toggle.setAttribute('aria-expanded', String(!noteForm.hidden));
            if (!noteForm.hidden) field.focus();
          });
          controls.append(toggle);
        }
        return el('li', {
          class: options ? 'line has-modifiers' : 'line', 'data-line-id': line.lineId, 'data-menu-item-id': line.menuItemId,
          'data-quantity': line.quantity, 'data-unit-minor': line.unitPriceMinor,
        }, el('span', { class: 'line-name' }, line.name), options, quantity, controls,
          el('span', { class: 'line-total', 'data-minor': line.lineTotalMinor }, money(line.lineTotalMinor)), note, noteForm);
      });

      const statusText = { open: 'Open', checked_out: 'Checked out', paid: 'Paid', voided: 'Voided' }[bill.status] ?? bill.status;
      const totals = el('dl', { class: 'totals' },
        el('dt', {}, 'Subtotal'), el('dd', { 'data-minor': bill.subtotalMinor, class: 'subtotal' }, money(bill.subtotalMinor)),
        ...(bill.discount ? [
          el('dt', {}, `Discount${bill.discount.percentBps ? ` ${bill.discount.percentBps / 100}%` : ''} (${bill.discount.reason})`),
          el('dd', { 'data-minor': bill.discountMinor, class: 'discount' }, `−${money(bill.discountMinor)}`),
        ] : []),
        el('dt', {}, 'Tax'), el('dd', { 'data-minor': bill.taxMinor, class: 'tax' }, money(bill.taxMinor)),
        el('dt', { class: 'total-label' }, 'Total'), el('dd', { 'data-minor': bill.totalMinor, class: 'total' }, money(bill.totalMinor)));
      // The bill's name ("Table 4"), what the cashier tells it by; while it is unsettled, a field
      // to name it (prefilled; saving it empty takes the name off) and "Remove name".
      let labelForm = null;
      if (setLabel) {
        const field = valueField('label', view, setLabel, bill.label ?? '');
        const title = bill.label ? 'Rename bill' : 'Name bill';
        const save = el('button', { type: 'submit', class: 'secondary', 'data-action': setLabel.name, 'data-focus-key': `${view.route}:setLabel` }, title);
        trackBusy(save, busyKeyOf(view, setLabel, undefined, title), view.route);
        labelForm = el('form', { class: 'action-form label-form', 'data-action': setLabel.name, novalidate: true }, field.element, save,
          removeLabel ? actionButton(view, removeLabel, 'Remove name', 'secondary') : null);
        labelForm.addEventListener('submit', (event) => {
          event.preventDefault();
          if (!isBusy(save)) performAction(view, setLabel, { values: { label: field.read() } }, save);
        });
      }
      add(view.element,
        el('div', { class: 'bill-head' }, heading(view), el('span', { class: `badge badge-${bill.status}` }, statusText)),
        bill.label ? el('p', { class: 'bill-label' }, bill.label) : null,
        el('p', { class: 'bill-id' }, bill.id),
        labelForm,
        bill.void ? el('p', { class: 'void-reason' }, `Voided: ${bill.void.reason}`) : null,
        lines.length ? el('ul', { class: 'lines', 'aria-label': 'Lines' }, ...lines) : el('p', { class: 'empty' }, 'No items yet. Tap the menu to add some.'),
        totals,
        checkout ? actionButton(view, checkout, `Check out ${money(bill.totalMinor)}`, 'primary checkout') : null,
        otherActions(view, [checkout?.name, setLabel?.name, removeLabel?.name]));
    },

    /**
     * The modifier sheet: the item, each of its groups with how many of its options it takes
     * (radio buttons when at most one, with "None" when it may be left out; else checkboxes, the
     * rest disabled once the group has its most), and "Add", which sends the options chosen as
     * `{value.modifiers}` and stays disabled, saying what is missing, until every group's count
     * is within its bounds. The server checks again: a refusal is shown like any other. Cancel
     * asks the server for `parent`, as Escape does.
     */
    modifierSheet(view) {
      const sheet = view.screen.payload;
      const money = (minor) => formatMoney(minor, sheet.currency);
      const addItem = actionNamed(view, 'addItem');
      const groups = (sheet.modifierGroups ?? []).map((group) => {
        const single = group.maxChoices === 1;
        const name = uniqueId(`group-${group.id}`);
        const ruleId = uniqueId('rule');
        const choice = (input, ...text) => el('label', { class: 'choice modifier-option' }, input, ...text);
        const inputs = group.options.map((option) => el('input', {
          type: single ? 'radio' : 'checkbox', name, value: option.id, 'data-option-id': option.id,
          'data-focus-key': `option:${group.id}:${option.id}`,
        }));
        const none = single && group.minChoices === 0
          ? el('input', { type: 'radio', name, value: '', checked: true, 'data-option-id': '', 'data-focus-key': `option:${group.id}:` }) : null;
        const fieldset = el('fieldset', {
          class: 'field modifier-group', 'data-group-id': group.id, 'data-min': group.minChoices, 'data-max': group.maxChoices, 'aria-describedby': ruleId,
        },
        el('legend', {}, group.name, ' ', el('span', { class: 'group-rule', id: ruleId }, `(${choiceRule(group)})`)),
        none ? choice(none, el('span', { class: 'option-name' }, 'None')) : null,
        ...group.options.map((option, index) => choice(inputs[index], el('span', { class: 'option-name' }, option.name), ' ',
          el('span', { class: 'option-price', 'data-minor': option.priceMinor }, `+${money(option.priceMinor)}`))));
        const chosen = () => group.options.filter((option, index) => inputs[index].checked);
        return { group, single, inputs, fieldset, chosen };
      });

      const hintId = uniqueId('hint');
      const hint = el('p', { class: 'sheet-hint', id: hintId, 'aria-live': 'polite' });
      const submit = addItem ? el('button', {
        type: 'submit', class: 'primary', 'data-action': addItem.name, 'data-anchor': addItem.name,
        'data-focus-key': focusKey(view, addItem, undefined, 'Add'), 'aria-describedby': hintId,
      }) : null;
      const chosenIds = () => groups.flatMap(({ chosen }) => chosen().map((option) => option.id));
      /** The groups' counts against their bounds: Add's price, whether it may be sent, what is missing. */
      const update = () => {
        for (const { group, single, inputs, chosen } of groups) {
          if (single) continue;
          const full = chosen().length >= group.maxChoices;
          for (const input of inputs) input.disabled = full && !input.checked;
        }
        const wrong = groups.filter(({ group, chosen }) => chosen().length < group.minChoices || chosen().length > group.maxChoices);
        hint.textContent = wrong.map(({ group }) => `${group.name}: ${choiceRule(group)}.`).join(' ');
        if (!submit) return;
        const price = groups.reduce((sum, { chosen }) => sum + chosen().reduce((total, option) => total + option.priceMinor, 0), sheet.priceMinor);
        submit.textContent = `Add ${money(price)}`;
        submit.disabled = wrong.length > 0;
      };

      const cancel = trackBusy(el('button', { type: 'button', class: 'secondary', 'data-focus-key': `${view.route}:cancel` }, 'Cancel'), 'navigate');
      cancel.addEventListener('click', () => goBack(cancel));
      const form = el('form', { class: 'action-form modifier-form', 'data-action': addItem?.name ?? null, novalidate: true },
        ...groups.map(({ fieldset }) => fieldset),
        sheet.available ? hint : el('p', { class: 'empty' }, `${sheet.name} is not available right now.`),
        el('div', { class: 'actions' }, submit, cancel));
      form.addEventListener('change', update);
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        if (!submit || submit.disabled || isBusy(submit)) return;
        performAction(view, addItem, { values: { modifiers: chosenIds() } }, submit);
      });
      if (submit) trackBusy(submit, busyKeyOf(view, addItem, undefined, 'Add'), view.route);
      view.element.dataset.menuItemId = sheet.menuItemId;
      add(view.element, heading(view),
        el('p', { class: 'sheet-item' }, el('span', { class: 'name' }, sheet.name), ' ', el('span', { class: 'price' }, money(sheet.priceMinor))),
        form, otherActions(view, [addItem?.name]));
      update();
    },
  };

  /** How many of its options a modifier group takes, as the sheet says it: "choose 1", "up to 2", "choose 1 to 3". */
  function choiceRule({ minChoices, maxChoices }) {
    if (minChoices === 0) return `up to ${maxChoices}`;
    return minChoices === maxChoices ? `choose ${minChoices}` : `choose ${minChoices} to ${maxChoices}`;
  }

  // The trivia app's screens: a navigation stack whose first screen is the landing, the options
  // embedded in it, the game (a question and its four choices) and the results.
  Object.assign(nativeRenderers, {
    navigationStack(view) {
      view.slotElements.content = el('div', { class: 'stack-content', 'data-slot': 'content' });
      view.element.append(heading(view, { hidden: true }), view.slotElements.content);
    },

    landing(view) {
      view.slotElements.options = el('div', { class: 'landing-options', 'data-slot': 'options' });
      const { blurb } = view.screen.payload;
      add(view.element, heading(view), blurb ? el('p', { class: 'blurb' }, blurb) : null, view.slotElements.options, otherActions(view, []));
    },

    triviaOptions(view) {
      const options = view.screen.payload;
      const placed = ['chooseDifficulty', 'chooseCategory', 'play'];
      const [chooseDifficulty, chooseCategory, play] = placed.map((name) => actionNamed(view, name));
      add(view.element, heading(view, { hidden: true }),
        el('dl', { class: 'trivia-options' },
          el('dt', {}, 'Difficulty'),
          el('dd', { class: 'difficulty', 'data-difficulty': options.difficulty }, options.difficultyName,
            chooseDifficulty ? actionButton(view, chooseDifficulty, 'Change', 'secondary') : null),
          el('dt', {}, 'Category'),
          el('dd', { class: 'category', 'data-category': options.category }, options.categoryName,
            chooseCategory ? actionButton(view, chooseCategory, 'Change', 'secondary') : null)),
        play ? actionButton(view, play, 'Play', 'primary play') : null,
        otherActions(view, placed));
    },

    triviaGame(view) {
      const game = view.screen.payload;
      const answer = rowAction(view, 'choices');
      view.element.dataset.gameId = game.gameId;
      const last = game.lastAnswer;
      const verdictText = last ? (last.correct ? `Right: ${last.correctAnswer}.` : `Wrong: the answer was ${last.correctAnswer}.`) : null;
      const verdict = last ? el('p', { class: `verdict ${last.correct ? 'right' : 'wrong'}`, 'data-correct': String(last.correct) }, verdictText) : null;
      // The verdict goes to the status line (a live region that stays, so it is read out); the
      // focus, when the answer tapped is gone, to the next question (or the score).
      if (verdictText) announce(verdictText);
      if (game.finished) {
        add(view.element, heading(view), verdict,
          el('p', { class: 'score', tabindex: '-1', 'data-focus-fallback': true }, `Game over: ${game.score} of ${game.questionCount}.`), otherActions(view, []));
        return;
      }
      const choices = (game.choices ?? []).map((choice) => el('li', {},
        answer ? actionButton(view, answer, choice.text, 'secondary choice', { item: choice }) : el('span', {}, choice.text)));
      add(view.element, heading(view), verdict,
        el('p', { class: 'progress' }, `Question ${game.number} of ${game.questionCount} · score ${game.score}`),
        el('p', { class: 'question', 'data-question-id': game.questionId, tabindex: '-1', 'data-focus-fallback': true }, game.question),
        el('ul', { class: 'choices', 'aria-label': 'Choices' }, ...choices),
        otherActions(view, answer ? [answer.name] : []));
    },

    triviaResults(view) {
      const results = view.screen.payload;
      announce(`${results.score} of ${results.questionCount} correct.`);
      const rows = (results.answers ?? []).map((answered, index) => el('li', { class: `result ${answered.correct ? 'right' : 'wrong'}`, 'data-correct': String(answered.correct) },
        el('span', { class: 'result-question' }, `${index + 1}. ${answered.question}`),
        el('span', { class: 'result-answer' }, answered.correct ? `✓ ${answered.answer}` : `✗ ${answered.answer ?? '—'} (${answered.correctAnswer})`)));
      add(view.element, heading(view),
        el('p', { class: 'score', 'data-score': results.score }, `${results.score} of ${results.questionCount} correct`),
        el('ol', { class: 'results' }, ...rows),
        otherActions(view, []));
    },
  });

  /** The generic renderer: `payload.components`; unknown component types are skipped. */
  function drawDeclarative(view) {
    const components = view.screen.payload?.components;
    view.element.append(heading(view));
    if (!Array.isArray(components)) {
      view.element.append(el('p', { class: 'empty' }, 'This screen has nothing this page can show.'));
      return;
    }
    view.element.append(...drawComponents(components, view));
  }

  /** The elements of `components`; buttons next to each other share one row. */
  function drawComponents(components, view) {
    const elements = [];
    for (const element of components.map((component) => drawComponent(component, view)).filter(Boolean)) {
      const previous = elements.at(-1);
      if (element.tagName !== 'BUTTON') elements.push(element);
      else if (previous?.classList.contains('component-buttons')) previous.append(element);
      else elements.push(el('div', { class: 'component-buttons' }, element));
    }
    return elements;
  }

  function drawComponent(component, view) {
    switch (component?.type) {
      case 'section': {
        const titleId = component.title ? uniqueId('section') : null;
        return el('section', { class: 'component-section', 'aria-labelledby': titleId },
          component.title ? el('h3', { id: titleId }, component.title) : null,
          ...drawComponents(Array.isArray(component.children) ? component.children : [], view));
      }
      case 'row':
        return el('div', { class: 'component-row' },
          el('span', { class: 'row-text' }, el('span', { class: 'row-title' }, component.title),
            component.detail ? el('span', { class: 'row-detail' }, component.detail) : null),
          component.value ? el('span', { class: 'row-value' }, component.value) : null);
      case 'text': {
        const tag = { headline: 'h3', caption: 'small' }[component.style] ?? 'p';
        return el(tag, { class: `component-text text-${component.style ?? 'body'}` }, component.text);
      }
      case 'image':
        return el('img', { class: 'component-image', src: component.url, alt: component.alt ?? '' });
      case 'divider':
        return el('hr', { class: 'component-divider' });
      case 'button':
        return drawButton(component, view);
      default:
        return null;
    }
  }

  /**
   * A button performing the screen action it names: its `item` fills `{item.FIELD}`, its `values`
   * fill `{value.NAME}`, and the values it does not supply are entered beside it.
   */
  function drawButton(component, view) {
    const action = actionNamed(view, component.action);
    if (!action) return null;
    const style = ['primary', 'secondary', 'destructive'].includes(component.style) ? component.style : 'primary';
    const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
    const item = isObject(component.item) ? component.item : undefined;
    const given = isObject(component.values) ? component.values : {};
    return actionControl(view, action, component.title, style, { item, values: given });
  }

  /**
   * A button sending `action` when the user need enter nothing more, else a form with a field
   * for each `{value.NAME}` that `filling.values` does not supply, sent by its submit button.
   */
  function actionControl(view, action, title, style, { item, values: given = {} } = {}) {
    const names = valueNames(action).filter((name) => !Object.hasOwn(given, name));
    if (names.length === 0) return actionButton(view, action, title, style, { item, values: given });
    const fields = names.map((name) => valueField(name, view, action));
    const submit = el('button', {
      type: 'submit', class: style, 'data-action': action.name, 'data-anchor': action.name,
      'data-focus-key': focusKey(view, action, item, title),
    }, title);
    trackBusy(submit, busyKeyOf(view, action, item, title), view.route);
    const form = el('form', { class: 'action-form', 'data-action': action.name, novalidate: true }, ...fields.map((field) => field.element), submit);
    // Cash tendered is for cash: with card chosen its field is disabled and empty (a card payment
    // with a tender is refused), so it is never sent.
    const method = fields.find((field) => field.name === 'method');
    const tendered = fields.find((field) => field.name === 'tenderedMinor');
    if (method && tendered) {
      const follow = () => tendered.enable(method.read() === 'cash');
      method.element.addEventListener('change', follow);
      follow();
    }
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (isBusy(submit)) return;
      const values = {};
      for (const field of fields) {
        const value = field.read();
        if (value === null) return; // the field says what is wrong
        if (value !== undefined) values[field.name] = value;
      }
      performAction(view, action, { item, values: { ...given, ...values } }, submit);
    });
    return form;
  }

  /**
   * An input for `{value.NAME}` of `action`: choices for `method`, an amount for `…Minor`, a
   * number for `quantity`. `amountMinor` is a discount's amount, or the part a partial payment
   * (split tender: `"partial": true` in the action's body) pays.
   */
  function valueField(name, view, action, initial = '') {
    const id = uniqueId(`value-${name}`);
    const errorId = `${id}-error`;
    const error = el('span', { class: 'field-error', id: errorId, 'aria-live': 'polite' });
    if (name === 'note') {
      // A line's note: sent as typed (the server trims it), and sent empty too, which removes it.
      const input = el('input', { id, name, autocomplete: 'off', maxlength: '140', value: initial, 'aria-describedby': errorId });
      const element = el('div', { class: 'field' }, el('label', { for: id }, 'Note'), input, error);
      return { name, element, read: () => input.value, focus: () => input.focus() };
    }
    if (name === 'label') {
      // A bill's name: sent as typed (the server trims it), and sent empty too, which takes it off.
      const input = el('input', { id, name, autocomplete: 'off', maxlength: '40', value: initial, placeholder: 'Table 4', 'aria-describedby': errorId });
      const element = el('div', { class: 'field' }, el('label', { for: id }, 'Bill name'), input, error);
      return { name, element, read: () => input.value, focus: () => input.focus() };
    }
    if (name === 'method') {
      const options = [['cash', 'Cash'], ['card', 'Card']].map(([value, label], index) => el('label', { class: 'choice' },
        el('input', { type: 'radio', name, value, checked: index === 0 }), ` ${label}`));
      const element = el('fieldset', { class: 'field' }, el('legend', {}, 'Payment method'), ...options);
      return { name, element, read: () => element.querySelector('input:checked')?.value };
    }
    if (name === 'reason') {
      // Required: a void without a reason is refused by the server, so say so before sending.
      const input = el('input', { id, name, autocomplete: 'off', maxlength: '200', 'aria-describedby': errorId, required: true });
      const element = el('div', { class: 'field' }, el('label', { for: id }, 'Reason'), input, error);
      const read = () => {
        const text = input.value.trim();
        error.textContent = '';
        input.removeAttribute('aria-invalid');
        if (text !== '') return text;
        error.textContent = 'Enter a reason.';
        input.setAttribute('aria-invalid', 'true');
        input.focus();
        return null;
      };
      return { name, element, read };
    }
    if (name === 'percentBps') {
      // Entered as a percentage ("10", "12.5"), sent in basis points; empty: an amount instead.
      const input = el('input', { id, name, autocomplete: 'off', inputmode: 'decimal', 'aria-describedby': errorId });
      const element = el('div', { class: 'field' }, el('label', { for: id }, 'Discount % (or an amount)'), input, error);
      const read = () => {
        const text = input.value.trim();
        error.textContent = '';
        input.removeAttribute('aria-invalid');
        if (text === '') return undefined;
        if (/^\d{1,3}(\.\d{1,2})?$/.test(text)) return Math.round(Number(text) * 100);
        error.textContent = 'Enter a percentage such as 10 or 12.5.';
        input.setAttribute('aria-invalid', 'true');
        input.focus();
        return null;
      };
      return { name, element, read };
    }
    const currency = view.screen.payload?.currency ?? 'USD';
    const isAmount = name.endsWith('Minor');
    const amountLabel = action?.body?.partial === true ? 'Amount paid now' : action?.name === 'setDiscount' ? 'Discount amount' : 'Amount';
    const label = { tenderedMinor: 'Cash tendered (optional)', tipMinor: 'Tip (optional)', amountMinor: amountLabel, quantity: 'Quantity' }[name] ?? humanize(isAmount ? name.slice(0, -5) : name);
    const input = el('input', {
      id, name, autocomplete: 'off', 'aria-describedby': errorId,
      inputmode: isAmount ? 'decimal' : name === 'quantity' ? 'numeric' : null,
      placeholder: isAmount ? formatMoney(0, currency).replace(/[^\d.,]/g, '') : null,
    });
    const element = el('div', { class: 'field' }, el('label', { for: id }, label), input, error);
    const read = () => {
      const text = input.value.trim();
      error.textContent = '';
      input.removeAttribute('aria-invalid');
      if (text === '') return undefined;
      const value = isAmount ? parseMoney(text, currency) : name === 'quantity' ? (/^\d+$/.test(text) ? Number(text) : null) : text;
      if (value === null) {
        error.textContent = isAmount ? `Enter an amount such as ${formatMoney(2000, currency)}.` : 'Enter a whole number.';
        input.setAttribute('aria-invalid', 'true');
        input.focus();
      }
      return value;
    };
    /** Enables the field, or disables and empties it (a disabled field is not sent). */
    const enable = (enabled) => {
      input.disabled = !enabled;
      if (enabled) return;
      input.value = '';
      error.textContent = '';
      input.removeAttribute('aria-invalid');
    };
    return { name, element, read, enable };
  }

  // ---------------------------------------------------------------------------------------------
  // Start: enroll if needed, launch, then open the deep link in the address (#routemap://…).

  const enrollSection = document.getElementById('enroll');
  const enrollForm = document.getElementById('enroll-form');

  function showEnrollment(message) {
    rootElement.replaceChildren();
    for (const layer of navigation.layers.slice(1)) closeLayer(layer);
    navigation.layers = [];
    navigation.stack = null;
    enrollSection.hidden = false;
    document.getElementById('device').textContent = '';
    if (message) showProblem(message);
    document.getElementById('enroll-code').focus();
  }

  enrollForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = document.getElementById('enroll-name').value.trim() || 'Web till';
    const code = document.getElementById('enroll-code').value;
    userActs(null);
    enqueue(async () => {
      await enroll(name, code);
      enrollForm.reset();
      await start();
    });
  });

  /** The deep link in the address's fragment (`/#routemap://bills/…`), or `null`. */
  function deepLinkInAddress() {
    const fragment = location.hash.slice(1);
    if (!fragment) return null;
    try { return decodeURIComponent(fragment); } catch { return fragment; }
  }

  /** Opens the address's deep link (once: the fragment is removed, so the same link can be opened again). */
  async function openDeepLinkInAddress() {
    const link = deepLinkInAddress();
    if (!link) return;
    history.replaceState(null, '', location.pathname + location.search);
    await resolve(link);
  }

  async function start() {
    enrollSection.hidden = true;
    clearProblem();
    document.getElementById('device').textContent = device.name;
    await launch();
    if (device.token) await openDeepLinkInAddress();
  }

  window.addEventListener('hashchange', () => {
    if (!device.token || !navigation.stack) return;
    userActs(null);
    enqueue(openDeepLinkInAddress);
  });

  // `?code=` enrolls without typing (e.g. from a QR code); the code then leaves the address bar.
  const codeInAddress = query.get('code');
  if (codeInAddress) {
    query.delete('code');
    const rest = query.toString();
    history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
  }
  if (codeInAddress && !device.token) {
    enqueue(async () => {
      await enroll(query.get('name') ?? 'Web till', codeInAddress);
      await start();
    }).then(() => { if (!device.token) showEnrollment(); });
  } else if (device.token) {
    enqueue(start);
  } else {
    showEnrollment();
  }
})();
