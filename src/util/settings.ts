/**
 * Settings read from environment variables, each defined once: its name, what
 * it means, its default and the values it takes. The same definition reads and
 * checks the value (`read`) and says what the documentation shows
 * (scripts/docs-config/page.ts), so the two cannot disagree.
 */

/** The process environment, or any record standing in for it. */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * The longest a Node timer waits (2^31 - 1 ms, 24.8 days). A longer one is
 * set to 1 ms with only a warning: REQUEST_TIMEOUT_MS=3000000000, meant as
 * "no limit", would fail every request at once. Settings that become timers
 * are refused above it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the documentation says of a variable. Texts are inline Markdown. */
export interface SettingDoc {
  readonly name: string;
  /** One line: what the value changes. */
  readonly meaning: string;
  /** The value when the variable is unset or blank: a literal in backticks, or words ("number of cores"). */
  readonly shownDefault: string;
  /** The values taken (unit, range, choices), from the bounds the reader checks; undefined when any text goes. */
  readonly accepts: string | undefined;
  /** False for variables set for Node or a library, which docshape never reads. */
  readonly readByDocshape: boolean;
  /** An empty value is a value (''), not the default: kept for the few settings that always read it so. */
  readonly emptyIsValue?: boolean;
  /** For those: the value given to them, and what gives it ('npm start', 'the image'). */
  readonly preset?: { readonly value: string; readonly by: readonly string[] };
}

export interface Setting<T> extends SettingDoc {
  /** Whether `env` gives the variable a value (set and not blank). */
  given(env: Env): boolean;
  /** The value, or the default; a value it cannot take throws a ConfigError naming the variable. */
  read(env: Env): T;
}

/** A default that is not a constant: worked out when read (from the host or another setting), described in words. */
export interface Computed<T> {
  readonly shown: string;
  compute(env: Env): T;
}

export function computed<T>(shown: string, compute: (env: Env) => T): Computed<T> {
  return { shown, compute };
}

export interface SettingGroup {
  readonly title: string;
  /** One line shown above the group's table. */
  readonly about: string;
  readonly settings: readonly SettingDoc[];
}

/** Every setting, in groups in the order they are defined: what loadConfig reads and the documentation lists. */
export class SettingTable {
  readonly #groups: SettingGroupBuilder[] = [];
  readonly #names = new Set<string>();

  group(title: string, about: string): SettingGroupBuilder {
    const group = new SettingGroupBuilder(title, about, (doc) => this.#register(doc));
    this.#groups.push(group);
    return group;
  }

  get groups(): readonly SettingGroup[] {
    return this.#groups;
  }

  /** Every variable of every group. */
  get all(): readonly SettingDoc[] {
    return this.#groups.flatMap((group) => group.settings);
  }

  #register(doc: SettingDoc): void {
    // Two definitions of one variable would read it two ways; refused when the module loads.
    if (this.#names.has(doc.name)) throw new Error(`setting ${doc.name} is defined twice`);
    this.#names.add(doc.name);
  }
}

interface Described<D> {
  meaning: string;
  default: D;
}

type Default<T> = T | Computed<T>;

/** The kinds of setting a group defines; each returns the setting, to be read where the config is built. */
export class SettingGroupBuilder implements SettingGroup {
  readonly settings: SettingDoc[] = [];

  constructor(
    readonly title: string,
    readonly about: string,
    private readonly register: (doc: SettingDoc) => void,
  ) {}

  /** An integer from `min` to `max`; `unit` is what the number counts (ms, MB, tokens). */
  integer(name: string, spec: Described<Default<number>> & { min: number; max?: number; unit?: string }): Setting<number> {
    const max = spec.max ?? Number.MAX_SAFE_INTEGER;
    return this.add(name, spec.meaning, shownValue(spec.default, String), integerRange(spec.min, spec.max, spec.unit), (raw, env) =>
      raw === undefined ? valueOf(spec.default, env) : parseInteger(name, raw, env, spec.min, max),
    );
  }

  /** An integer whose default is decided later, by what reads it (`unset` says how); undefined when unset. */
  optionalInteger(name: string, spec: { meaning: string; unset: string; min: number; max: number; unit?: string }): Setting<number | undefined> {
    return this.add(name, spec.meaning, spec.unset, integerRange(spec.min, spec.max, spec.unit), (raw, env) =>
      raw === undefined ? undefined : parseInteger(name, raw, env, spec.min, spec.max),
    );
  }

