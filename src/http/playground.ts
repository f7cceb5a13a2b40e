/**
 * The playground at GET /: web/playground/ (plain HTML, CSS and JS modules)
 * and the few pdf.js files the page renders PDF pages with, served from
 * node_modules/pdfjs-dist. Everything comes from this host, so the page works
 * air-gapped, and a Content-Security-Policy lets it load nothing else.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type Response } from 'express';

// dist/src/http/playground.js -> the package root's web/playground/ (also where the Dockerfile puts it).
const PAGE_ROOT = fileURLToPath(new URL('../../../web/playground/', import.meta.url));
const PDFJS_ROOT = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  // pdf.js decodes JPEG 2000 / JBIG2 scans with WebAssembly; 'wasm-unsafe-eval' allows compiling it, not JS eval.
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  // Dropped images are shown from blob: URLs; PDF pages are drawn on canvases.
  "img-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function setSecurityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
}

function staticFolder(root: string): express.Handler {
  return express.static(root, { index: false, redirect: false, dotfiles: 'ignore', fallthrough: true, setHeaders: setSecurityHeaders });
}

function sendOne(file: string): express.Handler {
  return (_req, res, next) => {
    setSecurityHeaders(res);
    res.sendFile(file, (error) => {
      if (error) next(error);
    });
  };
}

/** Only what rendering needs: the pdf.js module and its worker, character maps, standard fonts, image decoders, colour profiles. */
export function playgroundRoutes(): Router {
  const router = Router();
  router.get('/', sendOne(join(PAGE_ROOT, 'index.html')));
  router.get('/playground/pdfjs/pdf.min.mjs', sendOne(join(PDFJS_ROOT, 'build', 'pdf.min.mjs')));
  router.get('/playground/pdfjs/pdf.worker.min.mjs', sendOne(join(PDFJS_ROOT, 'build', 'pdf.worker.min.mjs')));
  for (const folder of ['cmaps', 'standard_fonts', 'wasm', 'iccs']) {
    router.use(`/playground/pdfjs/${folder}`, staticFolder(join(PDFJS_ROOT, folder)));
  }
  router.use('/playground', staticFolder(PAGE_ROOT));
  return router;
}
