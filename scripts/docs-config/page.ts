/**
 * docs/configuration.md, made from the setting table (SETTINGS in
 * src/config.ts): the page changes only when a setting does.
 */
import { SETTINGS } from '../../src/config.js';
import { MAX_TIMER_MS, type SettingDoc, type SettingGroup } from '../../src/util/settings.js';

/** Where the page is, from the repository's root. */
export const CONFIGURATION_PAGE = 'docs/configuration.md';

const intro = (emptyIsValue: readonly string[]): string => `docshape is configured by environment variables only, read and checked once
at start. Give them to the process that starts it:

* \`npm start\` (and \`node dist/src/main.js\`) read them from their environment:
  \`PORT=9000 OCR_LANGS=eng,deu npm start\`.
* \`npx docshape extract\` reads the same ones (engine, OCR, limits).
* Docker: \`docker run -e PORT=9000 ...\` or \`--env-file\`. The compose files set
  them under \`environment:\`, some taken from your shell or \`.env\`
  (\`DOCSHAPE_API_KEYS\`, \`OLLAMA_MODEL\`).
* Kubernetes: the ConfigMap \`deploy/kubernetes/docshape-config.yaml\`, keys from
  a Secret through \`API_KEYS_FILE\`.

A value docshape cannot take stops the start with a message naming the
variable. An empty value is the same as an unset one${emptyIsValue.length === 0 ? '' : `, except for ${alternatives(emptyIsValue, 'and')}, which read it as written`}. Choices and true/false
ignore case; true/false also take \`1\`/\`0\`, \`yes\`/\`no\`, \`on\`/\`off\`. A size
is bytes or \`512kb\`, \`50mb\`, \`1gb\`; a duration is \`500ms\`, \`90s\`, \`30m\`,
\`24h\` or \`7d\`, a bare number being seconds. A time limit that becomes a timer
is at most ${MAX_TIMER_MS} ms (24.8 days): Node would fire a longer one at
once, so a huge value meant as "no limit" is refused.`;

export function configurationPage(groups: readonly SettingGroup[] = SETTINGS.groups): string {
  const contents = groups.map((group) => `[${group.title}](#${anchor(group.title)})`).join(' · ');
  const sections = groups.map((group) =>
    [`## ${group.title}`, '', group.about, '', '| setting | default | meaning |', '|---|---|---|', ...group.settings.map(row)].join('\n'),
  );
  return [
    '# Configuration',
    '',
    '<!-- Made by `npm run docs:config` from SETTINGS in src/config.ts: change a setting there, then run it. -->',
    '',
    intro(groups.flatMap((group) => group.settings.filter((setting) => setting.emptyIsValue).map((setting) => `\`${setting.name}\``))),
    '',
    contents,
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}

/** `a`, `a and b`, `a, b and c`. */
function alternatives(items: readonly string[], word: string): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)}`;
}

function row(setting: SettingDoc): string {
  const meaning = setting.accepts === undefined ? setting.meaning : `${setting.meaning} — ${setting.accepts}`;
  return `| \`${setting.name}\` | ${cell(setting.shownDefault)} | ${cell(meaning)} |`;
}

/** One line of a table cell: a pipe would end the cell. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** The fragment GitHub gives a heading: lower case, spaces to hyphens, other punctuation dropped. */
function anchor(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
}
