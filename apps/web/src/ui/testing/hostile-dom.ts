// Test helpers for hostile text reaching the DOM (docs/security.md, "HTML"). Used by the jsdom tests only.

/** Texts that would run script if a component put them into the page as HTML. Each sets window.__pwned. */
export const HOSTILE_TEXTS = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<a href="javascript:window.__pwned = \'link\'">open</a>',
  '<a href=" JaVaScRiPt&colon;window.__pwned=1">entity link</a>',
  '<svg onload="window.__pwned = \'svg\'"><circle r="1"/></svg>',
  // Mutation XSS: harmless as parsed once, an <img onerror> once the noscript is re-parsed.
  '<noscript><p title="</noscript><img src=x onerror=window.__pwned=\'mxss\'>">',
  "<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned='math'>",
  '"><iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  "'; drop table users; -- %_\\",
  // Issue 14: markup and entities that a stripping or decoding step would have changed are shown as typed.
  '<foo val="bar" />',
  '&lt;script&gt;',
] as const;

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

const URL_ATTRIBUTES = ['href', 'src', 'xlink:href', 'action', 'formaction', 'data', 'srcdoc'];

/** A URL as a browser reads it: control characters and spaces dropped, case ignored. */
const scriptUrl = (value: string) =>
  /^javascript:/i.test([...value].filter((c) => c.charCodeAt(0) > 0x20).join(''));

/**
 * What in `root` (and the root itself) could run script: script, iframe, object and embed elements, on*
 * attributes and javascript: URLs. Empty when the DOM is inert.
 */
export function activeContent(root: Element): string[] {
  const found: string[] = [];
  for (const element of [root, ...root.querySelectorAll('*')]) {
    const tag = element.tagName.toLowerCase();
    if (['script', 'iframe', 'object', 'embed', 'frame'].includes(tag)) found.push(`<${tag}> element`);
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on')) found.push(`${name} attribute on <${tag}>`);
      if (URL_ATTRIBUTES.includes(name) && scriptUrl(attribute.value))
        found.push(`javascript: URL in ${name} of <${tag}>`);
      if (name === 'srcdoc') found.push(`srcdoc attribute on <${tag}>`);
    }
  }
  return found;
}
