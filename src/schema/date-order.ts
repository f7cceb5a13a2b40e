/**
 * Which way round a numeric date is read when both readings are dates
 * ("03/04/2024": 3 April or March 4). DATE_ORDER sets it for the service,
 * a request's `options.dateOrder` for one request; `auto` lets the document
 * decide: a date whose numbers leave no doubt ("25/03/2024", "03/25/2024")
 * elsewhere in it settles the order for all its dates. A document with no
 * such date (or as many each way) gets DATE_ORDER_FALLBACK. This is settled
 * once per request, in runExtraction (in turns: resolvingDateOrder), and
 * handed to the engine and to finalize; nothing else decides it.
 */
import type { DateOrderSetting } from '../config.js';
import type { Document } from '../document/document.js';
import { countDateOrders } from './dates.js';
import { runSync, type PacedWork } from '../util/paced.js';

export type { DateOrderSetting } from '../config.js';
export type DateOrder = Exclude<DateOrderSetting, 'auto'>;

export function resolveDateOrder(setting: DateOrderSetting, fallback: DateOrder, document: Document): DateOrder {
  return runSync(resolvingDateOrder(setting, fallback, document));
}

/**
 * resolveDateOrder as paced work, a unit per line: a page of 50,000 one-word
 * lines (a 100,000-character line pdf.js cut into words that stack) took the
 * event loop 40 ms in one go.
 */
export function* resolvingDateOrder(setting: DateOrderSetting, fallback: DateOrder, document: Document): PacedWork<DateOrder> {
  if (setting !== 'auto') return setting;
  let dayFirst = 0;
  let monthFirst = 0;
  for (const file of document.files) {
    for (const page of file.pages) {
      for (const line of page.lines) {
        const counts = countDateOrders(line.text);
        dayFirst += counts.dayFirst;
        monthFirst += counts.monthFirst;
        yield;
      }
    }
  }
  if (dayFirst === monthFirst) return fallback;
  return dayFirst > monthFirst ? 'dmy' : 'mdy';
}

/** The form the date readers take it in. */
export function isDayFirst(order: DateOrder): boolean {
  return order === 'dmy';
}
