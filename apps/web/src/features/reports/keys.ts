/** GET algorithm/measurement-fields, the catalogue the report field calculations read (not one ship's fields). */
export const measurementFieldCatalogueKeys = {
  all: ['algorithm-measurement-fields'] as const,
};
