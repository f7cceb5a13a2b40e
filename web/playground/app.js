// The playground's behaviour: key, files, schema, options, the POST /v1/
// call (or a job: POST /v1/jobs, its progress, its result), the files sent
// as multipart/form-data as they are, and the answer (values, lists of
// objects as tables (lists.js), engine, stage timings, errors as the service
// phrased them, evidence boxes when the service offers evidence).
import { escapePointer, isListOfObjects, listsIn, listTable } from './lists.js';
import { clearBoxes, showBoxes, showPages } from './pages.js';
import { PRESETS } from './presets.js';

const KEY_STORAGE = 'docshape.apiKey';
/** Values below this confidence are marked for a look (issue 12: at 0.9 and above, values can be accepted unseen). */
const REVIEW_BELOW = 0.9;
const MIME_BY_EXTENSION = { pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', xml: 'application/xml' };
// Browsers call an .xml file text/xml or application/xml; the service takes both (an e-invoice without a page).
const SUPPORTED = new Set([...Object.values(MIME_BY_EXTENSION), 'text/xml']);

const $ = (id) => document.getElementById(id);
const state = { files: [], evidence: false, optionFields: [], job: undefined, pinned: undefined };

// ---------------------------------------------------------------------------
// Service capabilities (no key needed)

async function readService() {
  try {
    const ready = await (await fetch('/readyz')).json();
    $('service-status').textContent = ready.ready ? `ready - engine ${ready.engine?.name ?? '?'}` : `not ready: ${ready.engine?.detail ?? 'starting'}`;
  } catch {
    $('service-status').textContent = 'the service does not answer';
  }
  try {
    const spec = await (await fetch('/openapi.json')).json();
    const options = spec?.components?.schemas?.ExtractionRequest?.properties?.options?.properties ?? {};
    state.evidence = 'evidence' in options;
    buildOptionControls(options);
    $('as-job-label').hidden = !spec?.paths?.['/v1/jobs'];
  } catch {
    // Without the description the page still works: no options, no evidence.
  }
}

/** A control per request option the service describes: enums as menus, booleans as checkboxes. Evidence is asked for by the page itself. */
function buildOptionControls(options) {
  const holder = $('options');
  for (const [name, schema] of Object.entries(options)) {
    if (name === 'evidence') continue;
    const label = document.createElement('label');
    label.textContent = `${name} `;
    if (schema.description) label.title = schema.description;
    let control;
    if (Array.isArray(schema.enum)) {
      control = document.createElement('select');
      control.append(new Option('(default)', ''), ...schema.enum.map((value) => new Option(String(value), JSON.stringify(value))));
      state.optionFields.push({ name, read: () => (control.value === '' ? undefined : JSON.parse(control.value)) });
    } else if (schema.type === 'boolean') {
      control = document.createElement('input');
      control.type = 'checkbox';
      state.optionFields.push({ name, read: () => (control.checked ? true : undefined) });
    } else {
      continue;
    }
    control.name = name;
    label.append(control);
    holder.append(label);
  }
}

// ---------------------------------------------------------------------------
// Inputs

function mimeTypeOf(file) {
  if (SUPPORTED.has(file.type)) return file.type;
  return MIME_BY_EXTENSION[file.name.split('.').pop()?.toLowerCase() ?? ''];
}

function addFiles(list) {
  const refused = [];
  for (const file of list) {
    const mimeType = mimeTypeOf(file);
    if (mimeType) state.files.push({ file, mimeType });
    else refused.push(file.name);
  }
  showError(refused.length > 0 ? { message: `Not a PDF or an image: ${refused.join(', ')}` } : undefined);
  renderFileList();
  showPages(state.files, $('pages'));
}

function renderFileList() {
  const list = $('file-list');
  list.replaceChildren(
    ...state.files.map((entry, index) => {
      const item = document.createElement('li');
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'link';
      remove.textContent = 'remove';
      remove.addEventListener('click', () => {
        state.files.splice(index, 1);
        renderFileList();
        showPages(state.files, $('pages'));
      });
      item.append(`${index}: ${entry.file.name} (${Math.ceil(entry.file.size / 1024)} KB) `, remove);
      return item;
    }),
  );
  checkReady();
}

/** Parses the schema box as the user types; returns the schema or undefined. */
function readSchema() {
  const text = $('schema').value;
  const status = $('schema-status');
  try {
    const schema = JSON.parse(text);
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error('the schema must be a JSON object');
    status.textContent = 'valid JSON';
    status.className = 'ok';
    return schema;
  } catch (error) {
    status.textContent = error.message;
    status.className = 'bad';
    return undefined;
  }
}

function checkReady() {
  const problems = [];
  if (!$('api-key').value.trim()) problems.push('enter the API key');
  if (state.files.length === 0) problems.push('add a file');
  if (!readSchema()) problems.push('fix the schema');
  $('run').disabled = problems.length > 0;
  $('run-status').textContent = problems.length > 0 ? `To run: ${problems.join(', ')}.` : '';
}

function usePreset(name) {
  if (PRESETS[name]) $('schema').value = JSON.stringify(PRESETS[name], null, 2);
  checkReady();
}

// ---------------------------------------------------------------------------
// The request

/**
 * The request as multipart/form-data: the schema and options as JSON parts,
 * each file as a "file" part of the type the page settled on, its bytes as
 * they are (no base64: the browser streams the file from disk).
 */
function buildForm(schema) {
  const form = new FormData();
  form.append('schema', JSON.stringify(schema));
  const options = {};
  for (const field of state.optionFields) {
    const value = field.read();
    if (value !== undefined) options[field.name] = value;
  }
  if (state.evidence) options.evidence = true;
  if (Object.keys(options).length > 0) form.append('options', JSON.stringify(options));
  // a slice with the type: the browser may have named none (an .xml file), the page found it from the name
  for (const { file, mimeType } of state.files) form.append('file', file.slice(0, file.size, mimeType), file.name);
  return form;
}

/** A call of the API; `body` a FormData (its Content-Type, with the boundary, is the browser's to set). */
async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { 'x-api-key': $('api-key').value.trim() },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  try {
    return { response, body: JSON.parse(text) };
  } catch {
    return { response, body: { error: text || response.statusText } };
  }
}