  /** Milliseconds a timer waits: an integer from `min` to MAX_TIMER_MS. */
  timerMs(name: string, spec: Described<number> & { min: number }): Setting<number> {
    return this.add(name, spec.meaning, code(String(spec.default)), integerRange(spec.min, MAX_TIMER_MS, 'ms'), (raw, env) =>
      raw === undefined ? spec.default : timerLimit(name, env, parseInteger(name, raw, env, spec.min, Number.MAX_SAFE_INTEGER)),
    );
  }

  /** A size in bytes, written as bytes or with a unit (`50mb`). */
  bytes(name: string, spec: Described<number>): Setting<number> {
    return this.add(name, spec.meaning, code(formatSize(spec.default)), 'size', (raw, env) => (raw === undefined ? spec.default : parseSize(name, raw, env)));
  }

  /** A duration in milliseconds, written with a unit (`90s`, `24h`); `timer`: it becomes a timer, so at most MAX_TIMER_MS. */
  duration(name: string, spec: Described<number> & { minMs: number; timer?: boolean }): Setting<number> {
    const range = spec.timer ? `${formatDuration(spec.minMs)} to 24.8 days` : `at least ${formatDuration(spec.minMs)}`;
    const accepts = `duration, ${range}`;
    return this.add(name, spec.meaning, code(formatDuration(spec.default)), accepts, (raw, env) => {
      if (raw === undefined) return spec.default;
      const ms = parseDuration(name, raw, env, spec.minMs);
      return spec.timer ? timerLimit(name, env, ms) : ms;
    });
  }

  /** One of `choices`, case-insensitive. */
  choice<T extends string>(name: string, choices: readonly T[], spec: Described<T>): Setting<T> {
    return this.add(name, spec.meaning, code(spec.default), alternatives(choices), (raw, env) => {
      if (raw === undefined) return spec.default;
      const value = raw.toLowerCase();
      if (!(choices as readonly string[]).includes(value)) {
        throw new ConfigError(`${name} must be one of ${choices.map((c) => `"${c}"`).join(', ')}, got "${env[name]}"`);
      }
      return value as T;
    });
  }

  boolean(name: string, spec: Described<boolean>): Setting<boolean> {
    return this.add(name, spec.meaning, code(String(spec.default)), '`true` or `false`', (raw, env) => {
      if (raw === undefined) return spec.default;
      const value = raw.toLowerCase();
      if (TRUE_WORDS.includes(value)) return true;
      if (FALSE_WORDS.includes(value)) return false;
      throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
    });
  }

  /** An http(s) URL; the scheme may be left out (Ollama's own OLLAMA_HOST allows it), a trailing slash is dropped. */
  url(name: string, spec: Described<string>): Setting<string> {
    return this.add(name, spec.meaning, code(spec.default), 'http(s) URL', (raw) => parseHttpUrl(name, raw ?? spec.default));
  }

  /** An http(s) URL with no default. */
  optionalUrl(name: string, spec: { meaning: string; unset?: string }): Setting<string | undefined> {
    return this.add(name, spec.meaning, spec.unset ?? NONE, 'http(s) URL', (raw) => (raw === undefined ? undefined : parseHttpUrl(name, raw)));
  }

  /** Any text, trimmed; `emptyIsValue`: set but blank reads as '' rather than the default. */
  text(name: string, spec: Described<string> & { emptyIsValue?: boolean }): Setting<string> {
    return this.add(name, spec.meaning, code(spec.default), undefined, (raw) => raw ?? spec.default, spec.emptyIsValue);
  }

  /** Any text, trimmed; undefined when unset. */
  optionalText(name: string, spec: { meaning: string; unset?: string }): Setting<string | undefined> {
    return this.add(name, spec.meaning, spec.unset ?? NONE, undefined, (raw) => raw);
  }

  /**
   * Items separated by commas or lines; a line starting with # is a comment.
   * `item` checks and normalises each; `required` names what at least one item must be;
   * `emptyIsValue`: set but blank is a list of no items rather than the default.
   */
  list(name: string, spec: { meaning: string; default?: string[]; required?: string; item?: (item: string) => string; emptyIsValue?: boolean }): Setting<string[]> {
    const shown = spec.default === undefined ? NONE : code(spec.default.join(','));
    return this.add(
      name,
      spec.meaning,
      shown,
      'comma-separated',
      (raw) => {
        const items = raw === undefined ? [...(spec.default ?? [])] : readList(raw).map((item) => (spec.item ? spec.item(item) : item));
        if (spec.required && items.length === 0) throw new ConfigError(`${name} must name at least ${spec.required}`);
        return items;
      },
      spec.emptyIsValue,
    );
  }

  /** A value of a form of its own: `parse` reads the trimmed text and throws a ConfigError naming the variable. */
  parsed<T>(name: string, spec: { meaning: string; accepts: string; unset?: string; parse: (raw: string) => T }): Setting<T | undefined> {
    return this.add(name, spec.meaning, spec.unset ?? NONE, spec.accepts, (raw) => (raw === undefined ? undefined : spec.parse(raw)));
  }

