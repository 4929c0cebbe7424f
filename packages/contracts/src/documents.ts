import { z } from 'zod';
import { userText } from './forms/text';

/** A service document of a ship (spec part 2 section 3), with the ship it belongs to. Dates are UTC ISO strings. */
export const facilityDocumentSchema = z.object({
  fileRef: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  docType: z.string().nullable(),
  visitOrActionDate: z.string().nullable(),
  docDate: z.string().nullable(),
  expiry: z.string().nullable(),
  equipmentTag: z.string().nullable(),
  facilityId: z.string(),
  facilityName: z.string(),
  uploadedOn: z.string(),
});
export type FacilityDocument = z.infer<typeof facilityDocumentSchema>;

export const DOCUMENT_MESSAGES = {
  fileRequired: 'Choose a file to upload',
  invalidDate: 'Must be a valid date',
  notFound: 'Document not found',
  deleted: 'Document was deleted successfully!',
  deleteConfirmation: (fileName: string) => `Delete the document "${fileName}"? It cannot be restored.`,
} as const;

const optionalDate = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v),
  z
    .string()
    .nullable()
    .refine((v) => v === null || !Number.isNaN(new Date(v).getTime()), DOCUMENT_MESSAGES.invalidDate)
    .transform((v) => (v === null ? null : new Date(v).toISOString())),
);
const optionalText = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || null : (v ?? null)),
  userText().max(200).nullable(),
);

/** The fields sent with a document upload (multipart form fields). */
export const documentFieldsSchema = z.object({
  docType: optionalText,
  visitOrActionDate: optionalDate,
  docDate: optionalDate,
  expiry: optionalDate,
  equipmentTag: optionalText,
});
export type DocumentFields = z.input<typeof documentFieldsSchema>;

export const documentDownloadBodySchema = z.object({ fileRef: z.string().min(1) });
export const documentUploadParamsSchema = z.object({ id: z.string() });
/** DELETE facilities/documents/{fileId} (SystemAdmin): fileId is the `fileId` of the list (not the download's fileRef). */
export const documentDeleteParamsSchema = z.object({ fileId: z.string() });

/** The message a new document leaves for the ship's users; shown for 30 days. */
export const DOCUMENT_MESSAGE_TYPE = 'FacilityDocuments';
export const DOCUMENT_MESSAGE_DAYS = 30;
export const newDocumentMessage = (shipName: string, fileName: string) => ({
  title: 'New service document',
  text: `A new service document for ${shipName} is available: ${fileName}`,
});
