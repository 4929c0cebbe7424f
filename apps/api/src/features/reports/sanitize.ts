import sanitizeHtml from 'sanitize-html';

/**
 * A report's information is HTML from the rich-text editor: only what the editor makes survives
 * (bold, italic, underline, headings 1-3, lists, rule, paragraphs, breaks), without any attribute.
 */
export function sanitizeInformation(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['b', 'strong', 'i', 'em', 'u', 'h1', 'h2', 'h3', 'ul', 'ol', 'li', 'hr', 'p', 'br'],
    allowedAttributes: {},
    disallowedTagsMode: 'discard',
  }).trim();
}