  /** A variable set for Node or a library, unless set already, by what `by` names ('npm start', 'the image'); docshape never reads it. */
  outside(name: string, spec: { meaning: string; value: string; by: string[] }): SettingDoc {
    const shownDefault = `${code(spec.value)} (${spec.by.join(', ')})`;
    const doc: SettingDoc = { name, meaning: spec.meaning, shownDefault, accepts: undefined, readByDocshape: false, preset: { value: spec.value, by: spec.by } };
    this.register(doc);
    this.settings.push(doc);
    return doc;
  }

  /** `parse` gets the trimmed value, or undefined when the variable is unset or blank (only unset with `emptyIsValue`). */
  private add<T>(name: string, meaning: string, shownDefault: string, accepts: string | undefined, parse: (raw: string | undefined, env: Env) => T, emptyIsValue = false): Setting<T> {
    const value = emptyIsValue ? (env: Env) => env[name]?.trim() : (env: Env) => given(env[name]);
    const setting: Setting<T> = {
      name,
      meaning,
      shownDefault,
      accepts,
      readByDocshape: true,
      ...(emptyIsValue ? { emptyIsValue } : {}),
      given: (env) => given(env[name]) !== undefined,
      read: (env) => parse(value(env), env),
    };
    this.register(setting);
    this.settings.push(setting);
    return setting;
  }
}

const NONE = '(none)';
const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** The trimmed value; undefined when unset or blank (blank is unset for every setting). */
function given(raw: string | undefined): string | undefined {
  const trimmed = raw?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function valueOf<T>(value: Default<T>, env: Env): T {
  return isComputed(value) ? value.compute(env) : value;
}

function shownValue<T>(value: Default<T>, show: (value: T) => string): string {
  return isComputed(value) ? value.shown : code(show(value));
}

function isComputed<T>(value: Default<T>): value is Computed<T> {
  return typeof value === 'object' && value !== null && 'compute' in value;
}

function code(text: string): string {
  return `\`${text}\``;
}

function alternatives(choices: readonly string[]): string {
  const quoted = choices.map(code);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

function integerRange(min: number, max: number | undefined, unit: string | undefined): string {
  const range = max === undefined ? `at least ${min}` : `${min}-${max}`;
  return unit ? `${unit}, ${range}` : range;
}

/** `raw` trimmed; messages quote the value as given. */
function parseInteger(name: string, raw: string, env: Env, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${env[name]}"`);
  }
  return value;
}

/** `ms` of the setting `name`, refused when a timer cannot wait that long. */
function timerLimit(name: string, env: Env, ms: number): number {
  if (ms > MAX_TIMER_MS) throw new ConfigError(`${name} must be at most ${MAX_TIMER_MS} ms (24.8 days, the longest a timer can wait), got "${env[name]}"`);
  return ms;
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

function parseSize(name: string, raw: string, env: Env): number {
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(raw);
  const unit = SIZE_UNITS[(match?.[2] ?? '').toLowerCase()];
  if (!match || unit === undefined) throw new ConfigError(`${name} must be a size like 50mb or 1048576, got "${env[name]}"`);
  return Number(match[1]) * unit;
}

/** The largest unit that writes `bytes` exactly: 52428800 is 50mb. */
export function formatSize(bytes: number): string {
  for (const unit of ['gb', 'mb', 'kb'] as const) {
    const size = SIZE_UNITS[unit]!;
    if (bytes > 0 && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration like 24h, 30m, 90s or 500ms; a bare number is seconds. */
function parseDuration(name: string, raw: string, env: Env, minMs: number): number {
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/i.exec(raw);
  const ms = match ? Number(match[1]) * (DURATION_UNITS[(match[2] ?? 's').toLowerCase()] ?? 1000) : NaN;
  if (!Number.isSafeInteger(ms) || ms < minMs) throw new ConfigError(`${name} must be a duration of at least ${minMs} ms like 24h, 30m or 90s, got "${env[name]}"`);
  return ms;
}

/** The largest unit that writes `ms` exactly: 86400000 is 1d. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = DURATION_UNITS[unit]!;
    if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

function parseHttpUrl(name: string, raw: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return withScheme.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL like http://127.0.0.1:11434, got "${raw}"`);
  }
}

/** Items separated by commas or lines, blanks dropped; a comment line goes whole (split at its commas, its tail would become an item). */
export function readList(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .flatMap((line) => line.split(','))
    .map((item) => item.trim())
    .filter((item) => item.length > 0 && !item.startsWith('#'));
}