function showFailure(response, body) {
  showAnswer(undefined);
  showError({ status: response.status, message: body.error ?? response.statusText, details: body.details, retryAfter: response.headers.get('retry-after') });
}

async function run() {
  const schema = readSchema();
  if (!schema) return;
  $('run').disabled = true;
  showError(undefined);
  $('run-status').textContent = `Reading ${state.files.length} file(s)...`;
  const started = performance.now();
  try {
    if ($('as-job').checked) return await runJob(buildForm(schema), started);
    const { response, body } = await call('POST', '/v1/', buildForm(schema));
    showSummary(response.headers);
    if (!response.ok) showFailure(response, body);
    else showAnswer(body);
    $('run-status').textContent = `Answered ${response.status} in ${((performance.now() - started) / 1000).toFixed(1)} s.`;
  } catch (error) {
    showError({ message: `The service could not be reached: ${error.message}` });
    $('run-status').textContent = '';
  } finally {
    $('run').disabled = false;
  }
}

/** Progress of a job in words: "running: reading pages 3 of 10". */
function describeJob(job) {
  const { stage, pagesDone, pagesTotal } = job.progress;
  const pages = pagesTotal === null ? '' : ` ${pagesDone} of ${pagesTotal} pages`;
  return `Job ${job.id.slice(0, 8)}: ${job.status}${job.status === 'running' ? ` (${stage}${stage === 'reading' ? pages : ''})` : ''}`;
}

