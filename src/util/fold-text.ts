/**
 * Text reduced to what compares when a value is looked for in a document:
 * letters and digits, lower case, accents and punctuation gone. Done
 * character by character, so that a position in the folded text can be
 * traced back ("Σ" folds to "σ" wherever it stands, as "ς" does).
 */
export function foldCharacter(character: string): string {
  return character.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]/gu, '').replace(/ς/g, 'σ');
}

/** "ACME  Corp." and "acme corp" fold to the same "acmecorp". */
export function foldText(text: string): string {
  let folded = '';
  for (const character of text) folded += foldCharacter(character);
  return folded;
}
