import { randomBytes } from 'node:crypto'
import { CAPTCHA_FRAME, type Locale, matchLocale, negotiateLocale } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import { CHALLENGE_VERIFY_PATH, findLiveChallenge } from './challenge.js'
import { CHALLENGE_SCRIPT } from './challenge-script.js'
import { CHALLENGE_TEXTS, type ChallengeTexts } from './challenge-texts.js'

export interface ChallengePageInput {
  challenge: string
  /** Passed through to the verify call, which decides whether it may be used. */
  redirectUri: string
  state: string
  /** `?locale=`; wins over `acceptLanguage` when it names one of the six locales. */
  locale?: string | undefined
  acceptLanguage?: string | undefined
}

export interface ChallengePage {
  html: string
  /** Security headers for this response (the CSP carries this response's script/style nonce). */
  headers: Record<string, string>
  locale: Locale
}

export function pageLocale(locale: string | undefined, acceptLanguage: string | undefined): Locale {
  return matchLocale(locale) ?? negotiateLocale(acceptLanguage)
}

// Every attribute on the page is double-quoted, so an apostrophe ("Verify I'm human") stays as is.
function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** JSON that is safe inside a <script> element: nothing in it can close the element or start a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/**
 * Framing is the point of this page (the web app shows it in a 320x430 frame), so there is no
 * X-Frame-Options; frame-ancestors limits framing to this service and the web app's origin,
 * which keeps other sites from overlaying it for clickjacking. Scripts and styles run only with
 * this response's nonce, and the page may only talk back to its own origin.
 */
function securityHeaders(publicOrigin: string, nonce: string, locale: Locale): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    `connect-src 'self' ${publicOrigin}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors 'self' ${publicOrigin}`,
  ].join('; ')
  return {
    'content-security-policy': csp,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'content-language': locale,
  }
}

const STYLE = `
:root {
  color-scheme: light dark;
  --bg: #eef2f8; --card: #ffffff; --text: #172033; --muted: #566178; --line: #dde3ee;
  --accent: #1d4ed8; --accent-text: #ffffff; --accent-hover: #1e40af; --focus: #1d4ed8;
  --ok: #15803d; --err: #b42318; --track: #e4e9f2;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --card: #161c27; --text: #e7ecf4; --muted: #a3adc0; --line: #283041;
    --accent: #8ab4ff; --accent-text: #0b1220; --accent-hover: #a9c7ff; --focus: #8ab4ff;
    --ok: #5fd38d; --err: #ff8a80; --track: #263043;
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; }
body {
  min-height: 100vh; display: flex; align-items: center; justify-content: center;
  background: var(--bg); color: var(--text);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "PingFang SC", "Microsoft YaHei", "Malgun Gothic", sans-serif;
  -webkit-text-size-adjust: 100%;
}
.card {
  width: 100%; min-height: 100vh;
  display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 12px;
  padding: 24px; background: var(--card); text-align: center;
}
/* In the 320x430 frame, and on phones where the frame is full-size, the page fills the viewport;
   its content keeps the frame's width so lines stay readable. */
.card > * { max-width: ${CAPTCHA_FRAME.widthPx - 48}px; }
/* A window clearly bigger than the frame (a popup, a desktop tab) gets a card of the frame's size. */
@media (min-width: ${CAPTCHA_FRAME.widthPx * 1.5}px) and (min-height: ${CAPTCHA_FRAME.heightPx + 80}px) {
  .card {
    max-width: ${CAPTCHA_FRAME.widthPx}px; min-height: ${CAPTCHA_FRAME.heightPx}px;
    border: 1px solid var(--line); border-radius: 16px; box-shadow: 0 10px 30px rgba(15, 23, 42, .12);
  }
}
.badge {
  width: 56px; height: 56px; border-radius: 50%; display: grid; place-items: center;
  background: rgba(29, 78, 216, .12); background: color-mix(in srgb, var(--accent) 14%, transparent); color: var(--accent);
}
.badge svg { width: 30px; height: 30px; }
h1 { margin: 0; font-size: 20px; line-height: 1.3; font-weight: 650; }
p { margin: 0; }
.intro { color: var(--muted); font-size: 14px; }
button {
  width: 100%; min-height: 46px; padding: 10px 16px; border: 0; border-radius: 10px;
  background: var(--accent); color: var(--accent-text); font: inherit; font-weight: 600; cursor: pointer;
  transition: background-color .15s ease;
}
button:hover:not(:disabled) { background: var(--accent-hover); }
button:focus-visible { outline: 3px solid var(--focus); outline-offset: 3px; }
button:disabled { cursor: progress; opacity: .75; }
button[hidden] { display: none; }
.meter { width: 100%; height: 6px; border-radius: 3px; background: var(--track); overflow: hidden; }
.meter div { width: 0; height: 100%; background: var(--accent); transition: width .2s ease; }
.status { min-height: 1.5em; font-size: 14px; color: var(--muted); }
.status.ok { color: var(--ok); font-weight: 600; }
.status.err { color: var(--err); }
.notice { padding: 10px 12px; border-radius: 10px; border: 1px solid var(--line); font-size: 14px; }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`

const SHIELD_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" focusable="false">' +
  '<path d="M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6l7-3z"/><path d="M9 12l2 2 4-4"/></svg>'

/**
 * The proof-of-work page (`GET /captcha/challenge`). Renders in any state: a challenge that is
 * expired or tampered with gets the same page saying so, since a JSON error inside the web
 * app's frame would help nobody. Does not mutate.
 */
export function renderChallengePage(deps: Pick<IdentityDeps, 'config' | 'clock' | 'hmacKey'>, input: ChallengePageInput): ChallengePage {
  const locale = pageLocale(input.locale, input.acceptLanguage)
  const texts: ChallengeTexts = CHALLENGE_TEXTS[locale]
  const publicUrl = new URL(deps.config.publicUrl)
  const claims = findLiveChallenge(deps, input.challenge)
  const nonce = randomBytes(16).toString('base64')
  const config = {
    challenge: input.challenge,
    bits: claims?.bits ?? 0,
    valid: claims !== null,
    redirectUri: input.redirectUri,
    state: input.state,
    // Relative to the page's origin, under the same path prefix as the page itself.
    verifyUrl: `${publicUrl.pathname.replace(/\/+$/, '')}${CHALLENGE_VERIFY_PATH}`,
    targetOrigin: publicUrl.origin,
    texts: { working: texts.working, verified: texts.verified, expired: texts.expired, failed: texts.failed },
  }
  const html = `<!doctype html>
<html lang="${escapeHtml(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(texts.title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main class="card" aria-labelledby="heading">
<div class="badge" aria-hidden="true">${SHIELD_ICON}</div>
<h1 id="heading">${escapeHtml(texts.heading)}</h1>
<p class="intro">${escapeHtml(texts.intro)}</p>
<noscript><p class="notice">${escapeHtml(texts.noscript)}</p></noscript>
<button id="verify" type="button" hidden>${escapeHtml(texts.button)}</button>
<div class="meter" aria-hidden="true"><div id="bar"></div></div>
<p id="status" class="status" role="status" aria-live="polite" aria-atomic="true"></p>
</main>
<script type="application/json" id="captcha-config">${scriptJson(config)}</script>
<script nonce="${nonce}">${CHALLENGE_SCRIPT}</script>
</body>
</html>
`
  return { html, headers: securityHeaders(publicUrl.origin, nonce, locale), locale }
}