/** POST /v1/jobs, then long polls of GET /v1/jobs/{id} shown as progress, then the result. */
async function runJob(request, started) {
  const submitted = await call('POST', '/v1/jobs', request);
  if (submitted.response.status !== 202) {
    showFailure(submitted.response, submitted.body);
    $('run-status').textContent = `Answered ${submitted.response.status}.`;
    return;
  }
  let job = { ...submitted.body, progress: { stage: 'queued', pagesDone: 0, pagesTotal: null } };
  state.job = job.id;
  const bar = $('job-progress');
  bar.hidden = false;
  $('cancel-job').hidden = false;
  try {
    while (job.status === 'queued' || job.status === 'running') {
      $('run-status').textContent = describeJob(job);
      bar.max = job.progress.pagesTotal || 1;
      bar.value = job.progress.pagesTotal ? job.progress.pagesDone : 0;
      const polled = await call('GET', `/v1/jobs/${job.id}?wait=10`);
      if (!polled.response.ok) return showFailure(polled.response, polled.body);
      job = polled.body;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (job.status !== 'succeeded') {
      showAnswer(undefined);
      showError({ status: job.errorStatus ?? undefined, message: job.error?.error ?? `The job was ${job.status}.`, details: job.error?.details });
      $('run-status').textContent = `${describeJob(job)} after ${seconds} s.`;
      return;
    }
    const result = await call('GET', `/v1/jobs/${job.id}/result`);
    if (!result.response.ok) return showFailure(result.response, result.body);
    showAnswer(result.body);
    $('run-status').textContent = `${describeJob(job)} in ${seconds} s (${job.attempts} run${job.attempts === 1 ? '' : 's'}).`;
  } finally {
    state.job = undefined;
    bar.hidden = true;
    $('cancel-job').hidden = true;
  }
}

async function cancelJob() {
  if (state.job) await call('DELETE', `/v1/jobs/${state.job}`);
}

// ---------------------------------------------------------------------------
// The answer

function showError(error) {
  const box = $('error');
  box.hidden = !error;
  box.replaceChildren();
  if (!error) return;
  const title = document.createElement('p');
  title.textContent = error.status ? `${error.status}: ${error.message}` : error.message;
  box.append(title);
  if (Array.isArray(error.details) && error.details.length > 0) {
    const list = document.createElement('ul');
    list.append(...error.details.map((detail) => Object.assign(document.createElement('li'), { textContent: String(detail) })));
    box.append(list);
  }
  if (error.retryAfter) box.append(Object.assign(document.createElement('p'), { textContent: `Retry after ${error.retryAfter} s.` }));
}

/** "decode;dur=1.2, extract;dur=3.4;desc="rules"" -> [{name, ms}] */
function parseServerTiming(header) {
  if (!header) return [];
  return header.split(',').flatMap((entry) => {
    const [name, ...params] = entry.trim().split(';');
    const dur = params.map((p) => p.trim()).find((p) => p.startsWith('dur='));
    return name && dur ? [{ name: name.trim(), ms: Number(dur.slice(4)) }] : [];
  });
}

function showSummary(headers) {
  $('summary').hidden = false;
  $('engine').textContent = headers.get('x-docshape-engine') ?? '-';
  $('request-id').textContent = headers.get('x-request-id') ?? '-';
  const timings = parseServerTiming(headers.get('server-timing'));
  const total = timings.find((t) => t.name === 'total')?.ms || Math.max(1, ...timings.map((t) => t.ms));
  $('timings').replaceChildren(
    ...timings.map(({ name, ms }) => {
      const row = document.createElement('tr');
      const bar = document.createElement('meter');
      bar.min = 0;
      bar.max = total;
      bar.value = Math.min(ms, total);
      const cells = [name, `${ms.toFixed(1)} ms`].map((text) => Object.assign(document.createElement('td'), { textContent: text }));
      const barCell = document.createElement('td');
      barCell.append(bar);
      row.append(cells[0], barCell, cells[1]);
      return row;
    }),
  );
}

/** Every leaf of the answer with its JSON Pointer and a readable path; a list of objects is a table of its own (lists.js). */
function leaves(value, pointer = '', path = '') {
  if (isListOfObjects(value)) return [];
  if (Array.isArray(value)) {
    return value.length === 0 ? [{ pointer, path, value }] : value.flatMap((item, i) => leaves(item, `${pointer}/${i}`, `${path}[${i}]`));
  }
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => leaves(item, `${pointer}/${escapePointer(key)}`, path ? `${path}.${key}` : key));
  }
  return [{ pointer, path, value }];
}

