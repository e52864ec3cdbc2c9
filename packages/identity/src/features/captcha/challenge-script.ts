/**
 * The challenge page's browser script, inlined under a CSP nonce (no external resources, so the
 * page works offline from any CDN and leaks nothing to third parties). Plain ES2017 in a string:
 * it is served as written, never passed through the TypeScript or test transforms.
 *
 * It reads its settings from the `captcha-config` JSON block, finds a nonce such that
 * SHA-256(challenge + ':' + nonce) has `bits` leading zero bits, posts it to the verify call, and
 * hands the token on: by navigating to `redirect_to`, else by postMessage to the opener or parent.
 *
 * It hashes with a small SHA-256 in JavaScript from a precomputed midstate (see `attempts`), not
 * with crypto.subtle: that is faster per attempt, and it also works where crypto.subtle does not
 * exist (a self-hosted drive reached over plain HTTP on a LAN address is not a secure context).
 */
export const CHALLENGE_SCRIPT = String.raw`(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('captcha-config').textContent);
  var button = document.getElementById('verify');
  var status = document.getElementById('status');
  var bar = document.getElementById('bar');
  var t = cfg.texts;

  function say(text, tone) { status.textContent = text; status.className = 'status' + (tone ? ' ' + tone : ''); }
  function progress(pct) { bar.style.width = pct + '%'; }
  function percentText(pct) { return t.working.replace('{percent}', String(pct)); }

  if (!cfg.valid) { say(t.expired, 'err'); return; }
  button.hidden = false;

  var K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ]);

  function rotr(x, n) { return (x >>> n) | (x << (32 - n)); }

  var INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  var w = new Int32Array(64);

  // One SHA-256 compression of the 64-byte block at bytes[offset..] into the state h (8 words).
  function compress(h, bytes, offset) {
    var i;
    for (i = 0; i < 16; i++) {
      var p = offset + i * 4;
      w[i] = (bytes[p] << 24) | (bytes[p + 1] << 16) | (bytes[p + 2] << 8) | bytes[p + 3];
    }
    for (i = 16; i < 64; i++) {
      var s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      var s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (i = 0; i < 64; i++) {
      var t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h[0] = (h[0] + a) | 0; h[1] = (h[1] + b) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d) | 0;
    h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + k) | 0;
  }

  // Whether the digest in state h starts with bits zero bits (big-endian words, as the server reads bytes).
  function hasZeroBits(h, bits) {
    for (var i = 0; bits > 0; i++, bits -= 32) {
      if (bits >= 32) { if (h[i] !== 0) return false; }
      else if ((h[i] >>> (32 - bits)) !== 0) return false;
    }
    return true;
  }

  // Every attempt hashes the same prefix (the challenge and ':') followed by a nonce. The prefix's
  // whole 64-byte blocks are compressed once (the midstate), so an attempt costs one or two
  // compressions, synchronously. That is several times faster than a crypto.subtle call per
  // attempt (whose promise costs more than the hash) and works without a secure context too, so
  // a phone pays for a harder challenge in seconds, closer to what a script pays natively.
  function attempts(prefix) {
    var fullLength = prefix.length - (prefix.length % 64);
    var mid = new Int32Array(INITIAL);
    for (var offset = 0; offset < fullLength; offset += 64) compress(mid, prefix, offset);
    var tail = prefix.subarray(fullLength);
    var block = new Uint8Array(128);
    var state = new Int32Array(8);
    return function (nonce, bits) {
      block.fill(0);
      block.set(tail);
      var n = tail.length;
      for (var i = 0; i < nonce.length; i++) block[n++] = nonce.charCodeAt(i);
      block[n] = 0x80;
      var end = n + 9 <= 64 ? 64 : 128;
      var bitLength = (prefix.length + nonce.length) * 8;
      block[end - 4] = bitLength >>> 24;
      block[end - 3] = (bitLength >>> 16) & 255;
      block[end - 2] = (bitLength >>> 8) & 255;
      block[end - 1] = bitLength & 255;
      state.set(mid);
      compress(state, block, 0);
      if (end === 128) compress(state, block, 64);
      return hasZeroBits(state, bits);
    };
  }

  // Hand the event loop back now and then so the progress bar paints and the tab stays responsive.
  function pause() { return new Promise(function (resolve) { setTimeout(resolve, 0); }); }

  async function solve() {
    // The challenge is base64url and dots, so its characters are its bytes; nonces are decimal.
    var attempt = attempts(new TextEncoder().encode(cfg.challenge + ':'));
    var expectedTries = Math.pow(2, cfg.bits);
    var batch = 2048;
    var nonce = 0;
    var announced = 0;
    var lastPause = Date.now();
    for (;;) {
      for (var i = 0; i < batch; i++, nonce++) if (attempt(String(nonce), cfg.bits)) return String(nonce);
      // The chance of having found a solution by now; it never reaches 100 before we have one.
      var pct = Math.min(99, Math.floor(100 * (1 - Math.exp(-nonce / expectedTries))));
      progress(pct);
      // The live region speaks every fifth of the way, not every frame.
      if (pct >= announced + 20) { announced = pct - (pct % 20); say(percentText(announced)); }
      if (Date.now() - lastPause > 40) { await pause(); lastPause = Date.now(); }
    }
  }

  async function verify(nonce) {
    var response = await fetch(cfg.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'omit',
      body: JSON.stringify({ challenge: cfg.challenge, nonce: nonce, redirect_uri: cfg.redirectUri, state: cfg.state })
    });
    var body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    return {
      ok: response.ok && body !== null && typeof body.captcha_token === 'string',
      // A 4xx means the challenge itself is spent or broken; trying it again cannot help.
      final: response.status >= 400 && response.status < 500,
      body: body
    };
  }

  function deliver(body) {
    if (body.redirect_to) { window.location.assign(body.redirect_to); return; }
    var target = window.opener || (window.parent !== window ? window.parent : null);
    if (target) {
      target.postMessage({ type: 'cumulus:captcha', captcha_token: body.captcha_token, expires_in: body.expires_in, state: body.state }, cfg.targetOrigin);
    }
  }

  button.addEventListener('click', async function () {
    button.disabled = true;
    progress(0);
    say(percentText(0));
    try {
      var result = await verify(await solve());
      if (!result.ok) {
        say(result.final ? t.expired : t.failed, 'err');
        button.disabled = result.final;
        return;
      }
      progress(100);
      say(t.verified, 'ok');
      button.hidden = true;
      deliver(result.body);
    } catch (e) {
      say(t.failed, 'err');
      button.disabled = false;
    }
  });
})();
`
