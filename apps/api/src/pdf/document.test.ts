import { describe, expect, it } from 'vitest';
import { PortalPdf } from './document';
import { hasPoppler, hasQpdf, pdfText, qpdfCheck } from './testing';

const NAMES = {
  polish: 'Łukasz Wójcik, Świnoujście',
  turkish: 'Şebnem Çağlar, İzmit Körfezi',
  greek: 'Γιώργος Παπαδόπουλος, Πειραιάς',
  cyrillic: 'Ольга Иванова, Новороссийск',
  chinese: '王小明，宁波舟山港',
};

describe('PortalPdf', () => {
  it.skipIf(!hasPoppler)(
    'writes names in every script so that a reader gets them back as written',
    async () => {
      const pdf = new PortalPdf();
      for (const name of Object.values(NAMES)) pdf.text(name);
      pdf.text('Bold: Μ/V Αθηνά 🚢', { bold: true });
      const bytes = await pdf.finish();
      const text = pdfText(bytes);
      for (const name of Object.values(NAMES)) expect(text).toContain(name);
      expect(text).toContain('Bold: Μ/V Αθηνά');
      // Subsetted: five scripts and an emoji stay far below the 10 MB of the CJK font.
      expect(bytes.length).toBeLessThan(200_000);
    },
  );

  it.skipIf(!hasQpdf)('is a PDF qpdf finds no error in', async () => {
    const pdf = new PortalPdf();
    pdf.text(NAMES.chinese);
    expect(qpdfCheck(await pdf.finish())).toContain('No syntax or stream encoding errors');
  });

  it('embeds its fonts: no unembedded standard font (Helvetica) is left in the file', async () => {
    const pdf = new PortalPdf();
    pdf.text(NAMES.polish);
    const raw = (await pdf.finish()).toString('latin1');
    expect(raw).toContain('/FontFile2');
    expect(raw).not.toContain('/Helvetica');
  });
});
