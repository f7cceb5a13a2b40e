/**
 * Currencies as documents print them: ISO 4217 codes ("EUR") and the signs
 * that name one currency only ("€" is EUR; "$" and "¥" name several, so they
 * stay as printed and never become a code by guess).
 */
// ISO 4217 codes in use (2024), without the fund and metal codes.
const ISO_4217 = new Set(
  ('AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF ' +
    'CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG ' +
    'HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA ' +
    'MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD ' +
    'RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX ' +
    'USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL').split(' '),
);

/** Signs and local abbreviations that belong to one currency. */
const SIGN_CODES: Record<string, string> = {
  '€': 'EUR', '£': 'GBP', '₹': 'INR', '₩': 'KRW', '₽': 'RUB', '₺': 'TRY', '฿': 'THB', '₫': 'VND', '₱': 'PHP',
  '₴': 'UAH', '₦': 'NGN', '₪': 'ILS', 'RM': 'MYR', 'US$': 'USD', 'C$': 'CAD', 'A$': 'AUD', 'NZ$': 'NZD', 'S$': 'SGD',
  'HK$': 'HKD', 'R$': 'BRL', 'zł': 'PLN', 'Kč': 'CZK',
};

/**
 * Codes that are also words: a currency only beside an amount ("ALL ITEMS" is
 * no Albanian lek). Among them words that name companies and places: "BHD"
 * is Malaysia's legal form Berhad ("SDN BHD" heads most of its receipts), no
 * Bahraini dinar; "SAR" is "Hong Kong SAR", no Saudi riyal.
 */
const WORDLIKE_CODES = new Set(['ALL', 'TOP', 'PEN', 'CUP', 'MOP', 'TRY', 'SOS', 'BOB', 'MAD', 'NAD', 'GEL', 'ERN', 'BAM', 'GIP', 'LAK', 'AMD', 'BIF', 'DOP', 'FKP', 'HNL', 'GYD', 'BHD', 'SAR']);

/** The ISO code a printed mention names, when it names exactly one currency. */
export function currencyCode(printed: string): string | undefined {
  return ISO_4217.has(printed) ? printed : SIGN_CODES[printed];
}

/** "ALL", "TOP", "PEN": codes that are also words, a currency only beside an amount. */
export function isWordlikeCode(printed: string): boolean {
  return WORDLIKE_CODES.has(printed);
}

/** Whether the value is an ISO 4217 code (what a schema asking for a "code" wants). */
export function isCurrencyCode(value: unknown): boolean {
  return typeof value === 'string' && ISO_4217.has(value);
}
