import { formatByteSize, packPeriodLabel } from '@portal/contracts/rules';

/** The e-mail of a ready monthly pack: subject, plain text and HTML, with the link to the ship's packs. */
export interface PackMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The page of the ship's packs with this one picked out: the portal signs the reader in first when needed. */
export const packLink = (baseUrl: string, facilityId: string, packId: string) =>
  `${baseUrl.replace(/\/+$/, '')}/facilities/${encodeURIComponent(facilityId)}/inspection-packs?pack=${encodeURIComponent(packId)}`;

const WHY =
  "You receive this because your organization's monthly inspection pack of this ship names you (the ship's Inspection packs page).";

export function composePackMail(pack: {
  shipName: string;
  imo: string | null;
  period: { from: string; to: string };
  originals: number;
  zipBytes: number;
  pdfSha256: string;
  link: string;
}): PackMail {
  const label = packPeriodLabel(pack.period);
  const subject = `Inspection pack of ${pack.shipName}, ${label}`;
  const ship = `${pack.shipName}${pack.imo ? ` (IMO ${pack.imo})` : ''}`;
  const summary = `The inspection pack of ${ship} for ${label} is ready: the PDF and ${pack.originals} original logger ${pack.originals === 1 ? 'file' : 'files'} with their manifest, ${formatByteSize(pack.zipBytes)} in one zip.`;
  const text = [
    summary,
    '',
    `Download it in the portal: ${pack.link}`,
    '',
    `SHA-256 of the PDF: ${pack.pdfSha256}`,
    '',
    WHY,
    '',
  ].join('\n');
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;max-width:640px"><h1 style="font-size:18px">${escapeHtml(subject)}</h1><p>${escapeHtml(summary)}</p><p><a href="${escapeHtml(pack.link)}">Download the inspection pack</a></p><p style="font-size:13px;color:#333">SHA-256 of the PDF: <code>${escapeHtml(pack.pdfSha256)}</code></p><p style="color:#555;font-size:12px;margin-top:24px">${escapeHtml(WHY)}</p></body></html>`;
  return { subject, text, html };
}