function showAnswer(body) {
  const table = $('fields');
  state.pinned = undefined;
  clearBoxes($('pages'));
  $('lists').replaceChildren();
  if (body === undefined) {
    table.hidden = true;
    $('raw').hidden = true;
    return;
  }
  const withEvidence = state.evidence && body && typeof body === 'object' && 'data' in body && 'evidence' in body;
  const data = withEvidence ? body.data : body;
  const evidence = withEvidence ? (body.evidence ?? {}) : undefined;
  $('answer').textContent = JSON.stringify(body, null, 2);
  $('raw').hidden = false;
  const head = document.createElement('tr');
  head.append(...['field', 'value', ...(evidence ? ['confidence'] : [])].map((text) => Object.assign(document.createElement('th'), { textContent: text })));
  const rows = leaves(data).map((leaf) => fieldRow(leaf, evidence));
  table.replaceChildren(head, ...rows);
  table.hidden = rows.length === 0;
  $('lists').replaceChildren(...listsIn(data).map((list) => listTable(list, (cell, pointer) => explain(cell, evidence?.[pointer]))));
}

function fieldRow({ pointer, path, value }, evidence) {
  const row = document.createElement('tr');
  row.dataset.pointer = pointer;
  const shown = value === null ? 'null' : Array.isArray(value) ? '[]' : String(value);
  const valueCell = Object.assign(document.createElement('td'), { textContent: shown });
  if (value === null || Array.isArray(value)) valueCell.className = 'muted';
  row.append(Object.assign(document.createElement('td'), { textContent: path || '(root)' }), valueCell);
  if (!evidence) return row;
  const cell = document.createElement('td');
  row.append(cell);
  const found = evidence[pointer];
  if (found) {
    cell.textContent = confidenceText(found);
    bindEvidence(row, found);
    if (row.classList.contains('review')) cell.title = 'Low confidence: check this value against the page';
  }
  return row;
}

function isLow(found) {
  return !(Number(found.confidence) >= REVIEW_BELOW);
}

/** "93%", and whether the value was found on a page. */
function confidenceText(found) {
  const confidence = Number(found.confidence);
  const located = Boolean(found.bbox || (Array.isArray(found.boxes) && found.boxes.length > 0));
  return `${Number.isFinite(confidence) ? Math.round(confidence * 100) : '?'}%${located ? '' : ' - not found on a page'}`;
}

/**
 * A value's element shows its box on the page while hovered or focused; a
 * click pins the box (another click, or a click on another value, lets it
 * go), so that the page can be scrolled to it and looked at.
 */
function bindEvidence(element, found) {
  const low = isLow(found);
  if (low) element.classList.add('review');
  element.tabIndex = 0;
  const show = () => showBoxes($('pages'), found, low);
  const hide = () => {
    if (state.pinned) showBoxes($('pages'), state.pinned.found, isLow(state.pinned.found));
    else clearBoxes($('pages'));
  };
  element.addEventListener('mouseenter', show);
  element.addEventListener('focus', show);
  element.addEventListener('mouseleave', hide);
  element.addEventListener('blur', hide);
  element.addEventListener('click', () => {
    state.pinned?.element.classList.remove('pinned');
    state.pinned = state.pinned?.element === element ? undefined : { element, found };
    state.pinned?.element.classList.add('pinned');
    show();
  });
}

/** A list cell: its value's confidence beneath it, and its box, when the evidence has the value. */
function explain(cell, found) {
  if (!found) return false;
  cell.append(Object.assign(document.createElement('span'), { className: 'confidence', textContent: confidenceText(found) }));
  bindEvidence(cell, found);
  if (cell.classList.contains('review')) cell.title = 'Low confidence: check this value against the page';
  return true;
}

// ---------------------------------------------------------------------------
// Wiring

function wire() {
  const key = $('api-key');
  key.value = sessionStorage.getItem(KEY_STORAGE) ?? '';
  key.addEventListener('input', () => {
    sessionStorage.setItem(KEY_STORAGE, key.value);
    checkReady();
  });

  // A file dropped beside the zone must not make the browser leave the page to open it.
  for (const type of ['dragover', 'drop']) window.addEventListener(type, (event) => event.preventDefault());
  const zone = $('drop-zone');
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    addFiles(event.dataTransfer?.files ?? []);
  });
  zone.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') $('file-input').click();
  });
  $('file-input').addEventListener('change', (event) => {
    addFiles(event.target.files ?? []);
    event.target.value = '';
  });

  $('preset').addEventListener('change', (event) => usePreset(event.target.value));
  $('schema').addEventListener('input', () => {
    $('preset').value = 'custom';
    checkReady();
  });
  $('run').addEventListener('click', run);
  $('cancel-job').addEventListener('click', cancelJob);
  usePreset($('preset').value);
  readService();
}

wire();
