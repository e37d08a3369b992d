/**
 * Security headers on every answer (helmet's choice of headers, computed once at start: helmet's
 * middleware is run once against a recorder, and every answer then gets the recorded headers;
 * building the middleware per request, as @fastify/helmet does, parsed the CSP directives again
 * on every request):
 * - Content-Security-Policy: scripts only from this origin, plus the build's one inline script
 *   (the console's early start, scripts/vite/console-early-start.ts), allowed by its SHA-256
 *   hash read from the built index.html, so no other inline script runs; styles inline as well
 *   (MUI's emotion writes <style> elements at run time); pictures from here, data: and blob:
 *   (captcha, previews) and https: (pictures in help pages and notices); connections to this
 *   origin (API and websockets); frames only of the WeCom sign-in page; framing by no one
 *   (`frame-ancestors 'none'`, and X-Frame-Options DENY for older browsers), except the WeCom
 *   sign-in answer, which this origin's own QR frame loads (`'self'`);
 * - X-Content-Type-Options nosniff, Referrer-Policy strict-origin-when-cross-origin;
 * - Strict-Transport-Security only when HSTS_MAX_AGE is set (the server itself speaks plain
 *   HTTP; HSTS belongs to a TLS front end that the operator configures).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';

/** The 'sha256-…' source of each inline <script> of a page. */
export function inlineScriptHashes(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/.test(m[1]) || m[2] === '') continue;
    out.push(`'sha256-${createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
  }
  return out;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The headers helmet sets for these options, run once against a recorder (it also removes X-Powered-By, which Fastify never sets). */
export function fixedSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      return recorder;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet refused the security header options');
  });
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance, webRoot: string): void {
  const index = resolve(webRoot, 'index.html');
  const hashes = app.config.serveWeb && existsSync(index) ? inlineScriptHashes(readFileSync(index, 'utf8')) : [];
  const wecom = app.config.wecomCorpId ? originOf(app.config.wecomLoginUrl) : undefined;
  const headers = fixedSecurityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'script-src': ["'self'", ...hashes],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        // the WeCom QR panel, and this origin: the panel's frame comes back here with the scan's answer
        'frame-src': wecom ? ["'self'", wecom] : ["'none'"],
        'object-src': ["'none'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: app.config.hstsMaxAge > 0 ? { maxAge: app.config.hstsMaxAge, includeSubDomains: true } : false,
    // the console opens pictures and files of this origin in new windows and loads no cross-origin scripts
    crossOriginEmbedderPolicy: false,
  });
  if (!headers['content-security-policy']) throw new Error('the security headers hold no Content-Security-Policy');
  // every answer, errors and 404s included (the hook runs before routing decides anything)
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  // The WeCom QR panel is a frame of the sign-in page; WeCom sends the scan's answer into that
  // frame (`/?code=&state=`), and the page there moves the top window on. That one page may be
  // framed by this origin itself, nothing else, and never by another site.
  // (a callback hook that looks at the path without splitting it: it runs on every answer)
  app.addHook('onSend', (request, reply, payload, done) => {
    const url = request.url;
    if (request.method !== 'GET' || url[0] !== '/' || (url.length > 1 && url[1] !== '?')) return done(null, payload);
    const q = request.query as Record<string, unknown>;
    if (typeof q.code !== 'string' || typeof q.state !== 'string') return done(null, payload);
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp === 'string') reply.header('content-security-policy', csp.replace("frame-ancestors 'none'", "frame-ancestors 'self'"));
    reply.header('x-frame-options', 'SAMEORIGIN');
    done(null, payload);
  });
}
