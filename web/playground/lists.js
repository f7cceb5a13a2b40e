// Arrays of objects in an answer (line items, transactions) shown as tables:
// a row per item, a column per property (a nested object's as "a.b"), each
// cell with its value's confidence when the answer has evidence.

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function escapePointer(key) {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Whether the value is a list a table shows: items, every one an object. */
export function isListOfObjects(value) {
  return Array.isArray(value) && value.length > 0 && value.every(isObject);
}

/** Every list of objects in the answer, outside another list's items: [{pointer, path, items}]. */
export function listsIn(value, pointer = '', path = '') {
  if (isListOfObjects(value)) return [{ pointer, path, items: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => listsIn(item, `${pointer}/${i}`, `${path}[${i}]`));
  if (isObject(value)) return Object.entries(value).flatMap(([key, item]) => listsIn(item, `${pointer}/${escapePointer(key)}`, path ? `${path}.${key}` : key));
  return [];
}

/** The columns of a list: each leaf of its items as a path of keys (objects opened, lists kept whole), in the order first seen. */
function columnsOf(items) {
  const columns = new Map();
  const walk = (value, keys) => {
    if (isObject(value) && (keys.length === 0 || Object.keys(value).length > 0)) {
      for (const [key, item] of Object.entries(value)) walk(item, [...keys, key]);
      return;
    }
    const label = keys.join('.');
    if (!columns.has(label)) columns.set(label, keys);
  };
  for (const item of items) walk(item, []);
  return [...columns.values()];
}

function valueAt(item, keys) {
  let value = item;
  for (const key of keys) value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  return value;
}

function shown(value) {
  if (value === undefined || value === null) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * A table of the list's items. `explain(cell, pointer)` adds what the answer's
 * evidence says of the value at that JSON Pointer (its confidence, its box on
 * hover and click) and returns whether there was any.
 */
export function listTable(list, explain) {
  const columns = columnsOf(list.items);
  const table = document.createElement('table');
  table.className = 'list';
  table.dataset.pointer = list.pointer;
  table.createCaption().textContent = `${list.path || '(root)'} (${list.items.length} ${list.items.length === 1 ? 'item' : 'items'})`;
  table.createTHead().insertRow().append(Object.assign(document.createElement('th'), { textContent: '#' }), ...columns.map((keys) => Object.assign(document.createElement('th'), { textContent: keys.join('.') })));
  const body = table.createTBody();
  list.items.forEach((item, row) => {
    const tr = document.createElement('tr');
    tr.append(Object.assign(document.createElement('th'), { textContent: String(row), scope: 'row' }));
    for (const keys of columns) {
      const value = valueAt(item, keys);
      const cell = document.createElement('td');
      cell.dataset.pointer = `${list.pointer}/${row}${keys.map((key) => `/${escapePointer(key)}`).join('')}`;
      const text = Object.assign(document.createElement('span'), { className: 'value', textContent: shown(value) });
      if (value === undefined || value === null) text.classList.add('muted');
      cell.append(text);
      explain(cell, cell.dataset.pointer);
      tr.append(cell);
    }
    body.append(tr);
  });
  return table;
}
