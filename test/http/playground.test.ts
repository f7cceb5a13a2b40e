import { expect } from 'chai';
import type { PipelineDeps } from '../../src/pipeline.js';
import { closeSharedServices, sharedServices, startTestServer, type RunningServer } from '../helpers/test-server.js';

/** Serving of the playground page and its files, without a browser (tests/playground drives the page itself). */
describe('GET / (playground files)', function () {
  this.timeout(60_000);
  let services: PipelineDeps;
  let server: RunningServer;

  before(async () => {
    services = await sharedServices();
    server = await startTestServer(services);
  });

  after(async () => {
    await server?.close();
    await closeSharedServices();
  });

  it('serves the page without a key, with a policy that lets it load only from this origin', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).to.contain("default-src 'none'");
    expect(csp).to.contain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).to.contain("connect-src 'self'");
    expect(csp).to.contain("frame-ancestors 'none'");
    expect(csp).to.not.match(/https?:|unsafe-inline|'unsafe-eval'/);
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
    const html = await response.text();
    // Nothing the page references lives elsewhere.
    expect(html).to.not.match(/(src|href)="(https?:)?\/\//);
    expect(html).to.contain('<script type="module" src="/playground/app.js">');
  });

  it('serves its scripts and the pdf.js files rendering needs, as JavaScript, WebAssembly and data', async () => {
    const types: Array<[string, RegExp]> = [
      ['/playground/app.js', /javascript/],
      ['/playground/pages.js', /javascript/],
      ['/playground/style.css', /^text\/css/],
      ['/playground/pdfjs/pdf.min.mjs', /javascript/],
      ['/playground/pdfjs/pdf.worker.min.mjs', /javascript/],
      ['/playground/pdfjs/wasm/openjpeg.wasm', /^application\/wasm/],
      ['/playground/pdfjs/standard_fonts/LiberationSans-Regular.ttf', /./],
      ['/playground/pdfjs/cmaps/UniJIS-UCS2-H.bcmap', /./],
    ];
    for (const [path, type] of types) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).to.equal(200);
      expect(response.headers.get('content-type'), path).to.match(type);
    }
  });

  it('serves nothing else of pdfjs-dist or the file system', async () => {
    for (const path of [
      '/playground/pdfjs/pdf.mjs',
      '/playground/pdfjs/package.json',
      '/playground/pdfjs/../../package.json',
      '/playground/pdfjs/wasm/..%2f..%2fpackage.json',
      '/playground/%2e%2e/%2e%2e/package.json',
      '/playground/pdfjs/web/pdf_viewer.mjs',
      '/playground/',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).to.equal(404);
    }
  });
});
