/** A first look at bytes declared as XML, for decode.ts and the search among a PDF's attachments. */

/** Bytes that may be XML: a byte-order mark or optional white space, then "<". */
export function looksLikeXml(bytes: Uint8Array): boolean {
  let at = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) at = 3;
  else if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  while (at < bytes.length && at < 4096 && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)) at++;
  return bytes[at] === 0x3c;
}
