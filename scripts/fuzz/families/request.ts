/**
 * The request itself: JSON that is malformed or cut off, values of the wrong
 * type at every path, huge strings and arrays, prototype keys, odd headers,
 * encodings, methods and paths.
 */
import { gzipSync, deflateSync } from 'node:zlib';
import { basicSchema, entry, requestCase, type Family, type FuzzCase } from '../case.js';
import type { Random } from '../random.js';

const FAMILY = 'request';

/** Values of every JSON type, including the awkward ones. */
function oddValue(rng: Random): unknown {
  return rng.pick<() => unknown>([
    () => null,
    () => true,
    () => 0,
    () => -1,
    () => 1e308,
    () => rng.int(-1e9, 1e9) / 7,
    () => '',
    () => 'x'.repeat(rng.int(1, 5000)),
    () => '\u0000\ud800\uffff',
    () => [],
    () => [null, 1, 'a', {}],
    () => ({}),
    () => ({ type: 'object' }),
    () => ({ __proto__: { polluted: true } }),
  ])();
}

/** Every place in a request object, as a path of keys. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (prefix.length > 6) return out;
  if (Array.isArray(value)) value.forEach((child, i) => paths(child, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) paths(child, [...prefix, key], out);
  return out;
}

function setAt(root: Record<string, unknown>, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  let node: any = root;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path[path.length - 1]!] = value;
  return root;
}

function validRequest(rng: Random, png: Buffer): Record<string, unknown> {
  return { schema: basicSchema(), contents: [entry(png, 'image/png', rng.chance(0.5) ? 'scan.png' : undefined)] };
}

function nested(depth: number, open: string, close: string, inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

type Variant = (rng: Random, png: Buffer) => FuzzCase;

const variants: Array<[Variant, number]> = [
  // malformed and truncated JSON
  [(rng, png) => {
    const text = JSON.stringify(validRequest(rng, png));
    const at = rng.int(0, text.length - 1);
    return { family: FAMILY, variant: `truncated JSON at ${at}/${text.length}`, body: text.slice(0, at), allowed: [400] };
  }, 4],
  [(rng) => ({ family: FAMILY, variant: 'random bytes', body: rng.bytes(rng.int(1, 4000)), allowed: [400] }), 2],
  [(rng) => ({ family: FAMILY, variant: 'random text', body: rng.string(rng.int(1, 2000), '{}[]":,0123456789abc \n\\'), allowed: [400] }), 2],
  [(rng, png) => {
    const text = JSON.stringify(validRequest(rng, png));
    const bytes = Buffer.from(text);
    const at = rng.int(0, bytes.length - 1);
    bytes[at] = rng.pick([0xff, 0xc0, 0x80, 0x00, 0xed]);
    return { family: FAMILY, variant: `invalid UTF-8 at ${at}`, body: bytes };
  }, 2],
  [(rng, png) => ({ family: FAMILY, variant: 'byte order mark', body: `\ufeff${JSON.stringify(validRequest(rng, png))}` }), 1],
  [(rng) => {
    const depth = rng.pick([1000, 10_000, 200_000]);
    const [open, close] = rng.pick([['[', ']'], ['{"a":', '}']] as const);
    return { family: FAMILY, variant: `nesting ${depth} deep`, body: nested(depth, open, close), allowed: [400, 413] };
  }, 2],
  [(rng, png) => {
    const depth = rng.pick([100, 129, 5000, 50_000]);
    const where = rng.pick(['schema', 'contents'] as const);
    const deep = nested(depth, '{"x":', '}', '{}');
    const body = where === 'schema'
      ? `{"schema":{"type":"object","properties":{"a":{"type":"string"}},"default":${deep}},"contents":[${JSON.stringify(entry(png, 'image/png'))}]}`
      : `{"schema":${JSON.stringify(basicSchema())},"contents":[${JSON.stringify(entry(png, 'image/png')).slice(0, -1)},"extra":${deep}}]}`;
    return { family: FAMILY, variant: `${where} nested ${depth} deep`, body, schema: where === 'contents' ? basicSchema() : undefined };
  }, 2],
  [(rng) => ({ family: FAMILY, variant: 'not an object', body: rng.pick(['[]', 'null', '1', '"schema"', 'true', '', ' ', '{}', '[{}]']), allowed: [400] }), 2],
  // wrong types at every path
  [(rng, png) => {
    const request = validRequest(rng, png);
    const path = rng.pick(paths(request).filter((p) => p.length > 0));
    const value = oddValue(rng);
    const body = JSON.parse(JSON.stringify(setAt(request, path, value)) ?? 'null');
    return { family: FAMILY, variant: `${path.join('.')} = ${JSON.stringify(value)?.slice(0, 40)}`, body: JSON.stringify(body), schema: (body as { schema?: unknown } | null)?.schema };
  }, 10],
  [(rng, png) => {
    const request = validRequest(rng, png);
    const path = rng.pick(paths(request).filter((p) => p.length > 0));
    const body = JSON.stringify(setAt(request, path, undefined));
    // the schema as the service reads it: JSON drops the removed value
    return { family: FAMILY, variant: `${path.join('.')} removed`, body, schema: JSON.parse(body).schema };
  }, 3],
  // prototype keys
  [(rng, png) => {
    const key = rng.pick(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']);
    const where = rng.pick(['root', 'item', 'properties', 'schema', 'nested'] as const);
    const schema = basicSchema();
    const item = entry(png, 'image/png');
    const raw = (value: string) => `"${key}":${value}`;
    let body: string;
    if (where === 'root') body = `{${raw('{"schema":{"type":"string"},"contents":[]}')},"schema":${JSON.stringify(schema)},"contents":[${JSON.stringify(item)}]}`;
    else if (where === 'item') body = `{"schema":${JSON.stringify(schema)},"contents":[{${raw('{"data":"AAAA","mimeType":"image/gif"}')},${JSON.stringify(item).slice(1)}]}`;
    else if (where === 'properties') body = `{"schema":{"type":"object","properties":{${raw('{"type":"string","description":"Customer"}')},"total":{"type":"number"}},"required":["${key}"]},"contents":[${JSON.stringify(item)}]}`;
    else if (where === 'schema') body = `{"schema":{${raw('{"type":"array"}')},"type":"object","properties":{"total":{"type":"number"}}},"contents":[${JSON.stringify(item)}]}`;
    else body = `{"schema":{"type":"object","properties":{"a":{"type":"object","properties":{${raw('{"type":"object","properties":{"polluted":{"type":"string"}}}')}}}}},"contents":[${JSON.stringify(item)}]}`;
    return { family: FAMILY, variant: `"${key}" key in ${where}`, body, schema: JSON.parse(body).schema };
  }, 6],
  // huge strings and arrays
  [(rng, png) => {
    const size = rng.pick([100_000, 1_000_000, 8_000_000]);
    const field = rng.pick(['filename', 'mimeType', 'description', 'propertyName', 'enum'] as const);
    const long = 'Q'.repeat(size);
    const schema = basicSchema();
    const item = entry(png, 'image/png', 'a.png');
    if (field === 'filename') item.filename = long;
    if (field === 'mimeType') item.mimeType = long;
    if (field === 'description') (schema.properties as Record<string, { description?: string }>).customer!.description = long;
    if (field === 'propertyName') (schema.properties as Record<string, unknown>)[long] = { type: 'string' };
    if (field === 'enum') (schema.properties as Record<string, unknown>).customer = { type: 'string', enum: [long, 'b'] };
    return requestCase(FAMILY, `${size}-character ${field}`, schema, [item]);
  }, 3],
  [(rng, png) => {
    const count = rng.pick([21, 1000, 100_000]);
    const what = rng.pick(['contents', 'required', 'enum', 'properties'] as const);
    const schema = basicSchema();
    let contents = [entry(png, 'image/png')];
    if (what === 'contents') contents = Array.from({ length: count }, () => ({ mimeType: 'image/png', data: 'iVBORw0KGgo=' }));
    if (what === 'required') schema.required = Array.from({ length: count }, (_, i) => `p${i}`);
    if (what === 'enum') (schema.properties as Record<string, unknown>).customer = { type: 'string', enum: Array.from({ length: count }, (_, i) => `v${i}`) };
    if (what === 'properties') schema.properties = Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: 'string' }]));
    return requestCase(FAMILY, `${count} ${what}`, schema, contents);
  }, 3],
  [(rng) => {
    // just over the body limit, or far over: 413 without reading it all
    const size = rng.pick([50 * 1024 * 1024 + 10, 60 * 1024 * 1024]);
    const body = Buffer.alloc(size, 0x41);
    Buffer.from('{"schema":{},"contents":[{"mimeType":"image/png","data":"').copy(body);
    return { family: FAMILY, variant: `${size}-byte body`, body, allowed: [413, 400] };
  }, 1],
  [(rng, png) => {
    const text = JSON.stringify(validRequest(rng, png));
    const key = rng.pick(['schema', 'contents']);
    const body = `{"${key}":null,${text.slice(1)}`;
    return { family: FAMILY, variant: `duplicate "${key}" key`, body, schema: basicSchema() };
  }, 1],
  // headers, encodings, methods, paths
  [(rng, png) => {
    const type = rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/vnd.api+json', '*/*', null]);
    return { family: FAMILY, variant: `content-type ${type}`, headers: { 'content-type': type }, body: JSON.stringify(validRequest(rng, png)), schema: basicSchema() };
  }, 2],
  [(rng, png) => {
    const encoding = rng.pick(['gzip', 'deflate', 'br', 'compress', 'gzip, gzip', 'identity'] as const);
    const json = Buffer.from(JSON.stringify(validRequest(rng, png)));
    const body = encoding === 'gzip' ? gzipSync(json) : encoding === 'deflate' ? deflateSync(json) : json;
    return { family: FAMILY, variant: `content-encoding ${encoding}`, headers: { 'content-encoding': encoding }, body, schema: basicSchema() };
  }, 2],
  [(rng) => {
    // a compression bomb: up to 200 MB of spaces inside a JSON string, ~200 KB on the wire
    const megabytes = rng.pick([60, 200]);
    return { family: FAMILY, variant: `gzip bomb (${megabytes} MB inflated)`, headers: { 'content-encoding': 'gzip' }, body: gzipBomb(megabytes), allowed: [413, 400] };
  }, 1],
  [(rng, png) => {
    const key = rng.pick([null, '', 'wrong', 'WRONG-KEY', ' ', 'x'.repeat(10_000), '\u00e9t\u00e9']);
    return { family: FAMILY, variant: `x-api-key ${JSON.stringify(key)?.slice(0, 20)}`, headers: { 'x-api-key': key }, body: JSON.stringify(validRequest(rng, png)), allowed: [401] };
  }, 2],
  [(rng, png) => {
    const [method, path] = rng.pick([['GET', '/v1/'], ['PUT', '/v1/'], ['DELETE', '/v1'], ['PATCH', '/v1/'], ['POST', '/v2/'], ['POST', '/v1//'], ['POST', '/V1/'], ['POST', '/v1/?x=1&x=2'], ['POST', '/v1/%00'], ['POST', '/%2e%2e/v1/'], ['GET', '/healthz?x=' + 'a'.repeat(4000)], ['GET', '/readyz'], ['OPTIONS', '/v1/'], ['HEAD', '/v1/']] as const);
    const hasBody = method !== 'GET' && method !== 'HEAD';
    return { family: FAMILY, variant: `${method} ${path.slice(0, 40)}`, method, path, body: hasBody ? JSON.stringify(validRequest(rng, png)) : undefined, schema: basicSchema() };
  }, 2],
];

let bomb: { megabytes: number; bytes: Buffer } | undefined;

function gzipBomb(megabytes: number): Buffer {
  if (bomb?.megabytes === megabytes) return bomb.bytes;
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const parts = [Buffer.from('{"schema":{"type":"object"},"contents":[{"mimeType":"image/png","data":"'), ...Array.from({ length: megabytes }, () => chunk), Buffer.from('"}]}')];
  bomb = { megabytes, bytes: gzipSync(Buffer.concat(parts), { level: 9 }) };
  return bomb.bytes;
}

export const requestFamily: Family = {
  name: FAMILY,
  weight: 14,
  generate: (rng, { seeds }) => rng.weighted(variants)(rng, seeds.png),
};
