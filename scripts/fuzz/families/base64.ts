/**
 * contents[i].data: padding that is wrong, whitespace everywhere, data-URL
 * prefixes right and wrong, the URL-safe and other alphabets, stray bytes.
 */
import { basicSchema, MIME_TYPES, requestCase, type Family } from '../case.js';
import type { Random } from '../random.js';

const FAMILY = 'base64';

type Mangle = (rng: Random, text: string, mimeType: string) => [string, string];

const insertAt = (text: string, at: number, what: string) => text.slice(0, at) + what + text.slice(at);

const mangles: Array<[Mangle, number]> = [
  [(rng, t) => { const n = rng.int(1, 3); return [t.replace(/=+$/, '') + '='.repeat(n + 2), `${n + 2} padding characters`]; }, 1],
  [(_rng, t) => [t.replace(/=+$/, ''), 'padding removed'], 1],
  [(rng, t) => { const at = rng.int(0, t.length); return [insertAt(t, at, '='), `"=" inserted at ${at}`]; }, 2],
  [(rng, t) => { const n = rng.int(1, 3); return [t.slice(0, -n), `last ${n} characters cut`]; }, 2],
  [(rng, t) => { const width = rng.pick([60, 64, 76]); const eol = rng.pick(['\n', '\r\n', ' ', '\t']); return [t.replace(new RegExp(`.{1,${width}}`, 'g'), (line) => line + eol), `wrapped at ${width} with ${JSON.stringify(eol)}`]; }, 2],
  [(rng, t) => { const ws = rng.pick([' ', '\n', '\t', '\v', '\u00a0', '\u2028', '\f']).repeat(rng.pick([1, 1000, 1_000_000])); return [rng.chance(0.5) ? ws + t : t + ws, `whitespace run of ${ws.length}`]; }, 2],
  [(rng, t) => { const at = rng.int(0, t.length); const ch = rng.pick(['*', '.', '!', '%', '\u00e9', '\u0000', '\ud83d\ude00', '\\', '"', '\u2212']); return [insertAt(t, at, ch), `${JSON.stringify(ch)} at ${at}`]; }, 3],
  [(_rng, t) => [t.replace(/\+/g, '-').replace(/\//g, '_'), 'URL-safe alphabet'], 2],
  [(rng, t) => { const at = rng.int(0, t.length); return [t.replace(/\+/g, '-').slice(0, at) + t.slice(at), 'mixed alphabets']; }, 2],
  [(_rng, t) => [Buffer.from(t, 'base64').toString('hex'), 'hex instead of base64'], 1],
  [(_rng, t) => [Buffer.from(Buffer.from(t, 'base64').toString('latin1'), 'latin1').toString('utf8'), 'raw bytes instead of base64'], 1],
  [(_rng, t) => [Buffer.from(t).toString('base64'), 'base64 twice'], 1],
  [(rng, t, mime) => {
    const prefix = rng.pick([`data:${mime};base64,`, `DATA:${mime.toUpperCase()};BASE64,`, `data:;base64,`, `data:${mime},`, `data:${mime};charset=utf-8;base64,`, `data:image/tiff;base64,`, `data:${mime};base64 ,`, ` data:${mime};base64,`, `data:${mime};base64,data:${mime};base64,`, `data:${'x'.repeat(300)};base64,`]);
    return [prefix + t, `data URL ${prefix.slice(0, 40)}`];
  }, 4],
  [(rng) => { const v = rng.pick(['', ' ', '=', '==', '====', 'A', 'AA', 'AAA', 'AAAA', '\n\n']); return [v, `data ${JSON.stringify(v)}`]; }, 2],
  [(rng) => { const n = rng.pick([1000, 100_000, 10_000_000]); return ['A'.repeat(n), `${n} "A"s (zero bytes)`]; }, 1],
];

export const base64Family: Family = {
  name: FAMILY,
  weight: 8,
  generate(rng, { seeds }) {
    const seed = rng.pick(seeds.all.filter((file) => file.name !== 'scanned-pdf'));
    const mimeType = rng.chance(0.85) ? seed.mimeType : rng.pick(MIME_TYPES);
    const [data, label] = rng.weighted(mangles)(rng, seed.bytes.toString('base64'), mimeType);
    const schema = basicSchema();
    return requestCase(FAMILY, `${seed.name}: ${label}`, schema, [{ filename: `${seed.name}.bin`, mimeType, data }]);
  },
};
